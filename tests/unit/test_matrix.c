/*
 * The matrix runner's decisions without a VM: plan order and ids, shard
 * slices, the scheduler's fit rule, the manifest resume rule, noise profiles
 * and stress-ng's YAML, build-kernel.sh's result line, --target host checks.
 */
#include <sys/stat.h>
#include "testlib.h"

#include "run/plan/cli.h"
#include "run/plan/guest_mem.h"
#include "run/plan/kernels.h"
#include "run/plan/matrix.h"
#include "rundir/cell_id.h"
#include "run/plan/noise.h"
#include "run/progress.h"
#include "run/plan/target_host.h"

static void opts(struct run_opts *o, const char *cpus, const char *workloads, const char *kernels,
		 const char *noises, int repeat)
{
	char err[128];

	run_opts_init(o);
	assert_int_equal(parse_cpu_list(cpus, o->cpus, &o->ncpus, 64, err, sizeof(err)), 0);
	assert_int_equal(strv_split(&o->workloads, workloads, ','), 0);
	assert_int_equal(strv_split(&o->kernels, kernels, ','), 0);
	assert_int_equal(strv_split(&o->noises, noises, ','), 0);
	o->repeat = repeat;
}

static void test_plan_order(void **s)
{
	struct run_opts o;
	struct plan p;

	(void)s;
	opts(&o, "2,4", "full_update,churn", "distro,fixed", "none,cpu", 2);
	assert_int_equal(plan_build(&o, &p), 0);
	assert_int_equal(p.n, 2 * 2 * 2 * 2 * 2);
	/* vCPUs innermost, repeats outermost; FORMAT.md ids. */
	assert_string_equal(p.cells[0].id, "v2-full_update-distro-none-r0");
	assert_string_equal(p.cells[1].id, "v4-full_update-distro-none-r0");
	assert_string_equal(p.cells[2].id, "v2-churn-distro-none-r0");
	assert_string_equal(p.cells[4].id, "v2-full_update-distro-cpu-r0");
	assert_string_equal(p.cells[8].id, "v2-full_update-fixed-none-r0");
	assert_string_equal(p.cells[16].id, "v2-full_update-distro-none-r1");
	for (size_t i = 0; i < p.n; i++)
		assert_int_equal(p.cells[i].index, i);
	plan_free(&p);
	/* Test actions: an axis, "none" without a suffix. */
	strv_split(&o.test_actions, "panic,none", ',');
	assert_int_equal(plan_build(&o, &p), 0);
	assert_int_equal(p.n, 64);
	assert_string_equal(p.cells[0].id, "v2-full_update-distro-none-r0-xpanic");
	assert_string_equal(p.cells[4].id, "v2-full_update-distro-none-r0");
	assert_null(p.cells[4].test_action);
	plan_free(&p);
	run_opts_free(&o);
}

/* The fault axis: after noise, "none" keeps the old ids, others get -f<slug>. */
static void test_plan_faults(void **s)
{
	struct run_opts o;
	struct plan p;
	char slug[FAULT_SLUG_MAX + 1];
	json_t *m, *cells;

	(void)s;
	opts(&o, "2,4", "full_update", "distro", "none,cpu", 1);
	strv_push(&o.faults, "none");
	strv_push(&o.faults, "delay:__pcpu_freelist_pop:2000ns:p=0.01");
	assert_int_equal(plan_build(&o, &p), 0);
	assert_int_equal(p.n, 2 * 2 * 2);
	assert_string_equal(p.cells[0].id, "v2-full_update-distro-none-r0");
	assert_string_equal(p.cells[0].fault, "none");
	assert_string_equal(p.cells[2].id,
			    "v2-full_update-distro-none-r0-fdelay___pcpu_freelist_pop_2000ns_p_0_01");
	assert_string_equal(p.cells[2].fault, "delay:__pcpu_freelist_pop:2000ns:p=0.01");
	assert_string_equal(p.cells[4].id, "v2-full_update-distro-cpu-r0");
	/* The manifest names the fault only for cells that have one. */
	m = manifest_build(&p, json_object(), 0, 0);
	cells = json_object_get(m, "cells");
	assert_null(json_object_get(json_array_get(cells, 0), "fault"));
	assert_string_equal(json_string_value(json_object_get(json_array_get(cells, 2), "fault")),
			    "delay:__pcpu_freelist_pop:2000ns:p=0.01");
	json_decref(m);
	plan_free(&p);
	/* With a test action: -f before -x. */
	strv_push(&o.test_actions, "panic");
	assert_int_equal(plan_build(&o, &p), 0);
	assert_string_equal(p.cells[2].id,
			    "v2-full_update-distro-none-r0-fdelay___pcpu_freelist_pop_2000ns_p_0_01-xpanic");
	plan_free(&p);
	run_opts_free(&o);
	/* Slugs: none is empty; ':' '=' ',' '+' '.' '-' become '_'; long ones end in a hash. */
	fault_slug("none", slug, sizeof(slug));
	assert_string_equal(slug, "");
	fault_slug(NULL, slug, sizeof(slug));
	assert_string_equal(slug, "");
	fault_slug("exhaust:p=0.1+delay:5us:cpus=0-3,5", slug, sizeof(slug));
	assert_string_equal(slug, "exhaust_p_0_1_delay_5us_cpus_0_3_5");
	fault_slug("delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3,5", slug, sizeof(slug));
	assert_int_equal(strlen(slug), FAULT_SLUG_MAX);
	assert_memory_equal(slug, "delay___pcpu_freelist_pop_2000ns_p_0_01_", 39);
	assert_int_equal(slug[39], '_');
	{
		char other[FAULT_SLUG_MAX + 1];

		/* Same first 39 characters, another spec: another hash. */
		fault_slug("delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-3,6", other, sizeof(other));
		assert_int_equal(strlen(other), FAULT_SLUG_MAX);
		assert_string_not_equal(slug, other);
	}
}

/* Every cell in exactly one shard, whatever n; shards are interleaved (balanced vCPUs). */
/* LRU maps are always preallocated: lru x prealloc=0 is no cell, indexes stay dense. */
static void test_plan_lru_prealloc(void **s)
{
	struct run_opts o;
	struct plan p;

	(void)s;
	opts(&o, "2", "full_update", "distro", "none", 2);
	strv_split(&o.map_types, "hash,lru_hash,lru_percpu_hash", ',');
	strv_split(&o.preallocs, "1,0", ',');
	assert_int_equal(plan_build(&o, &p), 0);
	assert_int_equal(p.n, 8);
	assert_int_equal(p.left_out, 4);
	assert_string_equal(p.cells[1].id, "v2-full_update-distro-none-r0-p0");
	assert_string_equal(p.cells[2].id, "v2-full_update-distro-none-r0-mlru_hash");
	assert_string_equal(p.cells[3].id, "v2-full_update-distro-none-r0-mlru_percpu_hash");
	assert_string_equal(p.cells[4].id, "v2-full_update-distro-none-r1");
	for (size_t i = 0; i < p.n; i++) {
		assert_int_equal(p.cells[i].index, i);
		assert_false(p.cells[i].map_type && !strncmp(p.cells[i].map_type, "lru", 3) &&
			     p.cells[i].prealloc && !strcmp(p.cells[i].prealloc, "0"));
	}
	plan_free(&p);
	run_opts_free(&o);
}

static void test_shards(void **s)
{
	(void)s;
	for (int n = 1; n <= 7; n++)
		for (size_t idx = 0; idx < 50; idx++) {
			int owners = 0;

			for (int i = 1; i <= n; i++)
				owners += shard_selects(idx, i, n);
			assert_int_equal(owners, 1);
		}
	assert_true(shard_selects(0, 1, 2));
	assert_false(shard_selects(1, 1, 2));
	assert_true(shard_selects(1, 2, 2));
	assert_true(shard_selects(5, 3, 0));	/* no --shard: everything */
}

static void test_sched_fits(void **s)
{
	struct host_res small = { .cores = 2, .mem_avail_mb = 20000 };
	struct host_res big = { .cores = 128, .mem_avail_mb = 20000 };
	struct sched_load idle = { 0 }, one2 = { 1, 2, 576 };
	struct sched_load many = { 3, 16 + 32 + 48, 512 * 3 + 32 * 96 };

	(void)s;
	/* Nothing runs: anything starts, even a cell larger than the host. */
	assert_true(sched_fits(&small, &idle, 96, 3584, 0));
	/* 2 cores: a second 2-vCPU guest would overcommit. */
	assert_false(sched_fits(&small, &one2, 2, 576, 0));
	/* 128 cores: 16+32+48 = 96 running, 32 more fits, 64 does not. */
	assert_true(sched_fits(&big, &many, 32, 512 + 32 * 32, 0));
	assert_false(sched_fits(&big, &many, 64, 512 + 32 * 64, 0));
	/* Memory: 70% of MemAvailable. */
	struct host_res lowmem = { .cores = 128, .mem_avail_mb = 2000 };
	assert_true(sched_fits(&lowmem, &one2, 2, 576, 0));	/* 1152 <= 1400 */
	struct sched_load two = { 2, 4, 1152 };
	assert_false(sched_fits(&lowmem, &two, 2, 576, 0));	/* 1728 > 1400 */
	/* --jobs overrides both. */
	assert_true(sched_fits(&small, &two, 2, 576, 3));
	struct sched_load three = { 3, 6, 1728 };
	assert_false(sched_fits(&big, &three, 2, 576, 3));
}

static json_t *manifest(const char *cpus, int duration, int shard_i, int shard_n)
{
	struct run_opts o;
	struct plan p;
	json_t *params = json_pack("{s:i}", "duration_s", duration), *m;

	opts(&o, cpus, "full_update", "distro", "none", 1);
	assert_int_equal(plan_build(&o, &p), 0);
	m = manifest_build(&p, params, shard_i, shard_n);
	json_decref(params);
	plan_free(&p);
	run_opts_free(&o);
	return m;
}

static void test_manifest_resume(void **s)
{
	json_t *a = manifest("2,4", 3, 0, 0), *same = manifest("2,4", 3, 0, 0);
	json_t *grown = manifest("2,4,8", 3, 0, 0), *other = manifest("2,4", 5, 0, 0);
	json_t *shard = manifest("2,4", 3, 1, 2), *m = NULL;
	char err[256];

	(void)s;
	assert_int_equal(json_array_size(json_object_get(a, "cells")), 2);
	manifest_add_run(a, 2, (char *[]){ "htab-torture", "run", NULL });
	/* The same command: the plan is unchanged, the history kept. */
	assert_int_equal(manifest_reconcile(a, same, &m, err, sizeof(err)), 0);
	assert_true(json_equal(json_object_get(m, "cells"), json_object_get(a, "cells")));
	assert_int_equal(json_array_size(json_object_get(m, "runs")), 1);
	json_decref(m);
	/* A new axis value: the plan grows at the end. */
	assert_int_equal(manifest_reconcile(a, grown, &m, err, sizeof(err)), 0);
	assert_int_equal(json_array_size(json_object_get(m, "cells")), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(m, "cells"), 2), "id")), "v8-full_update-distro-none-r0");
	json_decref(m);
	/* Different parameters or another shard: refused, saying which. */
	assert_int_equal(manifest_reconcile(a, other, &m, err, sizeof(err)), -1);
	assert_null(m);
	assert_non_null(strstr(err, "duration_s 3"));
	assert_non_null(strstr(err, "this command 5"));
	assert_int_equal(manifest_reconcile(a, shard, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "shard"));
	/* On disk and back. */
	char dir[] = "/tmp/htab-test-manifest-XXXXXX";
	assert_non_null(mkdtemp(dir));
	assert_int_equal(manifest_write(dir, a), 0);
	m = manifest_load(dir, err, sizeof(err));
	assert_true(json_equal(m, a));
	json_decref(m);
	char p[300];
	snprintf(p, sizeof(p), "%s/manifest.json", dir);
	unlink(p);
	assert_null(manifest_load(dir, err, sizeof(err)));
	assert_non_null(strstr(err, "no manifest.json"));
	rmdir(dir);
	json_decref(a);
	json_decref(same);
	json_decref(grown);
	json_decref(other);
	json_decref(shard);
}

static void test_noise(void **s)
{
	char *cmd;

	(void)s;
	assert_non_null(noise_find("none"));
	assert_non_null(noise_find("cpu"));
	assert_non_null(noise_find("irq"));
	assert_null(noise_find("bogus"));
	assert_null(noise_find(""));
	cmd = noise_cmd(noise_find("none"), 16, 100);
	assert_string_equal(cmd, "");
	free(cmd);
	cmd = noise_cmd(noise_find("cpu"), 16, 100);
	assert_string_equal(cmd, "stress-ng --cpu 16 --cpu-method int64 --metrics-brief --yaml noise.yaml -t 100s");
	free(cmd);
	cmd = noise_cmd(noise_find("mixed"), 2, 7);
	assert_non_null(strstr(cmd, "--cpu 1 "));	/* halves and quarters at least 1 */
	assert_non_null(strstr(cmd, "--vm 1 "));
	free(cmd);
	for (const struct noise_profile *p = noise_profiles; p->name; p++) {
		assert_true(strlen(p->description) > 0);
		cmd = noise_cmd(p, 96, 10);
		assert_null(strchr(cmd, '{'));	/* every placeholder expanded */
		assert_null(strchr(cmd, '\''));	/* job.env single-quotes it */
		free(cmd);
	}
}

static void test_noise_yaml(void **s)
{
	const char *y = "---\nsystem-info:\n      cpus: 2\n\nmetrics:\n"
			"    - stressor: cpu\n      bogo-ops: 10637\n"
			"      bogo-ops-per-second-real-time: 3484.453205\n"
			"      wall-clock-time: 3.052703\n      max-rss: 6432\n"
			"    - stressor: timer\n      bogo-ops: 953\n...\n";
	json_t *m = noise_parse_yaml(y), *st;

	(void)s;
	assert_non_null(m);
	st = json_object_get(m, "stressors");
	assert_int_equal(json_object_size(st), 2);
	assert_true(json_number_value(json_object_get(json_object_get(st, "cpu"), "bogo_ops")) == 10637);
	assert_true(json_number_value(json_object_get(json_object_get(st, "cpu"),
						      "bogo_ops_per_sec_real")) > 3484.4);
	assert_true(json_number_value(json_object_get(json_object_get(st, "timer"), "bogo_ops")) == 953);
	json_decref(m);
	assert_null(noise_parse_yaml("---\nsystem-info:\n      cpus: 2\n"));
	assert_null(noise_parse_yaml(""));
}

static void test_build_line(void **s)
{
	struct kernel_res k = { 0 };

	(void)s;
	assert_int_equal(parse_build_line("KERNEL_IMAGE=/b/fixed-abc/bzImage KERNEL_RELEASE=6.1.192-htab-fixed KDIR=/b/tree-fixed HASH=abc123", &k), 0);
	assert_string_equal(k.image, "/b/fixed-abc/bzImage");
	assert_string_equal(k.release, "6.1.192-htab-fixed");
	assert_string_equal(k.kdir, "/b/tree-fixed");
	assert_string_equal(k.hash, "abc123");
	assert_int_equal(parse_build_line("KERNEL_IMAGE=/x KERNEL_RELEASE=r KDIR=/k", &k), -1);
	assert_int_equal(parse_build_line("build-kernel: cached", &k), -1);
}

static void mkfile(const char *root, const char *rel, const char *text)
{
	char p[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\"", root, rel);
	assert_int_equal(system(cmd), 0);
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_host_target(void **s)
{
	char root[] = "/tmp/htab-test-sysroot-XXXXXX", ko[300], why[512], cmd[400];

	(void)s;
	assert_non_null(mkdtemp(root));
	snprintf(ko, sizeof(ko), "%s/m.ko", root);
	mkfile(root, "m.ko", "\x7f" "ELF...vermagic=6.1.0-57-amd64 SMP mod_unload modversions \n");
	/* Nothing: no module loading. */
	assert_int_equal(host_target_check(root, "6.1.0-57-amd64", ko, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "cannot load modules"));
	mkfile(root, "proc/modules", "");
	mkfile(root, "proc/sys/kernel/modules_disabled", "1\n");
	assert_int_equal(host_target_check(root, "6.1.0-57-amd64", ko, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "disabled"));
	mkfile(root, "proc/sys/kernel/modules_disabled", "0\n");
	assert_int_equal(host_target_check(root, "6.18.0", ko, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "built for 6.1.0-57-amd64, this kernel is 6.18.0"));
	assert_int_equal(host_target_check(root, "6.1.0-57-amd64", ko, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no kprobes"));
	mkfile(root, "sys/bus/event_source/devices/kprobe/type", "6\n");
	assert_int_equal(host_target_check(root, "6.1.0-57-amd64", ko, why, sizeof(why)), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void test_eta(void **s)
{
	(void)s;
	assert_true(progress_eta(100, 0, 5) < 0);
	assert_true(progress_eta(100, 2, 3) == 150);
	assert_true(progress_eta(100, 4, 0) == 0);
}

/* Cell ids read back: every axis the id names, the kernel keeping its dashes, suffixes as slugs. */
static void test_cell_id_parse(void **s)
{
	static const struct {
		const char *id, *ax[AX_NR];
		int repeat;
	} cases[] = {
		{ "v2-full_update-distro-none-r0", { "2", "full_update", "distro", "none" }, 0 },
		{ "v16-churn-before-000-cpu-r12", { "16", "churn", "before-000", "cpu" }, 12 },
		{ "v4-full_update-distro-none-r1-fexhaust_p_0_1-xpanic",
		  { "4", "full_update", "distro", "none", [AX_FAULT] = "exhaust_p_0_1",
		    [AX_TEST_ACTION] = "panic" }, 1 },
		{ "v3-w-k-r0", { "3", "w", "k" }, 0 },
		{ "v2-churn-distro-none-r0-mpercpu_hash-ckthread+nmi+irq-fexhaust",
		  { "2", "churn", "distro", "none", [AX_MAP_TYPE] = "percpu_hash",
		    [AX_CALLERS] = "kthread+nmi+irq", [AX_FAULT] = "exhaust" }, 0 },
	};
	char *ax[AX_NR], id[192];
	int repeat;

	(void)s;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(cell_id_parse(cases[i].id, ax, &repeat), 0);
		assert_int_equal(repeat, cases[i].repeat);
		for (int a = 0; a < AX_NR; a++) {
			if (cases[i].ax[a])
				assert_string_equal(ax[a], cases[i].ax[a]);
			else
				assert_null(ax[a]);
		}
		/* Format of what was read is the id again (a fault's slug is its own slug). */
		if (ax[AX_NOISE]) {
			cell_id_format(id, sizeof(id), (const char *const *)ax, repeat);
			assert_string_equal(id, cases[i].id);
		}
		for (int a = 0; a < AX_NR; a++)
			free(ax[a]);
	}
	assert_int_equal(cell_id_parse("x2-w-k-none-r0", ax, &repeat), -1);
	assert_int_equal(cell_id_parse("v2-w-r0", ax, &repeat), -1);
	assert_int_equal(cell_id_parse("plots", ax, &repeat), -1);
}

/*
 * The map axes: after noise, before the fault; a cell at every default keeps
 * its old id and manifest entry, others get -m/-p/-e (in that order, before
 * -f) and their values in the manifest (numbers as numbers); ids read back.
 */
static void test_plan_map_axes(void **s)
{
	struct run_opts o;
	struct plan p;
	json_t *m, *c;
	char *ax[AX_NR];
	int repeat;

	(void)s;
	opts(&o, "2", "full_update", "distro", "none", 1);
	strv_split(&o.map_types, "hash,percpu_hash", ',');
	strv_split(&o.preallocs, "1,0", ',');
	strv_split(&o.max_entries_list, "4096,1000", ',');
	strv_push(&o.faults, "none");
	strv_push(&o.faults, "exhaust");
	assert_int_equal(plan_build(&o, &p), 0);
	assert_int_equal(p.n, 16);
	assert_string_equal(p.cells[0].id, "v2-full_update-distro-none-r0");
	assert_string_equal(p.cells[0].map_type, "hash");
	assert_string_equal(p.cells[0].prealloc, "1");
	assert_string_equal(p.cells[0].max_entries, "4096");
	assert_string_equal(p.cells[1].id, "v2-full_update-distro-none-r0-e1000");
	assert_string_equal(p.cells[2].id, "v2-full_update-distro-none-r0-p0");
	assert_string_equal(p.cells[4].id, "v2-full_update-distro-none-r0-mpercpu_hash");
	assert_string_equal(p.cells[7].id, "v2-full_update-distro-none-r0-mpercpu_hash-p0-e1000");
	assert_string_equal(p.cells[15].id,
			    "v2-full_update-distro-none-r0-mpercpu_hash-p0-e1000-fexhaust");
	m = manifest_build(&p, json_object(), 0, 0);
	c = json_array_get(json_object_get(m, "cells"), 0);
	assert_null(json_object_get(c, "map_type"));
	assert_null(json_object_get(c, "prealloc"));
	assert_null(json_object_get(c, "max_entries"));
	c = json_array_get(json_object_get(m, "cells"), 7);
	assert_string_equal(json_string_value(json_object_get(c, "map_type")), "percpu_hash");
	assert_int_equal(json_integer_value(json_object_get(c, "prealloc")), 0);
	assert_int_equal(json_integer_value(json_object_get(c, "max_entries")), 1000);
	json_decref(m);
	/* Read back: the id names every map axis away from its default. */
	assert_int_equal(cell_id_parse(p.cells[15].id, ax, &repeat), 0);
	assert_string_equal(ax[AX_MAP_TYPE], "percpu_hash");
	assert_string_equal(ax[AX_PREALLOC], "0");
	assert_string_equal(ax[AX_MAX_ENTRIES], "1000");
	assert_string_equal(ax[AX_FAULT], "exhaust");
	assert_string_equal(ax[AX_NOISE], "none");
	{
		char id[192];

		cell_id_format(id, sizeof(id), (const char *const *)ax, repeat);
		assert_string_equal(id, p.cells[15].id);
	}
	for (int a = 0; a < AX_NR; a++)
		free(ax[a]);
	plan_free(&p);
	run_opts_free(&o);
}

/*
 * --value-size (seed 002's htab-mem varies it): -s<N> after -e, before -f;
 * the default keeps the old id; the manifest holds it as a number; the
 * id reads back; the cell's map (and so its guest RAM) takes the value.
 */
static void test_plan_value_size_axis(void **s)
{
	struct run_opts o;
	struct map_shape m;
	struct plan p;
	char *ax[AX_NR];
	json_t *man;
	int repeat;

	(void)s;
	opts(&o, "2", "full_update", "distro", "none", 1);
	strv_split(&o.max_entries_list, "4096,1000", ',');
	strv_split(&o.value_sizes, "16,256", ',');
	strv_push(&o.faults, "exhaust");
	assert_int_equal(plan_build(&o, &p), 0);
	assert_int_equal(p.n, 4);
	assert_string_equal(p.cells[0].id, "v2-full_update-distro-none-r0-fexhaust");
	assert_string_equal(p.cells[1].id, "v2-full_update-distro-none-r0-s256-fexhaust");
	assert_string_equal(p.cells[3].id, "v2-full_update-distro-none-r0-e1000-s256-fexhaust");
	man = manifest_build(&p, json_object(), 0, 0);
	assert_null(json_object_get(json_array_get(json_object_get(man, "cells"), 0), "value_size"));
	assert_int_equal(json_integer_value(json_object_get(
		json_array_get(json_object_get(man, "cells"), 3), "value_size")), 256);
	json_decref(man);
	assert_int_equal(cell_id_parse(p.cells[3].id, ax, &repeat), 0);
	assert_string_equal(ax[AX_VALUE_SIZE], "256");
	assert_string_equal(ax[AX_MAX_ENTRIES], "1000");
	for (int a = 0; a < AX_NR; a++)
		free(ax[a]);
	map_shape_of_cell(&o, p.cells[3].ax, &m);
	assert_int_equal(m.value_size, 256);
	assert_int_equal(m.max_entries, 1000);
	map_shape_of_cell(&o, p.cells[0].ax, &m);
	assert_int_equal(m.value_size, MAP_DEFAULT_VALUE_SIZE);
	plan_free(&p);
	run_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_order),
		cmocka_unit_test(test_plan_faults),
		cmocka_unit_test(test_cell_id_parse),
		cmocka_unit_test(test_plan_map_axes),
		cmocka_unit_test(test_plan_value_size_axis),
		cmocka_unit_test(test_plan_lru_prealloc),
		cmocka_unit_test(test_shards),
		cmocka_unit_test(test_sched_fits),
		cmocka_unit_test(test_manifest_resume),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_noise_yaml),
		cmocka_unit_test(test_build_line),
		cmocka_unit_test(test_host_target),
		cmocka_unit_test(test_eta),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
