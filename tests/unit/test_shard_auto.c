/* --shard auto's detection (run/plan/shard_auto.c) against a made-up environment. */
#include "testlib.h"

#include "run/plan/shard_auto.h"

/* The environment of one case: NAME=VALUE strings, NULL-ended. */
static const char *const *fake_env;

static char *fake_getenv(const char *name)
{
	size_t len = strlen(name);

	for (const char *const *e = fake_env; e && *e; e++)
		if (!strncmp(*e, name, len) && (*e)[len] == '=')
			return (char *)*e + len + 1;
	return NULL;
}

#define ENV(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define SLURM(id, min, count, ...) \
	ENV("SLURM_ARRAY_TASK_ID=" id, "SLURM_ARRAY_TASK_MIN=" min, "SLURM_ARRAY_TASK_COUNT=" count, ##__VA_ARGS__)

static char msg[1024];

static int detect(const char *const *env, int *i, int *n)
{
	fake_env = env;
	*i = *n = 0;
	return shard_auto(fake_getenv, i, n, msg, sizeof(msg));
}

#define EXPECT_SHARD(want_i, want_n, want_msg, env)               \
	do {                                                      \
		int i_, n_;                                       \
		assert_int_equal(detect(env, &i_, &n_), 0);       \
		assert_int_equal(i_, (want_i));                   \
		assert_int_equal(n_, (want_n));                   \
		assert_string_equal(msg, (want_msg));             \
	} while (0)

#define EXPECT_ERROR(want_part, env)                                                   \
	do {                                                                           \
		int i_, n_;                                                            \
		assert_int_equal(detect(env, &i_, &n_), -1);                           \
		assert_non_null(strstr(msg, "--shard auto: "));                        \
		if (!strstr(msg, (want_part)))                                         \
			fail_msg("'%s' lacks '%s'", msg, (want_part));                 \
		assert_null(strchr(msg, '\n'));                                        \
	} while (0)

static void test_slurm(void **s)
{
	(void)s;
	EXPECT_SHARD(3, 8, "shard 3/8 from Slurm (SLURM_ARRAY_TASK_ID=7, SLURM_ARRAY_TASK_MIN=5, SLURM_ARRAY_TASK_COUNT=8)",
		     ENV("SLURM_ARRAY_TASK_ID=7", "SLURM_ARRAY_TASK_MIN=5", "SLURM_ARRAY_TASK_COUNT=8"));
	EXPECT_SHARD(1, 4, "shard 1/4 from Slurm (SLURM_ARRAY_TASK_ID=0, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_STEP=1, SLURM_ARRAY_TASK_MAX=3)",
		     ENV("SLURM_ARRAY_TASK_ID=0", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=4",
			 "SLURM_ARRAY_TASK_STEP=1", "SLURM_ARRAY_TASK_MAX=3"));
	/* --array=0-15:4: tasks 0 4 8 12. */
	EXPECT_SHARD(4, 4, "shard 4/4 from Slurm (SLURM_ARRAY_TASK_ID=12, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_STEP=4, SLURM_ARRAY_TASK_MAX=12)",
		     ENV("SLURM_ARRAY_TASK_ID=12", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_COUNT=4",
			 "SLURM_ARRAY_TASK_STEP=4", "SLURM_ARRAY_TASK_MAX=12"));
	const struct { const char *want; const char *const *env; } bad[] = {
		{ "SLURM_ARRAY_TASK_COUNT is not set", ENV("SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_MIN=1") },
		{ "SLURM_ARRAY_TASK_MIN is not set", ENV("SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=2") },
		/* Off the step, below MIN, past the last task. */
		{ "valid: SLURM_ARRAY_TASK_ID one of MIN, MIN+STEP", SLURM("6", "0", "4", "SLURM_ARRAY_TASK_STEP=4") },
		{ "(SLURM_ARRAY_TASK_ID=4, SLURM_ARRAY_TASK_MIN=5", SLURM("4", "5", "2") },
		{ "valid: SLURM_ARRAY_TASK_ID one of", SLURM("7", "5", "2") },
		/* --array=1,3,8: no order of shards. */
		{ "not an array MIN-MAX[:STEP]",
		  SLURM("3", "1", "3", "SLURM_ARRAY_TASK_STEP=1", "SLURM_ARRAY_TASK_MAX=8") },
		{ "SLURM_ARRAY_TASK_STEP >= 1", SLURM("3", "1", "3", "SLURM_ARRAY_TASK_STEP=0") },
		{ "SLURM_ARRAY_TASK_ID must be an integer", SLURM("x", "1", "3") },
		{ "SLURM_ARRAY_TASK_COUNT <= 10000", SLURM("1", "1", "10001") },
	};

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++)
		EXPECT_ERROR(bad[k].want, bad[k].env);
}

static void test_index0(void **s)
{
	(void)s;
	EXPECT_SHARD(1, 3, "shard 1/3 from Kubernetes (JOB_COMPLETION_INDEX=0, HTAB_SHARD_COUNT=3)",
		     ENV("JOB_COMPLETION_INDEX=0", "HTAB_SHARD_COUNT=3"));
	EXPECT_SHARD(3, 3, "shard 3/3 from GitHub Actions (HTAB_SHARD_INDEX=2, HTAB_SHARD_COUNT=3)",
		     ENV("GITHUB_ACTIONS=true", "HTAB_SHARD_INDEX=2", "HTAB_SHARD_COUNT=3"));
	EXPECT_SHARD(2, 5, "shard 2/5 from the environment (HTAB_SHARD_INDEX=1, HTAB_SHARD_COUNT=5)",
		     ENV("HTAB_SHARD_INDEX=1", "HTAB_SHARD_COUNT=5"));
	/* GITHUB_ACTIONS other than true is not GitHub's runner. */
	EXPECT_SHARD(2, 5, "shard 2/5 from the environment (HTAB_SHARD_INDEX=1, HTAB_SHARD_COUNT=5)",
		     ENV("GITHUB_ACTIONS=false", "HTAB_SHARD_INDEX=1", "HTAB_SHARD_COUNT=5"));
	EXPECT_ERROR("Kubernetes (JOB_COMPLETION_INDEX=1): HTAB_SHARD_COUNT is not set",
		     ENV("JOB_COMPLETION_INDEX=1"));
	EXPECT_ERROR("valid: 0 <= JOB_COMPLETION_INDEX < HTAB_SHARD_COUNT <= 10000",
		     ENV("JOB_COMPLETION_INDEX=3", "HTAB_SHARD_COUNT=3"));
	EXPECT_ERROR("valid: 0 <= HTAB_SHARD_INDEX < HTAB_SHARD_COUNT",
		     ENV("HTAB_SHARD_INDEX=0", "HTAB_SHARD_COUNT=0"));
	EXPECT_ERROR("GitHub Actions (HTAB_SHARD_COUNT=2): HTAB_SHARD_INDEX is not set",
		     ENV("GITHUB_ACTIONS=true", "HTAB_SHARD_COUNT=2"));
	EXPECT_ERROR("HTAB_SHARD_INDEX must be an integer", ENV("HTAB_SHARD_INDEX=-1", "HTAB_SHARD_COUNT=2"));
	EXPECT_ERROR("HTAB_SHARD_COUNT must be an integer", ENV("HTAB_SHARD_INDEX=1", "HTAB_SHARD_COUNT=2 "));
	EXPECT_ERROR("HTAB_SHARD_COUNT must be an integer", ENV("HTAB_SHARD_INDEX=1", "HTAB_SHARD_COUNT="));
}

/* The first scheduler of the table decides; the others are not read. */
static void test_precedence(void **s)
{
	(void)s;
	EXPECT_SHARD(2, 2, "shard 2/2 from Slurm (SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=2)",
		     ENV("HTAB_SHARD_INDEX=0", "HTAB_SHARD_COUNT=4", "GITHUB_ACTIONS=true", "JOB_COMPLETION_INDEX=0",
			 "SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_COUNT=2"));
	EXPECT_SHARD(1, 4, "shard 1/4 from Kubernetes (JOB_COMPLETION_INDEX=0, HTAB_SHARD_COUNT=4)",
		     ENV("HTAB_SHARD_INDEX=3", "HTAB_SHARD_COUNT=4", "GITHUB_ACTIONS=true", "JOB_COMPLETION_INDEX=0"));
	/* A broken first scheduler is an error, not a fall through to the next. */
	EXPECT_ERROR("Slurm", ENV("SLURM_ARRAY_TASK_ID=2", "HTAB_SHARD_INDEX=0", "HTAB_SHARD_COUNT=4"));
	EXPECT_ERROR("none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, GITHUB_ACTIONS=true, HTAB_SHARD_INDEX is set",
		     ENV("HTAB_SHARD_COUNT=4", "GITHUB_ACTIONS=false", "SLURM_JOB_ID=9"));
	EXPECT_ERROR("or give --shard I/N", ENV("PATH=/bin"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slurm),
		cmocka_unit_test(test_index0),
		cmocka_unit_test(test_precedence),
	};

	return cmocka_run_group_tests_name("shard_auto", tests, NULL, NULL);
}
