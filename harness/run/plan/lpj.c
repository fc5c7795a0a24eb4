/* lpj= from the kernel being booted, on this host (lpj.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/fnv.h"
#include "lib/spawn.h"
#include "run/plan/host_info.h"
#include "run/plan/lpj.h"

#define CALIBRATE_TIMEOUT_S 300

long lpj_from_console(const char *text)
{
	const char *l = text ? strstr(text, "Calibrating delay") : NULL;
	const char *eol, *p;
	char *end;
	long v;

	if (!l)
		return -1;
	eol = strchr(l, '\n');
	p = strstr(l, "(lpj=");
	if (!p || (eol && p > eol))
		return -1;
	errno = 0;
	v = strtol(p + 5, &end, 10);
	if (errno || end == p + 5 || *end != ')' || v < 1 || v > LPJ_MAX)
		return -1;
	return v;
}

int lpj_cache_name(const char *image, const char *cpu_model, char *out, size_t n)
{
	uint64_t h = FNV1A64_INIT;
	uint32_t cm = 2166136261u;

	if (fnv1a64_file(image, &h))
		return -1;
	for (const unsigned char *p = (const unsigned char *)cpu_model; *p; p++) {
		cm ^= *p;
		cm *= 16777619u;
	}
	snprintf(out, n, "%016llx-%08x", (unsigned long long)h, cm);
	return 0;
}

long lpj_cache_get(const char *dir, const char *name)
{
	char p[PATH_MAX], *text, *end;
	const char *l;
	long v = -1;

	if (pathf(p, sizeof(p), "%s/%s", dir, name))
		return -1;
	text = read_file(p, NULL);
	if (text && (l = strstr(text, "LPJ=")) && (l == text || l[-1] == '\n')) {
		errno = 0;
		v = strtol(l + 4, &end, 10);
		if (errno || end == l + 4 || (*end && *end != '\n') || v < 1 || v > LPJ_MAX)
			v = -1;
	}
	free(text);
	return v;
}

int lpj_cache_put(const char *dir, const char *name, long lpj, const char *image,
		  const char *cpu_model)
{
	char p[PATH_MAX], *text;
	int len, rc;

	if (mkdir_p(dir))
		return -1;
	len = asprintf(&text, "LPJ=%ld\nIMAGE=%s\nCPU_MODEL=%s\n", lpj, image, cpu_model);
	if (len < 0)
		return -1;
	if (pathf(p, sizeof(p), "%s/%s", dir, name)) {
		free(text);
		return -1;
	}
	rc = write_file_atomic(p, text, (size_t)len);
	free(text);
	return rc;
}

/*
 * One vCPU, the cells' machine and clock options, no initramfs: the kernel
 * prints the line early, panics on the missing root, and panic=-1 with
 * -no-reboot ends QEMU. loglevel=7: the line is pr_info.
 */
int lpj_calibrate_argv(const char *qemu, enum accel_mode accel, const char *image,
		       const char *console_path, struct strv *a)
{
	char *con = qemu_escape(console_path);
	int r = 0;

	if (!con)
		return -1;
	r |= strv_push(a, "timeout");
	r |= strv_push(a, "-s");
	r |= strv_push(a, "KILL");
	r |= strv_pushf(a, "%d", CALIBRATE_TIMEOUT_S);
	r |= strv_push(a, qemu);
	r |= strv_push(a, "-machine");
	r |= strv_push(a, "pc");
	r |= strv_push(a, "-accel");
	r |= strv_push(a, accel == ACCEL_KVM ? "kvm" : "tcg,thread=multi");
	r |= strv_push(a, "-cpu");
	r |= strv_push(a, accel == ACCEL_KVM ? "host" : "max");
	r |= strv_push(a, "-smp");
	r |= strv_push(a, "1");
	r |= strv_push(a, "-m");
	r |= strv_push(a, "256");
	r |= strv_push(a, "-nodefaults");
	r |= strv_push(a, "-no-reboot");
	r |= strv_push(a, "-display");
	r |= strv_push(a, "none");
	r |= strv_push(a, "-kernel");
	r |= strv_push(a, image);
	r |= strv_push(a, "-append");
	r |= strv_push(a, "console=ttyS0 panic=-1 loglevel=7 no_timer_check "
			  "clocksource=tsc tsc=reliable");
	r |= strv_push(a, "-chardev");
	r |= strv_pushf(a, "file,id=con,path=%s", con);
	r |= strv_push(a, "-serial");
	r |= strv_push(a, "chardev:con");
	free(con);
	return r ? -1 : 0;
}

static int cache_dir(const struct run_ctx *c, char *out, size_t n)
{
	const char *e = getenv("HTAB_LPJ_CACHE");

	if (e && *e)
		return pathf(out, n, "%s", e);
	return pathf(out, n, "%s/vm-images/out/lpj", c->root);
}

static long calibrate(const struct run_ctx *c, const char *image, const char *dir,
		      const char *name)
{
	char con[PATH_MAX + 16], log[PATH_MAX + 16], *text;
	struct strv a = { 0 };
	struct spawn_opts so = { .log = log, .null_stdin = true };
	double t0 = now_mono();
	long v = -1;
	int rc;

	if (mkdir_p(dir)) {
		fprintf(stderr, "error: lpj: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (pathf(con, sizeof(con), "%s/%s.console", dir, name) ||
	    pathf(log, sizeof(log), "%s/%s.qemu.log", dir, name))
		return -1;
	unlink(con);
	fprintf(stderr, "lpj: calibrating %s on this host (a 1-vCPU boot, once per image and host CPU model)\n",
		image);
	if (lpj_calibrate_argv(c->qemu, c->accel, image, con, &a)) {
		strv_free(&a);
		return -1;
	}
	rc = spawn_run(a.v, &so, NULL);
	strv_free(&a);
	text = read_file(con, NULL);
	v = lpj_from_console(text);
	free(text);
	if (v < 0) {
		fprintf(stderr, "error: lpj: the calibration boot of %s (exit %d) printed no \"Calibrating delay loop ... (lpj=N)\" line: see %s and %s; --lpj off boots without a preset\n",
			image, rc, con, log);
		return -1;
	}
	fprintf(stderr, "lpj: %s: lpj=%ld (%.1f s)\n", image, v, now_mono() - t0);
	return v;
}

int lpj_resolve(const struct run_ctx *c, struct kernel_res *k, bool dry_run)
{
	const struct run_opts *o = c->o;
	char dir[PATH_MAX], name[128], model[256];
	const char *img = k->boot_image[0] ? k->boot_image : k->image;
	long v;

	k->lpj = 0;
	if (o->lpj_mode == LPJ_VALUE) {
		k->lpj = o->lpj_value;
		k->lpj_source = "option";
		return 0;
	}
	if (o->lpj_mode == LPJ_OFF || c->target_host) {
		k->lpj_source = "off";
		return 0;
	}
	/* KVM calibrates in milliseconds; the preset is for emulation. */
	if (c->accel == ACCEL_KVM) {
		k->lpj_source = "kvm";
		return 0;
	}
	if (cache_dir(c, dir, sizeof(dir)))
		return -1;
	host_cpu_model(model, sizeof(model));
	if (lpj_cache_name(img, model, name, sizeof(name))) {
		fprintf(stderr, "error: lpj: cannot read %s: %s\n", img, strerror(errno));
		return -1;
	}
	v = lpj_cache_get(dir, name);
	if (v > 0) {
		k->lpj = v;
		k->lpj_source = "cache";
		return 0;
	}
	if (dry_run) {
		fprintf(stderr, "note: lpj: %s not calibrated on this host yet: a run first boots it once (1 vCPU) for lpj=\n",
			img);
		k->lpj_source = "uncalibrated";
		return 0;
	}
	v = calibrate(c, img, dir, name);
	if (v < 0)
		return -1;
	if (lpj_cache_put(dir, name, v, img, model))
		fprintf(stderr, "warning: lpj: cannot write %s/%s: %s\n", dir, name, strerror(errno));
	k->lpj = v;
	k->lpj_source = "calibrated";
	return 0;
}
