/* Samples by group, each against a base: mean ± sd, ratio, Welch p, bootstrap CI, pairs. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "lib/strbuf.h"
#include "stats/stats.h"

void stats_init(struct stats_set *s)
{
	memset(s, 0, sizeof(*s));
	s->alpha = 0.05;
	s->resamples = ST_BOOT_RESAMPLES;
	s->seed = ST_BOOT_SEED;
}

void stats_free(struct stats_set *s)
{
	for (size_t i = 0; i < s->ng; i++) {
		struct stats_group *g = &s->g[i];

		for (size_t j = 0; j < g->n; j++)
			free(g->key[j]);
		free(g->name);
		free(g->v);
		free(g->key);
	}
	free(s->g);
	stats_init(s);
}

static struct stats_group *group_of(struct stats_set *s, const char *name)
{
	struct stats_group *g;

	for (size_t i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i].name, name))
			return &s->g[i];
	if (s->ng == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		struct stats_group *ng = realloc(s->g, cap * sizeof(*ng));

		if (!ng)
			return NULL;
		s->g = ng;
		s->cap = cap;
	}
	g = &s->g[s->ng];
	memset(g, 0, sizeof(*g));
	g->name = strdup(name);
	if (!g->name)
		return NULL;
	s->ng++;
	return g;
}

int stats_add(struct stats_set *s, const char *group, double value, const char *key)
{
	struct stats_group *g = group_of(s, group);

	if (!g)
		return -1;
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		double *v = realloc(g->v, cap * sizeof(*v));
		char **k;

		if (!v)
			return -1;
		g->v = v;
		k = realloc(g->key, cap * sizeof(*k));
		if (!k)
			return -1;
		g->key = k;
		g->cap = cap;
	}
	g->key[g->n] = key ? strdup(key) : NULL;
	if (key && !g->key[g->n])
		return -1;
	g->v[g->n++] = value;
	s->nsamples++;
	s->nkeyed += key != NULL;
	return 0;
}

/* One NDJSON line into the set; -1 with the problem in err. */
static int add_line(struct stats_set *s, const char *line, char *err, size_t errn)
{
	json_error_t je;
	json_t *o = json_loads(line, 0, &je), *g, *v, *k;
	char key[64];
	int ret = -1;

	if (!o) {
		snprintf(err, errn, "not JSON: %s", je.text);
		return -1;
	}
	g = json_object_get(o, "group");
	v = json_object_get(o, "value");
	k = json_object_get(o, "rep");
	if (!json_is_object(o))
		snprintf(err, errn, "not a JSON object");
	else if (!g)
		snprintf(err, errn, "missing field \"group\"");
	else if (!json_is_string(g))
		snprintf(err, errn, "\"group\" is not a string");
	else if (!v)
		snprintf(err, errn, "missing field \"value\"");
	else if (!json_is_number(v) || !isfinite(json_number_value(v)))
		snprintf(err, errn, "\"value\" is not a finite number");
	else if (k && !json_is_null(k) && !json_is_integer(k) && !json_is_string(k))
		snprintf(err, errn, "\"rep\" is neither an integer nor a string");
	else {
		if (json_is_integer(k))
			snprintf(key, sizeof(key), "%" JSON_INTEGER_FORMAT, json_integer_value(k));
		else if (json_is_string(k))
			snprintf(key, sizeof(key), "%s", json_string_value(k));
		ret = stats_add(s, json_string_value(g), json_number_value(v),
				k && !json_is_null(k) ? key : NULL);
		if (ret)
			snprintf(err, errn, "out of memory");
	}
	json_decref(o);
	return ret;
}

int stats_read_ndjson(struct stats_set *s, FILE *f, const char *name, char *err, size_t errn)
{
	char *line = NULL, msg[256];
	size_t cap = 0, lineno = 0;
	int ret = 0;

	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		if (!line[strspn(line, " \t\r\n")])
			continue;
		if (add_line(s, line, msg, sizeof(msg))) {
			snprintf(err, errn, "%s line %zu: %s", name, lineno, msg);
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f)) {
		snprintf(err, errn, "%s: %s", name, strerror(errno));
		ret = -1;
	}
	free(line);
	return ret;
}

bool stats_paired(const struct stats_set *s)
{
	return s->nsamples && s->nkeyed == s->nsamples;
}

static int find_key(const struct stats_group *g, const char *key)
{
	for (size_t i = 0; i < g->n; i++)
		if (!strcmp(g->key[i], key))
			return (int)i;
	return -1;
}

static int check_keys(const struct stats_group *g, char *err, size_t errn)
{
	for (size_t i = 1; i < g->n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g->key[i], g->key[j])) {
				snprintf(err, errn, "group '%s': rep %s twice: a pairing key "
					 "must be unique in a group", g->name, g->key[i]);
				return -1;
			}
	return 0;
}

/* The ratios value / base value over the keys both have. */
static int pair(struct stats_group *g, const struct stats_group *b)
{
	double *r = malloc(g->n * sizeof(*r));
	size_t k = 0;

	if (!r)
		return -1;
	for (size_t i = 0; i < g->n; i++) {
		int j = find_key(b, g->key[i]);

		if (j >= 0 && b->v[j] != 0)
			r[k++] = g->v[i] / b->v[j];
	}
	g->paired_n = k;
	st_mean_sd(r, k, &g->paired_mean, &g->paired_sd);
	free(r);
	return 0;
}

static int against_base(struct stats_set *s, struct stats_group *g, const struct stats_group *b)
{
	g->ratio = b->mean != 0 ? g->mean / b->mean : NAN;
	st_welch_test(b->mean, b->sd, b->n, g->mean, g->sd, g->n, &g->w);
	st_bootstrap_ratio_ci(b->v, b->n, g->v, g->n, 1 - s->alpha, s->resamples, s->seed,
			      &g->ci_lo, &g->ci_hi);
	return stats_paired(s) ? pair(g, b) : 0;
}

static void group_list(const struct stats_set *s, char *buf, size_t n)
{
	buf[0] = 0;
	for (size_t i = 0; i < s->ng; i++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s'%s'", i ? ", " : "", s->g[i].name);
}

int stats_compute(struct stats_set *s, const char *base, char *err, size_t errn)
{
	char list[1024];

	if (!s->ng) {
		snprintf(err, errn, "no samples");
		return -1;
	}
	s->base = 0;
	if (base) {
		for (s->base = 0; s->base < s->ng && strcmp(s->g[s->base].name, base); s->base++)
			;
		if (s->base == s->ng) {
			group_list(s, list, sizeof(list));
			snprintf(err, errn, "--base '%s': not a group of the samples (groups: %s)",
				 base, list);
			return -1;
		}
	}
	for (size_t i = 0; i < s->ng; i++) {
		struct stats_group *g = &s->g[i];

		if (g->n < STATS_MIN_SAMPLES) {
			snprintf(err, errn, "group '%s': %zu sample%s, need at least %d", g->name,
				 g->n, g->n == 1 ? "" : "s", STATS_MIN_SAMPLES);
			return -1;
		}
		if (stats_paired(s) && check_keys(g, err, errn))
			return -1;
		st_mean_sd(g->v, g->n, &g->mean, &g->sd);
	}
	for (size_t i = 0; i < s->ng; i++) {
		struct stats_group *g = &s->g[i];

		g->ratio = g->ci_lo = g->ci_hi = g->paired_mean = g->paired_sd = NAN;
		g->paired_n = 0;
		if (i != s->base && against_base(s, g, &s->g[s->base])) {
			snprintf(err, errn, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Display columns of a UTF-8 string (± is two bytes, one column). */
static int columns(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* One row: the group left-aligned in w columns, then the cells; no trailing blanks. */
static void row(FILE *f, int w, const char *const cell[7])
{
	static const int width[7] = { 0, 4, 24, 9, 8, 20, 0 };
	struct strbuf line = STRBUF_INIT;
	size_t len;

	for (int i = 0; i < 7; i++) {
		int cw = i ? width[i] : w, pad = cw - columns(cell[i]);

		sb_appendf(&line, "%s%s%*s", i == 1 ? " " : i > 1 ? "  " : "", cell[i],
			   pad > 0 ? pad : 0, "");
	}
	/* out of memory: the cells that fit before, and the error */
	if (line.failed)
		fprintf(stderr, "error: stats: %s\n", strerror(ENOMEM));
	len = line.len;
	while (len && line.s[len - 1] == ' ')
		len--;
	fprintf(f, "%.*s\n", (int)len, sb_str(&line));
	sb_free(&line);
}

void stats_print(FILE *f, const struct stats_set *s)
{
	int w = 5;
	char ci_head[32];
	bool paired = stats_paired(s);

	for (size_t i = 0; i < s->ng; i++)
		if (columns(s->g[i].name) > w)
			w = columns(s->g[i].name);
	fprintf(f, "stats: %zu samples in %zu groups, base '%s'; p: Welch's t-test; CI: %.0f%% "
		"percentile bootstrap of mean/base mean, %u resamples, seed %#" PRIx64 "\n",
		s->nsamples, s->ng, s->g[s->base].name, (1 - s->alpha) * 100, s->resamples,
		s->seed);
	snprintf(ci_head, sizeof(ci_head), "%.0f%% CI of ratio", (1 - s->alpha) * 100);
	row(f, w, (const char *const[7]){ "group", "n", "mean ± sd", "ratio", "p(Welch)", ci_head,
					  paired ? "paired ratio per rep (n)" : "" });
	row(f, w, (const char *const[7]){ "units", "1", "value", "1", "1", "1", paired ? "1" : "" });
	for (size_t i = 0; i < s->ng; i++) {
		const struct stats_group *g = &s->g[i];
		char n[16], m[32], sd[32], msd[80], r[32] = "1", p[16] = "(base)", ci[64] = "",
			pr[96] = "", pm[32], psd[32];

		snprintf(n, sizeof(n), "%zu", g->n);
		snprintf(msd, sizeof(msd), "%s ± %s", num_text(m, sizeof(m), g->mean, NUM_ADAPTIVE),
			 num_text(sd, sizeof(sd), g->sd, NUM_ADAPTIVE));
		if (i != s->base) {
			num_text(r, sizeof(r), g->ratio, 3);
			num_p_text(p, sizeof(p), g->w.p);
			if (isfinite(g->ci_lo))
				snprintf(ci, sizeof(ci), "[%.3f, %.3f]", g->ci_lo, g->ci_hi);
			else
				snprintf(ci, sizeof(ci), "-");
			if (paired)
				snprintf(pr, sizeof(pr), "%s ± %s (%zu)",
					 num_text(pm, sizeof(pm), g->paired_mean, 3),
					 num_text(psd, sizeof(psd), g->paired_sd, 3), g->paired_n);
		}
		row(f, w, (const char *const[7]){ g->name, n, msd, r, p, ci, pr });
	}
}

static json_t *group_json(const struct stats_set *s, size_t i)
{
	const struct stats_group *g = &s->g[i];
	json_t *vals = json_array();
	json_t *o;

	for (size_t j = 0; j < g->n; j++)
		json_array_append_new(vals, json_real(g->v[j]));
	o = json_pack("{s:s, s:b, s:I, s:o, s:o, s:o}", "group", g->name, "base", i == s->base,
		      "n", (json_int_t)g->n, "mean", num_json(g->mean), "sd", num_json(g->sd),
		      "values", vals);
	if (i == s->base)
		return o;
	json_object_set_new(o, "ratio", num_json(g->ratio));
	json_object_set_new(o, "welch", json_pack("{s:o, s:o, s:o}", "t", num_json_inf(g->w.t),
						  "df", num_json(g->w.df), "p", num_json(g->w.p)));
	json_object_set_new(o, "ratio_ci", json_pack("[o, o]", num_json(g->ci_lo),
						     num_json(g->ci_hi)));
	json_object_set_new(o, "paired", !stats_paired(s) ? json_null() :
		json_pack("{s:I, s:o, s:o}", "n", (json_int_t)g->paired_n,
			  "mean", num_json(g->paired_mean), "sd", num_json(g->paired_sd)));
	return o;
}

json_t *stats_json(const struct stats_set *s)
{
	json_t *groups = json_array();
	char seed[32];

	for (size_t i = 0; i < s->ng; i++)
		json_array_append_new(groups, group_json(s, i));
	snprintf(seed, sizeof(seed), "%#" PRIx64, s->seed);
	return json_pack("{s:s, s:I, s:b, s:f, s:f, s:{s:s, s:I, s:s}, s:o}",
			 "base", s->g[s->base].name, "samples", (json_int_t)s->nsamples,
			 "paired", stats_paired(s), "alpha", s->alpha, "ci_level", 1 - s->alpha,
			 "bootstrap", "method", "percentile, ratio of means",
			 "resamples", (json_int_t)s->resamples, "seed", seed, "groups", groups);
}
