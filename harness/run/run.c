/*
 * `htab-torture run`: plan the matrix, resolve kernels, modules, scripts and
 * accelerator once (every problem is a one-line error and exit 2 before
 * anything is written), record the plan in OUT/manifest.json, then run the
 * cells not finished before — in parallel while the host can take them —
 * rewriting OUT/summary.json after every cell.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/fnv.h"
#include "run/guest/cell.h"
#include "run/guest/guest.h"
#include "run/record/cell_json.h"
#include "run/plan/kernels.h"
#include "run/plan/bt_aot.h"
#include "run/plan/lpj.h"
#include "run/plan/lz4.h"
#include "run/plan/pvh.h"
#include "run/plan/matrix.h"
#include "run/plan/noise.h"
#include "run/plan/paths.h"
#include "run/progress.h"
#include "run/plan/qemu_argv.h"
#include "run/decode_queue.h"
#include "run/run.h"
#include "run/guest/snapshot.h"
#include "rundir/summary.h"
#include "run/plan/target_host.h"

/*
 * --bpftrace-preattach: the scripts init starts before the save, as one
 * htab.observe= word, and what they are for the snapshot key: each script,
 * its fentry sibling, the form rules (vm-images/guest/observers.sh) and the
 * bpftrace binary the guest copies.
 */
static int observe_of(struct run_ctx *c)
{
	uint64_t h = FNV1A64_INIT;
	char rules[PATH_MAX + 32];
	size_t len = 1;

	for (size_t i = 0; i < c->bt_paths.n; i++) {
		const char *p = c->bt_paths.v[i];
		char f[PATH_MAX + 16];

		if (strpbrk(p, ", \t\n'\"")) {
			fprintf(stderr, "error: --bpftrace-preattach on: script path '%s' has a space, quote or ',' (valid: a checkout path without them, the guest's command line carries it; or --bpftrace-preattach off)\n",
				p);
			return -1;
		}
		len += strlen(p) + 1;
		snprintf(f, sizeof(f), "%.*s_fentry.bt", (int)(strlen(p) - 3), p);
		if (fnv1a64_file(p, &h) || (file_exists(f) && fnv1a64_file(f, &h)))
			return -1;
	}
	snprintf(rules, sizeof(rules), "%s/vm-images/guest/observers.sh", c->root);
	if (fnv1a64_file(rules, &h) || fnv1a64_file("/usr/bin/bpftrace", &h)) {
		fprintf(stderr, "error: --bpftrace-preattach on: cannot read %s or /usr/bin/bpftrace\n", rules);
		return -1;
	}
	c->observe = calloc(1, len);
	if (!c->observe)
		return -1;
	for (size_t i = 0; i < c->bt_paths.n; i++) {
		if (i)
			strcat(c->observe, ",");
		strcat(c->observe, c->bt_paths.v[i]);
	}
	snprintf(c->observe_id, sizeof(c->observe_id), "%016llx", (unsigned long long)h);
	return 0;
}

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
	if (c->o->bt_preattach && c->bt_paths.n && observe_of(c))
		return -1;
	/* Without a cache (a warning says why), bpftrace compiles every script. */
	if (c->bt_paths.n && !c->o->bt_aot_off &&
	    bt_aot_cache_dir(c->root, c->bt_aot_cache, sizeof(c->bt_aot_cache)))
		c->bt_aot_cache[0] = '\0';
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
		if (pathf(c->out, sizeof(c->out), "%s", out))
			return -1;
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -1;
		if (pathf(c->out, sizeof(c->out), "%s/%s", cwd, out))
			return -1;
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
		     guest_mem_check(&m, o->guest_mem_mb, p->cells[i].vcpus,
				     noise_mem_mb(noise_find(p->cells[i].noise), p->cells[i].vcpus),
				     limit, err, sizeof(err)))) {
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
	return pathf(c->runner, sizeof(c->runner), "%s/vm-images/guest/run-job.sh", c->root);
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
		json_object_set_new(ks, c->kernels[i].label, json_pack("{s:s, s:s, s:s, s:s, s:s*}",
			"name", c->kernels[i].name, "line", c->kernels[i].line,
			"release", c->kernels[i].release, "hash", c->kernels[i].hash,
			"tree", c->kernels[i].tree[0] ? c->kernels[i].tree : NULL));
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
	struct cell_plan p;
	char *line = NULL;
	int err = -1;

	if (!cell_plan_make(c, pc, &p) &&
	    (line = qemu_argv_join(&p.argv, cell_plan_state(&p)))) {
		printf("%s\n", line);
		err = 0;
	}
	free(line);
	cell_plan_free(&p);
	return err;
}

struct sched {
	const struct run_ctx *c;
	const struct guest_ops *ops;	/* the way its cells run (run/guest/guest.h) */
	json_t *manifest;
	struct host_res host;
	struct sched_load load;
	struct cell *running;		/* nrun_cap slots; pid 0 = free */
	struct boot *boots;		/* slot i's shared boot; NULL: --boot-per-cell */
	size_t nrun_cap;
	struct progress prog;
	int err;
	struct cell_plan *plans;	/* this shard's cells to run, planned once, in plan order */
	/* plans[i] while it waits; NULL once taken (a boot-stall retry puts it back). */
	const struct cell_plan **pending;
	size_t npending;
	size_t *taken_at;		/* slot i's cell: its index in pending */
	struct decode_queue decodes;	/* finished cells' reports, decoded apart (decode_queue.h) */
};

static void account(struct sched *s, const struct cell *cell, int sign)
{
	s->load.running += sign;
	s->load.vcpus += sign * cell->p->vcpus;
	s->load.mem_mb += sign * cell->p->mem_mb;
}

/* The first cell not taken yet (of the group key, if not NULL); npending if none. */
static size_t next_pending(const struct sched *s, const char *key)
{
	for (size_t i = 0; i < s->npending; i++)
		if (s->pending[i] && (!key || !strcmp(s->pending[i]->group, key)))
			return i;
	return s->npending;
}

/*
 * The cell a shared boot of group KEY that has run CELLS cells goes on with
 * when they all PASSed: its group's next, while --cells-per-boot allows;
 * npending: the boot ends. The one rule for the run (continue_slot), its
 * dry run (print_boots) and its ETA (boots_left).
 */
static size_t boot_goes_on_with(const struct sched *s, const char *key, int cells)
{
	int cap = s->c->o->cells_per_boot;

	return cap && cells >= cap ? s->npending : next_pending(s, key);
}

/*
 * plans[0 .. npending) from the plan's cells of this shard (those without
 * a cell.json yet when skip_finished), each planned once here, and
 * pending[] pointing at them; 0 ok.
 */
static int sched_fill_pending(struct sched *s, const struct plan *p, bool skip_finished)
{
	s->npending = 0;
	s->plans = calloc(p->n + 1, sizeof(*s->plans));
	s->pending = calloc(p->n + 1, sizeof(*s->pending));
	if (!s->plans || !s->pending)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		struct cell_plan *cp = &s->plans[s->npending];
		char path[PATH_MAX + 256];

		if (!shard_selects(p->cells[i].index, s->c->o->shard_i, s->c->o->shard_n))
			continue;
		snprintf(path, sizeof(path), "%s/%s/cell.json", s->c->out, p->cells[i].id);
		if (skip_finished && file_exists(path)) {
			json_t *j = json_load_file(path, 0, NULL);
			const struct kernel_res *k = kernel_find(s->c, p->cells[i].kernel);
			bool pending = j && k && cell_json_decode_pending(j);

			s->prog.done++;
			progress_line(&s->prog, "%s: finished before (%s), not rerun%s", p->cells[i].id,
				      j ? json_string_value(json_object_get(j, "verdict")) : "?",
				      pending ? "; its report decoded now" : "");
			if (pending) {
				*strrchr(path, '/') = '\0';
				if (decode_queue_add(&s->decodes, path, k))
					fprintf(stderr, "warning: %s: out of memory: its report stays decode_pending\n",
						p->cells[i].id);
			}
			json_decref(j);
			continue;
		}
		if (cell_plan_make(s->c, &p->cells[i], cp)) {
			fprintf(stderr, "error: cannot plan cell %s (out of memory or path too long)\n",
				p->cells[i].id);
			cell_plan_free(cp);
			return -1;
		}
		s->pending[s->npending++] = cp;
	}
	return 0;
}

static void sched_free(struct sched *s)
{
	for (size_t i = 0; s->plans && i < s->npending; i++)
		cell_plan_free(&s->plans[i]);
	free(s->plans);
	free(s->pending);
	free(s->running);
	free(s->taken_at);
	free(s->boots);
	s->plans = NULL;
	s->pending = NULL;
	s->running = NULL;
	s->taken_at = NULL;
	s->boots = NULL;
}

/*
 * Boots the ETA still has to pay for. Boot-per-cell: one per cell left.
 * Shared: per group of the cells left, the boots --cells-per-boot splits
 * it into, less what its live boots still take (all of it without a cap).
 */
static size_t boots_left(const struct sched *s)
{
	size_t n = 0, cap = s->c->o->cells_per_boot;

	for (size_t i = 0; i < s->npending; i++) {
		size_t same = 0, room = 0;
		bool live = false;

		if (!s->pending[i])
			continue;
		if (!s->boots) {
			n++;
			continue;
		}
		if (next_pending(s, s->pending[i]->group) != i)	/* each group once, at its first cell */
			continue;
		for (size_t j = i; j < s->npending; j++)
			if (s->pending[j] && !strcmp(s->pending[i]->group, s->pending[j]->group))
				same++;
		for (size_t j = 0; j < s->nrun_cap; j++) {
			const struct boot *b = &s->boots[j];

			if (!b->pid || strcmp(b->key, s->pending[i]->group))
				continue;
			live = true;
			if (cap && (size_t)b->cells < cap)
				room += cap - b->cells;
		}
		if (!cap)
			n += !live;
		else if (same > room)
			n += (same - room + cap - 1) / cap;
	}
	return n;
}

/*
 * --dry-run with shared boots: the boots a run would make if every cell
 * PASSed, one at a time (a cell that does not PASS ends its boot): a
 * "# boot NAME: CELL..." line, then that boot's QEMU command line. The
 * cells of a boot come from boot_goes_on_with, as in the run.
 */
static int print_boots(const struct run_ctx *c, const struct plan *p)
{
	struct sched s = { .c = c };
	struct strv argv = { 0 };
	size_t i;
	int err = 0;

	if (sched_fill_pending(&s, p, false))
		err = -1;
	while (!err && (i = next_pending(&s, NULL)) < s.npending) {
		const struct cell_plan *first = s.pending[i];
		char name[224], *line = NULL;
		int n = 0;

		snprintf(name, sizeof(name), "%s.1", first->id);
		printf("# boot %s:", name);
		for (size_t j = i; j < s.npending; j = boot_goes_on_with(&s, first->group, ++n)) {
			printf(" %s", s.pending[j]->id);
			s.pending[j] = NULL;
		}
		printf("\n");
		err = cell_plan_boot_argv(c, first, name, &argv) ||
		      !(line = qemu_argv_join(&argv, cell_plan_state(first)));
		if (!err)
			printf("%s\n", line);
		free(line);
	}
	strv_free(&argv);
	sched_free(&s);
	return err ? -1 : 0;
}

/*
 * Starts pending[pi] in slot i: in the slot's live shared boot when there
 * is one (the caller checked it may go on), else in a boot of its own or a
 * fresh shared boot named after the cell and its attempt.
 */
static int start_in_slot(struct sched *s, size_t i, size_t pi)
{
	const struct cell_plan *p = s->pending[pi];
	struct cell *slot = &s->running[i];
	struct boot *b = s->boots ? &s->boots[i] : NULL;
	bool fresh = b && !b->pid;

	cell_init(slot, p, s->ops);
	if (cell_start(s->c, slot, b)) {
		cell_free(slot);
		slot->pid = 0;
		return -1;
	}
	s->pending[pi] = NULL;
	s->taken_at[i] = pi;
	account(s, slot, +1);
	if (b && !fresh)
		progress_line(&s->prog, "%s: started in boot %s (cell %d of it, timeout %d s, quiet %d s%s)",
			      p->id, b->name, slot->in_boot, slot->timeout_s, p->quiet_s,
			      slot->attempt > 1 ? ", again" : "");
	else
		progress_line(&s->prog, "%s: started (%s, %d vCPUs, timeout %d s, quiet %d s%s%s%s)",
			      p->id, s->c->target_host ? "this machine" : accel_name(s->c->accel),
			      p->vcpus, slot->timeout_s, p->quiet_s, b ? ", boot " : "",
			      b ? b->name : "", slot->attempt > 1 ? ", again" : "");
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

	snprintf(a, sizeof(a), "%s/console.log", cell->p->dir);
	snprintf(b, sizeof(b), "%s/%s", cell->p->dir, BOOT_STALL_CONSOLE);
	if (rename(a, b) && errno != ENOENT)
		return -1;
	snprintf(a, sizeof(a), "%s/cell.json", cell->p->dir);
	snprintf(b, sizeof(b), "%s/%s", cell->p->dir, BOOT_STALL_JSON);
	return rename(a, b);
}

/* The verdict of the cell of slot i; true when it PASSed. */
static bool finish_cell(struct sched *s, size_t i, const struct boot_result *br)
{
	struct cell *cell = &s->running[i];
	struct cell_record rec;
	bool pass = false;

	account(s, cell, -1);
	if (br->interrupted) {
		progress_line(&s->prog, "%s: interrupted, %s killed; the cell will run again next time",
			      cell->p->id, s->c->target_host ? "runner" : "QEMU");
	} else if (cell_finish(s->c, cell, br, &rec)) {
		s->err = 1;
	} else if (rec.boot_retry && !keep_boot_stall(cell)) {
		progress_line(&s->prog, "%s: %s: %s while booting under TCG (the kernel not exercised yet); booting it again "
			      "(this attempt: %s/%s)", cell->p->id, rec.verdict, rec.signature, cell->p->id,
			      BOOT_STALL_JSON);
		s->pending[s->taken_at[i]] = cell->p;	/* back in its place in the plan */
	} else {
		if (rec.decode_pending && decode_queue_add(&s->decodes, cell->p->dir, cell->p->k))
			fprintf(stderr, "warning: %s: out of memory: its report stays decode_pending\n",
				cell->p->id);
		pass = !strcmp(rec.verdict, "PASS");
		/* A cell that booted paid QEMU start -> runner (all of it if the runner never ran). */
		progress_cell_cost(&s->prog, br->wall_s, cell->in_boot > 1 ? NAN
					 : isnan(cell->host_phase[0]) ? br->wall_s : cell->host_phase[0]);
		s->prog.done++;
		s->prog.done_here++;
		progress_line(&s->prog, "[%zu/%zu] %s: %s%s%s (%.1f s)", s->prog.done, s->prog.total,
			      cell->p->id, rec.verdict, *rec.signature ? ": " : "", rec.signature, br->wall_s);
		rewrite_summary(s);
	}
	cell_free(cell);
	return pass;
}

/* Stops a shared boot, saying why in OUT/boots/NAME/end (and in the log when a cell follows). */
static void boot_end(struct sched *s, struct boot *b, const char *why)
{
	char path[PATH_MAX + 32], *text = NULL;
	const struct cell *last = &s->running[b - s->boots];
	int len;

	if (!b->cells)
		return;
	len = asprintf(&text, "after cell %d (%s): %s%s%s%s\n", b->cells, last->p->id, why,
		       last->boot_state[0] ? " (the guest said " : "", last->boot_state,
		       last->boot_state[0] ? ")" : "");
	snprintf(path, sizeof(path), "%s/end", b->dir);
	if (len > 0 && write_file_atomic(path, text, len))
		fprintf(stderr, "warning: cannot write %s\n", path);
	if (len > 0 && strcmp(why, "its group is done"))
		progress_line(&s->prog, "boot %s ends %.*s", b->name, len - 1, text);
	free(text);
	boot_stop(b);
	b->cells = 0;
}

/*
 * After slot i's cell: its shared boot goes on with the next cell of its
 * group when the cell PASSed and the guest said it is as the cell found it;
 * otherwise that boot ends, and the group's next cell boots a fresh guest
 * in this slot (the group stays together; the slot's vCPUs and RAM are the
 * same). A boot that ran --cells-per-boot cells ends and frees the slot
 * for the plan's next cell, whatever its group.
 */
static void continue_slot(struct sched *s, size_t i, bool pass)
{
	struct boot *b = &s->boots[i];
	size_t next, go;
	bool capped;

	if (harness_stop || s->err) {
		boot_end(s, b, harness_stop ? "the harness was stopped" : "an error of the harness");
		return;
	}
	next = next_pending(s, b->key);
	go = boot_goes_on_with(s, b->key, b->cells);
	if (go < s->npending && b->pid && pass && b->reusable) {
		if (start_in_slot(s, i, go))
			s->err = 2;
		return;
	}
	capped = next < s->npending && go == s->npending;
	/* A guest that said it is not ok powers off at once: that, not its end, is why. */
	boot_end(s, b, next == s->npending ? "its group is done"
		       : !pass ? "its last cell did not PASS"
		       : s->running[i].boot_state[0] && strcmp(s->running[i].boot_state, "ok")
		       ? "the guest is not as the cell found it"
		       : !b->pid ? "the guest ended"
		       : "--cells-per-boot");
	if (next < s->npending && (!capped || !pass || !b->reusable) && start_in_slot(s, i, next))
		s->err = 2;
}

static void show_status(struct sched *s)
{
	char ids[400] = "";

	for (size_t i = 0; i < s->nrun_cap; i++)
		if (s->running[i].pid) {
			size_t l = strlen(ids);

			snprintf(ids + l, sizeof(ids) - l, "%s%s", l ? ", " : "", s->running[i].p->id);
		}
	if (s->prog.tty)	/* only the status line shows it */
		s->prog.boots_left = boots_left(s);
	progress_status(&s->prog, (size_t)s->load.running, ids);
}

/*
 * The loop: start pending cells in plan order while they fit, poll the
 * running ones. A cell that does not fit waits (no overtaking: big cells
 * would starve). SIGINT/SIGTERM: kill what runs, start nothing more.
 */
static void schedule(struct sched *s)
{
	size_t next;

	while ((next = next_pending(s, NULL)) < s->npending || s->load.running) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };
		bool ended = false;

		while (!harness_stop && !s->err && (next = next_pending(s, NULL)) < s->npending) {
			const struct cell_plan *p = s->pending[next];
			size_t slot = 0;

			if (!sched_fits(&s->host, &s->load, p->vcpus, p->mem_mb, s->c->o->jobs))
				break;
			while (slot < s->nrun_cap && s->running[slot].pid)
				slot++;
			if (slot == s->nrun_cap || start_in_slot(s, slot, next)) {
				s->err = 2;
				break;
			}
		}
		for (size_t i = 0; i < s->nrun_cap; i++) {
			struct boot_result br;
			bool pass;

			if (!s->running[i].pid)
				continue;
			if (harness_stop)
				cell_kill(&s->running[i], &br);
			else if (!cell_poll(&s->running[i], &br))
				continue;
			pass = finish_cell(s, i, &br);
			if (s->boots)
				continue_slot(s, i, pass);
			ended = true;
		}
		decode_queue_poll(&s->decodes);
		if (harness_stop || (s->err && !s->load.running))
			break;
		show_status(s);
		/* A cell ended: the next one starts now, not a poll later (0.2 s a cell). */
		if (!ended)
			nanosleep(&ts, NULL);
	}
	for (size_t i = 0; s->boots && i < s->nrun_cap; i++)
		boot_end(s, &s->boots[i], "the run ended");
	progress_end(&s->prog);
}

/*
 * The image QEMU boots (run/plan/pvh.h, lz4.h) and lpj= for it (run/plan/lpj.h): last, once
 * the run is known to go ahead, since an uncalibrated image costs a boot; a
 * dry run only reads the caches.
 */
static int resolve_lpj(struct run_ctx *c, bool dry_run)
{
	for (int i = 0; i < c->nkernels; i++)
		if (pvh_resolve(c, &c->kernels[i], dry_run) ||
		    lz4_resolve(c, &c->kernels[i], dry_run) ||
		    lpj_resolve(c, &c->kernels[i], dry_run))
			return -1;
	return 0;
}

/*
 * --restore on: what each kernel's snapshots are saved from (run/guest/snapshot.h);
 * a dry run may lack the initramfs: its key then says so.
 */
static int resolve_snapshot_files(struct run_ctx *c, bool dry_run)
{
	for (int i = 0; c->o->restore && i < c->nkernels; i++) {
		struct kernel_res *k = &c->kernels[i];

		if (!snapshot_files_id(c->qemu, k->boot_image[0] ? k->boot_image : k->image,
				       k->initrd, k->snap_files, sizeof(k->snap_files)))
			continue;
		if (!dry_run) {
			fprintf(stderr, "error: --restore on: cannot read %s, %s or %s to key its snapshots\n",
				k->boot_image[0] ? k->boot_image : k->image, k->initrd, c->qemu);
			return -1;
		}
		snprintf(k->snap_files, sizeof(k->snap_files), "unread");
	}
	return 0;
}

/*
 * --restore on: every guest the pending cells restore, saved before the
 * first cell starts (a boot and a migration each, once per QEMU command
 * line, kernel, initramfs and QEMU: later runs find them in the cache).
 */
static int prepare_snapshots(struct sched *s)
{
	struct strv seen = { 0 };
	int rc = 0;

	for (size_t i = 0; s->c->o->restore && i < s->npending && !rc && !harness_stop; i++) {
		const struct cell_plan *p = s->pending[i];
		const char *name = strrchr(p->snap_dir, '/') + 1;
		struct snapshot_info info;
		bool dup = false;
		double t0 = now_mono();
		int r;

		for (size_t j = 0; j < seen.n; j++)
			dup |= !strcmp(seen.v[j], p->snap_dir);
		if (dup || strv_push(&seen, p->snap_dir))
			continue;
		progress_line(&s->prog, "snapshot %s: the guest of %s at %d vCPUs (%d MB)",
			      name, p->k->label, p->vcpus, p->mem_mb);
		r = cell_snapshot_ensure(s->c, p, &info);
		if (r < 0)
			rc = -1;
		else if (r)
			progress_line(&s->prog, "snapshot %s: saved (boot %.1f s, save %.1f s, %.0f MB) in %s",
				      name, info.boot_s, info.save_s, info.bytes / 1e6, p->snap_dir);
		else
			progress_line(&s->prog, "snapshot %s: in the cache (saved before; key checked in %.2f s)",
				      name, now_mono() - t0);
	}
	strv_free(&seen);
	return rc;
}

static int ensure_initramfs_all(const struct run_ctx *c)
{
	if (c->target_host)
		return 0;
	for (int i = 0; i < c->nkernels; i++)
		if (ensure_initramfs(c->root, c->kernels[i].release, c->kernels[i].initrd,
				     !c->kernels[i].tree[0])) {
			fprintf(stderr, "error: cannot build %s (vm-images/mkinitramfs.sh %s failed)\n",
				c->kernels[i].initrd, c->kernels[i].release);
			return -1;
		}
	return 0;
}

/*
 * --plan-only: the ids of the cells this shard runs, one a line, or with
 * --json an array of {id, dir, repeat, and every axis's value} for
 * scripts and tests (no id to be built by hand).
 */
static int print_plan(const struct run_opts *o, const struct plan *p)
{
	json_t *a = o->plan_json ? json_array() : NULL;

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_cell *pc = &p->cells[i];
		json_t *j;

		if (!shard_selects(pc->index, o->shard_i, o->shard_n))
			continue;
		if (!a) {
			printf("%s\n", pc->id);
			continue;
		}
		j = json_pack("{s:s, s:i}", "id", pc->id, "repeat", pc->repeat);
		if (o->out)
			json_object_set_new(j, "dir", json_sprintf("%s/%s", o->out, pc->id));
		for (int x = 0; x < AX_NR; x++)
			if (pc->ax[x])
				axis_to_json(x, j, pc->ax[x]);
		json_array_append_new(a, j);
	}
	if (a) {
		json_dumpf(a, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(a);
	}
	return 0;
}

static int run_matrix(struct run_ctx *c, const struct plan *p)
{
	struct sched s = { .c = c, .ops = guest_way(c), .decodes = { .root = c->root } };
	json_t *cells;
	int rc = 2;

	if (mkdir_p(c->out)) {
		fprintf(stderr, "error: --out %s: %s\n", c->out, strerror(errno));
		goto cleanup;
	}
	if (ensure_initramfs_all(c) || !(s.manifest = prepare_manifest(c, p)) ||
	    resolve_lpj(c, false) || resolve_snapshot_files(c, false))
		goto cleanup;
	install_stop_handlers();
	progress_init(&s.prog, 0, isatty(STDERR_FILENO));
	if (sched_fill_pending(&s, p, true))
		goto cleanup;
	s.prog.total = s.prog.done + s.npending;	/* this shard's cells: finished before + to run */
	host_res_detect(&s.host);
	s.nrun_cap = s.npending ? s.npending : 1;
	s.running = calloc(s.nrun_cap, sizeof(*s.running));
	s.taken_at = calloc(s.nrun_cap, sizeof(*s.taken_at));
	if (s.ops->shares_boots)
		s.boots = calloc(s.nrun_cap, sizeof(*s.boots));
	if (!s.running || !s.taken_at || (s.ops->shares_boots && !s.boots))
		goto cleanup;
	if (prepare_snapshots(&s)) {
		rc = harness_stop ? 128 + harness_stop : 2;
		goto cleanup;
	}
	progress_boots(&s.prog, s.boots != NULL, boots_left(&s));
	if (s.npending && !c->target_host)
		progress_line(&s.prog, "%zu cell(s) to run in %zu boot(s) if every cell PASSes (%s)",
			      s.npending, s.prog.boots_left, s.boots ? "shared boots" : "a boot per cell");
	schedule(&s);
	if (s.decodes.next < s.decodes.n || s.decodes.pid)
		progress_line(&s.prog, "decoding the reports of %zu cell(s) to file:line",
			      s.decodes.n - s.decodes.next + (s.decodes.pid != 0));
	decode_queue_finish(&s.decodes, harness_stop);
	cells = summary_collect(c->out, s.manifest);
	summary_write(c->out, cells);
	if (json_array_size(cells))
		summary_print(stdout, cells);
	rc = harness_stop ? 128 + harness_stop : s.err ? 2 : summary_exit_code(cells);
	json_decref(cells);
cleanup:
	decode_queue_finish(&s.decodes, true);
	decode_queue_free(&s.decodes);
	sched_free(&s);
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
	if (p.left_out_callers)
		fprintf(stderr, "note: %zu cell(s) of nmi/irq callers on an LRU or --prealloc 0 map, or of task callers on an LRU map, left out (the module refuses them)\n",
			p.left_out_callers);
	if (p.left_out && !p.n) {
		fprintf(stderr, "error: --map-type lru_hash/lru_percpu_hash with --prealloc 0 only: LRU maps are always preallocated (valid: --prealloc 1)\n");
		rc = 2;
		goto cleanup;
	}
	if (p.left_out)
		fprintf(stderr, "note: %zu cell(s) of an LRU map with --prealloc 0 left out (LRU maps are always preallocated)\n",
			p.left_out);
	if (o.plan_only) {
		rc = print_plan(&o, &p);
		goto cleanup;
	}
	if (resolve(&c, &o, &p)) {
		rc = 2;
		goto cleanup;
	}
	rc = 0;
	if (o.dry_run) {
		resolve_lpj(&c, true);
		resolve_snapshot_files(&c, true);
		bool shared = guest_way(&c)->shares_boots;

		if (shared)
			rc = print_boots(&c, &p) ? 2 : 0;
		for (size_t i = 0; i < p.n && !rc && !shared; i++)
			if (shard_selects(p.cells[i].index, o.shard_i, o.shard_n))
				rc = print_argv(&c, &p.cells[i]) ? 2 : 0;
	} else {
		rc = run_matrix(&c, &p);
	}
cleanup:
	plan_free(&p);
	strv_free(&c.bt_paths);
	free(c.observe);
	run_opts_free(&o);
	return rc;
}
