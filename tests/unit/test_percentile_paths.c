/*
 * One percentile method everywhere (harness/FORMAT.md "Percentiles"): the
 * module's own integer code (kmod/hist_pct.h, compiled here as the module
 * compiles it) and the harness's hist_percentile() give the same p50/p90/
 * p99 for the same buckets, through both paths a reader sees: module.json
 * (the module's printed value) and cell.json (the harness's, from the
 * buckets module.json carries); and both land near known quantiles.
 */
#include <math.h>
#include "testlib.h"

#include "lib/histogram.h"
#include "parse/module_json.h"
#include "run/record/cell_json.h"

typedef uint64_t u64;
#define HT_MULDIV(a, b, c) ((u64)((unsigned __int128)(a) * (b) / (c)))
#include "../../kmod/hist_pct.h"

struct kh {
	u64 b[HT_HIST_BUCKETS];
	u64 count, min, max;
};

static void kh_add(struct kh *h, u64 v)
{
	u64 lo, hi;

	for (unsigned int i = 0; i < HT_HIST_BUCKETS; i++) {
		ht_hist_bucket_range(i, &lo, &hi);
		if (v >= lo && v < hi) {
			h->b[i]++;
			break;
		}
	}
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
}

/* module.json as results_json.c prints it: p50/p90/p99 in thousandths, buckets. */
static char *module_doc(const struct kh *h)
{
	static const unsigned int pcts[] = { 50, 90, 99 };
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	u64 lo, hi;
	const char *sep = "";

	n += snprintf(s + n, cap - n, "{\"status\": \"done\", \"result\": \"SUCCESS\", "
		      "\"latency_ns\": {\"update\": {\"count\": %llu, \"min\": %llu, \"max\": %llu, "
		      "\"sum\": 0", (unsigned long long)h->count, (unsigned long long)h->min,
		      (unsigned long long)h->max);
	for (int i = 0; i < 3; i++) {
		u64 m = ht_hist_pct_milli(h->b, h->count, h->min, h->max, pcts[i]);

		n += snprintf(s + n, cap - n, ", \"p%u\": %llu.%03llu", pcts[i],
			      (unsigned long long)(m / 1000), (unsigned long long)(m % 1000));
	}
	n += snprintf(s + n, cap - n, ", \"buckets\": [");
	for (unsigned int i = 0; i < HT_HIST_BUCKETS; i++) {
		if (!h->b[i])
			continue;
		ht_hist_bucket_range(i, &lo, &hi);
		n += snprintf(s + n, cap - n, "%s[%llu, %llu, %llu]", sep, (unsigned long long)lo,
			      (unsigned long long)hi, (unsigned long long)h->b[i]);
		sep = ", ";
	}
	snprintf(s + n, cap - n, "]}}}");
	return s;
}

/* Both paths agree to the printed thousandth; returns the module's p@pct. */
static double check_paths(const struct kh *h, const char *pname, unsigned int pct)
{
	char *doc = module_doc(h), err[256];
	json_t *root = json_loads(doc, 0, NULL), *cell;
	struct module_result m;
	const struct mod_latency *l;
	double printed, harness, celljson;

	assert_non_null(root);
	assert_int_equal(module_result_parse(&m, root, err, sizeof(err)), 0);
	l = module_latency(&m, "update");
	assert_non_null(l);
	assert_int_equal(l->h.count, h->count);
	printed = json_real_value(json_object_get(json_object_get(json_object_get(root,
				"latency_ns"), "update"), pname));
	harness = hist_percentile(&l->h, pct);
	cell = hist_stats_json(&l->h);
	celljson = json_number_value(json_object_get(cell, pname));
	if (fabs(printed - harness) > 0.0005 + 1e-9 || fabs(printed - celljson) > 0.001 + 1e-9)
		fail_msg("%s: module.json %.3f, harness %.6f, cell.json %.3f", pname, printed,
			 harness, celljson);
	json_decref(cell);
	module_result_free(&m);
	json_decref(root);
	free(doc);
	return printed;
}

/* 100000 samples uniform on [1000, 11000): true p50 6000, p90 10000, p99 10900. */
static void test_uniform_known_quantiles(void **s)
{
	struct kh *h = calloc(1, sizeof(*h));

	(void)s;
	for (u64 i = 0; i < 100000; i++)
		kh_add(h, 1000 + i / 10);
	/* the sub-buckets are 25 % wide: interpolation lands within one of them */
	assert_float_equal(check_paths(h, "p50", 50), 6000, 6000 * 0.25);
	assert_float_equal(check_paths(h, "p90", 90), 10000, 10000 * 0.25);
	assert_float_equal(check_paths(h, "p99", 99), 10900, 10900 * 0.25);
	free(h);
}

/* Hand-computed: 4 samples in [8, 10), 4 in [16, 20); max 19. */
static void test_hand_computed(void **s)
{
	struct kh *h = calloc(1, sizeof(*h));

	(void)s;
	for (int i = 0; i < 4; i++)
		kh_add(h, 9);
	for (int i = 0; i < 4; i++)
		kh_add(h, 19);
	h->min = 8;	/* as if one sample were 8: min only clamps below */
	/* rank 4 ends [8,10): 8 + 2 * 4/4 = 10 */
	assert_float_equal(check_paths(h, "p50", 50), 10.0, 1e-9);
	/* rank 7.2: 16 + 4 * 3.2/4 = 19.2, clamped to max 19 */
	assert_float_equal(check_paths(h, "p90", 90), 19.0, 1e-9);
	free(h);
}

/* Rounding: 3 samples in [1024, 1280); p50 rank 1.5 -> 1024 + 256/2 = 1152. */
static void test_thousandths_and_clamp(void **s)
{
	struct kh *h = calloc(1, sizeof(*h));

	(void)s;
	kh_add(h, 1100);
	kh_add(h, 1200);
	kh_add(h, 1279);
	assert_float_equal(check_paths(h, "p50", 50), 1024 + 256 * 0.5, 1e-9);
	/* rank 2.97: 1024 + 256 * 0.99 = 1277.44 */
	assert_float_equal(check_paths(h, "p99", 99), 1277.44, 1e-9);
	/* 7 samples [1024,1280): rank 3.5 -> 1024 + 256 * 0.5 exactly; rank 6.3 -> 1254.4 */
	for (int i = 0; i < 4; i++)
		kh_add(h, 1030);
	assert_float_equal(check_paths(h, "p90", 90), 1024 + 256 * 6.3 / 7, 0.0005);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_known_quantiles),
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_thousandths_and_clamp),
	};

	return cmocka_run_group_tests_name("percentile_paths", tests, NULL, NULL);
}
