/* bpftrace 0.17 -f json NDJSON: real output from a guest and from the host, and bad lines. */
#include "testlib.h"

#include "parse/bpftrace_ndjson.h"

static int64_t value(const struct bt_output *o, const char *name, const char *key)
{
	for (size_t i = 0; i < o->nvalues; i++)
		if (!strcmp(o->values[i].name, name) && !strcmp(o->values[i].key, key))
			return o->values[i].value;
	fail_msg("no value %s[%s]", name, key);
	return -1;
}

/* Captured in a 2-vCPU TCG guest running full_update for 3 s. */
static void test_guest_pop_capture(void **s)
{
	struct bt_output o;
	const struct bt_hist *h;
	char p[1024];

	(void)s;
	bt_output_init(&o);
	fixture_path(p, sizeof(p), "bpftrace", "__pcpu_freelist_pop.ndjson");
	assert_int_equal(bt_parse_file(&o, p), 0);
	assert_int_equal(o.malformed, 0);
	assert_int_equal(o.attached_probes, 3);
	h = bt_find_hist(&o, "@ns");
	assert_non_null(h);
	/* Every timed pop is in the histogram, and NULL pops are a subset. */
	assert_int_equal((int64_t)h->h.count, value(&o, "@calls", ""));
	assert_true(value(&o, "@nulls", "") <= value(&o, "@calls", ""));
	assert_int_equal(h->h.b[0].lo, 1024);
	assert_int_equal(h->h.b[0].hi, 2048);	/* "max": 2047 inclusive */
	bt_output_free(&o);
}

/* Captured on the host: every output type 0.17 prints, negative and zero buckets. */
static void test_host_all_types(void **s)
{
	struct bt_output o;
	const struct bt_hist *ns, *k;
	char p[1024];

	(void)s;
	bt_output_init(&o);
	fixture_path(p, sizeof(p), "bpftrace", "host_begin_all_types.ndjson");
	assert_int_equal(bt_parse_file(&o, p), 0);
	assert_int_equal(o.malformed, 0);
	assert_int_equal(o.attached_probes, 1);
	ns = bt_find_hist(&o, "@ns");
	assert_non_null(ns);
	assert_int_equal(ns->negative, 1);		/* {"max": -1, "count": 1} */
	assert_int_equal(ns->h.count, 3);		/* 0, 1500, 3000 */
	assert_int_equal(ns->h.b[0].lo, 0);
	assert_int_equal(ns->h.b[0].hi, 1);
	k = bt_find_hist(&o, "@k");
	assert_non_null(k);
	assert_string_equal(k->key, "1");
	assert_int_equal(value(&o, "@m", "a"), 5);
	assert_int_equal(value(&o, "@nulls", ""), 1);
	bt_output_free(&o);
}

static void test_bad_lines(void **s)
{
	static const char *const bad[] = {
		"not json",
		"{\"type\": \"map\"}",
		"{\"data\": {\"@x\": 1}}",
		"[1, 2]",
		"{\"type\": \"hist\", \"data\": {\"@x\": [{\"count\": 1}]}}",
		"{\"type\": \"hist\", \"data\": {\"@x\": 5}}",
		"{\"type\": \"hist\", \"data\": {\"@x\": [{\"min\": 8, \"max\": 15, \"count\": 1}, {\"min\": 0, \"max\": 3, \"count\": 1}]}}",
		"{\"type\": \"attached_probes\", \"data\": {\"probes\": \"two\"}}",
		"{\"type\": \"map\", \"data\": {\"@x\": 1}} trailing",
	};
	struct bt_output o;
	char err[256];

	(void)s;
	bt_output_init(&o);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(bt_parse_line(&o, bad[i], err, sizeof(err)), -1);
		assert_true(err[0] != '\0');
	}
	assert_int_equal(o.malformed, (int)(sizeof(bad) / sizeof(bad[0])));
	assert_int_equal(o.nhists, 0);
	bt_output_free(&o);
}

static void test_tolerant(void **s)
{
	struct bt_output o;
	const struct bt_hist *h;
	char err[256];

	(void)s;
	bt_output_init(&o);
	assert_int_equal(bt_parse_line(&o, "", err, sizeof(err)), 0);
	assert_int_equal(bt_parse_line(&o, "   \r", err, sizeof(err)), 0);
	/* First bucket with only "max": values from 0. */
	assert_int_equal(bt_parse_line(&o, "{\"type\": \"hist\", \"data\": {\"@x\": [{\"max\": 1, \"count\": 2}, {\"min\": 2, \"max\": 3, \"count\": 1}]}}", err, sizeof(err)), 0);
	h = bt_find_hist(&o, "@x");
	assert_int_equal(h->h.b[0].lo, 0);
	assert_int_equal(h->h.b[0].hi, 2);
	assert_int_equal(h->h.count, 3);
	assert_int_equal(bt_parse_line(&o, "{\"type\": \"lost_events\", \"data\": {\"events\": 7}}", err, sizeof(err)), 0);
	assert_int_equal(o.lost_events, 7);
	assert_int_equal(bt_parse_line(&o, "{\"type\": \"printf\", \"data\": \"x\\n\"}", err, sizeof(err)), 0);
	assert_int_equal(bt_parse_line(&o, "{\"type\": \"some_future_type\", \"data\": null}", err, sizeof(err)), 0);
	assert_int_equal(o.malformed, 0);
	bt_output_free(&o);
}

/* A file with a broken line in the middle keeps the rest. */
static void test_file_with_garbage(void **s)
{
	char path[] = "/tmp/ht_bt_XXXXXX";
	const char *text = "{\"type\": \"attached_probes\", \"data\": {\"probes\": 2}}\n"
			   "Lost 3 events\n"
			   "{\"type\": \"map\", \"data\": {\"@calls\": 10}}\n";
	struct bt_output o;
	int fd = mkstemp(path);

	(void)s;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	bt_output_init(&o);
	assert_int_equal(bt_parse_file(&o, path), 0);
	assert_int_equal(o.malformed, 1);
	assert_int_equal(o.attached_probes, 2);
	assert_int_equal(value(&o, "@calls", ""), 10);
	bt_output_free(&o);
	unlink(path);
	assert_int_equal(bt_parse_file(&o, "/nonexistent/x.ndjson"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_pop_capture),
		cmocka_unit_test(test_host_all_types),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_tolerant),
		cmocka_unit_test(test_file_with_garbage),
	};

	return cmocka_run_group_tests_name("bpftrace_ndjson", tests, NULL, NULL);
}
