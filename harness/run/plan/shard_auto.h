/*
 * `run --shard auto`: the shard I/N from the scheduler this process runs
 * under, read from its environment (harness/FORMAT.md, "Shards from a
 * scheduler"; job files in harness/jobs/).
 */
#ifndef HT_SHARD_AUTO_H
#define HT_SHARD_AUTO_H
#include <stddef.h>

#define SHARD_MAX 10000		/* the largest N of --shard I/N */

/*
 * The first scheduler of the table whose variable is set gives I (1-based)
 * and N; env is getenv (tests pass their own). 0: *i, *n set and msg holds
 * the line to print ("shard 3/8 from Slurm (SLURM_ARRAY_TASK_ID=7, ...)");
 * -1: msg holds the error ("--shard auto: ..."), naming the variables read,
 * their values and what is valid. One line either way, without '\n'.
 */
int shard_auto(char *(*env)(const char *), int *i, int *n, char *msg, size_t msglen);
#endif
