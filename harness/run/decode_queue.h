/*
 * Decoding finished cells' reports apart from the scheduler: a kernel with
 * line tables takes seconds of decode_stacktrace.sh a report (9–11 s with
 * the sanitizers flavour under TCG), and the scheduler's loop must go on
 * following the other cells' consoles and deadlines meanwhile. One child
 * process at a time (it competes with the guests for host CPU as the
 * scheduler itself did) runs cell_json_decode (run/record/cell_json.h) on
 * one cell; the others wait in order. The run waits for the queue before
 * its summary. A cell left "decode_pending" by a killed run is queued again
 * when the run is resumed.
 */
#ifndef HT_DECODE_QUEUE_H
#define HT_DECODE_QUEUE_H
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct kernel_res;

struct decode_job {
	char *dir;			/* the cell's directory */
	const struct kernel_res *k;	/* the run's: outlives the queue */
};

struct decode_queue {
	const char *root;
	struct decode_job *jobs;
	size_t n, cap, next;		/* jobs[next ..] wait; jobs[next - 1] runs when pid */
	pid_t pid;
	int failed;			/* children that did not exit 0 */
};

/* Queues dir's decoding (and starts it if nothing runs); 0, -1 on no memory. */
int decode_queue_add(struct decode_queue *q, const char *dir, const struct kernel_res *k);
/* Reaps a finished child and starts the next; never blocks. */
void decode_queue_poll(struct decode_queue *q);
/* Runs what is left to its end (stop: kills what runs, starts nothing more). */
void decode_queue_finish(struct decode_queue *q, bool stop);
void decode_queue_free(struct decode_queue *q);
#endif
