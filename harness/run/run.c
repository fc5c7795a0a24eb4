/*
 * `htab-torture run`: plan the matrix, resolve kernels, modules, scripts and
 * accelerator once (every problem is a one-line error and exit 2 before
 * anything is written), record the plan in OUT/manifest.json, then run the
 * cells not finished before — in parallel while the host can take them —
 * rewriting OUT/summary.json after every cell.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/cell.h"
#include "run/cell_json.h"
#include "run/kernels.h"
#include "run/lpj.h"
#include "run/pvh.h"
#include "run/matrix.h"
#include "run/paths.h"
#include "run/progress.h"
#include "run/qemu_argv.h"
#include "run/run.h"
#include "rundir/summary.h"
#include "run/target_host.h"

static int resolve_scripts(struct run_ctx *c)
{
	for (size_t i = 0; i < c->o->bpftrace.n; i++) {
		char p[PATH_MAX + 64];

		snprintf(p, sizeof(p), "%s/bpftrace/%s.bt", c->root, c->o->bpftrace.v[i]);
		if (!file_exists(p)) {
			fprintf(stderr, "error: --bpftrace '%s': no %s (scripts are bpftrace/NAME.bt, or 'none')\n",
				c->o->bpftrace.v[i], p);
			return -1;
		}
		if (strv_push(&c->bt_paths, p))
			return -1;
	}
	return 0;
}

static int resolve_accel(struct run_ctx *c)
{
	c->accel = accel_detect(c->o->accel);
	if (c->o->accel == ACCEL_KVM && !kvm_usable("/dev/kvm")) {
		fprintf(stderr, "error: --accel kvm: /dev/kvm cannot be opened (%s); use --accel tcg or auto\n",
			strerror(errno));
		return -1;
	}
	c->duration_s = c->o->duration_s ? c->o->duration_s : default_duration_s(c->accel);
	return 0;
}

static int resolve_out(struct run_ctx *c)
{
	const char *out = c->o->out;
	char cwd[PATH_MAX];

	if (out[0] == '/') {
		snprintf(c->out, sizeof(c->out), "%s", out);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -1;
		snprintf(c->out, sizeof(c->out), "%s/%s", cwd, out);
	}
	/* The cell directory becomes a QEMU option value and a 9p path. */
	if (strpbrk(c->out, "'\n")) {
		fprintf(stderr, "error: --out '%s': must not contain quotes or newlines\n", out);
		return -1;
	}
	return 0;
}

/* --target host: say exactly why this machine cannot run the job, before anything runs. */
static int resolve_target_host(struct run_ctx *c, const struct plan *p)
{
	char why[1024];

	for (size_t i = 0; i < p->n; i++)
		if (p->cells[i].vcpus > c->host_cpus) {
			fprintf(stderr, "error: --target host: --cpus %d, but this machine has %d CPUs online\n",
				p->cells[i].vcpus, c->host_cpus);
			return -1;
		}
	if (host_target_check("", c->kernels[0].release, c->kernels[0].module, why, sizeof(why))) {
		fprintf(stderr, "error: --target host: %s\n", why);
		return -1;
	}
	return 0;
}

/*
 * Guest RAM follows the map (guest_mem.h): a map this host cannot hold in
 * any guest is refused before anything runs, naming the cell that needs most.
 */
static int check_guest_mem(const struct run_opts *o, const struct plan *p)
{
	char *mi = read_file("/proc/meminfo", NULL), err[512];
	long limit = host_guest_limit_mb(mi);
	struct map_shape m;
	int rc = 0;

	free(mi);
	for (size_t i = 0; i < p->n && !rc; i++)
		if (shard_selects(p->cells[i].index, o->shard_i, o->shard_n) &&
		    (map_shape_of_cell(o, p->cells[i].ax, &m),
		     guest_mem_check(&m, p->cells[i].vcpus, limit, err, sizeof(err)))) {
			fprintf(stderr, "error: cell %s: %s\n", p->cells[i].id, err);
			rc = -1;
		}
	return rc;
}

static int resolve(struct run_ctx *c, const struct run_opts *o, const struct plan *p)
{
	const char *q = getenv("HTAB_QEMU");
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->host_cpus = n > 0 ? (int)n : 1;
	if (!o->target_host && check_guest_mem(o, p))
		return -1;
	c->target_host = o->target_host;
	c->qemu = (char *)(q && *q ? q : "qemu-system-x86_64");
	if (repo_root(c->root, sizeof(c->root))) {
		fprintf(stderr, "error: cannot find the repository root from /proc/self/exe\n");
		return -1;
	}
	if (resolve_out(c) || resolve_accel(c) || kernels_resolve(c))
		return -1;
	if (c->target_host && resolve_target_host(c, p))
		return -1;
	if (resolve_scripts(c))
		return -1;
	snprintf(c->runner, sizeof(c->runner), "%s/vm-images/guest/run-job.sh", c->root);
	return 0;
}

/* What makes cells of one run comparable: a resumed run must have the same. */
static json_t *run_params(const struct run_ctx *c)
{
	const struct run_opts *o = c->o;
	json_t *bt = json_array(), *mp = json_array(), *ks = json_object();

	for (size_t i = 0; i < o->bpftrace.n; i++)
		json_array_append_new(bt, json_string(o->bpftrace.v[i]));
	for (size_t i = 0; i < o->modparams.n; i++)
		json_array_append_new(mp, json_string(o->modparams.v[i]));
	for (int i = 0; i < c->nkernels; i++)
		json_object_set_new(ks, c->kernels[i].label, json_pack("{s:s, s:s}",
			"release", c->kernels[i].release, "hash", c->kernels[i].hash));
	return json_pack("{s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:i, s:i, s:o}",
		"duration_s", c->duration_s, "target", c->target_host ? "host" : "vm",
		"accel", c->target_host ? "host" : accel_name(c->accel), "bpftrace", bt,
		/* map_type, prealloc: axes now (the plan's cells); kept as they were without them. */
		"modparams", mp, "map_type", json_null(),
		"kernels", ks, "prealloc", -1, "timeout_s", o->timeout_s,
		"job_script", o->job_script ? json_string(o->job_script) : json_null());
}

/* Writes OUT/manifest.json (new, or the old one grown); NULL + message on a mismatch. */
static json_t *prepare_manifest(const struct run_ctx *c, const struct plan *p)
{
	json_t *params = run_params(c);
	json_t *want = manifest_build(p, params, c->o->shard_i, c->o->shard_n), *old, *m = NULL;
	char err[1024], path[PATH_MAX + 32];

	json_decref(params);
	if (!want)
		return NULL;
	snprintf(path, sizeof(path), "%s/manifest.json", c->out);
	if (file_exists(path)) {
		old = manifest_load(c->out, err, sizeof(err));
		if (!old || manifest_reconcile(old, want, &m, err, sizeof(err)))
			fprintf(stderr, "error: --out %s: %s\n", c->o->out, err);
		json_decref(old);
		json_decref(want);
	} else {
		m = want;
	}
	if (!m)
		return NULL;
	manifest_add_run(m, c->o->argc + 1, c->o->argv - 1);
	if (manifest_write(c->out, m)) {
		fprintf(stderr, "error: cannot write %s\n", path);
		json_decref(m);
		return NULL;
	}
	return m;
}

static int print_argv(const struct run_ctx *c, const struct plan_cell *pc)
{
	struct cell cell;
	char *line = NULL;
	int err = -1;

	if (!cell_plan(c, pc, &cell) && (line = qemu_argv_join(&cell.argv))) {
		printf("%s\n", line);
		err = 0;
	}
	free(line);
	cell_free(&cell);
	return err;
}

struct sched {
	const struct run_ctx *c;
	json_t *manifest;
	struct host_res host;
	struct sched_load load;
	struct cell *running;		/* nrun_cap slots; pid 0 = free */
	size_t nrun_cap;
	struct progress prog;
	int err;
	/* cells to boot again (a boot stall under TCG, verdict_boot_retry()), first */
	const struct plan_cell **again;
	size_t nagain;
};

static void account(struct sched *s, const struct cell *cell, int sign)
{
	s->load.running += sign;
	s->load.vcpus += sign * cell->vcpus;
	s->load.mem_mb += sign * cell->mem_mb;
}

static int start_cell(struct sched *s, const struct plan_cell *pc)
{
	struct cell *slot = NULL;

	for (size_t i = 0; i < s->nrun_cap && !slot; i++)
		if (!s->running[i].pid)
			slot = &s->running[i];
	if (!slot)
		return -1;
	if (cell_plan(s->c, pc, slot)) {
		fprintf(stderr, "error: cannot plan cell %s (out of memory or path too long)\n", pc->id);
		cell_free(slot);
		return -1;
	}
	if (cell_write_job(s->c, slot) || cell_start(slot)) {
		cell_free(slot);
		slot->pid = 0;
		return -1;
	}
	account(s, slot, +1);
	progress_line(&s->prog, "%s: started (%s, %d vCPUs, timeout %d s, quiet %d s%s)", slot->id,
		      s->c->target_host ? "this machine" : accel_name(s->c->accel), slot->vcpus,
		      slot->timeout_s, slot->quiet_s, slot->attempt > 1 ? ", again" : "");
	return 0;
}

static void rewrite_summary(struct sched *s)
{
	json_t *cells = summary_collect(s->c->out, s->manifest);

	summary_write(s->c->out, cells);
	json_decref(cells);
}

/* Keeps a retried boot's cell.json and console beside the next attempt; 0 ok. */
static int keep_boot_stall(const struct cell *cell)
{
	char a[PATH_MAX + 64], b[PATH_MAX + 64];

	snprintf(a, sizeof(a), "%s/console.log", cell->dir);
	snprintf(b, sizeof(b), "%s/%s", cell->dir, BOOT_STALL_CONSOLE);
	if (rename(a, b) && errno != ENOENT)
		return -1;
	snprintf(a, sizeof(a), "%s/cell.json", cell->dir);
	snprintf(b, sizeof(b), "%s/%s", cell->dir, BOOT_STALL_JSON);
	return rename(a, b);
}

static void finish_cell(struct sched *s, struct cell *cell, const struct boot_result *br)
{
	json_t *j;

	account(s, cell, -1);
	if (br->interrupted) {
		progress_line(&s->prog, "%s: interrupted, %s killed; the cell will run again next time",
			      cell->id, s->c->target_host ? "runner" : "QEMU");
	} else if ((j = cell_finish(s->c, cell, br)) && json_is_true(json_object_get(j, "boot_retry")) &&
		   !keep_boot_stall(cell)) {
		progress_line(&s->prog, "%s: %s: %s while booting under TCG overcommit; booting it again "
			      "(this attempt: %s/%s)", cell->id,
			      json_string_value(json_object_get(j, "verdict")),
			      json_string_value(json_object_get(j, "signature")), cell->id, BOOT_STALL_JSON);
		s->again[s->nagain++] = cell->pc;
		json_decref(j);
	} else if (j) {
		const char *sig = json_string_value(json_object_get(j, "signature"));

		s->prog.done++;
		s->prog.done_here++;
		progress_line(&s->prog, "[%zu/%zu] %s: %s%s%s (%.1f s)", s->prog.done, s->prog.total,
			      cell->id, json_string_value(json_object_get(j, "verdict")),
			      *sig ? ": " : "", sig, br->wall_s);
		json_decref(j);
		rewrite_summary(s);
	} else {
		s->err = 1;
	}
	cell_free(cell);
}

static void show_status(struct sched *s)
{
	char ids[400] = "";

	for (size_t i = 0; i < s->nrun_cap; i++)
		if (s->running[i].pid) {
			size_t l = strlen(ids);

			snprintf(ids + l, sizeof(ids) - l, "%s%s", l ? ", " : "", s->running[i].id);
		}
	progress_status(&s->prog, (size_t)s->load.running, ids);
}

/*
 * The loop: start pending cells in plan order while they fit, poll the
 * running ones. A cell that does not fit waits (no overtaking: big cells
 * would starve). SIGINT/SIGTERM: kill what runs, start nothing more.
 */
static void schedule(struct sched *s, const struct plan_cell **pending, size_t npending)
{
	size_t next = 0;

	while (next < npending || s->nagain || s->load.running) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		while (!harness_stop && !s->err && (s->nagain || next < npending)) {
			const struct plan_cell *pc = s->nagain ? s->again[0] : pending[next];
			struct map_shape m;
			long mem = 0;

			if (!s->c->target_host) {
				map_shape_of_cell(s->c->o, pc->ax, &m);
				mem = guest_mem_mb(pc->vcpus, map_footprint_bytes(&m, pc->vcpus));
			}

			if (!sched_fits(&s->host, &s->load, pc->vcpus, mem, s->c->o->jobs))
				break;
			if (start_cell(s, pc)) {
				s->err = 2;
				break;
			}
			if (s->nagain)
				memmove(s->again, s->again + 1, --s->nagain * sizeof(*s->again));
			else
				next++;
		}
		for (size_t i = 0; i < s->nrun_cap; i++) {
			struct boot_result br;

			if (!s->running[i].pid)
				continue;
			if (harness_stop)
				cell_kill(&s->running[i], &br);
			else if (!cell_poll(&s->running[i], &br))
				continue;
			finish_cell(s, &s->running[i], &br);
		}
		if (harness_stop || (s->err && !s->load.running))
			break;
		show_status(s);
		nanosleep(&ts, NULL);
	}
	progress_end(&s->prog);
}

/*
 * The image QEMU boots (run/pvh.h) and lpj= for it (run/lpj.h): last, once
 * the run is known to go ahead, since an uncalibrated image costs a boot; a
 * dry run only reads the caches.
 */
static int resolve_lpj(struct run_ctx *c, bool dry_run)
{
	for (int i = 0; i < c->nkernels; i++)
		if (pvh_resolve(c, &c->kernels[i], dry_run) ||
		    lpj_resolve(c, &c->kernels[i], dry_run))
			return -1;
	return 0;
}

static int ensure_initramfs_all(const struct run_ctx *c)
{
	if (c->target_host)
		return 0;
	for (int i = 0; i < c->nkernels; i++)
		if (ensure_initramfs(c->root, c->kernels[i].release, c->kernels[i].initrd)) {
			fprintf(stderr, "error: cannot build %s (vm-images/mkinitramfs.sh %s failed)\n",
				c->kernels[i].initrd, c->kernels[i].release);
			return -1;
		}
	return 0;
}

static int run_matrix(struct run_ctx *c, const struct plan *p)
{
	struct sched s = { .c = c };
	const struct plan_cell **pending = calloc(p->n + 1, sizeof(*pending));
	size_t npending = 0, nsel = 0;
	json_t *cells;
	int rc = 2;

	if (!pending)
		return 2;
	if (mkdir_p(c->out)) {
		fprintf(stderr, "error: --out %s: %s\n", c->out, strerror(errno));
		goto cleanup;
	}
	if (ensure_initramfs_all(c) || !(s.manifest = prepare_manifest(c, p)) ||
	    resolve_lpj(c, false))
		goto cleanup;
	install_stop_handlers();
	for (size_t i = 0; i < p->n; i++)
		if (shard_selects(p->cells[i].index, c->o->shard_i, c->o->shard_n))
			nsel++;
	progress_init(&s.prog, nsel, isatty(STDERR_FILENO));
	for (size_t i = 0; i < p->n; i++) {
		char path[PATH_MAX + 256];

		if (!shard_selects(p->cells[i].index, c->o->shard_i, c->o->shard_n))
			continue;
		snprintf(path, sizeof(path), "%s/%s/cell.json", c->out, p->cells[i].id);
		if (file_exists(path)) {
			json_t *j = json_load_file(path, 0, NULL);

			s.prog.done++;
			progress_line(&s.prog, "%s: finished before (%s), not rerun", p->cells[i].id,
				      j ? json_string_value(json_object_get(j, "verdict")) : "?");
			json_decref(j);
		} else {
			pending[npending++] = &p->cells[i];
		}
	}
	host_res_detect(&s.host);
	s.nrun_cap = npending ? npending : 1;
	s.running = calloc(s.nrun_cap, sizeof(*s.running));
	s.again = calloc(s.nrun_cap, sizeof(*s.again));	/* each cell at most once */
	if (!s.running || !s.again)
		goto cleanup;
	schedule(&s, pending, npending);
	cells = summary_collect(c->out, s.manifest);
	summary_write(c->out, cells);
	if (json_array_size(cells))
		summary_print(stdout, cells);
	rc = harness_stop ? 128 + harness_stop : s.err ? 2 : summary_exit_code(cells);
	json_decref(cells);
cleanup:
	free(s.running);
	free(s.again);
	free(pending);
	json_decref(s.manifest);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct run_ctx c = { 0 };
	struct plan p = { 0 };
	int rc;

	run_opts_init(&o);
	rc = run_opts_parse(&o, argc, argv);
	if (rc) {
		rc = rc == 1 ? 0 : 2;
		goto cleanup;
	}
	if (plan_build(&o, &p)) {
		rc = 2;
		goto cleanup;
	}
	if (p.left_out && !p.n) {
		fprintf(stderr, "error: --map-type lru_hash/lru_percpu_hash with --prealloc 0 only: LRU maps are always preallocated (valid: --prealloc 1)\n");
		rc = 2;
		goto cleanup;
	}
	if (p.left_out)
		fprintf(stderr, "note: %zu cell(s) of an LRU map with --prealloc 0 left out (LRU maps are always preallocated)\n",
			p.left_out);
	if (o.plan_only) {
		for (size_t i = 0; i < p.n; i++)
			if (shard_selects(p.cells[i].index, o.shard_i, o.shard_n))
				printf("%s\n", p.cells[i].id);
		rc = 0;
		goto cleanup;
	}
	if (resolve(&c, &o, &p)) {
		rc = 2;
		goto cleanup;
	}
	rc = 0;
	if (o.dry_run) {
		resolve_lpj(&c, true);
		for (size_t i = 0; i < p.n && !rc; i++)
			if (shard_selects(p.cells[i].index, o.shard_i, o.shard_n))
				rc = print_argv(&c, &p.cells[i]) ? 2 : 0;
	} else {
		rc = run_matrix(&c, &p);
	}
cleanup:
	plan_free(&p);
	strv_free(&c.bt_paths);
	run_opts_free(&o);
	return rc;
}
