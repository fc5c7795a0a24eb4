/*
 * kmod/fault_spec.h, the fault= grammar's one parser (the module parses
 * every fault= with it, the harness --fault and --modparam fault=): each
 * valid form into its fields, each error with its message and the fault
 * it names, the limits of characters and faults.
 */
#include "testlib.h"

#include "../kmod/fault_spec.h"

static struct ht_fault_spec specs[HT_MAX_FAULTS];
static struct ht_fault_error err;
static int nspecs;

static int parse(const char *value)
{
	memset(specs, 0, sizeof(specs));
	memset(&err, 0, sizeof(err));
	nspecs = 0;
	return ht_fault_value_parse(value, specs, HT_MAX_FAULTS, &nspecs, &err);
}

static void test_delay_full(void **s)
{
	(void)s;
	assert_int_equal(parse("delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3,5"), 0);
	assert_int_equal(nspecs, 1);
	assert_int_equal(specs[0].inj, HT_INJ_delay);
	assert_string_equal(specs[0].text, "delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3,5");
	assert_string_equal(specs[0].symbol, "__pcpu_freelist_pop");
	assert_int_equal(specs[0].ns, 2000);
	assert_int_equal(specs[0].p_ppb, 10000000);
	assert_int_equal(specs[0].every, 0);
	assert_string_equal(specs[0].cpus, "0-3,5");
}

/* p= as written, in parts per billion */
static const struct {
	const char *value;
	unsigned int ppb;
} probs[] = {
	{ "exhaust:p=1", HT_PPB }, { "exhaust:p=1.0", HT_PPB }, { "exhaust:p=.5", HT_PPB / 2 },
	{ "exhaust:p=0.01", HT_PPB / 100 }, { "exhaust:p=0.000000001", 1 },
};

static void test_forms(void **s)
{
	(void)s;
	/* the default symbol, a bare N, us */
	assert_int_equal(parse("delay:10us"), 0);
	assert_string_equal(specs[0].symbol, "");
	assert_int_equal(specs[0].ns, 10000);
	assert_int_equal(specs[0].p_ppb, 0);	/* not given: the module's p=1 */
	assert_string_equal(specs[0].cpus, "");
	assert_int_equal(parse("delay:alloc_htab_elem:5:every=100"), 0);
	assert_int_equal(specs[0].ns, 5);
	assert_int_equal(specs[0].every, 100);
	assert_int_equal(parse("delay:1000000ns"), 0);
	assert_int_equal(specs[0].ns, HT_DELAY_MAX_NS);
	assert_int_equal(parse("delay:1000us"), 0);
	assert_int_equal(specs[0].ns, HT_DELAY_MAX_NS);
	/* exhaust, with and without options; p written five ways */
	assert_int_equal(parse("exhaust"), 0);
	assert_int_equal(specs[0].inj, HT_INJ_exhaust);
	assert_int_equal(specs[0].ns, 0);
	for (size_t i = 0; i < sizeof(probs) / sizeof(probs[0]); i++) {
		assert_int_equal(parse(probs[i].value), 0);
		assert_int_equal(specs[0].p_ppb, probs[i].ppb);
	}
	assert_int_equal(parse("exhaust:every=4294967295:cpus=1"), 0);
	assert_int_equal(specs[0].every, 4294967295U);
	/* exhaust takes a symbol too (the module probes it) */
	assert_int_equal(parse("exhaust:pcpu_freelist_pop"), 0);
	assert_string_equal(specs[0].symbol, "pcpu_freelist_pop");
	/* lockhold: a duration, a symbol optional, as delay */
	assert_int_equal(parse("lockhold:20us:p=0.5"), 0);
	assert_int_equal(specs[0].inj, HT_INJ_lockhold);
	assert_int_equal(specs[0].ns, 20000);
	assert_string_equal(specs[0].symbol, "");
	assert_int_equal(parse("lockhold:__pcpu_freelist_push:500ns"), 0);
	assert_string_equal(specs[0].symbol, "__pcpu_freelist_push");
	assert_int_equal(parse("lockhold:p=0.5"), -1);
	assert_int_equal(err.code, HT_FE_NO_DURATION);
	/* a later cpus= wins, as the module's cpulist_parse() did */
	assert_int_equal(parse("exhaust:cpus=0:cpus=1"), 0);
	assert_string_equal(specs[0].cpus, "1");
}

static void test_none_and_joins(void **s)
{
	(void)s;
	assert_int_equal(parse("none"), 0);
	assert_int_equal(nspecs, 0);
	assert_int_equal(parse("none+exhaust:p=1+none"), 0);
	assert_int_equal(nspecs, 1);
	assert_int_equal(parse("exhaust:p=0.1+delay:alloc_htab_elem:5us:every=100"), 0);
	assert_int_equal(nspecs, 2);
	assert_string_equal(specs[0].text, "exhaust:p=0.1");
	assert_string_equal(specs[1].text, "delay:alloc_htab_elem:5us:every=100");
	assert_int_equal(specs[1].ns, 5000);
	/* several values (fault= given more than once) share the limit */
	assert_int_equal(parse("exhaust+exhaust+exhaust"), 0);
	assert_int_equal(ht_fault_value_parse("exhaust", specs, HT_MAX_FAULTS, &nspecs, &err), 0);
	assert_int_equal(nspecs, 4);
	assert_int_equal(ht_fault_value_parse("exhaust", specs, HT_MAX_FAULTS, &nspecs, &err), -1);
	assert_int_equal(err.code, HT_FE_MANY);
	assert_int_equal(ht_fault_value_parse("none", specs, HT_MAX_FAULTS, &nspecs, &err), 0);
}

/* @value is refused with @code, in the fault @spec, with the message @msg. */
static void expect_error(const char *value, int code, const char *spec, const char *msg)
{
	char buf[256];

	if (parse(value) != -1)
		fail_msg("'%s' was accepted", value);
	if (err.code != code)
		fail_msg("'%s': error %d, not %d (%s)", value, err.code, code,
			 ht_fault_strerror(value, &err, buf, sizeof(buf)));
	assert_int_equal(err.spec_len, strlen(spec));
	assert_memory_equal(value + err.spec_at, spec, strlen(spec));
	assert_string_equal(ht_fault_strerror(value, &err, buf, sizeof(buf)), msg);
}

/* Each error: the value, its code, the fault it names and the message. */
static const struct bad_value {
	const char *value;
	int code;
	const char *spec, *msg;
} bad_values[] = {
	{ "delay:x:1us;reboot", HT_FE_CHARS, "delay:x:1us;reboot",
	  "only letters, digits and _.:=,+- are allowed" },
	{ "delay:x:1us p=1", HT_FE_CHARS, "delay:x:1us p=1",
	  "only letters, digits and _.:=,+- are allowed" },
	{ "exhaust+exhaust+exhaust+exhaust+exhaust:p=1", HT_FE_MANY, "exhaust:p=1",
	  "at most 4 faults" },
	{ "", HT_FE_EMPTY, "",
	  "an empty fault (valid: none, delay:DURATION, exhaust, lockhold:DURATION, joined with +)" },
	{ "delay:x:1us+", HT_FE_EMPTY, "",
	  "an empty fault (valid: none, delay:DURATION, exhaust, lockhold:DURATION, joined with +)" },
	{ "exhaust++none", HT_FE_EMPTY, "",
	  "an empty fault (valid: none, delay:DURATION, exhaust, lockhold:DURATION, joined with +)" },
	{ "exhausted", HT_FE_TYPE, "exhausted",
	  "unknown fault type \"exhausted\" (valid: none delay exhaust lockhold)" },
	{ "delay:x:1us+nonsense:p=1", HT_FE_TYPE, "nonsense:p=1",
	  "unknown fault type \"nonsense\" (valid: none delay exhaust lockhold)" },
	{ "none:p=1", HT_FE_NONE_FIELDS, "none:p=1", "none takes no fields" },
	{ "exhaust:p=0.5:every=2", HT_FE_SAMPLING, "exhaust:p=0.5:every=2",
	  "give one of p= and every=" },
	{ "exhaust:p=0.5:p=0.5", HT_FE_SAMPLING, "exhaust:p=0.5:p=0.5",
	  "give one of p= and every=" },
	{ "exhaust:p=0", HT_FE_P, "exhaust:p=0", "p=0 must be a decimal in (0, 1]" },
	{ "exhaust:p=1.5", HT_FE_P, "exhaust:p=1.5", "p=1.5 must be a decimal in (0, 1]" },
	{ "exhaust:p=", HT_FE_P, "exhaust:p=", "p= must be a decimal in (0, 1]" },
	{ "exhaust:p=1e-3", HT_FE_P, "exhaust:p=1e-3", "p=1e-3 must be a decimal in (0, 1]" },
	{ "exhaust:p=0.1.2", HT_FE_P, "exhaust:p=0.1.2", "p=0.1.2 must be a decimal in (0, 1]" },
	{ "exhaust:every=0", HT_FE_EVERY, "exhaust:every=0", "every=0 must be an integer >= 1" },
	{ "exhaust:every=4294967296", HT_FE_EVERY, "exhaust:every=4294967296",
	  "every=4294967296 must be an integer >= 1" },
	{ "exhaust:every=-1", HT_FE_EVERY, "exhaust:every=-1", "every=-1 must be an integer >= 1" },
	{ "exhaust:cpus=", HT_FE_CPUS, "exhaust:cpus=", "cpus= needs a CPU list (e.g. cpus=0-3)" },
	{ "exhaust:prob=1", HT_FE_OPT, "exhaust:prob=1",
	  "unknown option prob= (valid: p= every= cpus=)" },
	{ "delay:x:=1:1us", HT_FE_OPT, "delay:x:=1:1us",
	  "unknown option = (valid: p= every= cpus=)" },
	{ "delay:x:0", HT_FE_DURATION, "delay:x:0",
	  "duration 0 must be 1..1000000 ns, written N, Nns or Nus" },
	{ "delay:1000001ns", HT_FE_DURATION, "delay:1000001ns",
	  "duration 1000001ns must be 1..1000000 ns, written N, Nns or Nus" },
	{ "delay:1001us", HT_FE_DURATION, "delay:1001us",
	  "duration 1001us must be 1..1000000 ns, written N, Nns or Nus" },
	{ "delay:2ms", HT_FE_DURATION, "delay:2ms",
	  "duration 2ms must be 1..1000000 ns, written N, Nns or Nus" },
	{ "delay:99999999999999999999999", HT_FE_DURATION, "delay:99999999999999999999999",
	  "duration 99999999999999999999999 must be 1..1000000 ns, written N, Nns or Nus" },
	/* a symbol of HT_FAULT_SYM_LEN characters */
	{ "exhaust:abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl", HT_FE_SYMBOL,
	  "exhaust:abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl",
	  "symbol abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl too long" },
	{ "delay:", HT_FE_FIELD, "delay:", "unexpected field \"\"" },
	{ "delay:a:b:1us", HT_FE_FIELD, "delay:a:b:1us", "unexpected field \"b\"" },
	{ "delay:1us:x", HT_FE_FIELD, "delay:1us:x", "unexpected field \"x\"" },
	{ "delay:1us:2us", HT_FE_FIELD, "delay:1us:2us", "unexpected field \"2us\"" },
	{ "exhaust::p=1", HT_FE_FIELD, "exhaust::p=1", "unexpected field \"\"" },
	{ "delay", HT_FE_NO_DURATION, "delay",
	  "delay needs a duration (e.g. delay:__pcpu_freelist_pop:2000ns)" },
	{ "exhaust+delay:sym:p=1", HT_FE_NO_DURATION, "delay:sym:p=1",
	  "delay needs a duration (e.g. delay:__pcpu_freelist_pop:2000ns)" },
};

static void test_errors(void **s)
{
	char long_value[HT_FAULT_LEN + 1];

	(void)s;
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++)
		expect_error(bad_values[i].value, bad_values[i].code, bad_values[i].spec,
			     bad_values[i].msg);
	memset(long_value, 'a', HT_FAULT_LEN);
	long_value[HT_FAULT_LEN] = '\0';
	expect_error(long_value, HT_FE_LONG, long_value, "longer than 159 characters");
}

/* The longest value is taken; a message is cut to the buffer, never past it. */
static void test_limits(void **s)
{
	char value[HT_FAULT_LEN], buf[8];

	(void)s;
	memset(value, 0, sizeof(value));
	strcpy(value, "delay:");
	memset(value + 6, 'a', HT_FAULT_SYM_LEN - 1);
	strcat(value, ":1us:cpus=");
	memset(value + strlen(value), '1', HT_FAULT_TEXT_MAX - strlen(value));
	assert_int_equal(strlen(value), HT_FAULT_TEXT_MAX);
	assert_int_equal(parse(value), 0);
	assert_int_equal(strlen(specs[0].symbol), HT_FAULT_SYM_LEN - 1);
	assert_string_equal(specs[0].text, value);
	assert_int_equal(parse("bogus"), -1);
	assert_string_equal(ht_fault_strerror("bogus", &err, buf, sizeof(buf)), "unknown");
	/* every message names its own error */
	for (int code = HT_FE_OK + 1; code < HT_FE_NR; code++)
		assert_non_null(ht_fault_messages[code]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delay_full),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_none_and_joins),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
