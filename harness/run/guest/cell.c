/*
 * One planned cell while it runs, whatever its way (guest.h): its job
 * files, the start, then watching it until it ends, goes quiet or runs out
 * of time (a silent guest asked first where its vCPUs are), and its kill.
 */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "run/guest/cell.h"
#include "run/guest/guest.h"
#include "run/guest/hang.h"
#include "run/plan/matrix.h"
#include "rundir/cell_id.h"
#include "run/plan/noise.h"
#include "run/plan/qemu_argv.h"
#include "run/guest/snapshot.h"

volatile sig_atomic_t harness_stop;

const char *const phase_keys[5] = {
	"T_BOOT_DONE", "T_ATTACHED", "T_STRESS_START", "T_STRESS_END", "T_COPY_DONE",
};

static void on_stop(int sig)
{
	harness_stop = sig;
}

void install_stop_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);	/* no SA_RESTART: sleeps return early */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int cell_snapshot_ensure(const struct run_ctx *c, const struct cell_plan *p, struct snapshot_info *info)
{
	struct qemu_cfg q;
	char *key;
	int rc;

	key = cell_plan_snapshot_key(c, p, &q);
	if (!key)
		return -1;
	rc = snapshot_valid(p->snap_dir, key) ? 0 : -1;
	/*
	 * A TCG boot can stall before its save point as a cell's can (the
	 * verdict's boot retry): booted once more before the run gives up.
	 */
	for (int attempt = 1; rc < 0 && attempt <= (c->accel == ACCEL_TCG ? 2 : 1) && !harness_stop;
	     attempt++) {
		struct save_wait w = {
			.budget_s = p->boot_budget_s, .quiet_s = p->save_quiet_s, .vcpus = p->vcpus,
			/* the second boot waits its whole budget, as a cell's does */
			.probe_s = attempt == 1 ? p->save_probe_s : 0,
		};

		if (attempt > 1)
			fprintf(stderr, "snapshot: booting the guest once more (under TCG a boot can stall)\n");
		rc = snapshot_save(&q, key, p->snap_dir, &w, &harness_stop, info) ? -1 : 1;
	}
	free(key);
	return rc;
}

void cell_init(struct cell *cell, const struct cell_plan *p, const struct guest_ops *ops)
{
	memset(cell, 0, sizeof(*cell));
	cell->p = p;
	cell->ops = ops;
	cell->argv = &p->argv;
	cell->timeout_s = p->timeout_s;
}

int cell_boot_argv(const struct run_ctx *c, struct cell *cell, const char *name)
{
	if (cell_plan_boot_argv(c, cell->p, name, &cell->boot_argv))
		return -1;
	cell->argv = &cell->boot_argv;
	return 0;
}

void cell_free(struct cell *cell)
{
	strv_free(&cell->boot_argv);
	cell->argv = &cell->p->argv;
	json_decref(cell->hang);
	cell->hang = NULL;
	hang_close(cell->hang_ctx);
	cell->hang_ctx = NULL;
}

static char *join(const struct strv *sv, char sep)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < sv->n; i++)
		len += strlen(sv->v[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (size_t i = 0; i < sv->n; i++) {
		if (i)
			strncat(s, &sep, 1);
		strcat(s, sv->v[i]);
	}
	return s;
}

/* What a boot that never finished left: it must not be read as this boot's. */
static int clear_stale(const char *dir)
{
	static const char *const files[] = {
		"console.log", "exit_status", "phases.env", "guest.log", "module.json",
		"module.json.partial", "dmesg.txt", "insmod.err", "noise.log", "noise.yaml",
		"qemu.log", "runner.log", "coverage.json", "coverage-workload.info",
		"coverage-verdict.info", "ctl", "qmp.in", "qmp.out", HANG_FILE, NULL,
	};
	char p[PATH_MAX];

	for (const char *const *f = files; *f; f++) {
		if (pathf(p, sizeof(p), "%s/%s", dir, *f))
			return -1;
		unlink(p);
	}
	for (const char *const *d = (const char *const[]){ "bpftrace", "gcov", NULL }; *d; d++) {
		if (pathf(p, sizeof(p), "%s/%s", dir, *d))
			return -1;
		if (remove_tree(p))
			fprintf(stderr, "warning: could not clear %s: %s\n", p, strerror(errno));
	}
	return 0;
}

/*
 * A run with faults measures every cell's pop with the kprobe form of the
 * bpftrace scripts: the guest keeps fault cells on kprobes (the injectors
 * were validated against them), and fault/no-fault cells are compared.
 */
static bool run_has_faults(const struct run_opts *o)
{
	for (size_t i = 0; i < (o->faults.n ? o->faults.n : 1); i++)
		if (cell_fault(o->faults.n ? o->faults.v[i] : NULL, o->modparams.v, o->modparams.n))
			return true;
	return false;
}

int cell_write_job(const struct run_ctx *c, const struct cell *cell)
{
	char path[PATH_MAX], *mp = NULL, *bt = NULL, *argv = NULL, *env = NULL;
	struct strbuf b = STRBUF_INIT;
	int err = -1;

	if (mkdir_p(cell->p->dir)) {
		fprintf(stderr, "error: cannot create %s: %s\n", cell->p->dir, strerror(errno));
		return -1;
	}
	if (clear_stale(cell->p->dir))
		return -1;
	mp = join(&cell->p->modparams, ' ');
	bt = join(&c->bt_paths, ' ');
	argv = join(cell->argv, '\n');
	if (!mp || !bt || !argv)
		goto cleanup;
	/* Values are single-quoted: job.env is sourced by the guest's sh. */
	sb_appendf(&b, "# written by htab-torture run; sourced by vm-images/guest/run-job.sh\n"
		   "CELL='%s'\nVCPUS=%d\nKERNEL_RELEASE='%s'\nMODULE='%s'\nMODPARAMS='%s'\n"
		   "BPFTRACE='%s'\nATTACH_TIMEOUT=%d\nRUN_TIMEOUT=%d\nNOISE_CMD='%s'\n",
		   cell->p->id, cell->p->vcpus, cell->p->k->release, cell->p->k->module, mp, bt,
		   cell->p->attach_timeout_s, cell->p->run_timeout_s, cell->p->noise_cmd);
	if (run_has_faults(c->o))
		sb_append(&b, "BPFTRACE_FORM=kprobe\n");
	if (c->bt_aot_cache[0])
		sb_appendf(&b, "BPFTRACE_AOT='%s'\nBPFTRACE_AOT_TIMEOUT=%d\n", c->bt_aot_cache,
			   cell->p->aot_compile_s);
	if (cell->p->test_action)	/* KDIR: where kmodule:NAME looks for NAME.ko */
		sb_appendf(&b, "TEST_ACTION=%s\nKDIR='%s'\n", cell->p->test_action,
			   cell->p->k->kdir);
	if (c->o->job_script)
		sb_appendf(&b, "JOB_SCRIPT='%s'\n", c->o->job_script);
	if (cell->ops->job_env)
		cell->ops->job_env(cell, &b);
	env = sb_take(&b);
	if (!env)
		goto cleanup;
	if (pathf(path, sizeof(path), "%s/job.env", cell->p->dir) ||
	    write_file_atomic(path, env, strlen(env)))
		goto cleanup;
	if (pathf(path, sizeof(path), "%s/%s", cell->p->dir, cell->ops->argv_file))
		goto cleanup;
	strcat(argv, "\n");	/* join left room for it (one byte per item) */
	if (write_file_atomic(path, argv, strlen(argv)))
		goto cleanup;
	err = 0;
cleanup:
	if (err)
		fprintf(stderr, "error: cannot write the job files in %s: %s\n", cell->p->dir,
			strerror(errno));
	sb_free(&b);
	free(mp);
	free(bt);
	free(argv);
	free(env);
	return err;
}

/* Besides the console: the runner's own files, growing while it goes on. */
static const char *const progress_files[] = { "guest.log", "phases.env", NULL };

/* Total size of the cell's files names (NULL-terminated). */
static long long files_bytes(const char *dir, const char *const *files)
{
	long long total = 0;
	char p[PATH_MAX];
	struct stat st;

	for (const char *const *f = files; *f; f++) {
		snprintf(p, sizeof(p), "%s/%s", dir, *f);
		if (!stat(p, &st))
			total += st.st_size;
	}
	return total;
}

/*
 * Reads what the console gained. At the first report the grace starts; it
 * restarts whenever the runner logs on (a WARNING leaves the guest running,
 * and its own end, with the module's results, is worth the wait), not when
 * the console grows (a report storm would keep a dead guest alive).
 */
static void follow_console(struct cell *cell, double now)
{
	long long runner;

	cell->follow_now = now;
	if (isnan(cell->crash_seen_s)) {
		if (!console_follow_file(&cell->follow, cell->console))
			return;
		cell->crash_seen_s = now - cell->t0;
		cell->runner_seen = files_bytes(cell->p->dir, progress_files);
		cell->crash_deadline = now + cell->p->crash_grace_s;
		return;
	}
	runner = files_bytes(cell->p->dir, progress_files);
	if (runner != cell->runner_seen) {
		cell->runner_seen = runner;
		cell->crash_deadline = now + cell->p->crash_grace_s;
	}
}

int cell_next_attempt(const struct cell_plan *p)
{
	char path[PATH_MAX + 32], line[128];
	int n = 1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/attempts.log", p->dir);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			n++;
		fclose(f);
	}
	return n;
}

/* attempts.log survives reruns: one line per start, so a test (or a person) sees them. */
static int count_attempt(const struct cell *cell)
{
	char p[PATH_MAX + 32];
	int n = cell_next_attempt(cell->p);
	FILE *f;

	snprintf(p, sizeof(p), "%s/attempts.log", cell->p->dir);
	f = fopen(p, "a");
	if (f) {
		fprintf(f, "attempt %d started at %ld\n", n, (long)time(NULL));
		fclose(f);
	}
	return n;
}

/* Each boot mark once, at the poll that saw its line (boot_marks.h). */
static void mark_line(void *arg, const char *line)
{
	struct cell *cell = arg;
	unsigned m = boot_marks_of_line(line, cell->p->vcpus);

	/* A cell after the first in a shared boot: its first line is not the boot's. */
	if (cell->in_boot <= 1)
		m |= 1u << BM_FIRST_LINE;
	for (int i = 0; i < BM_NR; i++)
		if (m & 1u << i && isnan(cell->boot_mark[i]))
			cell->boot_mark[i] = cell->follow_now - cell->t0;
}

int cell_start(const struct run_ctx *c, struct cell *cell, struct boot *b)
{
	return cell->ops->start(c, cell, b);
}

int cell_begin_alone(const struct run_ctx *c, struct cell *cell, const char *log_name, char *log,
		     size_t n)
{
	if (cell_write_job(c, cell))
		return -1;
	cell_begin(cell);
	cell->boot = NULL;
	cell->in_boot = 1;
	if (pathf(cell->console, sizeof(cell->console), "%s/console.log", cell->p->dir) ||
	    pathf(log, n, "%s/%s", cell->p->dir, log_name))
		return -1;
	return 0;
}

void cell_begin(struct cell *cell)
{
	cell->attempt = count_attempt(cell);
	cell->t0 = cell->last_progress = now_mono();
	cell->seen = -1;
	cell->phases_size = -1;
	console_follow_init(&cell->follow);
	cell->follow.on_line = mark_line;
	cell->follow.on_line_arg = cell;
	cell->crash_seen_s = NAN;
	cell->status_at = NAN;
	cell->boot_state[0] = '\0';
	cell->boot_went_on = false;
	json_decref(cell->hang);
	cell->hang = NULL;
	for (int i = 0; i < 5; i++)
		cell->host_phase[i] = NAN;
	for (int i = 0; i < BM_NR; i++)
		cell->boot_mark[i] = NAN;
}

static void ended(struct cell *cell, struct boot_result *br, int st)
{
	br->qemu_exit = br->boot_goes_on ? -1000 : boot_decode_status(st);
	br->wall_s = now_mono() - cell->t0;
	cell->ops->ended(cell, br, st);
	hang_close(cell->hang_ctx);
	cell->hang_ctx = NULL;
	cell->pid = 0;
}

/* Bytes of everything a live guest grows: its console and the runner's files. */
static long long progress_bytes(const struct cell *cell)
{
	struct stat st;

	return files_bytes(cell->p->dir, progress_files) +
	       (stat(cell->console, &st) ? 0 : st.st_size);
}

/*
 * The host's clock when each phase appears: under TCG with many vCPUs the
 * guest's uptime runs behind the wall clock, so phases.env alone cannot
 * split a cell's wall time.
 */
static void watch_phases(struct cell *cell, double now)
{
	char p[PATH_MAX + 32], *text;
	struct stat st;

	snprintf(p, sizeof(p), "%s/phases.env", cell->p->dir);
	if (stat(p, &st) || st.st_size == cell->phases_size)
		return;
	cell->phases_size = st.st_size;
	text = read_file(p, NULL);
	for (int i = 0; text && i < 5; i++) {
		size_t kl = strlen(phase_keys[i]);

		if (!isnan(cell->host_phase[i]))
			continue;
		for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
			if (!strncmp(l, phase_keys[i], kl) && l[kl] == '=') {
				cell->host_phase[i] = now - cell->t0;
				break;
			}
	}
	free(text);
}

/* A cell's QMP session with its guest (run/guest/hang.h); NULL when its way has none. */
static struct hang_ctx *hang_of(struct cell *cell)
{
	struct hang_in in = {
		.log_dir = cell->boot ? cell->boot->dir : cell->p->dir, .cell_dir = cell->p->dir,
		.k = cell->p->k, .vcpus = cell->p->vcpus,
	};

	if (!cell->ops->locates_hangs)
		return NULL;
	if (!cell->hang_ctx)
		cell->hang_ctx = hang_open(&in);
	return cell->hang_ctx;
}

/*
 * Before a silent or overdue guest is killed: where are its vCPUs?
 * (run/guest/hang.h) stall: what a boot stall's look saw, or NULL.
 */
static void locate_hang(struct cell *cell, double now, const struct boot_result *br,
			const char *stall)
{
	struct hang_ctx *h = hang_of(cell);
	char why[256];

	if (!h)
		return;
	if (stall)
		fmt_cut(why, sizeof(why), "boot stall after %d s of silence (before the runner): %s",
			br->quiet_s, stall);
	else
		snprintf(why, sizeof(why), br->quiet_timeout ? "quiet budget %d s%s" : "host deadline %d s%s",
			 br->quiet_timeout ? br->quiet_s : cell->timeout_s,
			 br->quiet_timeout && isnan(cell->host_phase[0]) ? " (before the runner)" : "");
	json_decref(cell->hang);
	cell->hang = hang_locate(h, now - cell->last_progress, why);
}

/*
 * A first attempt's boot silent for boot_probe_s (cell_plan_timeouts) is
 * looked at, then again each boot_probe_s: true when it has the TCG boot
 * stall's shape (hang_boot_stalled; the guest is left stopped), what says
 * it. The attempt after it waits its whole budget.
 */
static bool boot_stalled(struct cell *cell, double now, char *what, size_t n)
{
	struct hang_ctx *h;
	bool stalled;

	if (!cell->p->boot_probe_s || cell->attempt != 1 || !isnan(cell->host_phase[0]) ||
	    now - cell->last_progress < cell->p->boot_probe_s || now < cell->next_probe ||
	    !(h = hang_of(cell)))
		return false;
	stalled = hang_boot_stalled(h, what, n);
	cell->boot_probes++;
	snprintf(cell->boot_probe_saw, sizeof(cell->boot_probe_saw), "%s", what);
	cell->next_probe = now_mono() + cell->p->boot_probe_s;
	return stalled;
}

int cell_poll(struct cell *cell, struct boot_result *br)
{
	double now = now_mono();
	char stall[160];
	long long bytes;
	bool stalled;
	int st = 0;

	memset(br, 0, sizeof(*br));
	br->qemu_exit = -1000;
	watch_phases(cell, now);
	follow_console(cell, now);
	if (waitpid(cell->pid, &st, WNOHANG) == cell->pid) {
		ended(cell, br, st);
		return 1;
	}
	if (!isnan(cell->crash_seen_s) && now >= cell->crash_deadline) {
		br->crash_stopped = true;
		st = boot_kill_group(cell->pid);
		ended(cell, br, st);
		return 1;
	}
	if (cell->ops->done && cell->ops->done(cell, now)) {
		br->boot_goes_on = true;
		ended(cell, br, 0);
		return 1;
	}
	bytes = progress_bytes(cell);
	if (bytes != cell->seen) {
		cell->seen = bytes;
		cell->last_progress = now;
	}
	/* Before the runner: the boot's own, shorter silence limit (cell_plan_timeouts). */
	br->quiet_s = isnan(cell->host_phase[0]) ? cell->p->boot_quiet_s : cell->p->quiet_s;
	stalled = boot_stalled(cell, now, stall, sizeof(stall));
	if (stalled || now - cell->t0 >= cell->timeout_s || now - cell->last_progress >= br->quiet_s) {
		br->timed_out = true;
		br->quiet_timeout = stalled || now - cell->t0 < cell->timeout_s;
		if (stalled)
			br->quiet_s = (int)(now - cell->last_progress);
		locate_hang(cell, now, br, stalled ? stall : NULL);
		st = boot_kill_group(cell->pid);
		ended(cell, br, st);
		return 1;
	}
	return 0;
}

void cell_kill(struct cell *cell, struct boot_result *br)
{
	int st;

	memset(br, 0, sizeof(*br));
	st = boot_kill_group(cell->pid);
	br->interrupted = true;
	ended(cell, br, st);
}
