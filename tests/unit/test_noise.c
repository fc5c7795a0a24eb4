/*
 * Noise profiles (noise.c): every profile's stress-ng command line at a few
 * vCPU counts ({N} vCPUs, {H} half, {Q} a quarter, each at least 1), the
 * common tail, and names that are not profiles.
 */
#include "testlib.h"

#include "run/plan/noise.h"

#define TAIL " --metrics-brief --yaml noise.yaml -t 77s"

/* The command of each profile at 1, 2, 4 and 16 vCPUs ("" for none). */
static const struct {
	const char *profile;
	const char *cmd[4];
} expected[] = {
	{ "none", { "", "", "", "" } },
	{ "cpu", {
		"stress-ng --cpu 1 --cpu-method int64" TAIL,
		"stress-ng --cpu 2 --cpu-method int64" TAIL,
		"stress-ng --cpu 4 --cpu-method int64" TAIL,
		"stress-ng --cpu 16 --cpu-method int64" TAIL } },
	{ "vm", {
		"stress-ng --vm 1 --vm-bytes 64M" TAIL,
		"stress-ng --vm 1 --vm-bytes 64M" TAIL,
		"stress-ng --vm 1 --vm-bytes 64M" TAIL,
		"stress-ng --vm 4 --vm-bytes 64M" TAIL } },
	{ "sched", {
		"stress-ng --switch 1 --yield 1" TAIL,
		"stress-ng --switch 1 --yield 1" TAIL,
		"stress-ng --switch 2 --yield 2" TAIL,
		"stress-ng --switch 8 --yield 8" TAIL } },
	{ "irq", {
		"stress-ng --timer 1 --timer-freq 1000 --clock 1" TAIL,
		"stress-ng --timer 2 --timer-freq 1000 --clock 1" TAIL,
		"stress-ng --timer 4 --timer-freq 1000 --clock 2" TAIL,
		"stress-ng --timer 16 --timer-freq 1000 --clock 8" TAIL } },
	{ "mixed", {
		"stress-ng --cpu 1 --cpu-method int64 --vm 1 --vm-bytes 32M --switch 1" TAIL,
		"stress-ng --cpu 1 --cpu-method int64 --vm 1 --vm-bytes 32M --switch 1" TAIL,
		"stress-ng --cpu 2 --cpu-method int64 --vm 1 --vm-bytes 32M --switch 1" TAIL,
		"stress-ng --cpu 8 --cpu-method int64 --vm 4 --vm-bytes 32M --switch 4" TAIL } },
};
static const int vcpus[4] = { 1, 2, 4, 16 };

#define NEXPECTED (sizeof(expected) / sizeof(expected[0]))

/* Every profile of the table has its expected commands here, and they match. */
static void test_every_profile_command(void **s)
{
	size_t nprofiles = 0;

	(void)s;
	for (const struct noise_profile *p = noise_profiles; p->name; p++, nprofiles++) {
		size_t e = 0;

		while (e < NEXPECTED && strcmp(expected[e].profile, p->name))
			e++;
		if (e == NEXPECTED)
			fail_msg("profile %s has no expected command in this test", p->name);
		assert_ptr_equal(noise_find(p->name), p);
		for (int v = 0; v < 4; v++) {
			char *cmd = noise_cmd(p, vcpus[v], 77);

			assert_non_null(cmd);
			assert_string_equal(cmd, expected[e].cmd[v]);
			free(cmd);
		}
	}
	assert_int_equal(nprofiles, NEXPECTED);
}

/* stress-ng's own -t is the cell's timeout. */
static void test_timeout_tail(void **s)
{
	char *cmd = noise_cmd(noise_find("cpu"), 2, 300);

	(void)s;
	assert_string_equal(cmd, "stress-ng --cpu 2 --cpu-method int64 --metrics-brief --yaml noise.yaml -t 300s");
	free(cmd);
}

/* Names are exact: anything else is no profile (run refuses it: test_cli). */
static void test_unknown_profiles(void **s)
{
	(void)s;
	assert_null(noise_find("bogus"));
	assert_null(noise_find(""));
	assert_null(noise_find("CPU"));
	assert_null(noise_find("cpu "));
	assert_null(noise_find("mix"));
}

/* The names for error messages and the --help table list every profile, in order. */
/* What a profile's vm workers map, which guest RAM adds: {Q} workers of vm_mb MB. */
static void test_noise_mem(void **s)
{
	(void)s;
	assert_int_equal(noise_mem_mb(noise_find("none"), 96), 0);
	assert_int_equal(noise_mem_mb(noise_find("cpu"), 96), 0);
	assert_int_equal(noise_mem_mb(noise_find("vm"), 1), 64);	/* at least one worker */
	assert_int_equal(noise_mem_mb(noise_find("vm"), 96), 24 * 64);
	assert_int_equal(noise_mem_mb(noise_find("mixed"), 16), 4 * 32);
	assert_int_equal(noise_mem_mb(NULL, 16), 0);
}

static void test_names_and_table(void **s)
{
	char *names = NULL, *table = NULL;
	const char *l;
	size_t len;
	FILE *f;

	(void)s;
	f = open_memstream(&names, &len);
	noise_print_names(f);
	fclose(f);
	assert_string_equal(names, "none, cpu, vm, sched, irq, mixed");
	f = open_memstream(&table, &len);
	noise_print_table(f);
	fclose(f);
	/* one line a profile, in order: "  NAME   DESCRIPTION[; N MB a vm worker, …]" */
	assert_int_equal(strncmp(table, "  none   no noise\n", 18), 0);
	l = table;
	for (const struct noise_profile *p = noise_profiles; p->name; p++) {
		const char *eol = strchr(l, '\n');

		assert_non_null(eol);
		assert_int_equal(strncmp(l, "  ", 2), 0);
		assert_int_equal(strncmp(l + 2, p->name, strlen(p->name)), 0);
		if (p->vm_mb) {
			char tail[192];

			snprintf(tail, sizeof(tail), "%s; %d MB a vm worker, added to the guest's RAM",
				 p->description, p->vm_mb);
			assert_ptr_equal(strstr(l, tail), eol - strlen(tail));
		} else {
			assert_ptr_equal(strstr(l, p->description), eol - strlen(p->description));
		}
		l = eol + 1;
	}
	assert_string_equal(l, "");
	free(names);
	free(table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_profile_command),
		cmocka_unit_test(test_timeout_tail),
		cmocka_unit_test(test_unknown_profiles),
		cmocka_unit_test(test_noise_mem),
		cmocka_unit_test(test_names_and_table),
	};

	return cmocka_run_group_tests_name("noise", tests, NULL, NULL);
}
