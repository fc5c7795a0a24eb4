/* Guest RAM follows the map: its parameters, footprint, and the host's limit. */
#include "testlib.h"

#include "run/plan/guest_mem.h"
#include "run/plan/qemu_argv.h"

static void shape(struct map_shape *m, const char *map_type, int prealloc, char **modparams)
{
	struct run_opts o;
	const char *ax[AX_NR] = { 0 };

	run_opts_init(&o);
	ax[AX_MAP_TYPE] = map_type;
	ax[AX_PREALLOC] = prealloc < 0 ? NULL : prealloc ? "1" : "0";
	for (char **p = modparams; p && *p; p++)
		strv_push(&o.modparams, *p);
	map_shape_of_cell(&o, ax, m);
	run_opts_free(&o);
}

/* The module's defaults, then the cell's map type / prealloc, then --modparam: the insmod order. */
static void test_shape_from_opts(void **s)
{
	struct map_shape m;

	(void)s;
	shape(&m, NULL, -1, NULL);
	assert_string_equal(m.map_type, "hash");
	assert_int_equal(m.prealloc, 1);
	assert_int_equal(m.max_entries, 4096);
	assert_int_equal(m.value_size, 16);
	shape(&m, "percpu_hash", 0, (char *[]){ "max_entries=1000", "value_size=100", NULL });
	assert_string_equal(m.map_type, "percpu_hash");
	assert_int_equal(m.prealloc, 0);
	assert_int_equal(m.max_entries, 1000);
	assert_int_equal(m.value_size, 100);
	assert_true(map_is_percpu(&m));
	/* a later --modparam wins; junk and unknown keys leave the value alone */
	shape(&m, "hash", 1, (char *[]){ "map_type=lru_percpu_hash", "prealloc=0", "max_entries=x",
					 "value_size=-3", "workload=churn", NULL });
	assert_string_equal(m.map_type, "lru_percpu_hash");
	assert_int_equal(m.prealloc, 0);
	assert_int_equal(m.max_entries, 4096);
	assert_int_equal(m.value_size, 16);
}

/* (entries + one per CPU when preallocated) x (64 + value rounded to 8 [x CPUs if per-CPU]). */
static void test_footprint(void **s)
{
	struct map_shape m;

	(void)s;
	shape(&m, NULL, -1, NULL);
	assert_int_equal(map_footprint_bytes(&m, 2), (4096 + 2) * (64 + 16));
	shape(&m, NULL, 0, (char *[]){ "value_size=13", NULL });
	assert_int_equal(map_footprint_bytes(&m, 2), 4096 * (64 + 16));
	shape(&m, "percpu_hash", 1, (char *[]){ "value_size=12", NULL });
	assert_int_equal(map_footprint_bytes(&m, 4), (4096 + 4) * (64 + 16 * 4));
	shape(&m, "lru_percpu_hash", -1, (char *[]){ "max_entries=2097152", "value_size=4096", NULL });
	assert_int_equal(map_footprint_bytes(&m, 64), (2097152LL + 64) * (64 + 4096LL * 64));
	assert_int_equal(map_mem_mb(0), 0);
	assert_int_equal(map_mem_mb(1), 1);
	assert_int_equal(map_mem_mb(512 * 1024), 1);	/* x2 = exactly 1 MiB */
	assert_int_equal(map_mem_mb(512 * 1024 + 1), 2);
}

static void test_host_limit_and_check(void **s)
{
	struct map_shape m;
	char err[512];
	long limit = host_guest_limit_mb("MemTotal:       24683520 kB\nMemFree:  1 kB\n");

	(void)s;
	assert_int_equal(limit, 24683520 / 1024 / 2);
	assert_int_equal(host_guest_limit_mb("nothing here"), -1);
	assert_int_equal(host_guest_limit_mb(NULL), -1);
	shape(&m, NULL, -1, NULL);
	assert_int_equal(guest_mem_check(&m, 0, 96, 0, limit, err, sizeof(err)), 0);
	/* 2M entries of 4 KiB per CPU at 64 vCPUs: half a TiB, refused, and said why */
	shape(&m, "percpu_hash", 1, (char *[]){ "max_entries=2097152", "value_size=4096", NULL });
	assert_int_equal(guest_mem_check(&m, 0, 64, 0, limit, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the map needs 524433 MiB"));
	assert_non_null(strstr(err, "map_type=percpu_hash prealloc=1 max_entries=2097152 value_size=4096 at 64 vCPUs"));
	assert_non_null(strstr(err, "the limit is 12052 MiB"));
	assert_null(strchr(err, '\n'));
	/* exactly at the limit fits; one MiB of map more does not */
	shape(&m, NULL, 0, (char *[]){ "max_entries=16384", "value_size=64", NULL });
	limit = guest_mem_mb(0, 2, map_footprint_bytes(&m, 2), 0);
	assert_int_equal(guest_mem_check(&m, 0, 2, 0, limit, err, sizeof(err)), 0);
	assert_int_equal(guest_mem_check(&m, 0, 2, 0, limit - 1, err, sizeof(err)), -1);
	/* no MemTotal: nothing to check against */
	assert_int_equal(guest_mem_check(&m, 0, 2, 0, -1, err, sizeof(err)), 0);
	/* --guest-mem: the base given, not the formula's 1536 at 96 vCPUs, meets the limit */
	shape(&m, NULL, 0, (char *[]){ NULL });
	assert_int_equal(guest_mem_check(&m, 0, 96, 0, 1500, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "guest RAM 1537 MiB;"));
	assert_int_equal(guest_mem_check(&m, 1000, 96, 0, 1500, err, sizeof(err)), 0);
	/* the noise's vm workers count, and the message says how much */
	assert_int_equal(guest_mem_check(&m, 1000, 96, 1536, 2000, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "guest RAM 2537 MiB, 1536 MiB of it the noise's;"));
}

/* Guest RAM follows the cell's own map axes: each cell of one run its own footprint. */
static void test_cell_axes(void **s)
{
	struct run_opts o;
	struct map_shape m;
	const char *ax[AX_NR] = { 0 };

	(void)s;
	run_opts_init(&o);
	ax[AX_MAX_ENTRIES] = "100000";
	ax[AX_MAP_TYPE] = "percpu_hash";
	ax[AX_PREALLOC] = "0";
	map_shape_of_cell(&o, ax, &m);
	assert_int_equal(m.max_entries, 100000);
	assert_string_equal(m.map_type, "percpu_hash");
	assert_int_equal(m.prealloc, 0);
	/* 100000 x (64 + 16 x 4 CPUs) */
	assert_int_equal(map_footprint_bytes(&m, 4), 100000LL * (64 + 16 * 4));
	ax[AX_MAX_ENTRIES] = "4096";	/* the default: as if not given */
	ax[AX_MAP_TYPE] = NULL;
	ax[AX_PREALLOC] = NULL;
	map_shape_of_cell(&o, ax, &m);
	assert_int_equal(m.max_entries, 4096);
	assert_int_equal(m.prealloc, 1);
	run_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape_from_opts),
		cmocka_unit_test(test_cell_axes),
		cmocka_unit_test(test_footprint),
		cmocka_unit_test(test_host_limit_and_check),
	};

	return cmocka_run_group_tests_name("guest_mem", tests, NULL, NULL);
}
