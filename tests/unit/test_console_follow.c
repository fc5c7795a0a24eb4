/*
 * Following a console while it grows (console_follow.c) and cutting the
 * first report out of it (console_excerpt), on the fixture consoles.
 */
#include "testlib.h"

#include <fcntl.h>

#include "console_fixture.h"
#include "parse/console_follow.h"
#include "parse/console_scan.h"

/* Fed in pieces of any size, the follower finds what the whole-file scan finds. */
static void test_follow_agrees_with_scan(void **s)
{
	static const size_t chunks[] = { 1, 3, 7, 64, 100000 };
	struct dirent **fixtures;
	int nfixtures = console_fixture_names(&fixtures);

	(void)s;
	for (int fx = 0; fx < nfixtures; fx++) {
		char *text = console_fixture_text(fixtures[fx]->d_name);
		struct console_report r;
		int found = console_scan(text, &r);

		for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
			struct console_follow f;
			size_t len = strlen(text), hits = 0;

			console_follow_init(&f);
			for (size_t off = 0; off < len; off += chunks[c]) {
				size_t n = len - off < chunks[c] ? len - off : chunks[c];

				hits += (size_t)console_follow_feed(&f, text + off, n);
			}
			assert_int_equal(hits, (size_t)found);
			assert_int_equal(f.kind, found ? r.kind : CK_NONE);
			if (found)
				assert_int_equal(f.report_lineno, r.lineno);
		}
		free(text);
		free(fixtures[fx]);
	}
	free(fixtures);
}

static void append(const char *path, const char *s, size_t n)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, s, n), (ssize_t)n);
	close(fd);
}

/*
 * The console grows line by line, the header line in two writes: the report
 * counts once its line is complete, on that very poll, and every byte of the
 * file is read exactly once over all the polls.
 */
static void test_follow_file_reads_each_byte_once(void **s)
{
	char *text = console_fixture_text("oops_null.log");
	char tmpl[] = "/tmp/test_follow.XXXXXX", path[256];
	struct console_follow f;
	const char *p = text;
	int line = 0, found_at = 0;

	(void)s;
	assert_non_null(mkdtemp(tmpl));
	snprintf(path, sizeof(path), "%s/console.log", tmpl);
	console_follow_init(&f);
	assert_int_equal(console_follow_file(&f, path), 0);	/* not there yet */
	while (*p) {
		size_t n = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');

		line++;
		append(path, p, n / 2);
		assert_int_equal(console_follow_file(&f, path), 0);	/* half a line */
		append(path, p + n / 2, n - n / 2);
		if (console_follow_file(&f, path)) {
			assert_int_equal(found_at, 0);
			found_at = line;
		}
		assert_int_equal(console_follow_file(&f, path), 0);	/* nothing new */
		p += n;
	}
	assert_int_equal(found_at, 5);	/* BUG: kernel NULL pointer dereference */
	assert_int_equal(f.kind, CK_OOPS);
	assert_int_equal(f.bytes_read, (long long)strlen(text));
	assert_int_equal(f.off, (long long)strlen(text));
	unlink(path);
	rmdir(tmpl);
	free(text);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static const char *last_line(const char *s)
{
	const char *end = s + strlen(s) - 1, *p = end;

	while (p > s && p[-1] != '\n')
		p--;
	return p;
}

static char *excerpt_of(const char *file)
{
	char *text = console_fixture_text(file), *ex;
	struct console_report r;

	assert_int_equal(console_scan(text, &r), 1);
	ex = console_excerpt(text, r.lineno);
	free(text);
	assert_non_null(ex);
	return ex;
}

/* An Oops runs from its BUG line through "---[ end trace", not into the panic after it. */
static void test_excerpt_oops(void **s)
{
	char *ex = excerpt_of("oops_null.log");

	(void)s;
	assert_int_equal(strncmp(ex, "[    9.104281] BUG: kernel NULL pointer dereference", 51), 0);
	assert_non_null(strstr(ex, "Oops: 0000 [#1]"));
	assert_non_null(strstr(ex, "ht_worker+0xa8/0x140 [htab_torture]"));
	assert_non_null(strstr(ex, "Modules linked in:"));
	assert_string_equal(last_line(ex), "[    9.117781] ---[ end trace 0000000000000000 ]---\n");
	assert_null(strstr(ex, "Kernel panic"));
	assert_int_equal(count_lines(ex), 33);
	free(ex);
}

/* A WARNING ends at its end-trace line; the module's own lines after it are not in it. */
static void test_excerpt_warning(void **s)
{
	char *ex = excerpt_of("warning.log");

	(void)s;
	assert_int_equal(strncmp(ex, "[   10.219371] WARNING: CPU: 0 PID: 212", 39), 0);
	assert_string_equal(last_line(ex), "[   10.227876] ---[ end trace 0000000000000000 ]---\n");
	assert_null(strstr(ex, "End of test"));
	free(ex);
}

/* No end-trace line: a lockup ends with the </TASK> of its call trace. */
static void test_excerpt_lockup_and_stall(void **s)
{
	char *ex = excerpt_of("soft_lockup.log");

	(void)s;
	assert_non_null(strstr(ex, "watchdog: BUG: soft lockup - CPU#1 stuck for 26s!"));
	assert_string_equal(last_line(ex), "[   36.113511]  </TASK>\n");
	assert_int_equal(count_lines(ex), 20);
	free(ex);
	/* the RCU stall's <IRQ> part and its task part are one trace */
	ex = excerpt_of("rcu_stall.log");
	assert_non_null(strstr(ex, "</IRQ>"));
	assert_string_equal(last_line(ex), "[   31.212708]  </TASK>\n");
	free(ex);
	ex = excerpt_of("panic_sysrq.log");
	assert_non_null(strstr(ex, "Kernel Offset"));
	assert_non_null(strstr(last_line(ex), "---[ end Kernel panic - not syncing: sysrq triggered crash ]---"));
	free(ex);
}

/* What follows a finished trace (the guest going on) stays out; a second stack stays in. */
static void test_excerpt_stops_after_trace(void **s)
{
	char *text = console_fixture_text("soft_lockup.log"), *more, *ex;
	struct console_report r;

	(void)s;
	assert_true(asprintf(&more, "%s[40.1] runner: module not done after 60s\n"
			     "[   41.0] htab_torture: stopping\n", text) > 0);
	assert_int_equal(console_scan(more, &r), 1);
	ex = console_excerpt(more, r.lineno);
	assert_null(strstr(ex, "runner:"));
	assert_string_equal(last_line(ex), "[   36.113511]  </TASK>\n");
	free(ex);
	free(more);
	/* an NMI backtrace of another CPU right after </TASK> belongs to the same report */
	assert_true(asprintf(&more, "%s[   36.200000] NMI backtrace for cpu 0\n"
			     "[   36.200001] Call Trace:\n[   36.200002]  <TASK>\n"
			     "[   36.200003]  ht_worker+0xa8/0x140\n[   36.200004]  </TASK>\n"
			     "[   37.000000] normal line\n", text) > 0);
	assert_int_equal(console_scan(more, &r), 1);
	ex = console_excerpt(more, r.lineno);
	assert_non_null(strstr(ex, "NMI backtrace for cpu 0"));
	assert_null(strstr(ex, "normal line"));
	free(ex);
	free(more);
	free(text);
}

/*
 * Guest user space shares the console: a line of the runner ends a report
 * without a trace (the test action's bare WARNING) and is left out of a trace
 * it interleaves with. A panic's "Kernel Offset" is its own last line when
 * the guest is gone before "---[ end Kernel panic".
 */
static void test_excerpt_user_space_lines(void **s)
{
	char *ex = excerpt_of("test_action_warn.log"), *text;
	struct console_report r;

	(void)s;
	assert_string_equal(ex, "[    3.702113] WARNING: CPU: 0 PID: 1 at test/htab_torture.c:1 test_warning+0x0/0x10\n");
	free(ex);
	text = "[    9.1] x\n"
	       "[    9.425814] Kernel panic - not syncing: sysrq triggered crash\n"
	       "[    9.426872] Call Trace:\n"
	       "[    9.427518]  <TASK>\n"
	       "[    9.428056]  panic+0x118/0x2f4\n"
	       "[9.43] runner: something\n"
	       "htab-init: exit status 0\n"
	       "[    9.428309]  sysrq_handle_crash+0x16/0x20\n"
	       "[    9.435280]  </TASK>\n"
	       "[    9.436132] Kernel Offset: 0x2e400000 from 0xffffffff81000000\n";
	assert_int_equal(console_scan(text, &r), 1);
	ex = console_excerpt(text, r.lineno);
	assert_non_null(strstr(ex, "sysrq_handle_crash+0x16/0x20"));
	assert_null(strstr(ex, "runner:"));
	assert_null(strstr(ex, "htab-init"));
	assert_string_equal(last_line(ex), "[    9.436132] Kernel Offset: 0x2e400000 from 0xffffffff81000000\n");
	assert_int_equal(count_lines(ex), 7);
	free(ex);
}

/* A report that never ends is cut at EXCERPT_MAX_LINES lines / EXCERPT_MAX_BYTES bytes. */
static void test_excerpt_caps(void **s)
{
	char *text = NULL, *ex;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char wide[1001];

	(void)s;
	fputs("[ 1.0] BUG: soft lockup - CPU#0 stuck for 22s! [x:1]\n[ 1.0] Call Trace:\n", f);
	for (int i = 0; i < 400; i++)
		fprintf(f, "[ 1.0]  frame_%d+0x1/0x2\n", i);
	fclose(f);
	ex = console_excerpt(text, 1);
	assert_int_equal(count_lines(ex), EXCERPT_MAX_LINES + 1);
	assert_string_equal(last_line(ex), "[excerpt cut]\n");
	free(ex);
	free(text);
	memset(wide, 'x', 1000);
	wide[1000] = '\0';
	f = open_memstream(&text, &len);
	fputs("[ 1.0] BUG: soft lockup - CPU#0 stuck for 22s! [x:1]\n", f);
	for (int i = 0; i < 40; i++)
		fprintf(f, "[ 1.0] %s\n", wide);
	fclose(f);
	ex = console_excerpt(text, 1);
	assert_true(strlen(ex) < EXCERPT_MAX_BYTES);
	assert_true(strlen(ex) > EXCERPT_MAX_BYTES - 1100);
	assert_string_equal(last_line(ex), "[excerpt cut]\n");
	free(ex);
	free(text);
	assert_null(console_excerpt("one line\n", 5));
}

static void test_line_kind(void **s)
{
	(void)s;
	assert_int_equal(console_line_kind("[    9.1] BUG: kernel NULL pointer dereference, address: 10"),
			 CK_OOPS);
	assert_int_equal(console_line_kind("[ 3.7] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x0/0x10\r\n"),
			 CK_WARNING);
	assert_int_equal(console_line_kind("[ 3.7] rcu: INFO: rcu_preempt self-detected stall on CPU"),
			 CK_RCU_STALL);
	assert_int_equal(console_line_kind("[8.4] runner: insmod htab_torture.ko"), CK_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follow_agrees_with_scan),
		cmocka_unit_test(test_follow_file_reads_each_byte_once),
		cmocka_unit_test(test_excerpt_oops),
		cmocka_unit_test(test_excerpt_warning),
		cmocka_unit_test(test_excerpt_lockup_and_stall),
		cmocka_unit_test(test_excerpt_stops_after_trace),
		cmocka_unit_test(test_excerpt_user_space_lines),
		cmocka_unit_test(test_excerpt_caps),
		cmocka_unit_test(test_line_kind),
	};

	return cmocka_run_group_tests_name("console_follow", tests, NULL, NULL);
}
