/*
 * --shard auto: one table of schedulers, each with the variable that says
 * the process runs under it, the variables it reads and how they make I/N;
 * the first row whose marker is set decides, the others are not read.
 *
 * The order: Slurm and Kubernetes set their index for each task
 * themselves, while HTAB_SHARD_INDEX is set by a job file or a user and can
 * leak into another scheduler's job (sbatch exports the submitting shell's
 * environment by default), so a scheduler's own index wins over ours.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/plan/shard_auto.h"

#define NVARS 5
#define VALUE_MAX 1000000000L	/* far above any array index; keeps the arithmetic in a long */

/* One variable as read: text NULL when unset; v its value once checked. */
struct var {
	const char *name, *text;
	long v;
};

struct scheduler {
	const char *name;		/* in the line printed */
	const char *marker;		/* set (to marker_value unless NULL): this process runs under it */
	const char *marker_value;
	const char *vars[NVARS + 1];	/* read, in this order, NULL-ended */
	int nrequired;			/* vars[0 .. nrequired-1] must be set; the rest are optional */
	const char *who_sets;		/* where the variables come from, for an error */
	/* I (1-based) and N from the variables; else -1 and what is valid in why. */
	int (*shard)(const struct var *v, int *i, int *n, char *why, size_t whylen);
};

/*
 * Slurm job array (sbatch --array=MIN-MAX[:STEP]): tasks MIN, MIN+STEP, ...
 * are shards 1, 2, ... of COUNT. A list array (--array=1,3,8) has no such
 * order: its MAX is not MIN + (COUNT-1)*STEP, so it is refused when MAX is
 * set; STEP unset is 1, MAX unset is not checked.
 */
static int slurm_shard(const struct var *v, int *i, int *n, char *why, size_t whylen)
{
	long id = v[0].v, min = v[1].v, count = v[2].v;
	long step = v[3].text ? v[3].v : 1;

	if (count < 1 || count > SHARD_MAX || step < 1) {
		snprintf(why, whylen, "valid: 1 <= SLURM_ARRAY_TASK_COUNT <= %d, SLURM_ARRAY_TASK_STEP >= 1",
			 SHARD_MAX);
		return -1;
	}
	if (v[4].text && v[4].v != min + (count - 1) * step) {
		snprintf(why, whylen, "not an array MIN-MAX[:STEP] (MAX != MIN + (COUNT-1)*STEP): submit --array=A-B[:STEP] or give --shard I/N");
		return -1;
	}
	if (id < min || (id - min) % step || (id - min) / step >= count) {
		snprintf(why, whylen, "valid: SLURM_ARRAY_TASK_ID one of MIN, MIN+STEP, ..., MIN+(COUNT-1)*STEP");
		return -1;
	}
	*i = (int)((id - min) / step + 1);
	*n = (int)count;
	return 0;
}

/* A 0-based index (vars[0]) of a count (vars[1]): Kubernetes, GitHub Actions, ours. */
static int index0_shard(const struct var *v, int *i, int *n, char *why, size_t whylen)
{
	if (v[1].v < 1 || v[1].v > SHARD_MAX || v[0].v >= v[1].v) {
		snprintf(why, whylen, "valid: 0 <= %s < %s <= %d", v[0].name, v[1].name, SHARD_MAX);
		return -1;
	}
	*i = (int)v[0].v + 1;
	*n = (int)v[1].v;
	return 0;
}

static const struct scheduler schedulers[] = {
	{ "Slurm", "SLURM_ARRAY_TASK_ID", NULL,
	  { "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT",
	    "SLURM_ARRAY_TASK_STEP", "SLURM_ARRAY_TASK_MAX", NULL }, 3,
	  "Slurm sets them in each task of sbatch --array", slurm_shard },
	/* Kubernetes gives the index only: the Job sets the count from spec.completions. */
	{ "Kubernetes", "JOB_COMPLETION_INDEX", NULL,
	  { "JOB_COMPLETION_INDEX", "HTAB_SHARD_COUNT", NULL }, 2,
	  "an Indexed Job sets JOB_COMPLETION_INDEX; its manifest sets HTAB_SHARD_COUNT to spec.completions",
	  index0_shard },
	/* GitHub has neither: the workflow sets both from strategy.job-index and job-total. */
	{ "GitHub Actions", "GITHUB_ACTIONS", "true",
	  { "HTAB_SHARD_INDEX", "HTAB_SHARD_COUNT", NULL }, 2,
	  "the workflow sets them from ${{ strategy.job-index }} and ${{ strategy.job-total }}",
	  index0_shard },
	/* Any other scheduler: its job file sets ours. */
	{ "the environment", "HTAB_SHARD_INDEX", NULL,
	  { "HTAB_SHARD_INDEX", "HTAB_SHARD_COUNT", NULL }, 2,
	  "set both (0-based index)", index0_shard },
};
#define NSCHEDULERS (sizeof(schedulers) / sizeof(schedulers[0]))

/* "A=1, B=2" of the variables that are set. */
static void list_vars(const struct var *v, char *out, size_t outlen)
{
	size_t len = 0;

	out[0] = '\0';
	for (; v->name && len < outlen; v++)
		if (v->text)
			len += snprintf(out + len, outlen - len, "%s%s=%s", len ? ", " : "", v->name,
					v->text);
}

static bool value_ok(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end && s[0] >= '0' && s[0] <= '9' && *out <= VALUE_MAX;
}

static int from_scheduler(const struct scheduler *s, char *(*env)(const char *), int *i, int *n,
			  char *msg, size_t msglen)
{
	struct var v[NVARS + 1] = { 0 };
	char set[512], why[256];

	for (int k = 0; s->vars[k]; k++)
		v[k] = (struct var){ s->vars[k], env(s->vars[k]), 0 };
	list_vars(v, set, sizeof(set));
	for (int k = 0; v[k].name; k++) {
		if (!v[k].text && k < s->nrequired) {
			snprintf(msg, msglen, "--shard auto: %s (%s): %s is not set; %s",
				 s->name, set, v[k].name, s->who_sets);
			return -1;
		}
		if (v[k].text && !value_ok(v[k].text, &v[k].v)) {
			snprintf(msg, msglen, "--shard auto: %s (%s): %s must be an integer 0..%ld",
				 s->name, set, v[k].name, VALUE_MAX);
			return -1;
		}
	}
	if (s->shard(v, i, n, why, sizeof(why))) {
		snprintf(msg, msglen, "--shard auto: %s (%s): %s", s->name, set, why);
		return -1;
	}
	snprintf(msg, msglen, "shard %d/%d from %s (%s)", *i, *n, s->name, set);
	return 0;
}

int shard_auto(char *(*env)(const char *), int *i, int *n, char *msg, size_t msglen)
{
	size_t len;

	for (size_t k = 0; k < NSCHEDULERS; k++) {
		const struct scheduler *s = &schedulers[k];
		const char *m = env(s->marker);

		if (m && (!s->marker_value || !strcmp(m, s->marker_value)))
			return from_scheduler(s, env, i, n, msg, msglen);
	}
	len = (size_t)snprintf(msg, msglen, "--shard auto: no scheduler's shard in the environment (none of");
	for (size_t k = 0; k < NSCHEDULERS && len < msglen; k++)
		len += (size_t)snprintf(msg + len, msglen - len, "%s %s%s%s", k ? "," : "",
					schedulers[k].marker,
					schedulers[k].marker_value ? "=" : "",
					schedulers[k].marker_value ? schedulers[k].marker_value : "");
	if (len < msglen)
		snprintf(msg + len, msglen - len, " is set); valid: a Slurm array task, a Kubernetes Indexed Job, a GitHub Actions matrix job (harness/jobs/), or give --shard I/N");
	return -1;
}
