/*
 * One matrix cell: plan it (directory name per FORMAT.md, timeouts scaled by
 * vCPUs and accelerator), write its job files, boot QEMU in its own process
 * group and watch it until it ends, goes quiet or runs out of time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cell.h"
#include "qemu_argv.h"

volatile sig_atomic_t harness_stop;

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

/*
 * Budgets. TCG boots cost ~3 s per vCPU on 2 host cores (150 s @96);
 * bpftrace needs 15-50 s to attach under TCG (LLVM start-up over 9p).
 */
static void plan_timeouts(const struct run_ctx *c, struct cell *cell)
{
	const struct run_opts *o = c->o;
	bool tcg = c->accel != ACCEL_KVM;
	int nbt = (int)c->bt_paths.n;
	int boot = tcg ? 60 + 3 * cell->vcpus : 30 + cell->vcpus / 2;
	int attach = nbt ? (tcg ? 60 + 15 * (nbt - 1) : 30 + 5 * (nbt - 1)) : 0;
	int longest_quiet;

	cell->attach_timeout_s = attach ? attach : 60;
	cell->run_timeout_s = o->duration_s + (tcg ? 60 + cell->vcpus : 30);
	/* + 30: rmmod, bpftrace printing its maps, dmesg, poweroff. */
	cell->timeout_s = o->timeout_s ? o->timeout_s
				       : boot + attach + cell->run_timeout_s + 30;
	/* The longest silence a healthy guest has: booting, attaching or stressing. */
	longest_quiet = boot;
	if (attach > longest_quiet)
		longest_quiet = attach;
	if (o->duration_s + 30 > longest_quiet)
		longest_quiet = o->duration_s + 30;
	cell->quiet_s = 60 + longest_quiet;
	if (cell->quiet_s > cell->timeout_s)
		cell->quiet_s = cell->timeout_s;
}

static int plan_modparams(const struct run_opts *o, const struct cell *cell, struct strv *mp)
{
	int r = 0;

	r |= strv_pushf(mp, "workload=%s", cell->workload);
	r |= strv_pushf(mp, "duration_ms=%d", o->duration_s * 1000);
	if (o->map_type)
		r |= strv_pushf(mp, "map_type=%s", o->map_type);
	if (o->prealloc >= 0)
		r |= strv_pushf(mp, "prealloc=%d", o->prealloc);
	for (size_t i = 0; i < o->modparams.n; i++)
		r |= strv_push(mp, o->modparams.v[i]);
	return r;
}

int cell_plan(const struct run_ctx *c, int vcpus, const char *workload, int repeat,
	      struct cell *cell)
{
	struct qemu_cfg q = {
		.qemu = c->qemu, .accel = c->accel, .vcpus = vcpus,
		.kernel_image = c->kernel_image, .initrd = c->initrd,
		.runner = c->runner, .cell_dir = cell->dir,
	};

	memset(cell, 0, sizeof(*cell));
	cell->vcpus = vcpus;
	cell->workload = workload;
	cell->repeat = repeat;
	cell->kernel = c->o->kernel;
	cell->noise = "none";
	snprintf(cell->id, sizeof(cell->id), "v%d-%s-%s-%s-r%d", vcpus, workload,
		 cell->kernel, cell->noise, repeat);
	if (snprintf(cell->dir, sizeof(cell->dir), "%s/%s", c->out, cell->id) >=
	    (int)sizeof(cell->dir))
		return -1;
	q.cell_dir = cell->dir;
	plan_timeouts(c, cell);
	if (plan_modparams(c->o, cell, &cell->modparams))
		return -1;
	return qemu_argv_build(&q, &cell->argv);
}

void cell_free(struct cell *cell)
{
	strv_free(&cell->modparams);
	strv_free(&cell->argv);
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
static void clear_stale(const char *dir)
{
	static const char *const files[] = {
		"console.log", "exit_status", "phases.env", "guest.log", "module.json",
		"module.json.partial", "dmesg.txt", "insmod.err", "noise.log", "qemu.log", NULL,
	};
	char p[PATH_MAX];

	for (const char *const *f = files; *f; f++) {
		snprintf(p, sizeof(p), "%s/%s", dir, *f);
		unlink(p);
	}
	snprintf(p, sizeof(p), "%s/bpftrace", dir);
	if (file_exists(p)) {
		char cmd[PATH_MAX + 32];
		char *q = shell_quote(p);

		if (q) {
			snprintf(cmd, sizeof(cmd), "rm -rf -- %s", q);
			if (system(cmd))
				fprintf(stderr, "warning: could not clear %s\n", p);
			free(q);
		}
	}
}

int cell_write_job(const struct run_ctx *c, const struct cell *cell)
{
	char path[PATH_MAX], *mp = NULL, *bt = NULL, *argv = NULL, *env = NULL;
	int err = -1, len;

	if (mkdir_p(cell->dir)) {
		fprintf(stderr, "error: cannot create %s: %s\n", cell->dir, strerror(errno));
		return -1;
	}
	clear_stale(cell->dir);
	mp = join(&cell->modparams, ' ');
	bt = join(&c->bt_paths, ' ');
	argv = join(&cell->argv, '\n');
	if (!mp || !bt || !argv)
		goto cleanup;
	/* Values are single-quoted: job.env is sourced by the guest's sh. */
	len = asprintf(&env,
		       "# written by htab-torture run; sourced by vm-images/guest/run-job.sh\n"
		       "CELL='%s'\nKERNEL_RELEASE='%s'\nMODULE='%s'\nMODPARAMS='%s'\n"
		       "BPFTRACE='%s'\nATTACH_TIMEOUT=%d\nRUN_TIMEOUT=%d\n%s%s%s",
		       cell->id, c->release, c->module, mp, bt, cell->attach_timeout_s,
		       cell->run_timeout_s, c->o->test_action ? "TEST_ACTION=" : "",
		       c->o->test_action ? c->o->test_action : "",
		       c->o->test_action ? "\n" : "");
	if (len < 0)
		goto cleanup;
	snprintf(path, sizeof(path), "%s/job.env", cell->dir);
	if (write_file_atomic(path, env, len))
		goto cleanup;
	snprintf(path, sizeof(path), "%s/qemu.argv", cell->dir);
	strcat(argv, "\n");	/* join left room for it (one byte per item) */
	if (write_file_atomic(path, argv, strlen(argv)))
		goto cleanup;
	err = 0;
cleanup:
	if (err)
		fprintf(stderr, "error: cannot write the job files in %s: %s\n", cell->dir,
			strerror(errno));
	free(mp);
	free(bt);
	free(argv);
	free(env);
	return err;
}

/* Runs in the child: own process group, dies with the harness, logs to qemu.log. */
static void exec_qemu(const struct cell *cell, pid_t parent)
{
	char log[PATH_MAX];
	int fd;
	sigset_t none;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)	/* the harness died before prctl */
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, 0);
	snprintf(log, sizeof(log), "%s/qemu.log", cell->dir);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	execvp(cell->argv.v[0], cell->argv.v);
	fprintf(stderr, "exec %s: %s\n", cell->argv.v[0], strerror(errno));
	_exit(127);
}

static long long progress_bytes(const char *dir)
{
	static const char *const files[] = { "console.log", "guest.log", "phases.env", NULL };
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

/* SIGTERM lets QEMU exit cleanly; SIGKILL if it has not after 3 s. */
static int kill_group(pid_t pid)
{
	int st;

	kill(-pid, SIGTERM);
	for (int i = 0; i < 30; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		usleep(100000);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

static int decode_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return -WTERMSIG(st);
	return -1;
}

int cell_boot(const struct cell *cell, struct boot_result *br)
{
	double t0 = now_mono(), last_progress = t0;
	long long seen = -1;
	pid_t pid, parent = getpid();
	int st = 0;

	memset(br, 0, sizeof(*br));
	br->qemu_exit = -1000;
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "error: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0)
		exec_qemu(cell, parent);
	setpgid(pid, pid);	/* also here: no window where a kill misses it */
	for (;;) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };
		double now;
		long long bytes;
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			break;
		if (harness_stop) {
			st = kill_group(pid);
			br->interrupted = true;
			break;
		}
		now = now_mono();
		bytes = progress_bytes(cell->dir);
		if (bytes != seen) {
			seen = bytes;
			last_progress = now;
		}
		if (now - t0 >= cell->timeout_s || now - last_progress >= cell->quiet_s) {
			br->timed_out = true;
			br->quiet_timeout = now - t0 < cell->timeout_s;
			st = kill_group(pid);
			break;
		}
		nanosleep(&ts, NULL);
	}
	br->qemu_exit = decode_status(st);
	br->wall_s = now_mono() - t0;
	return 0;
}
