/* Reports decoded off the scheduler's path (see decode_queue.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/decode_queue.h"
#include "run/plan/ctx.h"
#include "run/record/cell_json.h"

static void start_next(struct decode_queue *q)
{
	const struct decode_job *j;
	struct decode_kernel dk;
	pid_t pid;

	if (q->pid || q->next >= q->n)
		return;
	j = &q->jobs[q->next++];
	dk = kernel_decode_of(j->k);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		char err[PATH_MAX + 128];
		int rc;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		rc = cell_json_decode(q->root, &dk, j->dir, err, sizeof(err));
		if (rc)
			fprintf(stderr, "warning: decoding %s: %s\n", j->dir, err);
		_exit(rc ? 1 : 0);
	}
	if (pid < 0) {
		fprintf(stderr, "warning: cannot fork to decode %s: %s (left decode_pending)\n",
			j->dir, strerror(errno));
		q->failed++;
		return;
	}
	q->pid = pid;
}

int decode_queue_add(struct decode_queue *q, const char *dir, const struct kernel_res *k)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 8;
		struct decode_job *v = realloc(q->jobs, cap * sizeof(*v));

		if (!v)
			return -1;
		q->jobs = v;
		q->cap = cap;
	}
	q->jobs[q->n].dir = strdup(dir);
	if (!q->jobs[q->n].dir)
		return -1;
	q->jobs[q->n++].k = k;
	start_next(q);
	return 0;
}

/* Collects the running child; wait: block until it ends. True when none runs now. */
static bool reap(struct decode_queue *q, bool wait)
{
	int st;
	pid_t r;

	if (!q->pid)
		return true;
	do
		r = waitpid(q->pid, &st, wait ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return false;
	if (r < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		q->failed++;
	q->pid = 0;
	return true;
}

void decode_queue_poll(struct decode_queue *q)
{
	if (reap(q, false))
		start_next(q);
}

void decode_queue_finish(struct decode_queue *q, bool stop)
{
	if (stop && q->pid)
		kill(q->pid, SIGKILL);
	while (reap(q, true) && !stop && q->next < q->n)
		start_next(q);
}

void decode_queue_free(struct decode_queue *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->jobs[i].dir);
	free(q->jobs);
	memset(q, 0, sizeof(*q));
}
