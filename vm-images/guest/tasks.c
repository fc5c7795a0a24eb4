/*
 * htab-tasks DIR: the task callers of htab_torture.ko (callers=...+task).
 * DIR is the module's debugfs directory; the guest runner starts this when
 * DIR/tasks exists. It reads the contract there (kmod/tasks_proto.h: the
 * map's id, how many tasks, their keys and writer ids), forks one process
 * a task, unbound and preemptible, and each opens the map by id, says it
 * is ready, blocks on DIR/window until the module's workers start, then
 * calls the map through the bpf() syscall, as a user program does, until
 * the window's end (CLOCK_MONOTONIC, the module's clock), and writes its
 * counts back to DIR/tasks, which the module waits for before its verdict.
 *
 * A task's call goes over its own keys in turn, each one through a life:
 * insert (BPF_NOEXIST), twice replace (BPF_EXIST), delete, every value
 * stamped as the module stamps (key, writer, sequence), and with verify=1
 * looked up after every store and before every replace and delete, its
 * stamp (every CPU's slot of a per-CPU map) compared with the last one it
 * stored. The key has no other writer, so any difference, a key missing
 * that it stored or present that it did not, is the map's fault; so is an
 * insert that fits a map the workload keeps full.
 *
 * Static: it runs from the initramfs (/bin, copied to /run/bin for the
 * runner chrooted in the host root). Exit 0 every task reported, 1 one
 * did not, 2 bad usage or contract.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../kmod/tasks_proto.h"

#define MAX_TASKS	8192
#define MAX_KEYS	64
/* A key's life: one insert, REPLACES replaces, one delete. */
#define REPLACES	2

struct stamp {
	uint32_t key;
	uint32_t writer;
	uint64_t seq;
};

struct task {
	unsigned long long c[HT_TC_NR];	/* the contract */
	unsigned long long r[HT_TR_NR];	/* the report */
	unsigned int idx;
	int fd;
	uint32_t key0, writer;
	size_t value_len, stride;	/* stride: one CPU's slot */
	unsigned char *value, *seen;
	uint64_t slot_seq[MAX_KEYS];	/* seq stored, 0: absent */
	unsigned int age[MAX_KEYS];	/* replaces since the insert */
	unsigned int slot;
	int last_cpu;
};

static const char *dir;
static pid_t kids[MAX_TASKS];
static unsigned int nkids;

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* The whole of DIR/NAME into buf (NUL-terminated); its length or -1. */
static ssize_t read_file(const char *name, char *buf, size_t len)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

static int write_tasks(const char *line)
{
	char path[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/tasks", dir);
	/* O_APPEND: debugfs ignores it; a test's plain file collects the lines */
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -1;
	n = write(fd, line, strlen(line));
	close(fd);
	return n == (ssize_t)strlen(line) ? 0 : -1;
}

static void count_err(struct task *t, int err)
{
	switch (err) {
#define ERRNO_CASE(name) case name: t->r[HT_TR_##name]++; return;
	HT_TASK_ERRNOS(ERRNO_CASE)
#undef ERRNO_CASE
	}
	t->r[HT_TR_other]++;
	t->r[HT_TR_other_errno] = (unsigned long long)err;
}

static void stamp_fill(struct task *t, uint32_t key, uint64_t seq)
{
	size_t cpus = t->c[HT_TC_percpu] ? t->c[HT_TC_possible_cpus] : 1;

	for (size_t i = 0; i < cpus; i++) {
		struct stamp *s = (struct stamp *)(t->value + i * t->stride);

		s->key = key;
		s->writer = t->writer;
		s->seq = seq;
	}
}

static long map_op(struct task *t, int cmd, uint32_t key, void *value, uint64_t flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)t->fd;
	a.key = (uint64_t)(uintptr_t)&key;
	a.value = (uint64_t)(uintptr_t)value;
	a.flags = flags;
	if (!sys_bpf(cmd, &a))
		return 0;
	count_err(t, errno);
	return -errno;
}

/* The first failure of a check, in the module's words (HT_TASK_BADS). */
static void bad(struct task *t, int code, uint32_t key, uint64_t want, int cpu,
		const struct stamp *seen)
{
	t->r[HT_TR_corrupt]++;
	if (t->r[HT_TR_bad])
		return;
	t->r[HT_TR_bad] = (unsigned long long)code;
	t->r[HT_TR_bad_key] = key;
	t->r[HT_TR_bad_seq] = want;
	t->r[HT_TR_bad_cpu] = (unsigned long long)(cpu < 0 ? 0 : cpu);
	if (seen) {
		t->r[HT_TR_seen_key] = seen->key;
		t->r[HT_TR_seen_writer] = seen->writer;
		t->r[HT_TR_seen_seq] = seen->seq;
	}
}

/* Look @key up: it must hold the stamp of @want in every slot. */
static void check(struct task *t, uint32_t key, uint64_t want)
{
	size_t cpus = t->c[HT_TC_percpu] ? t->c[HT_TC_possible_cpus] : 1;

	t->r[HT_TR_lookup]++;
	if (map_op(t, BPF_MAP_LOOKUP_ELEM, key, t->seen, 0)) {
		bad(t, 2, key, want, sched_getcpu(), NULL);
		return;
	}
	for (size_t i = 0; i < cpus; i++) {
		const struct stamp *s = (const struct stamp *)(t->seen + i * t->stride);

		if (s->key != key || s->writer != t->writer || s->seq != want) {
			bad(t, 1, key, want, t->c[HT_TC_percpu] ? (int)i : sched_getcpu(), s);
			return;
		}
	}
}

static void store(struct task *t, unsigned int slot, uint32_t key, uint64_t flags)
{
	uint64_t seq = ++t->r[HT_TR_seq];
	long ret;

	stamp_fill(t, key, seq);
	t->r[HT_TR_update]++;
	ret = map_op(t, BPF_MAP_UPDATE_ELEM, key, t->value, flags);
	if (!ret) {
		if (flags == BPF_NOEXIST) {
			t->r[HT_TR_live]++;
			if (t->c[HT_TC_keeps_full] && !t->r[HT_TR_double_alloc]++)
				t->r[HT_TR_double_key] = key;
		}
		t->slot_seq[slot] = seq;
		if (t->c[HT_TC_verify])
			check(t, key, seq);
	} else if (ret == -EEXIST) {
		bad(t, 3, key, 0, sched_getcpu(), NULL);
	} else if (ret == -ENOENT) {
		bad(t, 2, key, t->slot_seq[slot], sched_getcpu(), NULL);
	}
}

/* One call: the next key's next step of its life. */
static void call(struct task *t)
{
	unsigned int slot = t->slot;
	uint32_t key = t->key0 + slot;
	int cpu = sched_getcpu();
	long ret;

	t->slot = (slot + 1) % t->c[HT_TC_keys];
	t->r[HT_TR_calls]++;
	if (t->last_cpu >= 0 && cpu != t->last_cpu)
		t->r[HT_TR_migrations]++;
	t->last_cpu = cpu;
	if (!t->slot_seq[slot]) {
		store(t, slot, key, BPF_NOEXIST);
		t->age[slot] = 0;
		return;
	}
	if (t->c[HT_TC_verify])
		check(t, key, t->slot_seq[slot]);
	if (t->age[slot]++ < REPLACES) {
		store(t, slot, key, BPF_EXIST);
		return;
	}
	t->r[HT_TR_delete]++;
	ret = map_op(t, BPF_MAP_DELETE_ELEM, key, NULL, 0);
	if (!ret)
		t->r[HT_TR_live]--;
	else if (ret == -ENOENT)
		bad(t, 2, key, t->slot_seq[slot], cpu, NULL);
	t->slot_seq[slot] = 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int report(struct task *t)
{
	char line[HT_TASK_LINE_MAX];
	struct rusage ru;
	size_t len;

	getrusage(RUSAGE_SELF, &ru);
	t->r[HT_TR_task] = t->idx;
	t->r[HT_TR_pid] = (unsigned long long)getpid();
	t->r[HT_TR_cpu] = (unsigned long long)(t->last_cpu < 0 ? 0 : t->last_cpu);
	t->r[HT_TR_nvcsw] = (unsigned long long)ru.ru_nvcsw;
	t->r[HT_TR_nivcsw] = (unsigned long long)ru.ru_nivcsw;
	len = (size_t)snprintf(line, sizeof(line), "report");
	for (int i = 0; i < HT_TR_NR; i++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %s=%llu",
					ht_task_report_names[i], t->r[i]);
	snprintf(line + len, sizeof(line) - len, "\n");
	return write_tasks(line);
}

/* One task, in its own process; its exit status says whether it reported. */
static int task_main(struct task *t)
{
	unsigned long long w[HT_TW_NR] = { 0 }, seen;
	char line[HT_TASK_LINE_MAX];
	union bpf_attr a;
	uint64_t end;

	memset(&a, 0, sizeof(a));
	a.map_id = (uint32_t)t->c[HT_TC_map_id];
	t->fd = (int)sys_bpf(BPF_MAP_GET_FD_BY_ID, &a);
	if (t->fd < 0) {
		fprintf(stderr, "htab-tasks: task %u: BPF_MAP_GET_FD_BY_ID %llu: %s\n",
			t->idx, t->c[HT_TC_map_id], strerror(errno));
		return 1;
	}
	snprintf(line, sizeof(line), "ready task=%u\n", t->idx);
	if (write_tasks(line)) {
		fprintf(stderr, "htab-tasks: task %u: %s/tasks: %s\n", t->idx, dir, strerror(errno));
		return 1;
	}
	if (read_file("window", line, sizeof(line)) < 0 ||
	    ht_tp_parse(line, ht_task_window_names, HT_TW_NR, w, &seen) ||
	    !ht_tp_all(seen, HT_TW_NR)) {
		fprintf(stderr, "htab-tasks: task %u: %s/window: unreadable\n", t->idx, dir);
		return 1;
	}
	if (w[HT_TW_abort])
		return 1;
	end = w[HT_TW_end_ns];
	while (now_ns() < end)
		call(t);
	if (report(t)) {
		fprintf(stderr, "htab-tasks: task %u: report refused: %s\n", t->idx, strerror(errno));
		return 1;
	}
	return 0;
}

static int contract(unsigned long long c[HT_TC_NR])
{
	char line[HT_TASK_LINE_MAX];
	unsigned long long seen;
	int ret;

	if (read_file("tasks", line, sizeof(line)) < 0) {
		fprintf(stderr, "htab-tasks: %s/tasks: %s\n", dir, strerror(errno));
		return -1;
	}
	ret = ht_tp_parse(line, ht_task_contract_names, HT_TC_NR, c, &seen);
	if (ret) {
		fprintf(stderr, "htab-tasks: %s/tasks: not a contract field at offset %d: %s",
			dir, -ret - 1, line);
		return -1;
	}
	for (int i = 0; i < HT_TC_NR; i++)
		if (!(seen & (1ULL << i))) {
			fprintf(stderr, "htab-tasks: %s/tasks: no %s= in the contract: %s",
				dir, ht_task_contract_names[i], line);
			return -1;
		}
	if (!c[HT_TC_tasks] || c[HT_TC_tasks] > MAX_TASKS || !c[HT_TC_keys] ||
	    c[HT_TC_keys] > MAX_KEYS || c[HT_TC_value_size] < sizeof(struct stamp) ||
	    !c[HT_TC_possible_cpus]) {
		fprintf(stderr, "htab-tasks: %s/tasks: contract out of bounds (tasks 1..%d, keys 1..%d, value_size >= %zu): %s",
			dir, MAX_TASKS, MAX_KEYS, sizeof(struct stamp), line);
		return -1;
	}
	return 0;
}

/* Stopped: the tasks go too, and are gone before this exits (their open
 * debugfs files hold the module, which the runner unloads next). */
static void forward(int sig)
{
	for (unsigned int i = 0; i < nkids; i++)
		kill(kids[i], sig);
	for (unsigned int i = 0; i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	_exit(1);
}

static pid_t spawn(const unsigned long long c[HT_TC_NR], unsigned int idx)
{
	static struct task t;
	pid_t pid = fork();

	if (pid)
		return pid;
	signal(SIGTERM, SIG_DFL);
	memcpy(t.c, c, sizeof(t.c));
	t.idx = idx;
	t.key0 = (uint32_t)(c[HT_TC_key0] + idx * c[HT_TC_key_stride]);
	t.writer = (uint32_t)(c[HT_TC_writer0] + idx);
	t.last_cpu = -1;
	t.stride = (c[HT_TC_value_size] + 7) / 8 * 8;
	t.value_len = c[HT_TC_percpu] ? t.stride * c[HT_TC_possible_cpus] : c[HT_TC_value_size];
	t.value = calloc(1, t.value_len);
	t.seen = calloc(1, t.value_len);
	if (!t.value || !t.seen)
		_exit(1);
	_exit(task_main(&t));
}

int main(int argc, char **argv)
{
	unsigned long long c[HT_TC_NR];
	unsigned int failed = 0;
	int status;

	if (argc != 2) {
		fprintf(stderr, "htab-tasks: usage: htab-tasks DEBUGFS_DIR (e.g. /sys/kernel/debug/htab_torture)\n");
		return 2;
	}
	dir = argv[1];
	if (contract(c))
		return 2;
	signal(SIGTERM, forward);
	signal(SIGINT, forward);
	for (nkids = 0; nkids < c[HT_TC_tasks]; nkids++) {
		kids[nkids] = spawn(c, nkids);
		if (kids[nkids] < 0) {
			fprintf(stderr, "htab-tasks: fork: %s\n", strerror(errno));
			forward(SIGTERM);
		}
	}
	for (unsigned int i = 0; i < nkids; i++)
		if (waitpid(kids[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	printf("htab-tasks: %u tasks on map %llu, %u did not report\n", nkids,
	       c[HT_TC_map_id], failed);
	return failed ? 1 : 0;
}
