/* Known kernel bugs: the shipped list loads, matches what it names and nothing near it. */
#include <limits.h>
#include "testlib.h"

#include "run/record/known.h"

#define ABBA "htab-nmi-bucket-freelist-abba"

static json_t *shipped(void)
{
	char path[PATH_MAX], err[512] = "";
	json_t *bugs;

	snprintf(path, sizeof(path), "%s/../../%s", FIXTURES, KNOWN_BUGS_FILE);
	bugs = known_bugs_load(path, err, sizeof(err));
	if (!bugs)
		fail_msg("%s", err);
	return bugs;
}

static json_t *hung_cell(const char *callers, const char *release)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s}", "verdict", "TIMEOUT",
			 "signature", "hang: CPUs spinning in queued_spin_lock_slowpath",
			 "callers", callers, "kernel_release", release, "kernel", "fixed");
}

/* The id the cell (files in fixtures/known/@dir) matches, "" for none. */
static const char *match_id(const json_t *bugs, json_t *cell, const char *dir)
{
	static char id[64];
	char d[PATH_MAX];
	json_t *k;

	fixture_path(d, sizeof(d), "known", dir);
	k = known_bug_match(bugs, cell, d);
	snprintf(id, sizeof(id), "%s", k ? json_string_value(json_object_get(k, "id")) : "");
	if (k) {
		assert_non_null(json_string_value(json_object_get(k, "title")));
		assert_non_null(json_string_value(json_object_get(k, "see")));
	}
	json_decref(k);
	json_decref(cell);
	return id;
}

static void test_abba_matched(void **s)
{
	json_t *bugs = shipped();

	(void)s;
	/* the 6.1 deadlock as make mutants' fixed row met it (bench/RESULTS.md) */
	assert_string_equal(match_id(bugs, hung_cell("kthread+nmi", "6.1.192-htab-fixed"), "nmi-abba-6.1"), ABBA);
	assert_string_equal(match_id(bugs, hung_cell("nmi+kthread", "6.12.118+deb12-amd64"), "nmi-abba-6.1"), ABBA);
	json_decref(bugs);
}

static void test_abba_narrow(void **s)
{
	json_t *bugs = shipped(), *c;

	(void)s;
	/* no NMI caller: not this bug, whatever the registers say */
	assert_string_equal(match_id(bugs, hung_cell("kthread", "6.1.192-htab-fixed"), "nmi-abba-6.1"), "");
	assert_string_equal(match_id(bugs, hung_cell("kthread+irq", "6.1.192-htab-fixed"), "nmi-abba-6.1"), "");
	/* a line the entry does not name */
	assert_string_equal(match_id(bugs, hung_cell("kthread+nmi", "6.15.0-htab-fixed"), "nmi-abba-6.1"), "");
	assert_string_equal(match_id(bugs, hung_cell("kthread+nmi", "16.1.0"), "nmi-abba-6.1"), "");
	/*
	 * mut-push-nmi-spin: an NMI spinning too, but on a freelist head lock
	 * (per-CPU area), the others on a bucket: the planted bug, not this one
	 */
	assert_string_equal(match_id(bugs, hung_cell("kthread+nmi", "6.1.192-htab-mut-push-nmi-spin"),
				     "nmi-push-spin-mutant"), "");
	/* no hang.txt in the cell directory */
	assert_string_equal(match_id(bugs, hung_cell("kthread+nmi", "6.1.192-htab-fixed"), "no-such-cell"), "");
	/* another verdict or signature */
	c = hung_cell("kthread+nmi", "6.1.192-htab-fixed");
	json_object_set_new(c, "verdict", json_string("CRASH"));
	assert_string_equal(match_id(bugs, c, "nmi-abba-6.1"), "");
	c = hung_cell("kthread+nmi", "6.1.192-htab-fixed");
	json_object_set_new(c, "signature", json_string("hang: CPUs spinning in queued_spin_lock_slowpath (more)"));
	assert_string_equal(match_id(bugs, c, "nmi-abba-6.1"), "");
	/* a field the cell lacks never matches */
	c = hung_cell("kthread+nmi", "6.1.192-htab-fixed");
	json_object_del(c, "kernel_release");
	assert_string_equal(match_id(bugs, c, "nmi-abba-6.1"), "");
	json_decref(bugs);
}

/* A list written to a temporary file, loaded: the error ("" when it loads). */
static const char *load_err(const char *text)
{
	static char err[512];
	char path[] = "/tmp/test_known.XXXXXX";
	int fd = mkstemp(path);
	json_t *b;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	err[0] = '\0';
	b = known_bugs_load(path, err, sizeof(err));
	unlink(path);
	if (b)
		assert_string_equal(err, "");
	else
		assert_non_null(strstr(err, path));	/* names the file */
	json_decref(b);
	return err;
}

#define ENTRY(match, evidence) \
	"{\"bugs\": [{\"id\": \"x\", \"title\": \"t\", \"see\": \"s\", " match evidence "}]}"

static void test_bad_lists(void **s)
{
	(void)s;
	assert_string_equal(load_err(ENTRY("\"match\": {\"verdict\": \"^TIMEOUT$\"}", "")), "");
	assert_non_null(strstr(load_err("{\"bugs\": ["), "line"));
	assert_non_null(strstr(load_err("{\"bug\": []}"), "no \"bugs\" array"));
	assert_non_null(strstr(load_err("{\"bugs\": [3]}"), "bugs[0]: not an object"));
	assert_non_null(strstr(load_err(ENTRY("\"match\": {\"signature\": \"(\"}", "")),
			       "bugs[0] (x): \"match.signature\": regex /(/"));
	assert_non_null(strstr(load_err(ENTRY("\"match\": {}", "")), "\"match\" missing or empty"));
	assert_non_null(strstr(load_err("{\"bugs\": [{\"id\": \"x\", \"match\": {\"a\": \"b\"}}]}"),
			       "\"title\" missing"));
	assert_non_null(strstr(load_err(ENTRY("\"match\": {\"verdict\": 1}", "")), "\"match.verdict\" is not a string"));
	assert_non_null(strstr(load_err(ENTRY("\"match\": {\"verdict\": \"T\"}, ",
					      "\"evidence\": {\"../cell.json\": [\"a\"]}")),
			       "\"evidence.../cell.json\": wants a file name"));
	assert_non_null(strstr(load_err(ENTRY("\"match\": {\"verdict\": \"T\"}, ",
					      "\"evidence\": {\"hang.txt\": [\"a\", \"[\"]}")),
			       "\"evidence.hang.txt[1]\": regex /[/"));
	assert_non_null(strstr(load_err(ENTRY("\"match\": {\"verdict\": \"T\"}, ",
					      "\"evidence\": {\"hang.txt\": []}")),
			       "non-empty array"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abba_matched),
		cmocka_unit_test(test_abba_narrow),
		cmocka_unit_test(test_bad_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
