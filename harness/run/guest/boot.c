/* One guest boot as a process, and the protocol of a shared boot (boot.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/guest/boot.h"
#include "run/guest/snapshot.h"
#include "run/plan/qemu_argv.h"

pid_t boot_spawn(char *const argv[], const char *log, const char *state)
{
	pid_t pid, parent = getpid();
	sigset_t none;
	int fd;

	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "error: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid) {
		setpgid(pid, pid);	/* also here: no window where a kill misses it */
		return pid;
	}
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)	/* the harness died before prctl */
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, 0);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (state) {	/* -incoming fd:QEMU_STATE_FD (run/plan/qemu_argv.h) */
		fd = open(state, O_RDONLY);
		if (fd < 0 || (fd != QEMU_STATE_FD && dup2(fd, QEMU_STATE_FD) < 0)) {
			fprintf(stderr, "error: the saved guest %s: %s\n", state, strerror(errno));
			_exit(127);
		}
		if (fd != QEMU_STATE_FD)
			close(fd);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static const char *const monitor_fifos[] = { "qmp.in", "qmp.out", NULL };

int boot_monitor_make(const char *log_dir)
{
	char p[PATH_MAX + 16];

	for (const char *const *f = monitor_fifos; *f; f++) {
		snprintf(p, sizeof(p), "%s/%s", log_dir, *f);
		unlink(p);
		if (mkfifo(p, 0600))
			return -1;
	}
	return 0;
}

void boot_monitor_remove(const char *log_dir)
{
	char p[PATH_MAX + 16];

	for (const char *const *f = monitor_fifos; *f; f++) {
		snprintf(p, sizeof(p), "%s/%s", log_dir, *f);
		unlink(p);
	}
}

pid_t boot_spawn_guest(char *const argv[], const char *log, const char *state, const char *dir,
			const char *group)
{
	pid_t pid;

	if (!state)
		return boot_spawn(argv, log, NULL);
	if (snapshot_ctl_make(dir)) {
		fprintf(stderr, "error: cannot make %s/ctl: %s\n", dir, strerror(errno));
		return -1;
	}
	pid = boot_spawn(argv, log, state);
	if (pid > 0 && snapshot_wake(dir, group, pid)) {
		boot_kill_group(pid);
		return -1;
	}
	return pid;
}

int boot_kill_group(pid_t pid)
{
	int st;

	kill(-pid, SIGTERM);
	/* QEMU leaves within ~0.1 s of SIGTERM: looked for every 10 ms, 3 s at most. */
	for (int i = 0; i < 300; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		usleep(10000);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

int boot_decode_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return -WTERMSIG(st);
	return -1;
}

static void boot_file(const struct boot *b, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", b->dir, name);
}

void boot_console_path(const struct boot *b, char *path, size_t len)
{
	boot_file(b, "console.log", path, len);
}

int boot_start(struct boot *b, const char *out, const char *name, const char *key,
	       const struct strv *argv, const char *state)
{
	char path[PATH_MAX + 32], *text;
	size_t len = 2;
	pid_t pid;
	int rc;

	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->key, sizeof(b->key), "%s", key);
	if (snprintf(b->dir, sizeof(b->dir), "%s/" BOOTS_DIR "/%s", out, name) >= (int)sizeof(b->dir))
		return -1;
	/* A boot of this name from an interrupted run: its commands must not replay. */
	if (remove_tree(b->dir) || mkdir_p(b->dir)) {
		fprintf(stderr, "error: cannot make %s: %s\n", b->dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < argv->n; i++)
		len += strlen(argv->v[i]) + 1;
	text = calloc(1, len);
	if (!text)
		return -1;
	for (size_t i = 0; i < argv->n; i++) {
		strcat(text, argv->v[i]);
		strcat(text, "\n");
	}
	boot_file(b, "qemu.argv", path, sizeof(path));
	rc = write_file_atomic(path, text, strlen(text));
	free(text);
	if (rc)
		return -1;
	if (boot_monitor_make(b->dir)) {
		fprintf(stderr, "error: cannot make the QMP FIFOs in %s: %s\n", b->dir, strerror(errno));
		return -1;
	}
	boot_file(b, "qemu.log", path, sizeof(path));
	b->t0 = now_mono();
	pid = boot_spawn_guest(argv->v, path, state, b->dir, name);
	/* Never -1: boot_stop would signal process group 1. */
	b->pid = pid > 0 ? pid : 0;
	b->reusable = true;
	return b->pid ? 0 : -1;
}

int boot_send(struct boot *b, const char *cell_id)
{
	char path[PATH_MAX + 32], line[256];
	int n = b->cells + 1;

	snprintf(path, sizeof(path), "%s/cmd.%d", b->dir, n);
	snprintf(line, sizeof(line), "%s\n", cell_id);
	/* Atomic: the guest polls for a non-empty file and reads it whole. */
	if (write_file_atomic(path, line, strlen(line))) {
		fprintf(stderr, "error: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	b->cells = n;
	return n;
}

int boot_cell_status(const struct boot *b, int n, int *status, char *state, size_t len)
{
	char path[PATH_MAX + 32], *text, st[64];
	bool any_cell = false;
	int found = 0, k, v;

	boot_file(b, "exit_status", path, sizeof(path));
	text = read_file(path, NULL);
	if (!text)
		return 0;
	for (char *l = text; l && *l && !found; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (sscanf(l, "cell %d %d %63s", &k, &v, st) == 3) {
			any_cell = true;
			if (k == n) {
				*status = v;
				snprintf(state, len, "%s", st);
				found = 1;
			}
		} else if (!any_cell && n == 1 && sscanf(l, "%d", &v) == 1) {
			*status = v;
			snprintf(state, len, "init");
			found = 1;
		}
	}
	free(text);
	return found;
}

/* The console from con_off on (NUL-terminated), its length in *len. */
static char *read_tail(const struct boot *b, long long *len)
{
	char path[PATH_MAX + 32], *buf;
	struct stat st;
	long long n;
	int fd;

	boot_console_path(b, path, sizeof(path));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < b->con_off || !(buf = malloc(st.st_size - b->con_off + 1))) {
		close(fd);
		return NULL;
	}
	n = pread(fd, buf, st.st_size - b->con_off, b->con_off);
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

long long boot_cell_cut(const struct boot *b, int n)
{
	char mark[64], *text, *at, *eol;
	long long len, cut = -1;

	snprintf(mark, sizeof(mark), "htab-group: cell %d done", n);
	text = read_tail(b, &len);
	if (!text)
		return -1;
	at = memmem(text, len, mark, strlen(mark));
	if (at && (eol = memchr(at, '\n', len - (at - text))))
		cut = b->con_off + (eol + 1 - text);
	free(text);
	return cut;
}

long long boot_console_size(const struct boot *b)
{
	char path[PATH_MAX + 32];
	struct stat st;

	boot_console_path(b, path, sizeof(path));
	return stat(path, &st) ? 0 : st.st_size;
}

int boot_split_console(struct boot *b, long long cut, const char *path)
{
	long long len;
	char *text = read_tail(b, &len);
	int rc;

	if (!text)
		return write_file_atomic(path, "", 0);
	if (cut >= b->con_off && cut - b->con_off < len)
		len = cut - b->con_off;
	rc = write_file_atomic(path, text, len);
	b->con_off += len;
	free(text);
	return rc;
}

void boot_stop(struct boot *b)
{
	if (!b->pid)
		return;
	/*
	 * Its cells' results are in (their files, console parts and cell.json):
	 * nothing the guest does from here on is recorded, so QEMU goes now
	 * instead of after the guest's poweroff (0.3-0.6 s a boot under TCG).
	 */
	boot_kill_group(b->pid);
	b->pid = 0;
	boot_monitor_remove(b->dir);
}
