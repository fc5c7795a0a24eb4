/*
 * Unit tests of harness/stats/stats.c, the core of `htab-torture stats`: known
 * samples give known n, mean, sd, ratio and Welch p (by hand, beside each
 * check); the bootstrap CI is lib/welch_bootstrap's, the one compare prints,
 * and holds the true ratio of a constructed example; pairing by key; the
 * NDJSON reader and the refusals (unknown base, too few samples, a key twice).
 */
#include <math.h>

#include "testlib.h"
#include "stats/stats.h"

static const double a[] = { 97, 99, 100, 101, 103 };	/* mean 100, var 5 */
static const double b[] = { 146, 148, 150, 152, 154 };	/* mean 150, var 10 */

static void add_all(struct stats_set *s, const char *g, const double *v, size_t n,
		    const char *const *keys)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(stats_add(s, g, v[i], keys ? keys[i] : NULL), 0);
}

static const struct stats_group *find(const struct stats_set *s, const char *name)
{
	for (size_t i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i].name, name))
			return &s->g[i];
	fail_msg("no group %s", name);
	return NULL;
}

static void test_mean_sd(void **state)
{
	double m, sd;

	(void)state;
	assert_int_equal(st_mean_sd(a, 5, &m, &sd), 5);
	assert_float_equal(m, 100, 1e-12);
	assert_float_equal(sd, sqrt(5), 1e-12);
	st_mean_sd(b, 1, &m, &sd);
	assert_float_equal(m, 146, 0);
	assert_float_equal(sd, 0, 0);
	assert_int_equal(st_mean_sd(b, 0, &m, &sd), 0);
	assert_true(isnan(m) && isnan(sd));
	/* non-finite values do not count */
	assert_int_equal(st_mean_sd((const double[]){ 1, NAN, 3, INFINITY }, 4, &m, &sd), 2);
	assert_float_equal(m, 2, 1e-12);
	assert_float_equal(sd, sqrt(2), 1e-12);
}

static void test_known_samples(void **state)
{
	struct stats_set s;
	const struct stats_group *ga, *gb;
	double lo, hi;
	char err[256];

	(void)state;
	stats_init(&s);
	add_all(&s, "fixed", b, 5, NULL);
	add_all(&s, "before", a, 5, NULL);
	assert_int_equal(stats_compute(&s, "before", err, sizeof(err)), 0);
	assert_string_equal(s.g[s.base].name, "before");
	assert_false(stats_paired(&s));
	ga = find(&s, "before");
	gb = find(&s, "fixed");
	assert_int_equal(ga->n, 5);
	assert_float_equal(ga->mean, 100, 1e-12);
	assert_float_equal(ga->sd, sqrt(5), 1e-12);
	assert_float_equal(gb->mean, 150, 1e-12);
	assert_float_equal(gb->sd, sqrt(10), 1e-12);
	assert_true(isnan(ga->ratio));	/* the base is not against itself */
	assert_float_equal(gb->ratio, 1.5, 1e-12);
	/* Welch as test_welch_bootstrap works it by hand: t = 50/sqrt 3, df = 7.2 */
	assert_float_equal(gb->w.t, 50 / sqrt(3), 1e-9);
	assert_float_equal(gb->w.df, 7.2, 1e-12);
	assert_true(gb->w.p < 1e-7);
	/* the CI is compare's: the same function, resamples and seed */
	assert_int_equal(st_bootstrap_ratio_ci(a, 5, b, 5, 0.95, ST_BOOT_RESAMPLES, ST_BOOT_SEED,
					       &lo, &hi), 0);
	assert_true(gb->ci_lo == lo && gb->ci_hi == hi);
	assert_true(lo < 1.5 && hi > 1.5);
	assert_true(isnan(gb->paired_mean) && gb->paired_n == 0);
	stats_free(&s);
}

/* The first group is the base without --base; the CI holds the true ratio. */
static void test_ci_holds_true_ratio(void **state)
{
	/* b2 = 0.8 * a2, reordered: the ratio of means is exactly 0.8 */
	static const double a2[] = { 190, 205, 198, 210, 195, 202 };
	static const double b2[] = { 164, 152, 158.4, 156, 168, 161.6 };
	struct stats_set s;
	const struct stats_group *g;
	char err[256];

	(void)state;
	stats_init(&s);
	add_all(&s, "plain", a2, 6, NULL);
	add_all(&s, "traced", b2, 6, NULL);
	assert_int_equal(stats_compute(&s, NULL, err, sizeof(err)), 0);
	assert_int_equal(s.base, 0);
	g = find(&s, "traced");
	assert_float_equal(g->ratio, 0.8, 1e-12);
	assert_true(g->ci_lo < 0.8 && g->ci_hi > 0.8);
	assert_true(g->ci_lo > 0.75 && g->ci_hi < 0.85);
	/* the same ratio at 99 % is at least as wide */
	{
		double lo = g->ci_lo, hi = g->ci_hi;

		s.alpha = 0.01;
		assert_int_equal(stats_compute(&s, NULL, err, sizeof(err)), 0);
		g = find(&s, "traced");
		assert_true(g->ci_lo <= lo && g->ci_hi >= hi);
	}
	stats_free(&s);
}

static void test_pairing(void **state)
{
	static const double base[] = { 100, 200, 400, 50, 300 };
	static const char *const bk[] = { "1", "2", "3", "4", "5" };
	/* per key ratios 1.1, 1.05, 1.0, 0.95, 0.9 (keys in another order) and a
	 * key 6 the base lacks, left out of the pairs */
	static const double g[] = { 270, 47.5, 400, 210, 110, 999 };
	static const char *const gk[] = { "5", "4", "3", "2", "1", "6" };
	struct stats_set s;
	const struct stats_group *t;
	char err[256];

	(void)state;
	stats_init(&s);
	add_all(&s, "base", base, 5, bk);
	add_all(&s, "g", g, 6, gk);
	assert_true(stats_paired(&s));
	assert_int_equal(stats_compute(&s, "base", err, sizeof(err)), 0);
	t = find(&s, "g");
	assert_int_equal(t->paired_n, 5);
	assert_float_equal(t->paired_mean, 1.0, 1e-12);
	/* sd of (0.1, 0.05, 0, -0.05, -0.1): sqrt(0.025 / 4) */
	assert_float_equal(t->paired_sd, sqrt(0.00625), 1e-12);
	stats_free(&s);

	/* one sample without a key: no pairs */
	stats_init(&s);
	add_all(&s, "base", base, 5, bk);
	add_all(&s, "g", g, 5, NULL);
	assert_false(stats_paired(&s));
	assert_int_equal(stats_compute(&s, "base", err, sizeof(err)), 0);
	assert_int_equal(find(&s, "g")->paired_n, 0);
	stats_free(&s);

	/* a key twice in a group is refused, naming it */
	stats_init(&s);
	add_all(&s, "base", base, 5, bk);
	add_all(&s, "g", g, 2, (const char *const[]){ "7", "7" });
	assert_int_equal(stats_compute(&s, "base", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "rep 7 twice"));
	assert_non_null(strstr(err, "'g'"));
	stats_free(&s);
}

static void test_refusals(void **state)
{
	struct stats_set s;
	char err[256];

	(void)state;
	stats_init(&s);
	assert_int_equal(stats_compute(&s, NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "no samples");
	add_all(&s, "x", a, 5, NULL);
	add_all(&s, "y", b, 1, NULL);
	assert_int_equal(stats_compute(&s, "nosuch", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--base 'nosuch'"));
	assert_non_null(strstr(err, "'x', 'y'"));
	assert_int_equal(stats_compute(&s, "x", err, sizeof(err)), -1);
	assert_string_equal(err, "group 'y': 1 sample, need at least 2");
	stats_free(&s);
}

static int read_text(struct stats_set *s, const char *text, char *err, size_t n)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(f);
	ret = stats_read_ndjson(s, f, "in", err, n);
	fclose(f);
	return ret;
}

static void test_ndjson(void **state)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "{\"group\":\"a\",\"value\":1}\nnot json\n", "in line 2: not JSON" },
		{ "{\"value\":1}\n", "in line 1: missing field \"group\"" },
		{ "{\"group\":\"a\"}\n", "in line 1: missing field \"value\"" },
		{ "{\"group\":\"a\",\"value\":\"1\"}\n", "in line 1: \"value\" is not a finite number" },
		{ "{\"group\":2,\"value\":1}\n", "in line 1: \"group\" is not a string" },
		{ "[1]\n", "in line 1: not a JSON object" },
		{ "{\"group\":\"a\",\"value\":1,\"rep\":1.5}\n", "in line 1: \"rep\" is neither" },
	};
	struct stats_set s;
	char err[256];
	json_t *j;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		stats_init(&s);
		assert_int_equal(read_text(&s, bad[i].text, err, sizeof(err)), -1);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("'%s': got '%s', want '%s...'", bad[i].text, err, bad[i].err);
		stats_free(&s);
	}
	stats_init(&s);
	assert_int_equal(read_text(&s, "{\"group\":\"a\",\"rep\":1,\"value\":1}\n\n"
				   "{\"group\":\"a\",\"rep\":\"2\",\"value\":3}\n"
				   "{\"group\":\"b\",\"rep\":2,\"value\":6}\n"
				   "{\"group\":\"b\",\"rep\":1,\"value\":2}\n", err, sizeof(err)), 0);
	assert_int_equal(s.nsamples, 4);
	assert_true(stats_paired(&s));
	assert_int_equal(stats_compute(&s, NULL, err, sizeof(err)), 0);
	/* keys 1 and "2" pair across groups: ratios 2 and 2 */
	assert_int_equal(find(&s, "b")->paired_n, 2);
	assert_float_equal(find(&s, "b")->paired_mean, 2, 1e-12);
	j = stats_json(&s);
	assert_string_equal(json_string_value(json_object_get(j, "base")), "a");
	assert_null(json_object_get(json_array_get(json_object_get(j, "groups"), 0), "ratio"));
	assert_float_equal(json_real_value(json_object_get(
		json_array_get(json_object_get(j, "groups"), 1), "ratio")), 2, 1e-12);
	json_decref(j);
	stats_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_sd),
		cmocka_unit_test(test_known_samples),
		cmocka_unit_test(test_ci_holds_true_ratio),
		cmocka_unit_test(test_pairing),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_ndjson),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
