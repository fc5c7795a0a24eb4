/*
 * After a boot: gather the cell's files (exit_status, phases.env, module.json,
 * bpftrace/NAME.ndjson, console.log, dmesg.txt), decide the verdict and write
 * cell.json atomically, last, with every parameter actually used.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"
#include "lib/strbuf.h"
#include "parse/bpftrace_ndjson.h"
#include "run/record/cell_json.h"
#include "lib/decode.h"
#include "run/guest/hang.h"
#include "rundir/coverage.h"
#include "parse/console_scan.h"
#include "run/plan/host_info.h"
#include "parse/module_json.h"
#include "run/plan/noise.h"
#include "run/plan/qemu_argv.h"
#include "run/record/bt_aot.h"
#include "run/record/known.h"
#include "run/record/verdict.h"

#define POP_SCRIPT "__pcpu_freelist_pop"

double phases_get(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == '=')
			return strtod(p + kl + 1, NULL);
	}
	return NAN;
}

void runner_reason(const char *log, char *out, size_t n)
{
	const char *best = NULL;

	out[0] = '\0';
	for (const char *p = log; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *r = strstr(p, "runner: ");
		const char *eol = strchr(p, '\n');

		if (!r || (eol && r > eol) || !strncmp(r, "runner: exit ", 13))
			continue;
		best = r + 8;
	}
	if (best)
		snprintf(out, n, "%.*s", (int)strcspn(best, "\n"), best);
}

static char *cell_file(const struct cell *cell, const char *name)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", cell->p->dir, name);
	return read_file(p, NULL);
}

/* Seconds to the millisecond. */
static json_t *num_or_null(double v)
{
	return num_json(round(v * 1000) / 1000);
}

json_t *hist_stats_json(const struct hist *h)
{
	struct hist_stats s;

	hist_summarize(h, &s);
	return json_pack("{s:I, s:o, s:o, s:o, s:o}", "count", (json_int_t)s.count,
			 "p50", num_or_null(s.p50), "p90", num_or_null(s.p90),
			 "p99", num_or_null(s.p99), "max", num_or_null(s.max));
}

static json_t *hist_buckets_json(const struct hist *h)
{
	json_t *a = json_array();

	for (size_t i = 0; i < h->n; i++)
		if (h->b[i].count)
			json_array_append_new(a, json_pack("[I, I, I]", (json_int_t)h->b[i].lo,
							   (json_int_t)h->b[i].hi,
							   (json_int_t)h->b[i].count));
	return a;
}

static json_t *strv_json(const struct strv *sv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

/* The first word of a small file, or JSON null when it is missing. */
static json_t *read_word(const char *path)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return json_null();
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, " \t\n")] = 0;
	return buf[0] ? json_string(buf) : json_null();
}

/* bpftrace/<name>.ndjson of each script; pop_ns from __pcpu_freelist_pop's @ns. */
static void add_bpftrace(const struct run_ctx *c, const struct cell *cell, json_t *j)
{
	json_t *all = json_object();

	for (size_t i = 0; i < c->o->bpftrace.n; i++) {
		const char *name = c->o->bpftrace.v[i];
		char path[PATH_MAX + 128];
		struct bt_output bo;
		json_t *s, *engine, *vals = json_object(), *hists = json_object();

		bt_output_init(&bo);
		snprintf(path, sizeof(path), "%s/bpftrace/%s.ndjson", cell->p->dir, name);
		if (bt_parse_file(&bo, path)) {
			json_object_set_new(all, name, json_pack("{s:s}", "error", "no output"));
			continue;
		}
		for (size_t k = 0; k < bo.nvalues; k++) {
			char key[200];

			snprintf(key, sizeof(key), "%s%s%s%s", bo.values[k].name,
				 bo.values[k].key[0] ? "[" : "", bo.values[k].key,
				 bo.values[k].key[0] ? "]" : "");
			json_object_set_new(vals, key, json_integer(bo.values[k].value));
		}
		for (size_t k = 0; k < bo.nhists; k++) {
			char key[200];
			json_t *h = hist_stats_json(&bo.hists[k].h);

			snprintf(key, sizeof(key), "%s%s%s%s", bo.hists[k].name,
				 bo.hists[k].key[0] ? "[" : "", bo.hists[k].key,
				 bo.hists[k].key[0] ? "]" : "");
			json_object_set_new(h, "buckets", hist_buckets_json(&bo.hists[k].h));
			json_object_set_new(hists, key, h);
		}
		/* What ran it: "bpftrace", or "aot" (a program compiled before, with
		 * one probe of the kit's own that stops it: not counted here). */
		snprintf(path, sizeof(path), "%s/bpftrace/%s.engine", cell->p->dir, name);
		engine = read_word(path);
		if (json_is_string(engine) && !strcmp(json_string_value(engine), "aot") &&
		    bo.attached_probes > 0)
			bo.attached_probes--;
		s = json_pack("{s:i, s:I, s:i, s:o, s:o}", "attached_probes", bo.attached_probes,
			      "lost_events", (json_int_t)bo.lost_events,
			      "malformed_lines", bo.malformed, "values", vals, "hists", hists);
		/* Which form the guest ran (kprobe, or fentry where it has BTF). */
		snprintf(path, sizeof(path), "%s/bpftrace/%s.form", cell->p->dir, name);
		json_object_set_new(s, "form", read_word(path));
		json_object_set_new(s, "engine", engine);
		/* Whose calls it counted: "workers" (the module's) or "all". */
		snprintf(path, sizeof(path), "%s/bpftrace/%s.callers", cell->p->dir, name);
		json_object_set_new(s, "callers", read_word(path));
		json_object_set_new(all, name, s);
		if (!strcmp(name, POP_SCRIPT)) {
			const struct bt_hist *h = bt_find_hist(&bo, "@ns");

			if (h)
				json_object_set_new(j, "pop_ns", hist_stats_json(&h->h));
		}
		bt_output_free(&bo);
	}
	json_object_set_new(j, "bpftrace", all);
}

/*
 * The module's own check counters (kmod/README.md "The verdict"), as it
 * reported them: e2big_not_full is suspicious but legal, the rest fail.
 */
static void add_checks(json_t *verdict, json_t *j)
{
	static const char *const keys[] = {
		"corrupt", "double_alloc", "walk_bad", "stamp_races", "e2big_not_full",
		"residual", "residual_expected", NULL,
	};
	json_t *o = json_object(), *v;

	for (const char *const *k = keys; *k; k++)
		if ((v = json_object_get(verdict, *k)))
			json_object_set(o, *k, v);
	if (json_object_size(o))
		json_object_set_new(j, "checks", o);
	else
		json_decref(o);
}

/*
 * How the module timed ops (sampling, and where in their steps the timed
 * ops sat); its clock_read_ns is latency_ns.clock_read already.
 */
static void add_timing(json_t *timing, json_t *j)
{
	json_t *t;

	if (!json_is_object(timing))
		return;
	t = json_deep_copy(timing);
	json_object_del(t, "clock_read_ns");
	json_object_set_new(t, "percentiles", json_string(PERCENTILE_METHOD));
	json_object_set_new(j, "timing", t);
}

static void add_module(const struct module_result *m, int vcpus, json_t *j)
{
	json_t *errs = json_object(), *lat = json_object();
	int n = m->nr_cpus > 0 ? m->nr_cpus : vcpus;

	for (int i = 0; i < m->nerrors; i++)
		json_object_set_new(errs, m->errors[i].name, json_integer(m->errors[i].count));
	for (int i = 0; i < m->nlat; i++)
		json_object_set_new(lat, m->lat[i].op, hist_stats_json(&m->lat[i].h));
	json_object_set_new(j, "module_result", json_string(m->result));
	json_object_set_new(j, "ops", json_integer(m->ops));
	json_object_set_new(j, "ops_per_sec", json_real(m->ops_per_sec));
	json_object_set_new(j, "ops_per_sec_per_cpu", json_real(m->ops_per_sec / n));
	json_object_set_new(j, "nr_threads", json_integer(n));
	json_object_set_new(j, "duration_ns", json_integer(m->duration_ns));
	json_object_set_new(j, "errors", errs);
	json_object_set_new(j, "latency_ns", lat);
	if (m->root) {
		json_t *f = json_object_get(m->root, "failures");
		json_t *p = json_object_get(m->root, "params");
		json_t *faults = json_object_get(m->root, "faults");
		json_t *callers = json_object_get(m->root, "callers");

		json_object_set(j, "failures", f ? f : json_array());
		add_checks(json_object_get(m->root, "verdict"), j);
		if (json_is_array(faults))
			json_object_set(j, "faults", faults);
		if (json_is_array(callers))
			json_object_set(j, "caller_stats", callers);
		if (p)
			json_object_set(j, "module_params", p);
		add_timing(json_object_get(m->root, "timing"), j);
	}
}

static void add_timings(const struct cell *cell, const struct boot_result *br, const char *ph,
			json_t *j)
{
	double boot = phases_get(ph, "T_BOOT_DONE"), att = phases_get(ph, "T_ATTACHED"),
	       s0 = phases_get(ph, "T_STRESS_START"), s1 = phases_get(ph, "T_STRESS_END"),
	       done = phases_get(ph, "T_COPY_DONE"), start = phases_get(ph, "T_CELL_START");

	/*
	 * Guest uptime vs host wall clock: shutdown_s includes QEMU start-up.
	 * A cell after the first of a shared boot counts from when the guest
	 * took it (T_CELL_START), not from the boot.
	 */
	if (cell->in_boot > 1 && !isnan(start)) {
		boot -= start;
		att -= start;
		s0 -= start;
		s1 -= start;
		done -= start;
	}
	json_object_set_new(j, "timings", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
		"wall_s", num_or_null(br->wall_s), "boot_s", num_or_null(boot),
		"attach_s", num_or_null(att - boot), "stress_s", num_or_null(s1 - s0),
		"teardown_s", num_or_null(done - s1), "shutdown_s", num_or_null(br->wall_s - done)));
	/*
	 * The same split on the host's clock (seen by polling, ±0.2 s): boot
	 * includes QEMU start-up, shutdown is only after the results were copied.
	 */
	{
		const double *h = cell->host_phase;

		json_object_set_new(j, "host_timings", json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			"wall_s", num_or_null(br->wall_s), "boot_s", num_or_null(h[0]),
			"attach_s", num_or_null(h[1] - h[0]), "stress_s", num_or_null(h[3] - h[2]),
			"teardown_s", num_or_null(h[4] - h[3]),
			"shutdown_s", num_or_null(br->wall_s - h[4])));
	}
}

/*
 * Which boot ran the cell: its own, or a shared one (run/guest/boot.h) — its
 * name under OUT/boots/, the cell's place in it, what the guest said after
 * it (ok lets the next cell in) and whether the boot went on.
 */
static void add_boot(const struct cell *cell, json_t *j)
{
	if (!cell->boot) {
		json_object_set_new(j, "boot", json_pack("{s:s}", "mode", "own"));
		return;
	}
	json_object_set_new(j, "boot", json_pack("{s:s, s:s, s:i, s:o, s:b}", "mode", "shared",
		"name", cell->boot->name, "cell_in_boot", cell->in_boot,
		"state_after", cell->boot_state[0] ? json_string(cell->boot_state) : json_null(),
		"went_on", cell->boot_went_on));
}

/*
 * The boot and the job on the host's clock, seconds since QEMU started
 * (a cell after the first of a shared boot: since it was sent):
 * console marks (boot_marks.h) and when phases.env keys appeared (null:
 * never seen). smp_up_s is "smp: Brought up" where the console shows it,
 * else the MTRR warning of a subsys_initcall after SMP (smp_up_from says which).
 */
static void add_boot_phases(const struct cell *cell, const struct boot_result *br, json_t *j)
{
	const double *m = cell->boot_mark, *h = cell->host_phase;
	bool brought = !isnan(m[BM_SMP_UP]);
	json_t *o = json_object();

	json_object_set_new(o, "first_console_s", num_or_null(m[BM_FIRST_LINE]));
	json_object_set_new(o, "last_ap_s", num_or_null(m[BM_LAST_AP]));
	json_object_set_new(o, "smp_up_s", num_or_null(brought ? m[BM_SMP_UP] : m[BM_AFTER_SMP]));
	json_object_set_new(o, "smp_up_from", brought ? json_string("smp: Brought up")
					      : !isnan(m[BM_AFTER_SMP]) ? json_string("mtrr warning")
					      : json_null());
	json_object_set_new(o, "init_s", num_or_null(m[BM_INIT]));
	json_object_set_new(o, "cpus_online_s", num_or_null(m[BM_CPUS_ONLINE]));
	json_object_set_new(o, "modules_s", num_or_null(m[BM_MODULES]));
	json_object_set_new(o, "restored_s", num_or_null(m[BM_RESTORED]));
	json_object_set_new(o, "runner_s", num_or_null(h[0]));
	json_object_set_new(o, "attached_s", num_or_null(h[1]));
	json_object_set_new(o, "module_done_s", num_or_null(h[3]));
	json_object_set_new(o, "copy_done_s", num_or_null(h[4]));
	json_object_set_new(o, "power_off_s", num_or_null(m[BM_POWER_OFF]));
	json_object_set_new(o, "wall_s", num_or_null(br->wall_s));
	json_object_set_new(j, "boot_phases", o);
}

/*
 * --restore on: the saved guest this cell's QEMU started from (its
 * directory's name, which of --restore-boots' boots, info.json: when it was
 * saved, its boot, its save, its size); null for a boot.
 */
static json_t *restore_json(const struct run_ctx *c, const struct cell *cell)
{
	char p[PATH_MAX + 16];
	const char *name = strrchr(cell->p->snap_dir, '/');
	json_t *info, *o;

	if (!cell->p->restored)
		return json_null();
	snprintf(p, sizeof(p), "%s/info.json", cell->p->snap_dir);
	info = json_load_file(p, 0, NULL);
	/* --restore-boots: which of the guest's saved boots, of how many */
	o = json_pack("{s:s, s:i, s:i}", "snapshot", name ? name + 1 : cell->p->snap_dir, "boot",
		      cell_plan_boot_index(c, cell->p->repeat),
		      "boots", c->o->restore_boots > 1 ? c->o->restore_boots : 1);
	if (json_is_object(info))
		json_object_update(o, info);
	json_decref(info);
	return o;
}

/* The lpj= preset (run/plan/lpj.h) and the guest's CPUs as the runner counted them (cpus.env). */
static void add_boot_setup(const struct run_ctx *c, const struct cell *cell, json_t *j)
{
	static const char *const keys[][2] = {
		{ "POSSIBLE", "possible" }, { "PRESENT", "present" }, { "ONLINE", "online" },
	};
	char *env;
	json_t *cpus;

	if (c->target_host)
		return;
	json_object_set_new(j, "lpj", json_pack("{s:b, s:o, s:s}",
		"preset", cell->p->k->lpj > 0,
		"value", cell->p->k->lpj > 0 ? json_integer(cell->p->k->lpj) : json_null(),
		"source", cell->p->k->lpj_source ? cell->p->k->lpj_source : "off"));
	json_object_set_new(j, "boot_opts", strv_json(&c->o->boot_opts));
	json_object_set_new(j, "restore", restore_json(c, cell));
	json_object_set_new(j, "debug_info", json_boolean(run_opts_flavour(c->o) != NULL));
	json_object_set_new(j, "build_flavour", run_opts_flavour(c->o) ?
			    json_string(run_opts_flavour(c->o)) : json_null());
	json_object_set_new(j, "boot_path", json_string(cell->p->k->boot_path ? cell->p->k->boot_path
									   : "bzimage"));
	json_object_set_new(j, "boot_image", json_string(cell->p->k->boot_image[0] ? cell->p->k->boot_image
										: cell->p->k->image));
	env = cell_file(cell, "cpus.env");
	if (!env) {
		json_object_set_new(j, "guest_cpus", json_null());
		return;
	}
	cpus = json_pack("{s:i}", "expected", cell->p->vcpus);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_set_new(cpus, keys[i][1], num_or_null(phases_get(env, keys[i][0])));
	json_object_set_new(j, "guest_cpus", cpus);
	free(env);
}

static void add_params(const struct run_ctx *c, const struct cell *cell, json_t *j)
{
	const struct run_opts *o = c->o;

	json_object_set_new(j, "cell", json_string(cell->p->id));
	/* Every axis the cell has a value of: the one in effect (a --modparam may give it). */
	for (int a = 0; a < AX_NR; a++) {
		const char *v = axis_effective(a, cell->p->ax[a], cell->p->modparams.v, cell->p->modparams.n);

		if (v)
			axis_to_json(a, j, v);
	}
	json_object_set_new(j, "kernel_name", json_string(cell->p->k->name));
	json_object_set_new(j, "kernel_line", json_string(cell->p->k->line));
	if (cell->p->k->tree[0])
		json_object_set_new(j, "kernel_tree", json_pack("{s:s, s:s*}", "dir", cell->p->k->tree,
				    "git_describe", cell->p->k->tree_describe[0] ? cell->p->k->tree_describe : NULL));
	json_object_set_new(j, "kernel_release", json_string(cell->p->k->release));
	json_object_set_new(j, "kernel_image", json_string(cell->p->k->image));
	json_object_set_new(j, "kernel_hash", json_string(cell->p->k->hash));
	json_object_set_new(j, "module", json_string(cell->p->k->module));
	json_object_set_new(j, "noise_cmd", json_string(cell->p->noise_cmd));
	json_object_set_new(j, "repeat", json_integer(cell->p->repeat));
	json_object_set_new(j, "target", json_string(c->target_host ? "host" : "vm"));
	json_object_set_new(j, "host", host_info());
	json_object_set_new(j, "accel", json_string(c->target_host ? "host" : accel_name(c->accel)));
	json_object_set_new(j, "duration_s", json_integer(c->duration_s));
	json_object_set_new(j, "memory_mb", c->target_host ? json_null()
							     : json_integer(cell->p->mem_mb));
	json_object_set_new(j, "guest_mem", c->target_host ? json_null()
			    : c->o->guest_mem_mb ? json_integer(c->o->guest_mem_mb) : json_string("auto"));
	json_object_set_new(j, "map_footprint_bytes",
			    json_integer(map_footprint_bytes(&cell->p->map, cell->p->vcpus)));
	if (!c->target_host) {
		const struct guest_detectors *d = &cell->p->detectors;

		json_object_set_new(j, "overcommit", json_integer(d->overcommit));
		json_object_set_new(j, "watchdog_thresh", json_integer(d->watchdog_thresh));
		json_object_set_new(j, "rcu_cpu_stall_timeout", json_integer(d->rcu_stall_timeout));
	}
	json_object_set_new(j, "crash_grace_s", json_integer(cell->p->crash_grace_s));
	json_object_set_new(j, "modparams", strv_json(&cell->p->modparams));
	json_object_set_new(j, "bpftrace_scripts", strv_json(&o->bpftrace));
	if (o->job_script)
		json_object_set_new(j, "job_script", json_string(o->job_script));
	json_object_set_new(j, "attempt", json_integer(cell->attempt));
	json_object_set_new(j, "boot_probes", json_integer(cell->boot_probes));
	if (cell->boot_probes)
		json_object_set_new(j, "boot_probe_saw", json_string(cell->boot_probe_saw));
	json_object_set_new(j, "timeouts", json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}",
		"host_s", cell->timeout_s, "quiet_s", cell->p->quiet_s,
		"boot_quiet_s", cell->p->boot_quiet_s, "boot_probe_s", cell->p->boot_probe_s,
		"attach_s", cell->p->attach_timeout_s, "run_s", cell->p->run_timeout_s));
}

/* stress-ng's own figures (noise.yaml), so a reader sees how much noise there was. */
static void add_noise(const struct cell *cell, json_t *j)
{
	char *y;
	json_t *m;

	if (!cell->p->noise_cmd[0])
		return;
	y = cell_file(cell, "noise.yaml");
	m = y ? noise_parse_yaml(y) : NULL;
	json_object_set_new(j, "noise_metrics", m ? m : json_pack("{s:s}", "error",
		y ? "no metrics in noise.yaml" : "no noise.yaml (stress-ng did not report)"));
	free(y);
}

/* A report on the console, else in the guest's dmesg (it has every log level). */
static int scan_crash(const struct cell *cell, struct console_report *rep, const char **src)
{
	static const char *const files[] = { "console.log", "dmesg.txt", NULL };

	for (const char *const *f = files; *f; f++) {
		char *text = cell_file(cell, *f);
		int found = text && console_scan(text, rep);

		free(text);
		if (found) {
			*src = *f;
			return 1;
		}
	}
	return 0;
}

/*
 * The first report as cell.json keeps it: where it was, its excerpt (the
 * console from its first line through the end of its trace), and how fast
 * it was classified: host seconds from QEMU's start to when the harness saw
 * its first line (null when it was found only after the end) and to the
 * verdict.
 */
/*
 * A report decoded to file:line (lib/decode.h) and its first frame in the
 * allocator's files, into o; "decoded": null with "decode_why" when this
 * kernel has no line tables here (what to build or install). A hang's
 * "where" may be a stack scan's "?" frame: "reliable" says which.
 */
/* A report not decoded: "decoded" and "where" null, and why. */
static void set_undecoded(json_t *o, const char *why)
{
	json_object_set_new(o, "decoded", json_null());
	json_object_set_new(o, "where", json_null());
	json_object_set_new(o, "decode_why", json_string(why));
	json_object_del(o, "decode_pending");
}

static void add_decoded(const char *root, const struct decode_kernel *dk, const char *ex,
			bool hang, json_t *o)
{
	struct decoder d;
	struct decoded_frame fr;
	char why[PATH_MAX + 256] = "", *dec = NULL;
	double t0 = now_mono();
	bool where;

	if (ex && !decoder_find(root, dk, &d, why, sizeof(why)))
		dec = decoder_run(&d, ex, why, sizeof(why));
	if (!dec) {
		set_undecoded(o, ex ? why : "no excerpt");
		return;
	}
	json_object_set_new(o, "decoded", json_string(dec));
	where = hang ? decode_hang_frame(dec, &fr) : decode_allocator_frame(dec, &fr);
	if (where)
		json_object_set_new(o, "where", json_pack("{s:s, s:s, s:i, s:b}", "function", fr.func,
							  "file", fr.file, "line", fr.line,
							  "reliable", !fr.unreliable));
	else
		json_object_set_new(o, "where", json_null());
	json_object_set_new(o, "decode_s", json_real(now_mono() - t0));
	json_object_del(o, "decode_pending");
	free(dec);
}

/*
 * The decoding of a report, left for later when this kernel has line
 * tables (decode_stacktrace.sh takes seconds: cell_json_decode does it off
 * the scheduler's path): "decode_pending": true and *pending set. Without
 * line tables, "decoded": null and why, at once.
 */
static void defer_decoded(const struct run_ctx *c, const struct cell *cell, const char *ex,
			  json_t *o, bool *pending)
{
	struct decode_kernel dk = kernel_decode_of(cell->p->k);
	struct decoder d;
	char why[PATH_MAX + 256] = "";

	if (!ex || decoder_find(c->root, &dk, &d, why, sizeof(why))) {
		set_undecoded(o, ex ? why : "no excerpt");
		return;
	}
	json_object_set_new(o, "decoded", json_null());
	json_object_set_new(o, "where", json_null());
	json_object_set_new(o, "decode_pending", json_true());
	*pending = true;
}

/*
 * A located hang's vCPUs as decode_stacktrace.sh reads them, the symbol
 * last on each line: spinning CPUs first, then running, then the rest;
 * each RIP line followed by its stack scan ("  ? func+0x…/0x…"). NULL
 * when no vCPU was symbolised.
 */
static char *hang_lines(const json_t *hang)
{
	static const char *const order[] = { "spinning", "running", NULL };
	struct strbuf b = STRBUF_INIT;
	bool any = false;

	for (int pass = 0; pass < 3; pass++) {
		size_t i;
		json_t *v;

		json_array_foreach(json_object_get(hang, "cpus"), i, v) {
			const char *sym = json_string_value(json_object_get(v, "symbol"));
			const char *st = json_string_value(json_object_get(v, "state"));
			bool mine = pass < 2 ? st && !strcmp(st, order[pass])
					     : !st || (strcmp(st, order[0]) && strcmp(st, order[1]));
			size_t k;
			json_t *fr;

			if (!mine || !sym)
				continue;
			any = true;
			sb_appendf(&b, "CPU %d: %s RIP: 0010:%s\n",
				  (int)json_integer_value(json_object_get(v, "cpu")), st ? st : "?", sym);
			json_array_foreach(json_object_get(v, "stack_scan"), k, fr)
				if (json_string_value(fr))
					sb_appendf(&b, "  ? %s\n", json_string_value(fr));
		}
	}
	if (!any) {
		sb_free(&b);
		return NULL;
	}
	return sb_take(&b);
}

static json_t *crash_json(const struct run_ctx *c, const struct cell *cell,
			  const struct boot_result *br, const struct console_report *rep,
			  const char *src, const struct verdict_out *vo, bool *decode)
{
	char *text = cell_file(cell, src), *ex = text ? console_excerpt(text, rep->lineno) : NULL;
	double verdict_s = now_mono() - cell->t0;
	bool live = !isnan(cell->crash_seen_s) && !strcmp(src, "console.log");
	json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i}", "kind", crash_kind_name(rep->kind),
			      "source", src, "line", rep->line, "lineno", rep->lineno,
			      "reports", rep->nreports);

	json_object_set_new(o, "excerpt", ex ? json_string(ex) : json_null());
	defer_decoded(c, cell, ex, o, decode);
	json_object_set_new(o, "under_overcommit", json_boolean(vo->under_overcommit));
	json_object_set_new(o, "seen_host_s", num_or_null(live ? cell->crash_seen_s : NAN));
	json_object_set_new(o, "verdict_host_s", num_or_null(verdict_s));
	json_object_set_new(o, "latency_s", num_or_null(live ? verdict_s - cell->crash_seen_s : NAN));
	json_object_set_new(o, "stopped_after_grace", json_boolean(br->crash_stopped));
	free(ex);
	free(text);
	return o;
}

static int read_exit_status(const struct cell *cell)
{
	char *s = cell_file(cell, "exit_status"), *end;
	long v;

	if (!s)
		return -1;
	v = strtol(s, &end, 10);
	if (end == s)
		v = -1;
	free(s);
	return (int)v;
}

/*
 * The coverage of a cell whose guest copied gcov counters (the coverage
 * kernel): CELL/coverage.json and the tracefiles, and here the percentages
 * (cell.json "coverage"). A failing gcov or lcov is said, never a
 * silently missing figure: {"error"} in cell.json and on stderr.
 */
static void add_coverage(const struct cell *cell, json_t *j)
{
	char gcov[PATH_MAX + 8], err[768];
	json_t *fig = NULL;

	snprintf(gcov, sizeof(gcov), "%s/" COV_DIR, cell->p->dir);
	if (!file_exists(gcov))
		return;
	if (cov_cell_write(cell->p->dir, cell->p->k->kdir, cell->p->k->label, &fig, err, sizeof(err))) {
		fprintf(stderr, "error: %s: coverage: %s\n", cell->p->id, err);
		fig = json_pack("{s:s, s:s}", "tree", cell->p->k->kdir, "error", err);
	}
	json_object_set_new(j, "coverage", fig);
}

/*
 * The map's memory, from a cell whose guest sampled the cgroup the map was
 * made in (vm-images/guest/memcg-job.sh: memcg.env, memcg.tsv): mean and
 * sample stddev of memory.current over the workers' run, memory.peak at
 * their end, in MiB as seed 002's htab-mem bench prints them.
 */
static void add_memory(const struct cell *cell, json_t *j)
{
	char *env = cell_file(cell, "memcg.env"), *tsv = cell_file(cell, "memcg.tsv");
	double sum = 0, sq = 0, n = 0, mib = 1024.0 * 1024.0;
	json_t *o;

	if (!env) {
		free(tsv);
		return;
	}
	for (const char *p = tsv; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		double up, b;

		if (sscanf(p, "%lf %lf", &up, &b) != 2)
			continue;
		sum += b / mib;
		sq += b / mib * (b / mib);
		n++;
	}
	o = json_pack("{s:s, s:i}", "source", "cgroup2 memory.current samples, memory.peak",
		      "samples", (int)n);
	json_object_set_new(o, "interval_s", num_json(phases_get(env, "MEMCG_INTERVAL")));
	json_object_set_new(o, "avg_mib", num_json(n ? sum / n : NAN));
	json_object_set_new(o, "sd_mib", num_json(n > 1 ? sqrt(fmax(0, (sq - sum * sum / n) / (n - 1))) : NAN));
	json_object_set_new(o, "peak_mib", num_json(phases_get(env, "MEMCG_PEAK") / mib));
	json_object_set_new(o, "base_mib", num_json(phases_get(env, "MEMCG_BASE") / mib));
	json_object_set_new(o, "end_mib", num_json(phases_get(env, "MEMCG_END") / mib));
	json_object_set_new(j, "memory", o);
	free(env);
	free(tsv);
}

/*
 * verdict_boot_retry(): "boot_retry": true asks the scheduler to boot the
 * cell again (it keeps this attempt as BOOT_STALL_JSON and its console as
 * BOOT_STALL_CONSOLE). The attempt after it says what it replaced.
 */
static bool add_boot_retry(const struct cell *cell, const struct verdict_in *vi,
			   const struct verdict_out *vo, const char *ph, json_t *j)
{
	char path[PATH_MAX + 64];
	bool started = !isnan(phases_get(ph, "T_BOOT_DONE"));
	bool retry = verdict_boot_retry(vi, vo, started, cell->attempt);
	json_t *was;

	if (retry)
		json_object_set_new(j, "boot_retry", json_true());
	snprintf(path, sizeof(path), "%s/%s", cell->p->dir, BOOT_STALL_JSON);
	if (cell->attempt > 1 && (was = json_load_file(path, 0, NULL))) {
		json_object_set_new(j, "boot_retried", json_pack("{s:O?, s:O?, s:s}",
			"verdict", json_object_get(was, "verdict"),
			"signature", json_object_get(was, "signature"), "console", BOOT_STALL_CONSOLE));
		json_decref(was);
	}
	return retry;
}

/*
 * A silent guest's located vCPUs (run/guest/hang.h): hang.txt titled by the
 * console classifier (one table of signatures), into *title ("" when there
 * is no report); the cell.json "hang" object (a copy), NULL when not asked.
 */
static json_t *hang_json(const struct run_ctx *c, const struct cell *cell, char *title, size_t n,
			 bool *decode)
{
	struct console_report rep;
	char *text, *lines;
	json_t *o;

	*title = '\0';
	if (!cell->hang)
		return NULL;
	o = json_deep_copy(cell->hang);
	text = json_object_get(o, "source") ? cell_file(cell, HANG_FILE) : NULL;
	if (text && console_scan(text, &rep) && rep.kind == CK_HANG)
		snprintf(title, n, "%s", rep.signature);
	free(text);
	json_object_set_new(o, "signature", title[0] ? json_string(title) : json_null());
	/* The silence's start to a located signature: what the user waits for. */
	json_object_set_new(o, "latency_s", num_or_null(title[0] ?
		json_number_value(json_object_get(o, "silent_s")) +
		json_number_value(json_object_get(o, "probe_s")) : NAN));
	/* Where they spin, to file:line as a crash's excerpt (issue 25). */
	lines = hang_lines(o);
	if (lines)
		defer_decoded(c, cell, lines, o, decode);
	free(lines);
	return o;
}

/*
 * A non-PASS cell a known kernel bug explains (run/record/known.h): cell.json
 * "known_bug". The list is read once a run; a broken one is said once on
 * stderr and no cell is marked (each keeps its verdict either way).
 */
static void add_known_bug(const struct run_ctx *c, const struct cell *cell, json_t *j)
{
	static json_t *bugs;
	static bool tried;
	char path[PATH_MAX + 32], err[512];
	json_t *k;

	if (!strcmp(json_string_value(json_object_get(j, "verdict")), "PASS"))
		return;
	if (!tried) {
		tried = true;
		snprintf(path, sizeof(path), "%s/%s", c->root, KNOWN_BUGS_FILE);
		bugs = known_bugs_load(path, err, sizeof(err));
		if (!bugs)
			fprintf(stderr, "warning: known kernel bugs not checked: %s\n", err);
	}
	if (bugs && (k = known_bug_match(bugs, j, cell->p->dir)))
		json_object_set_new(j, "known_bug", k);
}

int cell_finish(const struct run_ctx *c, const struct cell *cell, const struct boot_result *br,
		struct cell_record *rec)
{
	char hang_title[256];
	json_t *hang;
	struct console_report rep;
	struct module_result mod;
	struct verdict_out vo;
	struct verdict_in vi = { 0 };
	char path[PATH_MAX + 32], mod_err[256] = "", reason[256] = "", *glog, *dump;
	char *ph = cell_file(cell, "phases.env");	/* NULL: the runner never started */
	const char *src = NULL;
	bool have_mod;
	json_t *j = json_object();
	int rc = 0;

	memset(rec, 0, sizeof(*rec));
	bt_aot_publish(c, cell->p->dir);
	hang = hang_json(c, cell, hang_title, sizeof(hang_title), &rec->decode_pending);
	snprintf(path, sizeof(path), "%s/module.json", cell->p->dir);
	have_mod = module_result_load(&mod, path, mod_err, sizeof(mod_err)) == 0;
	glog = cell_file(cell, "guest.log");
	runner_reason(glog, reason, sizeof(reason));
	free(glog);

	vi.timed_out = br->timed_out;
	vi.quiet_timeout = br->quiet_timeout;
	vi.timeout_s = br->quiet_timeout ? br->quiet_s : cell->timeout_s;
	vi.exit_status = read_exit_status(cell);
	vi.qemu_exit = br->qemu_exit;
	vi.crash = scan_crash(cell, &rep, &src) ? &rep : NULL;
	vi.mod = have_mod ? &mod : NULL;
	vi.mod_err = mod_err;
	vi.runner_reason = reason;
	vi.custom_job = c->o->job_script != NULL;
	vi.tcg_overcommit = !c->target_host && c->accel == ACCEL_TCG ? cell->p->detectors.overcommit : 0;
	vi.hang = hang_title;
	verdict_decide(&vi, &vo);

	add_params(c, cell, j);
	json_object_set_new(j, "verdict", json_string(vo.verdict));
	json_object_set_new(j, "signature", json_string(vo.signature));
	json_object_set_new(j, "exit_status", vi.exit_status >= 0 ? json_integer(vi.exit_status)
								   : json_null());
	/* null: the shared boot went on to its next cell (cell.json "boot"). */
	json_object_set_new(j, "qemu_exit", br->boot_goes_on ? json_null() : json_integer(br->qemu_exit));
	if (vi.crash)
		json_object_set_new(j, "crash", crash_json(c, cell, br, &rep, src, &vo, &rec->decode_pending));
	if (hang)
		json_object_set_new(j, "hang", hang);
	if (reason[0])
		json_object_set_new(j, "runner_last", json_string(reason));
	snprintf(rec->verdict, sizeof(rec->verdict), "%s", vo.verdict);
	snprintf(rec->signature, sizeof(rec->signature), "%s", vo.signature);
	rec->boot_retry = add_boot_retry(cell, &vi, &vo, ph, j);
	add_boot(cell, j);
	add_timings(cell, br, ph, j);
	free(ph);
	add_boot_phases(cell, br, j);
	add_boot_setup(c, cell, j);
	if (have_mod)
		add_module(&mod, cell->p->vcpus, j);
	else if (mod_err[0])
		json_object_set_new(j, "module_error", json_string(mod_err));
	module_result_free(&mod);
	add_bpftrace(c, cell, j);
	add_noise(cell, j);
	add_coverage(cell, j);
	add_memory(cell, j);
	add_known_bug(c, cell, j);

	dump = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	snprintf(path, sizeof(path), "%s/cell.json", cell->p->dir);
	if (!dump || write_file_atomic(path, dump, strlen(dump))) {
		fprintf(stderr, "error: cannot write %s\n", path);
		rc = -1;
	}
	free(dump);
	json_decref(j);
	return rc;
}

int cell_json_decode(const char *root, const struct decode_kernel *k, const char *dir,
		     char *err, size_t n)
{
	char path[PATH_MAX + 32], *dump = NULL;
	json_error_t je;
	json_t *j, *o;
	int rc = -1;

	if (pathf_err(err, n, path, sizeof(path), "%s/cell.json", dir))
		return -1;
	j = json_load_file(path, 0, &je);
	if (!j) {
		fmt_cut(err, n, "%s: %s", path, je.text);
		return -1;
	}
	if ((o = json_object_get(j, "crash")) &&
	    json_is_true(json_object_get(o, "decode_pending")))
		add_decoded(root, k, json_string_value(json_object_get(o, "excerpt")), false, o);
	if ((o = json_object_get(j, "hang")) &&
	    json_is_true(json_object_get(o, "decode_pending"))) {
		char *lines = hang_lines(o);

		add_decoded(root, k, lines, true, o);
		free(lines);
	}
	dump = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	if (!dump || write_file_atomic(path, dump, strlen(dump)))
		fmt_cut(err, n, "cannot write %s", path);
	else
		rc = 0;
	free(dump);
	json_decref(j);
	return rc;
}

bool cell_json_decode_pending(const json_t *cell_json)
{
	return json_is_true(json_object_get(json_object_get(cell_json, "crash"), "decode_pending")) ||
	       json_is_true(json_object_get(json_object_get(cell_json, "hang"), "decode_pending"));
}
