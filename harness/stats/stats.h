/*
 * `htab-torture stats`: groups of samples (a label, a value, optionally a
 * pairing key such as the round number) summarised as n, mean ± sd, and each
 * group against a base group by the method `compare` uses: the ratio of
 * means, Welch's t-test and the percentile-bootstrap CI of that ratio
 * (lib/welch_bootstrap). With a pairing key on every sample, also the mean ±
 * sd of the per-key ratios (value / the base's value of the same key). The
 * bench scripts (bench/NAME/run.sh) print their intervals from here.
 */
#ifndef HT_STATS_H
#define HT_STATS_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/welch_bootstrap.h"

#define STATS_MIN_SAMPLES 2

struct stats_group {
	char *name;
	double *v;
	char **key;		/* pairing key of each sample, NULL where it has none */
	size_t n, cap;
	double mean, sd;
	/* against the base (not set on the base itself) */
	double ratio, ci_lo, ci_hi;	/* mean / base mean; CI NAN when none */
	struct st_welch w;
	size_t paired_n;		/* keys this group shares with the base */
	double paired_mean, paired_sd;	/* of value / base value, key by key */
};

struct stats_set {
	struct stats_group *g;	/* in order of first appearance */
	size_t ng, cap;
	size_t nkeyed, nsamples;	/* samples with a pairing key; all samples */
	size_t base;		/* index into g, after stats_compute */
	double alpha;		/* CI level 1 - alpha */
	unsigned resamples;
	uint64_t seed;
};

/* An empty set with compare's defaults (alpha 0.05, its resamples and seed). */
void stats_init(struct stats_set *s);
void stats_free(struct stats_set *s);
/* One sample; key may be NULL. 0 ok, -1 out of memory. */
int stats_add(struct stats_set *s, const char *group, double value, const char *key);
/*
 * NDJSON samples from f, one object a line: "group" (string), "value"
 * (finite number), optionally "rep" (integer or string). Blank lines are
 * skipped. 0 ok; -1 with a message naming the line and the problem in err.
 */
int stats_read_ndjson(struct stats_set *s, FILE *f, const char *name, char *err, size_t errn);
/* True when every sample has a pairing key: the paired ratios are computed. */
bool stats_paired(const struct stats_set *s);
/*
 * Everything, against the group named base (NULL: the first). 0 ok; -1 with
 * the reason in err: no samples, base unknown, a group with fewer than
 * STATS_MIN_SAMPLES samples, a key twice in one group.
 */
int stats_compute(struct stats_set *s, const char *base, char *err, size_t errn);
/* The table: one line per group, a units row. */
void stats_print(FILE *f, const struct stats_set *s);
/* The same as JSON (FORMAT-style: null where there is no number). */
json_t *stats_json(const struct stats_set *s);
#endif
