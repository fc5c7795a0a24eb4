/* Running a program and waiting for it (see spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/spawn.h"

static void child(char *const argv[], const struct spawn_opts *o, int out_fd, pid_t parent)
{
	if (o && o->die_with_parent &&
	    (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
		_exit(126);
	if (o && o->dir && chdir(o->dir))
		_exit(126);
	if (o && (o->null_stdin || o->in)) {
		int null = open(o->in ? o->in : "/dev/null", O_RDONLY);

		if (null < 0)
			_exit(126);
		dup2(null, 0);
	}
	if (o && o->log) {
		int fd = open(o->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (out_fd >= 0)
		dup2(out_fd, 1);
	execvp(argv[0], argv);
	fprintf(stderr, "error: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* All of fd until EOF into a malloc'd string. */
static char *read_all(int fd)
{
	size_t len = 0, cap = 4096;
	char *out = malloc(cap);
	ssize_t n;

	while (out && (n = read(fd, out + len, cap - len - 1)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)n;
		if (cap - len < 2) {
			char *o = realloc(out, cap *= 2);

			if (!o) {
				free(out);
				return NULL;
			}
			out = o;
		}
	}
	if (out)
		out[len] = '\0';
	return out;
}

int spawn_run(char *const argv[], const struct spawn_opts *o, char **captured)
{
	int fds[2] = { -1, -1 }, st;
	char *out = NULL;
	pid_t pid, parent = getpid();

	if (captured && pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (captured)
			close(fds[0]);
		child(argv, o, fds[1], parent);
	}
	if (captured) {
		close(fds[1]);
		if (pid > 0)
			out = read_all(fds[0]);
		close(fds[0]);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			free(out);
			return -1;
		}
	if (captured)
		*captured = out;
	else
		free(out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
