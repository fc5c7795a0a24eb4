/* A silent guest's vCPUs located over QMP (see hang.h). */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/qmp.h"
#include "lib/spawn.h"
#include "lib/symmap.h"
#include "lib/util.h"
#include "parse/qemu_regs.h"
#include "run/guest/cell.h"
#include "run/guest/hang.h"

#define QMP_TIMEOUT_S 5		/* a stopped guest's monitor answers in ms */
#define STACK_SCAN_BYTES 2048	/* from RSP up: a few frames of a kernel stack */
#define STACK_SCAN_FRAMES 12
#define KASLR_ALIGN 0x200000ULL	/* x86-64 CONFIG_PHYSICAL_ALIGN: the virtual offset's step */
#define KASLR_SPAN 0x40000000ULL	/* KERNEL_IMAGE_SIZE: offsets stay below it */
#define SECOND_LOOK_MS 500	/* the guest runs on between the two looks */

/* One vCPU as hang.txt and cell.json say it. */
struct vcpu_loc {
	struct vcpu_regs r;
	char sym[192];			/* "func+0x4d/0x1a0", "" when not symbolised */
	bool stuck;			/* running, in the same function at both looks */
	char frames[STACK_SCAN_FRAMES][192];
	int nframes;
};

struct hang_ctx {
	struct hang_in in;
	struct qmp m;
	bool opened;			/* QMP open and negotiated */
	bool sym_tried, have_map, verified;
	struct symmap map;
	unsigned long long offset;	/* KASLR: running address - System.map address */
	char map_path[PATH_MAX];
	/* map_why and err are one line of hang.json each: fmt_cut marks a cut */
	char map_why[512];		/* why the symbols are missing or unverified */
	char tmp[PATH_MAX + 32];	/* memsave's file */
	char err[512];
	double silent_s;
	const char *why;
};

static bool usable_map(const char *path, struct symmap *m, int nm, char *why, size_t wn)
{
	char *text = NULL;

	if (!file_exists(path))
		return false;
	if (nm) {
		char *argv[] = { "nm", "-n", (char *)path, NULL };
		struct spawn_opts o = { .null_stdin = true, .die_with_parent = true };

		if (spawn_run(argv, &o, &text)) {
			fmt_cut(why, wn, "nm -n %s failed", path);
			free(text);
			return false;
		}
	} else {
		text = read_file(path, NULL);
	}
	if (!text || symmap_parse(m, text)) {
		free(text);
		return false;
	}
	free(text);
	if (!m->ntext) {
		/* Debian's /boot/System.map-* is a one-line placeholder. */
		fmt_cut(why, wn, "%s has no text symbols (a placeholder)", path);
		symmap_free(m);
		return false;
	}
	return true;
}

/*
 * The first of the kernel's symbol files (lib/decode.h's kernel_files, the
 * one search) with text symbols, loaded into m: a System.map, else a
 * vmlinux read with nm. -1 with why when none is there.
 */
static int load_symbols(const struct kernel_res *k, struct symmap *m, char *path, size_t n,
			char *why, size_t wn)
{
	struct decode_kernel dk = kernel_decode_of(k);
	char c[2 * KERNEL_FILES_MAX][PATH_MAX];
	int nmap = kernel_files(&dk, KF_SYSTEM_MAP, c, KERNEL_FILES_MAX);
	int nc = nmap + kernel_files(&dk, KF_VMLINUX, c + nmap, KERNEL_FILES_MAX);

	*why = '\0';
	for (int i = 0; i < nc; i++) {
		if (!usable_map(c[i], m, i >= nmap, why, wn))
			continue;
		if (pathf_err(why, wn, path, n, "%s", c[i])) {
			symmap_free(m);
			return -1;
		}
		return 0;
	}
	if (!*why)
		snprintf(why, wn, "no System.map or vmlinux for %s", k->release);
	return -1;
}

static json_t *call(struct hang_ctx *h, const char *cmd, json_t *args, char *err, size_t n)
{
	json_t *r = qmp_call(&h->m, cmd, args, QMP_TIMEOUT_S, err, n);

	json_decref(args);
	return r;
}

/*
 * The QMP session, once: what QEMU wrote before (its greeting, a reply a
 * timed-out call left) dropped; negotiated (qmp_negotiate: an earlier
 * cell of a shared boot, or an earlier look, may have done that).
 */
static int session(struct hang_ctx *h)
{
	char pipe[PATH_MAX + 16], junk[4096];
	json_t *r;

	if (h->opened)
		return 0;
	snprintf(pipe, sizeof(pipe), "%s/qmp", h->in.log_dir);
	if (qmp_open(&h->m, pipe)) {
		fmt_cut(h->err, sizeof(h->err), "cannot open %s.in/.out: %s", pipe, strerror(errno));
		return -1;
	}
	while (read(h->m.out, junk, sizeof(junk)) > 0)
		;
	qmp_negotiate(&h->m, QMP_TIMEOUT_S);
	r = call(h, "query-status", NULL, h->err, sizeof(h->err));
	if (!r) {
		qmp_close(&h->m);
		return -1;
	}
	json_decref(r);
	h->err[0] = '\0';
	h->opened = true;
	return 0;
}

struct hang_ctx *hang_open(const struct hang_in *in)
{
	struct hang_ctx *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->in = *in;
	h->m.in = h->m.out = -1;
	/* Not in the cell's directory: the guest sees that one. */
	snprintf(h->tmp, sizeof(h->tmp), "%s/htab-hang-%d-%p.mem", getenv("TMPDIR") ?: "/tmp",
		 (int)getpid(), (void *)h);
	return h;
}

void hang_close(struct hang_ctx *h)
{
	if (!h)
		return;
	if (h->have_map)
		symmap_free(&h->map);
	qmp_close(&h->m);
	unlink(h->tmp);
	free(h);
}

/* n bytes of guest virtual memory at addr as vCPU cpu sees it; malloc'd, NULL if unreadable. */
static unsigned char *guest_read(struct hang_ctx *h, int cpu, unsigned long long addr, size_t n)
{
	char err[256];
	size_t len = 0;
	char *data;
	json_t *r;

	unlink(h->tmp);
	r = call(h, "memsave", json_pack("{s:I, s:I, s:s, s:i}", "val", (json_int_t)(int64_t)addr,
					  "size", (json_int_t)n, "filename", h->tmp, "cpu-index", cpu),
		 err, sizeof(err));
	if (!r)
		return NULL;
	json_decref(r);
	data = read_file(h->tmp, &len);
	unlink(h->tmp);
	if (data && len != n) {
		free(data);
		data = NULL;
	}
	return (unsigned char *)data;
}

/* Whether linux_banner + off reads "Linux version RELEASE " in the guest. */
static bool banner_at(struct hang_ctx *h, int cpu, unsigned long long banner, unsigned long long off)
{
	char want[192];
	size_t n = (size_t)snprintf(want, sizeof(want), "Linux version %s ", h->in.k->release);
	unsigned char *got = guest_read(h, cpu, banner + off, n);
	bool ok = got && !memcmp(got, want, n);

	free(got);
	return ok;
}

/*
 * The KASLR offset, from a vCPU in 64-bit kernel mode (cpu, at rip): 0
 * first (variants are built without RANDOMIZE_BASE), else every aligned
 * offset that puts rip inside the map's text, until linux_banner reads
 * right there. Once per cell: the map and the offset are kept.
 */
static void verify_symbols(struct hang_ctx *h, int cpu, unsigned long long rip)
{
	unsigned long long banner;

	if (!h->sym_tried) {
		h->sym_tried = true;
		h->have_map = !load_symbols(h->in.k, &h->map, h->map_path, sizeof(h->map_path),
					    h->map_why, sizeof(h->map_why));
	}
	if (!h->have_map || h->verified || cpu < 0)
		return;
	banner = symmap_addr(&h->map, "linux_banner");
	if (!banner) {
		fmt_cut(h->map_why, sizeof(h->map_why), "%s has no linux_banner", h->map_path);
		return;
	}
	for (unsigned long long off = 0; off < KASLR_SPAN; off += KASLR_ALIGN) {
		if (off && (!h->map.stext || rip - off < h->map.stext || rip - off >= h->map.etext))
			continue;
		if (banner_at(h, cpu, banner, off)) {
			h->verified = true;
			h->offset = off;
			h->map_why[0] = '\0';
			return;
		}
	}
	snprintf(h->map_why, sizeof(h->map_why),
		 "linux_banner does not read \"Linux version %s\" at any KASLR offset: not this kernel's map",
		 h->in.k->release);
}

static void symbolise(const struct hang_ctx *h, unsigned long long addr, char *out, size_t n)
{
	*out = '\0';
	if (h->verified)
		symmap_format(&h->map, addr - h->offset, out, n);
}

/* Text addresses on a kernel stack, from RSP up: the kernel's unreliable "?" frames. */
static void scan_stack(struct hang_ctx *h, struct vcpu_loc *v)
{
	unsigned char *st;

	if (!h->verified || !v->r.long_mode || v->r.cpl != 0 || !v->r.sp)
		return;
	st = guest_read(h, v->r.cpu, v->r.sp, STACK_SCAN_BYTES);
	for (size_t i = 0; st && i + 8 <= STACK_SCAN_BYTES && v->nframes < STACK_SCAN_FRAMES; i += 8) {
		unsigned long long w;

		memcpy(&w, st + i, 8);
		symbolise(h, w, v->frames[v->nframes], sizeof(v->frames[0]));
		if (v->frames[v->nframes][0])
			v->nframes++;
	}
	free(st);
}

/* Every vCPU's registers, one HMP call each (a -a dump of 96 outgrows a QMP line buffer). */
static int read_vcpus(struct hang_ctx *h, struct vcpu_loc *v, char **raw, char *err, size_t en)
{
	size_t cap = 1, len = 0;
	int n = 0;

	*raw = calloc(1, 1);
	for (int cpu = 0; cpu < h->in.vcpus && *raw; cpu++) {
		json_t *r = call(h, "human-monitor-command",
				 json_pack("{s:s, s:i}", "command-line", "info registers", "cpu-index", cpu),
				 err, en);
		const char *text = json_string_value(r);
		char head[32];
		char *nr;
		size_t hl;

		if (!text) {
			json_decref(r);
			return n ? n : -1;
		}
		hl = (size_t)snprintf(head, sizeof(head), "CPU#%d\n", cpu);
		nr = realloc(*raw, cap + hl + strlen(text));
		if (nr) {
			*raw = nr;
			memcpy(*raw + len, head, hl);
			memcpy(*raw + len + hl, text, strlen(text) + 1);
			len += hl + strlen(text);
			cap += hl + strlen(text);
		}
		/* One at a time: each dump is that vCPU's own. */
		if (qemu_regs_parse(text, &v[n].r, 1) == 1) {
			v[n].r.cpu = cpu;
			n++;
		}
		json_decref(r);
	}
	return n;
}

static const char *state_of(const struct vcpu_loc *v)
{
	return v->r.halted ? "halted" : v->stuck ? "spinning" : "running";
}

/* The function of a "func+0x…/0x…" (its length). */
static size_t func_len(const char *sym)
{
	return strcspn(sym, "+");
}

/* Stops the guest and reads every vCPU (read_vcpus); -1 when QEMU refused the stop. */
static int stopped_vcpus(struct hang_ctx *h, struct vcpu_loc *v, char **raw, char *err, size_t en)
{
	json_t *r = call(h, "stop", NULL, err, en);

	if (!r)
		return -1;
	json_decref(r);
	return read_vcpus(h, v, raw, err, en);
}

/* Lets a stopped guest run for SECOND_LOOK_MS; false when QEMU refused. */
static bool run_on(struct hang_ctx *h, char *err, size_t en)
{
	struct timespec ts = { 0, SECOND_LOOK_MS * 1000000L };
	json_t *r = call(h, "cont", NULL, err, en);

	if (!r)
		return false;
	json_decref(r);
	nanosleep(&ts, NULL);
	return true;
}

/*
 * A second look, SECOND_LOOK_MS later: a vCPU running in the same function
 * both times is stuck there ("spinning"); one that moved was passing by
 * (seen: a timer being programmed on a CPU the stuck one did not block).
 */
static void second_look(struct hang_ctx *h, struct vcpu_loc *v, int n)
{
	struct vcpu_loc *w = calloc(h->in.vcpus, sizeof(*w));
	char err[256], *raw = NULL;
	int m;

	if (!w || !run_on(h, err, sizeof(err))) {
		free(w);
		return;
	}
	m = stopped_vcpus(h, w, &raw, err, sizeof(err));
	for (int i = 0; i < n && i < m; i++) {
		char sym[192];

		symbolise(h, w[i].r.ip, sym, sizeof(sym));
		v[i].stuck = !v[i].r.halted && !w[i].r.halted && v[i].sym[0] &&
			     func_len(sym) == func_len(v[i].sym) &&
			     !strncmp(sym, v[i].sym, func_len(sym));
	}
	free(raw);
	free(w);
}

static const char *mode_of(const struct vcpu_regs *r)
{
	return !r->long_mode ? "not 64-bit" : r->cpl == 0 ? "kernel" : "user";
}

/*
 * The report: its header (the classifier's CK_HANG signatures), one line
 * per vCPU ("CPU N: spinning|running|halted RIP: 0010:func+0x…" as the kernel
 * prints a RIP; 0033 in user space), each kernel stack's scan, QEMU's dumps.
 */
static char *report_text(const struct hang_ctx *h, const struct vcpu_loc *v, int n, const char *raw)
{
	bool any_kernel = false, all_halted = true;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	for (int i = 0; i < n; i++) {
		all_halted &= v[i].r.halted;
		any_kernel |= !v[i].r.halted && v[i].r.cpl == 0;
	}
	fprintf(f, "htab-torture: hang: %s\n", all_halted ? "every vCPU halted"
					       : any_kernel ? "vCPUs running in the kernel"
							    : "no vCPU running in the kernel");
	fprintf(f, "guest silent for %.1f s (%s); QEMU stopped it and read %d of %d vCPUs\n",
		h->silent_s, h->why, n, h->in.vcpus);
	if (h->verified)
		fprintf(f, "symbols: %s (linux_banner matched, KASLR offset 0x%llx)\n", h->map_path,
			h->offset);
	else
		fprintf(f, "symbols: none: %s\n", h->map_why);
	for (int i = 0; i < n; i++) {
		const struct vcpu_regs *r = &v[i].r;

		fprintf(f, "CPU %d: %s RIP: %s:", r->cpu, state_of(&v[i]),
			r->cpl ? "0033" : "0010");
		if (v[i].sym[0])
			fprintf(f, "%s", v[i].sym);
		else
			fprintf(f, "0x%llx", r->ip);
		fprintf(f, " RSP: %016llx EFLAGS: %08llx interrupts %s (%s)\n", r->sp, r->flags,
			r->flags & X86_EFLAGS_IF ? "on" : "off", mode_of(r));
		for (int k = 0; k < v[i].nframes; k++)
			fprintf(f, "  ? %s\n", v[i].frames[k]);
	}
	fprintf(f, "--- QEMU info registers, per vCPU ---\n%s", raw ? raw : "");
	fclose(f);
	return out;
}

static json_t *cpus_json(const struct vcpu_loc *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; i < n; i++) {
		const struct vcpu_regs *r = &v[i].r;
		json_t *fr = json_array();
		char ip[24], sp[24];

		snprintf(ip, sizeof(ip), "0x%llx", r->ip);
		snprintf(sp, sizeof(sp), "0x%llx", r->sp);
		for (int k = 0; k < v[i].nframes; k++)
			json_array_append_new(fr, json_string(v[i].frames[k]));
		json_array_append_new(a, json_pack("{s:i, s:s, s:s?, s:s, s:s, s:b, s:s, s:o}",
			"cpu", r->cpu, "rip", ip, "symbol", v[i].sym[0] ? v[i].sym : NULL,
			"state", state_of(&v[i]), "mode", mode_of(r),
			"interrupts", (int)!!(r->flags & X86_EFLAGS_IF), "rsp", sp, "stack_scan", fr));
	}
	return a;
}

json_t *hang_locate(struct hang_ctx *h, double silent_s, const char *why)
{
	char err[512] = "", path[PATH_MAX + 32], *raw = NULL, *txt;
	struct vcpu_loc *v = calloc(h->in.vcpus > 0 ? h->in.vcpus : 1, sizeof(*v));
	double t0 = now_mono();
	json_t *o = json_object();
	int n = -1;

	h->silent_s = silent_s;
	h->why = why;
	json_object_set_new(o, "silent_s", json_real(silent_s));
	json_object_set_new(o, "budget", json_string(why));
	if (!v || session(h)) {
		snprintf(err, sizeof(err), "%s", v ? h->err : "out of memory");
		goto out;
	}
	n = stopped_vcpus(h, v, &raw, err, sizeof(err));
	if (n < 0)
		goto out;
	err[0] = '\0';
	for (int i = 0; i < n && !h->verified; i++)
		if (v[i].r.long_mode && v[i].r.cpl == 0)
			verify_symbols(h, v[i].r.cpu, v[i].r.ip);
	if (!h->verified && !h->map_why[0])
		snprintf(h->map_why, sizeof(h->map_why), "no vCPU in 64-bit kernel mode to read the banner with");
	for (int i = 0; i < n; i++) {
		if (v[i].r.long_mode && v[i].r.cpl == 0)
			symbolise(h, v[i].r.ip, v[i].sym, sizeof(v[i].sym));
		scan_stack(h, &v[i]);
	}
	second_look(h, v, n);
	txt = report_text(h, v, n, raw);
	snprintf(path, sizeof(path), "%s/" HANG_FILE, h->in.cell_dir);
	if (!txt || write_file_atomic(path, txt, strlen(txt)))
		fmt_cut(err, sizeof(err), "cannot write %s: %s", path, strerror(errno));
	free(txt);
	json_object_set_new(o, "source", json_string(HANG_FILE));
	json_object_set_new(o, "method", json_string("QMP stop, then HMP info registers per vCPU"));
	json_object_set_new(o, "symbols", json_pack("{s:s?, s:b, s:s?}",
		"file", h->have_map ? h->map_path : NULL, "verified", (int)h->verified,
		"why", h->map_why[0] ? h->map_why : NULL));
	if (h->verified) {
		char off[24];

		snprintf(off, sizeof(off), "0x%llx", h->offset);
		json_object_set_new(json_object_get(o, "symbols"), "kaslr_offset", json_string(off));
	}
	json_object_set_new(o, "cpus", cpus_json(v, n));
out:
	json_object_set_new(o, "probe_s", json_real(now_mono() - t0));
	if (err[0])
		json_object_set_new(o, "error", json_string(err));
	free(raw);
	free(v);
	return o;
}

/* Stops the guest and finds its pile (qemu_regs_pile); -1 when QEMU did not answer. */
static int stopped_pile(struct hang_ctx *h, struct vcpu_loc *v, unsigned long long *ip)
{
	struct vcpu_regs *r = calloc(h->in.vcpus, sizeof(*r));
	char err[256], *raw = NULL;
	int n = r ? stopped_vcpus(h, v, &raw, err, sizeof(err)) : -1;

	if (n == h->in.vcpus) {
		for (int i = 0; i < n; i++)
			r[i] = v[i].r;
		n = qemu_regs_pile(r, n, ip);
	} else {
		n = -1;
	}
	free(raw);
	free(r);
	return n;
}

bool hang_boot_stalled(struct hang_ctx *h, char *what, size_t wn)
{
	struct vcpu_loc *v = calloc(h->in.vcpus > 0 ? h->in.vcpus : 1, sizeof(*v));
	unsigned long long ip[2] = { 0, 1 };
	int pile[2] = { -1, -1 };
	char err[256];
	bool stalled;
	json_t *r;

	*what = '\0';
	if (!v || h->in.vcpus < 1 || session(h)) {
		fmt_cut(what, wn, "QEMU not asked: %s", v ? h->err : "out of memory");
		free(v);
		return false;
	}
	for (int look = 0; look < 2; look++) {
		if (look && !run_on(h, err, sizeof(err)))
			break;
		pile[look] = stopped_pile(h, v, &ip[look]);
		if (pile[look] * 2 <= h->in.vcpus)
			break;
	}
	free(v);
	stalled = pile[0] * 2 > h->in.vcpus && pile[1] * 2 > h->in.vcpus && ip[0] == ip[1];
	if (stalled) {
		snprintf(what, wn, "%d of %d vCPUs at 0x%llx with interrupts off, twice %d ms apart",
			 pile[0] < pile[1] ? pile[0] : pile[1], h->in.vcpus, ip[0], SECOND_LOOK_MS);
		return true;
	}
	/* What the looks saw, for cell.json (boot_probe_saw). */
	if (pile[0] < 0)
		snprintf(what, wn, "QEMU did not give every vCPU's registers");
	else if (pile[1] < 0)
		snprintf(what, wn, "%d of %d vCPUs at one RIP with interrupts off", pile[0],
			 h->in.vcpus);
	else
		snprintf(what, wn, "%d of %d vCPUs at 0x%llx with interrupts off, then %d at 0x%llx",
			 pile[0], h->in.vcpus, ip[0], pile[1], ip[1]);
	r = call(h, "cont", NULL, err, sizeof(err));
	json_decref(r);
	return false;
}
