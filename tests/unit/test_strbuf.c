/* lib/strbuf's growing string and lib/util's checked path formatter and fmt_cut. */
#include <errno.h>
#include <limits.h>
#include <sys/resource.h>
#include "testlib.h"

#include "lib/strbuf.h"

static void test_grows_past_its_first_block(void **s)
{
	struct strbuf b = STRBUF_INIT;
	char *t;

	(void)s;
	assert_string_equal(sb_str(&b), "");
	for (int i = 0; i < 1000; i++)
		assert_int_equal(sb_appendf(&b, "%03d,", i), 0);
	assert_int_equal(b.len, 4000);
	assert_true(b.cap > b.len);
	assert_int_equal(strlen(sb_str(&b)), 4000);
	assert_memory_equal(sb_str(&b), "000,001,002,", 12);
	assert_string_equal(sb_str(&b) + 3996, "999,");
	t = sb_take(&b);
	assert_non_null(t);
	assert_int_equal(strlen(t), 4000);
	assert_null(b.s);
	assert_int_equal(b.len, 0);
	free(t);
}

static void test_formats_and_appends(void **s)
{
	struct strbuf b = STRBUF_INIT;
	char big[300];
	char *t;

	(void)s;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(sb_append(&b, "a"), 0);
	assert_int_equal(sb_appendf(&b, " %d %s %.2f", -7, "b", 1.5), 0);
	assert_string_equal(sb_str(&b), "a -7 b 1.50");
	/* one append longer than the room left: the second vsnprintf */
	assert_int_equal(sb_appendf(&b, "[%s]", big), 0);
	assert_int_equal(b.len, 11 + 2 + 299);
	assert_int_equal(sb_str(&b)[b.len - 1], ']');
	assert_int_equal(sb_str(&b)[b.len], '\0');
	assert_int_equal(sb_appendf(&b, "%s", ""), 0);
	assert_int_equal(b.len, 312);
	sb_free(&b);
	assert_null(b.s);
	/* nothing appended: still a string to free */
	t = sb_take(&b);
	assert_non_null(t);
	assert_string_equal(t, "");
	free(t);
}

/* An allocation refused (a 512 MiB append under a 128 MiB address-space rise): the error sticks. */
static void test_allocation_failure_sticks(void **s)
{
	struct strbuf b = STRBUF_INIT;
	struct rlimit old, lim;
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	int r;

	(void)s;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	assert_int_equal(sb_append(&b, "kept"), 0);
	assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
	lim = old;
	lim.rlim_cur = pages * (rlim_t)sysconf(_SC_PAGESIZE) + (128u << 20);
	assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
	errno = 0;
	r = sb_appendf(&b, "%*s", 512 << 20, "y");
	assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
	assert_int_equal(r, -1);
	assert_int_equal(errno, ENOMEM);
	assert_true(b.failed);
	assert_string_equal(sb_str(&b), "kept");
	assert_int_equal(sb_append(&b, "more"), -1);
	assert_string_equal(sb_str(&b), "kept");
	errno = 0;
	assert_null(sb_take(&b));
	assert_int_equal(errno, ENOMEM);
	assert_null(b.s);
	assert_false(b.failed);
}

static void test_pathf_fits_to_the_last_byte(void **s)
{
	char out[8], err[128] = "";

	(void)s;
	assert_int_equal(pathf_err(err, sizeof(err), out, sizeof(out), "%s/%s", "abc", "def"), 0);
	assert_string_equal(out, "abc/def");
	assert_string_equal(err, "");
	assert_int_equal(pathf(out, sizeof(out), "/%d", 42), 0);
	assert_string_equal(out, "/42");
}

static void test_pathf_too_long_is_an_error(void **s)
{
	char out[16], err[256] = "", longer[200];

	(void)s;
	errno = 0;
	assert_int_equal(pathf_err(err, sizeof(err), out, sizeof(out), "%s/%s", "/tmp/run", "cell-0001"), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_string_equal(out, "");
	assert_string_equal(err, "path too long (over 15 bytes): /tmp/run/cell-0...");
	/* the message names the start of a long path, not all of it */
	memset(longer, 'd', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	{
		char p[100];

		assert_int_equal(pathf_err(err, sizeof(err), p, sizeof(p), "/%s", longer), -1);
		assert_non_null(strstr(err, "(over 99 bytes): /ddd"));
		assert_int_equal(strlen(err), strlen("path too long (over 99 bytes): ") + 64 + 3);
	}
	errno = 0;
	assert_int_equal(pathf(out, sizeof(out), "%s", longer), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_string_equal(out, "");
}

/* A reason cut on purpose ends in "...", never in half a UTF-8 character. */
static void test_fmt_cut_marks_the_cut(void **s)
{
	char out[12];

	(void)s;
	assert_int_equal(fmt_cut(out, sizeof(out), "%s %d", "abc", 12), 0);
	assert_string_equal(out, "abc 12");
	assert_int_equal(fmt_cut(out, sizeof(out), "%s", "12345678901"), 0);
	assert_string_equal(out, "12345678901");
	assert_int_equal(fmt_cut(out, sizeof(out), "%s", "123456789012"), 1);
	assert_string_equal(out, "12345678...");
	/* "\u00d7" is 2 bytes at 7-8: cut at 8 it would be half of it */
	assert_int_equal(fmt_cut(out, sizeof(out), "1234567\u00d7 overcommit"), 1);
	assert_string_equal(out, "1234567...");
	assert_int_equal(fmt_cut(out, 3, "%s", "abc"), 1);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_past_its_first_block),
		cmocka_unit_test(test_formats_and_appends),
		cmocka_unit_test(test_allocation_failure_sticks),
		cmocka_unit_test(test_pathf_fits_to_the_last_byte),
		cmocka_unit_test(test_pathf_too_long_is_an_error),
		cmocka_unit_test(test_fmt_cut_marks_the_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
