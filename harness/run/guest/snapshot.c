/* Saving and waking guests for --restore on (see snapshot.h). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/fnv.h"
#include "lib/qmp.h"
#include "run/guest/boot.h"
#include "run/guest/hang.h"
#include "run/guest/snapshot.h"

#define SAVE_TIMEOUT_S 300	/* the migration itself: ~100 MB a GB of guest RAM, into a file */
#define WAKE_TIMEOUT_S 30	/* QEMU opening its chardevs */

static int make_fifo(const char *dir, const char *name)
{
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	unlink(p);
	return mkfifo(p, 0600);
}

int snapshot_ctl_make(const char *log_dir)
{
	/* One FIFO, no ctl.in/ctl.out: QEMU then opens "ctl" itself, read-write. */
	return make_fifo(log_dir, "ctl");
}

/* QEMU of pid is a zombie or gone (not reaped here: the caller's wait does that). */
static bool qemu_gone(pid_t pid)
{
	char p[64], buf[256], *s;
	int fd, n;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	s = strrchr(buf, ')');
	return !s || s[1] != ' ' || s[2] == 'Z' || s[2] == 'X';
}

int snapshot_wake(const char *log_dir, const char *group, pid_t qemu)
{
	unsigned char seed[32];
	char p[PATH_MAX + 16], line[512], hex[2 * sizeof(seed) + 1];
	double deadline = now_mono() + WAKE_TIMEOUT_S;
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int fd, len, rc;

	if (getrandom(seed, sizeof(seed), 0) != (ssize_t)sizeof(seed)) {
		fprintf(stderr, "error: getrandom: %s\n", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof(seed); i++)
		sprintf(hex + 2 * i, "%02x", seed[i]);
	len = snprintf(line, sizeof(line), "%s%s%sseed=%s time=%lld\n", group ? "group=" : "",
		       group ? group : "", group ? " " : "", hex, (long long)time(NULL));
	snprintf(p, sizeof(p), "%s/ctl", log_dir);
	/* Write-only, non-blocking: ENXIO until QEMU (the reader) has it open. */
	while ((fd = open(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		int e = errno;

		if (e == ENXIO && qemu_gone(qemu)) {
			unlink(p);
			return 0;	/* QEMU ended at its start: the cell's poll sees why */
		}
		if (e != ENXIO || now_mono() > deadline) {
			if (e == ENXIO)
				fprintf(stderr, "error: %s: QEMU did not open it in %d s\n", p, WAKE_TIMEOUT_S);
			else
				fprintf(stderr, "error: %s: %s\n", p, strerror(e));
			unlink(p);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	rc = write(fd, line, (size_t)len) == len ? 0 : -1;	/* < PIPE_BUF: all or nothing */
	if (rc)
		fprintf(stderr, "error: %s: %s\n", p, strerror(errno));
	close(fd);
	unlink(p);	/* QEMU keeps its descriptor; nothing is left in the directory */
	return rc;
}

/* Waits for pid up to timeout_s; its wait status, or -1 (then it is killed). */
static int wait_exit(pid_t pid, double timeout_s)
{
	double deadline = now_mono() + timeout_s;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int st;

	while (now_mono() < deadline) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		nanosleep(&ts, NULL);
	}
	boot_kill_group(pid);
	return -1;
}

/*
 * A save boot silent for w->probe_s, looked at (hang_boot_stalled); true:
 * stalled, w->stall what was seen. A look that did not see it leaves
 * w->stall empty: the save's error names a stall only when there was one.
 */
static bool save_stalled(const char *dir, struct save_wait *w, struct hang_ctx **h)
{
	struct hang_in in = { .log_dir = dir, .cell_dir = dir, .vcpus = w->vcpus };
	char saw[sizeof(w->stall)];

	if (!*h)
		*h = hang_open(&in);
	if (!*h || !hang_boot_stalled(*h, saw, sizeof(saw)))
		return false;
	snprintf(w->stall, sizeof(w->stall), "%s", saw);
	return true;
}

int snapshot_wait_ready(const char *dir, pid_t pid, struct save_wait *w,
			const volatile sig_atomic_t *stop, int *st)
{
	double now = now_mono(), deadline = now + w->budget_s, spoke = now, probe = 0;
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	char p[PATH_MAX + 16], con[PATH_MAX + 16];
	struct hang_ctx *h = NULL;
	long long size = -1;
	struct stat cs;
	int rc = -1;

	snprintf(p, sizeof(p), "%s/exit_status", dir);
	snprintf(con, sizeof(con), "%s/console.log", dir);
	w->silent = false;
	w->stall[0] = '\0';
	while ((now = now_mono()) < deadline && !*stop) {
		char *text = read_file(p, NULL);
		bool ready = text && strstr(text, "ready");

		free(text);
		if (ready) {
			rc = 1;
			goto out;
		}
		if (waitpid(pid, st, WNOHANG) == pid) {
			rc = 0;
			goto out;
		}
		if (!stat(con, &cs) && cs.st_size != size) {
			size = cs.st_size;
			spoke = now;
		}
		if (w->quiet_s > 0 && now - spoke >= w->quiet_s) {
			w->silent = true;
			break;
		}
		if (w->probe_s > 0 && now - spoke >= w->probe_s && now >= probe) {
			if (save_stalled(dir, w, &h)) {
				w->silent = true;
				break;
			}
			probe = now_mono() + w->probe_s;
		}
		nanosleep(&ts, NULL);
	}
	*st = boot_kill_group(pid);
out:
	hang_close(h);
	return rc;
}

/* Migrates the guest into DIR/state; 0 ok, -1 with the reason in err. */
static int migrate_to_file(const char *dir, char *err, size_t errlen)
{
	char pipe_path[PATH_MAX + 16], state[PATH_MAX + 16], *q;
	double deadline = now_mono() + SAVE_TIMEOUT_S;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	struct qmp m;
	json_t *r, *args;
	int rc = -1;

	snprintf(pipe_path, sizeof(pipe_path), "%s/qmp", dir);
	snprintf(state, sizeof(state), "%s/state", dir);
	if (qmp_open(&m, pipe_path)) {
		fmt_cut(err, errlen, "cannot open %s.in/.out: %s", pipe_path, strerror(errno));
		return -1;
	}
	q = shell_quote(state);
	args = q ? json_pack("{s:s+}", "uri", "exec:cat > ", q) : NULL;
	free(q);
	if (!args)
		goto out;
	/* A boot stall probe (save_stalled) may have negotiated already. */
	qmp_negotiate(&m, 10);
	/*
	 * Stopped first, so the state is one instant of the guest. Migrated
	 * live (its timers and a preattached bpftrace running), a 96-vCPU
	 * TCG guest was saved so that every restore of that file oopsed in
	 * rcu_preempt (RIP 0x1, rcu_gp_fqs_loop) before its runner: a torn
	 * stack page is the likely cause (the live pass races the vCPUs).
	 * The save boot's migration.store-global-state=off (qemu_argv.c)
	 * keeps the stop out of the state: the restore runs at once.
	 */
	if (!(r = qmp_call(&m, "stop", NULL, 10, err, errlen)))
		goto out;
	json_decref(r);
	if (!(r = qmp_call(&m, "migrate", args, 10, err, errlen)))
		goto out;
	json_decref(r);
	while ((r = qmp_call(&m, "query-migrate", NULL, 10, err, errlen))) {
		const char *status = json_string_value(json_object_get(r, "status"));

		if (status && !strcmp(status, "completed")) {
			json_decref(r);
			rc = 0;
			break;
		}
		if (status && (!strcmp(status, "failed") || !strcmp(status, "cancelled"))) {
			snprintf(err, errlen, "migration %s: %s", status,
				 json_string_value(json_object_get(r, "error-desc")) ?: "no reason given");
			json_decref(r);
			break;
		}
		json_decref(r);
		if (now_mono() > deadline) {
			snprintf(err, errlen, "migration not completed in %d s", SAVE_TIMEOUT_S);
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (!rc && (r = qmp_call(&m, "quit", NULL, 10, err, errlen)))
		json_decref(r);
out:
	json_decref(args);
	qmp_close(&m);
	return rc;
}

static int write_info(const char *dir, const char *key, const struct snapshot_info *in)
{
	char p[PATH_MAX + 16];
	json_t *j = json_pack("{s:I, s:f, s:f, s:I}", "saved_at", (json_int_t)time(NULL),
			      "boot_s", in->boot_s, "save_s", in->save_s, "state_bytes",
			      (json_int_t)in->bytes);
	int rc;

	snprintf(p, sizeof(p), "%s/info.json", dir);
	rc = !j || json_dump_file(j, p, JSON_INDENT(2)) ? -1 : 0;
	json_decref(j);
	snprintf(p, sizeof(p), "%s/key", dir);
	return rc || write_file_atomic(p, key, strlen(key)) ? -1 : 0;
}

int snapshot_save(const struct qemu_cfg *q0, const char *key, const char *dir, struct save_wait *w,
		  const volatile sig_atomic_t *stop, struct snapshot_info *info)
{
	struct qemu_cfg q = *q0;
	struct strv a = { 0 };
	char tmp[PATH_MAX], p[PATH_MAX + 32], err[512] = "";
	struct stat st;
	double t0;
	pid_t pid;
	int ready, status = 0, rc = -1;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", dir, (int)getpid());
	if (remove_tree(tmp) || mkdir_p(tmp) || make_fifo(tmp, "ctl") || boot_monitor_make(tmp)) {
		fprintf(stderr, "error: snapshot: cannot make %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	/* The guest never mounts its share before the save: an empty directory serves. */
	q.restore = QR_SAVE;
	q.cell_dir = q.log_dir = tmp;
	q.group = NULL;
	snprintf(p, sizeof(p), "%s/qemu.log", tmp);
	if (qemu_argv_build(&q, &a) || (t0 = now_mono(), pid = boot_spawn(a.v, p, NULL)) < 0) {
		strv_free(&a);
		return -1;
	}
	strv_free(&a);
	ready = snapshot_wait_ready(tmp, pid, w, stop, &status);
	info->boot_s = now_mono() - t0;
	if (ready < 0 && *stop) {
		remove_tree(tmp);
		return -1;
	}
	if (ready <= 0) {
		char *con, *why, how[224] = "ended";

		if (w->stall[0])
			fmt_cut(how, sizeof(how), "stalled (%s)", w->stall);
		else if (w->silent)
			snprintf(how, sizeof(how), "went silent for %d s", w->quiet_s);
		else if (ready)
			snprintf(how, sizeof(how), "did not get there in its boot budget");
		fprintf(stderr, "error: snapshot: the guest %s before its save point (see %s/console.log)\n",
			how, tmp);
		/* init's own reason: a kernel report while booting (vm-images/guest/init) */
		snprintf(p, sizeof(p), "%s/console.log", tmp);
		con = read_file(p, NULL);
		why = con ? strstr(con, "htab-init: the kernel was tainted") : NULL;
		if (why)
			fprintf(stderr, "error: snapshot: %.*s\n", (int)strcspn(why, "\r\n"), why);
		free(con);
		return -1;
	}
	t0 = now_mono();
	if (migrate_to_file(tmp, err, sizeof(err))) {
		boot_kill_group(pid);
		fprintf(stderr, "error: snapshot: %s (see %s/qemu.log)\n", err, tmp);
		return -1;
	}
	status = wait_exit(pid, 30);
	info->save_s = now_mono() - t0;
	snprintf(p, sizeof(p), "%s/state", tmp);
	if (status < 0 || stat(p, &st)) {
		fprintf(stderr, "error: snapshot: QEMU did not quit after saving %s\n", p);
		return -1;
	}
	info->bytes = st.st_size;
	for (const char *const *f = (const char *const[]){ "ctl", "qmp.in", "qmp.out", NULL }; *f; f++) {
		snprintf(p, sizeof(p), "%s/%s", tmp, *f);
		unlink(p);
	}
	if (write_info(tmp, key, info)) {
		fprintf(stderr, "error: snapshot: cannot write %s/info.json or key\n", tmp);
		return -1;
	}
	/*
	 * Another run may have saved the same guest meanwhile: its copy is as
	 * good, and may be restoring from it now, so it stays. Only a stale or
	 * broken copy is replaced.
	 */
	if (snapshot_valid(dir, key))
		return remove_tree(tmp);
	remove_tree(dir);
	rc = rename(tmp, dir);
	if (rc && snapshot_valid(dir, key))
		rc = remove_tree(tmp);
	if (rc)
		fprintf(stderr, "error: snapshot: cannot move %s to %s: %s\n", tmp, dir, strerror(errno));
	return rc;
}
