/* Option tables (lib/opts.c): getopt's table and --help from one table. */
#include "testlib.h"

#include "lib/opts.h"

static const struct opt_spec specs[] = {
	{ "out", 'o', "DIR", "the run", "where" },
	{ "dry-run", 'n', NULL, "the run", "print only" },
	{ "fault", 'f', "SPEC", "matrix", "one\nper line" },
};

static void test_opts(void **s)
{
	struct option o[4];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)s;
	opts_long(o, specs, 3);
	assert_string_equal(o[0].name, "out");
	assert_int_equal(o[0].has_arg, required_argument);
	assert_int_equal(o[1].has_arg, no_argument);
	assert_int_equal(o[2].val, 'f');
	assert_null(o[3].name);
	opts_help(f, specs, 3);
	fclose(f);
	assert_string_equal(text,
			    "the run:\n"
			    "  --out DIR               where\n"
			    "  --dry-run               print only\n"
			    "\nmatrix:\n"
			    "  --fault SPEC            one\n"
			    "                            per line\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
