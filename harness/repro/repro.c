/*
 * The `repro` subcommand: from one cell's directory, a bash script that
 * boots that cell again. The script calls `htab-torture run` with the
 * options the cell recorded (cell.json, the run's manifest.json) into a
 * fresh --out per attempt, so the verdict is decided by the same code that
 * decided the cell's; it then checks that the attempt's QEMU argv and
 * job.env are the recorded ones, but for the run's own paths.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/opts.h"
#include "lib/util.h"
#include "repro/repro.h"

#define RUNS_DEFAULT 5
#define RUNS_MAX 10000

/* What the script does after its variables (repro-body.sh, as it is). */
__asm__(".section .rodata\n"
	".global repro_body\n"
	"repro_body:\n"
	".incbin \"repro/repro-body.sh\"\n"
	".byte 0\n"
	".previous\n");
extern const char repro_body[];

static const struct opt_spec repro_opts[] = {
	{ "output", 'o', "SCRIPT", "options", "where to write the script (default CELL_DIR/repro.sh)" },
	{ "runs", 'n', "N", "options",
	  "how many times the script boots the cell by default (default 5;\n"
	  "the script takes --runs N or REPRO_RUNS=N)" },
	{ "help", 'h', NULL, "options", "this text" },
};
#define NREPRO_OPTS (sizeof(repro_opts) / sizeof(repro_opts[0]))

struct repro {
	char cell_dir[PATH_MAX];	/* absolute */
	char out_dir[PATH_MAX];		/* the run's directory: the cell's parent */
	const char *id;
	json_t *cell;			/* cell.json */
	json_t *manifest;		/* OUT/manifest.json, or NULL */
	json_t *plan;			/* the manifest's cell of this id, or NULL */
	bool host;			/* --target host */
	const char *boot_mode;		/* own | shared */
	const char *boot_name;		/* shared: OUT/boots/<name>/ */
	char argv_path[PATH_MAX];	/* the QEMU (or runner) argv it ran, "" if none */
	char *argv_text;
	char *job_env;
	char *boot_cmd;			/* shared: the boot's cmd.N that named it */
	const char *initramfs;
	struct strv args;		/* of `htab-torture run` */
	struct strv argv;		/* argv_text split into words */
};

static void usage(FILE *f)
{
	fputs("usage: htab-torture repro CELL_DIR [-o SCRIPT] [--runs N]\n"
	      "  A bash script that boots that one cell again as it was recorded (its\n"
	      "  cell.json, the run's manifest.json): the kernel, initramfs, module and\n"
	      "  its parameters, job, noise, accelerator and vCPUs, in its header as\n"
	      "  comments and variables with the QEMU argv (qemu.argv, or its shared\n"
	      "  boot's under OUT/boots/) and job.env. Run, the script checks that the\n"
	      "  files it names exist, then runs 'htab-torture run' with the cell's\n"
	      "  options N times, each into a fresh directory (never the cell's), and\n"
	      "  prints one line per attempt (verdict, signature, 'htab-torture scan' of\n"
	      "  its console) and whether the cell's verdict and signature (by title)\n"
	      "  came back: exit 0 reproduced, 1 not, 2 setup error.\n\n", f);
	opts_help(f, repro_opts, NREPRO_OPTS);
	fputs("\nexit status: 0 script written, 2 usage error or a directory that is not a\n"
	      "cell's (nothing written)\n", f);
}

/* 0 ok, 1 help printed, 2 usage error. */
static int parse_args(int argc, char **argv, const char **dir, const char **script, int *runs)
{
	struct option longopts[NREPRO_OPTS + 1];
	char names[128], *end;
	long v;
	int c;

	opts_long(longopts, repro_opts, NREPRO_OPTS);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			*script = optarg;
			break;
		case 'n':
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] < '1' || optarg[0] > '9' ||
			    v > RUNS_MAX) {
				fprintf(stderr, "error: --runs '%s': must be a positive integer 1..%d\n",
					optarg, RUNS_MAX);
				return 2;
			}
			*runs = (int)v;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case ':':
			fprintf(stderr, "error: %s needs a value (see 'htab-torture repro --help')\n",
				argv[optind - 1]);
			return 2;
		default:
			opts_names(names, sizeof(names), repro_opts, NREPRO_OPTS);
			fprintf(stderr, "error: unknown option '%s': repro takes %s\n",
				argv[optind - 1], names);
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "error: no cell directory (see 'htab-torture repro --help')\n");
		return 2;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "error: '%s': repro takes one cell directory\n", argv[optind + 1]);
		return 2;
	}
	*dir = argv[optind];
	return 0;
}

static const char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* A file of the cell's run directory, or NULL (errno ENOENT) if it has none. */
static char *run_file(const struct repro *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static char *run_file(const struct repro *r, const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX * 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", r->out_dir, rel);
	return read_file(path, NULL);
}

/* text's lines (an argv, job.env: one item a line, empty ones too) into sv; 0 ok. */
static int lines(struct strv *sv, const char *text)
{
	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, "\n");

		if (strv_pushf(sv, "%.*s", (int)n, p)) {
			fprintf(stderr, "error: out of memory\n");
			return -1;
		}
		p += n + (p[n] == '\n');
	}
	return 0;
}

/* The cell and what it ran with; 0 ok, 2 not a cell (said on stderr). */
static int load(struct repro *r, const char *dir)
{
	char path[PATH_MAX + 16], tmp[PATH_MAX];
	json_t *boot, *cells;
	json_error_t jerr;
	struct stat st;
	size_t i;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || !realpath(dir, r->cell_dir)) {
		fprintf(stderr, "error: '%s' is not a cell directory: %s (want OUT/<cell-id>/ of 'htab-torture run', with its cell.json)\n",
			dir, errno && !(!stat(dir, &st) && !S_ISDIR(st.st_mode)) ? strerror(errno)
									   : "not a directory");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/cell.json", r->cell_dir);
	if (!file_exists(path)) {
		fprintf(stderr, "error: '%s' is not a cell directory: no cell.json (a cell of 'htab-torture run' has one once it finished)\n",
			dir);
		return 2;
	}
	r->cell = json_load_file(path, 0, &jerr);
	if (!json_is_object(r->cell)) {
		fprintf(stderr, "error: %s: not a cell.json: %s (line %d)\n", path,
			r->cell ? "not an object" : jerr.text, jerr.line);
		return 2;
	}
	r->id = json_string_value(json_object_get(r->cell, "cell"));
	if (!r->id)
		r->id = json_string_value(json_object_get(r->cell, "id"));
	if (!r->id || !*r->id || strchr(r->id, '/')) {
		fprintf(stderr, "error: %s: no cell id (\"cell\") in it\n", path);
		return 2;
	}
	snprintf(tmp, sizeof(tmp), "%s", r->cell_dir);
	snprintf(r->out_dir, sizeof(r->out_dir), "%s", dirname(tmp));

	snprintf(path, sizeof(path), "%s/manifest.json", r->out_dir);
	r->manifest = file_exists(path) ? json_load_file(path, 0, NULL) : NULL;
	cells = json_object_get(r->manifest, "cells");
	for (i = 0; i < json_array_size(cells); i++)
		if (!strcmp(jstr(json_array_get(cells, i), "id"), r->id))
			r->plan = json_array_get(cells, i);

	r->host = !strcmp(jstr(r->cell, "target"), "host");
	boot = json_object_get(r->cell, "boot");
	r->boot_mode = json_is_object(boot) && !strcmp(jstr(boot, "mode"), "shared") ? "shared"
										     : "own";
	if (!strcmp(r->boot_mode, "shared")) {
		r->boot_name = jstr(boot, "name");
		r->boot_cmd = run_file(r, "boots/%s/cmd.%lld", r->boot_name,
				       (long long)json_integer_value(json_object_get(boot, "cell_in_boot")));
	}
	/* A shared boot's command line is the boot's; the cell's copy of it otherwise. */
	if (r->boot_name && *r->boot_name) {
		if (pathf(r->argv_path, sizeof(r->argv_path), "%s/boots/%s/qemu.argv", r->out_dir,
			  r->boot_name))
			return 2;
		r->argv_text = read_file(r->argv_path, NULL);
	}
	if (!r->argv_text) {
		if (pathf(r->argv_path, sizeof(r->argv_path), "%s/%s", r->cell_dir,
			  r->host ? "runner.argv" : "qemu.argv"))
			return 2;
		r->argv_text = read_file(r->argv_path, NULL);
	}
	if (!r->argv_text)
		r->argv_path[0] = '\0';
	else if (lines(&r->argv, r->argv_text))
		return 2;
	for (i = 0; i + 1 < r->argv.n; i++)
		if (!strcmp(r->argv.v[i], "-initrd"))
			r->initramfs = r->argv.v[i + 1];
	snprintf(path, sizeof(path), "%s/job.env", r->cell_dir);
	r->job_env = read_file(path, NULL);
	return 0;
}

static bool in_strv(const char *const *v, const char *s)
{
	for (; *v; v++)
		if (!strcmp(*v, s))
			return true;
	return false;
}

/* A value of the cell's map and fault axes that names it away from its default. */
static const char *axis_value(const struct repro *r, const char *key, const char *dflt,
			      char *buf, size_t n)
{
	json_t *v = json_object_get(r->plan ? r->plan : r->cell, key);

	if (json_is_string(v))
		snprintf(buf, n, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, n, "%lld", (long long)json_integer_value(v));
	else
		return NULL;
	return dflt && !strcmp(buf, dflt) ? NULL : buf;
}

/*
 * The options of `htab-torture run` that make this cell again: its axes
 * (one value each), the run's --modparam (the manifest's; without one,
 * cell.json's modparams but those the harness adds), and every option
 * that shapes its boot, pinned to the files it used.
 */
static int run_args(struct repro *r)
{
	static const char *const map_axes[][3] = {
		{ "map_type", "--map-type", "hash" }, { "prealloc", "--prealloc", "1" },
		{ "max_entries", "--max-entries", "4096" }, { "fault", "--fault", "none" },
		{ "test_action", "--test-action", NULL },
	};
	static const char *const harness_keys[] = { "workload", "duration_ms", "cpus", NULL };
	struct strv *a = &r->args;
	json_t *c = r->cell, *mp, *lpj, *tree = json_object_get(c, "kernel_tree");
	const char *kernel = jstr(c, "kernel"), *v;
	char buf[256], key[64];
	struct strv given = { 0 };
	size_t i;
	long long boots;
	int err = 0;

	if (r->host)
		err |= strv_push(a, "--target") | strv_push(a, "host");
	err |= strv_pushf(a, "--cpus=%lld", (long long)json_integer_value(json_object_get(c, "vcpus")));
	err |= strv_pushf(a, "--workload=%s", jstr(c, "workload"));
	if (json_is_object(tree)) {
		err |= strv_pushf(a, "--kernel-tree=%s", jstr(tree, "dir"));
	} else if (!r->host) {
		err |= strv_pushf(a, "--kernel=%s", kernel);
		/* coverage needs its tree for gcov: the label finds it */
		if (strcmp(kernel, "coverage") && *jstr(c, "kernel_image")) {
			err |= strv_pushf(a, "--kernel-image=%s", jstr(c, "kernel_image"));
			if (*jstr(c, "kernel_release"))
				err |= strv_pushf(a, "--kernel-release=%s", jstr(c, "kernel_release"));
		}
	}
	if (*jstr(c, "module"))
		err |= strv_pushf(a, "--module=%s", jstr(c, "module"));
	if (*jstr(c, "noise"))
		err |= strv_pushf(a, "--noise=%s", jstr(c, "noise"));
	for (i = 0; i < sizeof(map_axes) / sizeof(map_axes[0]); i++) {
		v = axis_value(r, map_axes[i][0], map_axes[i][2], buf, sizeof(buf));
		if (v) {
			err |= strv_pushf(a, "%s=%s", map_axes[i][1], v);
			err |= strv_pushf(&given, "%s=%s", map_axes[i][0], v);
		}
	}
	if (json_object_get(c, "duration_s"))
		err |= strv_pushf(a, "--duration=%lld",
				  (long long)json_integer_value(json_object_get(c, "duration_s")));
	mp = json_object_get(json_object_get(r->manifest, "params"), "modparams");
	if (json_is_array(mp)) {
		for (i = 0; i < json_array_size(mp); i++)
			err |= strv_pushf(a, "--modparam=%s", json_string_value(json_array_get(mp, i)));
	} else {
		mp = json_object_get(c, "modparams");
		for (i = 0; i < json_array_size(mp); i++) {
			const char *m = json_string_value(json_array_get(mp, i));

			if (!m)
				continue;
			snprintf(key, sizeof(key), "%.*s", (int)strcspn(m, "="), m);
			if (in_strv(harness_keys, key) || (given.n && in_strv((const char *const *)given.v, m)))
				continue;
			err |= strv_pushf(a, "--modparam=%s", m);
		}
	}
	strv_free(&given);
	mp = json_object_get(c, "bpftrace_scripts");
	buf[0] = '\0';
	if (json_is_array(mp)) {	/* absent: not recorded, the default */
		for (i = 0; i < json_array_size(mp); i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "," : "",
				 json_string_value(json_array_get(mp, i)));
		err |= strv_pushf(a, "--bpftrace=%s", buf[0] ? buf : "none");
	}
	if (*jstr(c, "job_script"))
		err |= strv_pushf(a, "--job-script=%s", jstr(c, "job_script"));
	v = jstr(c, "accel");
	if (!strcmp(v, "tcg") || !strcmp(v, "kvm"))
		err |= strv_pushf(a, "--accel=%s", v);
	if (json_is_integer(json_object_get(c, "crash_grace_s")))
		err |= strv_pushf(a, "--crash-grace=%lld",
				  (long long)json_integer_value(json_object_get(c, "crash_grace_s")));
	mp = json_object_get(json_object_get(r->manifest, "params"), "timeout_s");
	if (json_integer_value(mp) > 0)
		err |= strv_pushf(a, "--timeout=%lld", (long long)json_integer_value(mp));
	if (!r->host) {
		/* The lpj= it booted with, not whatever the cache holds today. */
		lpj = json_object_get(c, "lpj");
		if (json_is_integer(json_object_get(lpj, "value")))
			err |= strv_pushf(a, "--lpj=%lld",
					  (long long)json_integer_value(json_object_get(lpj, "value")));
		else if (!strcmp(jstr(lpj, "source"), "off"))
			err |= strv_push(a, "--lpj=off");
		/* --guest-mem MB when it gave the guest's RAM (absent or "auto": the formula). */
		if (json_is_integer(json_object_get(c, "guest_mem")))
			err |= strv_pushf(a, "--guest-mem=%lld",
					  (long long)json_integer_value(json_object_get(c, "guest_mem")));
		/* The path it booted by (a cell.json from before PVH: the bzImage). */
		err |= strv_push(a, !strcmp(jstr(c, "boot_path"), "pvh") ? "--pvh=auto" : "--pvh=off");
		/* ... and its decompressor (a cell.json from before lz4: Debian's). */
		err |= strv_push(a, !strcmp(jstr(c, "boot_path"), "lz4") ? "--lz4=auto" : "--lz4=off");
		err |= strv_push(a, json_is_object(json_object_get(c, "restore")) ? "--restore=on"
										  : "--restore=off");
		/* --restore-boots N when the run spread its repeats over N saved boots. */
		boots = json_integer_value(json_object_get(json_object_get(c, "restore"), "boots"));
		if (boots > 1)
			err |= strv_pushf(a, "--restore-boots=%lld", boots);
		mp = json_object_get(c, "boot_opts");
		for (i = 0; i < json_array_size(mp); i++)
			err |= strv_pushf(a, "--boot-opt=%s", json_string_value(json_array_get(mp, i)));
		if (!strcmp(r->boot_mode, "own"))
			err |= strv_push(a, "--boot-per-cell");
	}
	return err ? -1 : 0;
}

/* "# LABEL  text" lines; text's own lines after the first indented. */
static void comment(FILE *f, const char *label, const char *text)
{
	const char *p = text && *text ? text : "(not recorded)";

	fprintf(f, "# %-12s ", label);
	for (; *p; p++) {
		if (*p == '\n') {
			if (p[1])
				fprintf(f, "\n#   ");
			continue;
		}
		fputc(*p, f);
	}
	fputc('\n', f);
}

/* An integer of o as text, "-" when it has none. */
static const char *num(json_t *o, const char *key, char *buf, size_t n)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v))
		return "-";
	snprintf(buf, n, "%lld", (long long)json_integer_value(v));
	return buf;
}

static void var(FILE *f, const char *name, const char *value)
{
	char *q = shell_quote(value ? value : "");

	fprintf(f, "%s=%s\n", name, q ? q : "''");
	free(q);
}

static void array(FILE *f, const char *name, char *const *v, size_t n)
{
	fprintf(f, "%s=(", name);
	for (size_t i = 0; i < n; i++) {
		char *q = shell_quote(v[i]);

		fprintf(f, "\n\t%s", q ? q : "''");
		free(q);
	}
	fprintf(f, "%s)\n", n ? "\n" : "");
}

static int write_script(const struct repro *r, const char *script, int runs)
{
	json_t *c = r->cell, *boot = json_object_get(c, "boot");
	char kit[PATH_MAX], line[1024], when[32], n1[24], n2[24], n3[24];
	struct strv env = { 0 };
	char *text = NULL, *joined = NULL, *name;
	size_t len = 0;
	time_t now = time(NULL);
	FILE *f = open_memstream(&text, &len);
	int ret = 2;

	if (!f)
		goto oom;
	if (repo_root(kit, sizeof(kit)))
		snprintf(kit, sizeof(kit), ".");
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime(&now));
	if (r->job_env && lines(&env, r->job_env))
		goto oom;

	fprintf(f, "#!/bin/bash\n"
		"# Re-run cell %s of %s, as it was run.\n"
		"# Written by 'htab-torture repro' on %s from %s.\n"
		"#\n", r->id, r->out_dir, when, r->cell_dir);
	snprintf(line, sizeof(line), "%s%s%s", jstr(c, "verdict"),
		 *jstr(c, "signature") ? ": " : "", jstr(c, "signature"));
	comment(f, "expect", line);
	snprintf(line, sizeof(line), "label %s, name %s, line %s, release %s, build hash %s",
		 jstr(c, "kernel"), *jstr(c, "kernel_name") ? jstr(c, "kernel_name") : "-",
		 *jstr(c, "kernel_line") ? jstr(c, "kernel_line") : "-", jstr(c, "kernel_release"),
		 *jstr(c, "kernel_hash") ? jstr(c, "kernel_hash") : "- (none: a distro kernel)");
	comment(f, "kernel", line);
	if (json_is_object(json_object_get(c, "kernel_tree")))
		comment(f, "kernel tree", jstr(json_object_get(c, "kernel_tree"), "dir"));
	comment(f, "image", jstr(c, "kernel_image"));
	comment(f, "initramfs", r->initramfs);
	comment(f, "module", jstr(c, "module"));
	joined = json_dumps(json_object_get(c, "modparams"), JSON_COMPACT);
	comment(f, "modparams", joined);
	free(joined);
	snprintf(line, sizeof(line), "%s (%s)", jstr(c, "noise"),
		 *jstr(c, "noise_cmd") ? jstr(c, "noise_cmd") : "no stress-ng");
	comment(f, "noise", line);
	snprintf(line, sizeof(line), "%s, %s vCPUs, %s MB, %s s, target %s", jstr(c, "accel"),
		 num(c, "vcpus", n1, sizeof(n1)), num(c, "memory_mb", n2, sizeof(n2)),
		 num(c, "duration_s", n3, sizeof(n3)),
		 *jstr(c, "target") ? jstr(c, "target") : "vm");
	comment(f, "accel", line);
	if (!strcmp(r->boot_mode, "shared"))
		snprintf(line, sizeof(line), "shared: boot %s, cell %lld of it (cmd.%lld: %.*s); each attempt boots it alone, first",
			 r->boot_name, (long long)json_integer_value(json_object_get(boot, "cell_in_boot")),
			 (long long)json_integer_value(json_object_get(boot, "cell_in_boot")),
			 r->boot_cmd ? (int)strcspn(r->boot_cmd, "\n") : 12,
			 r->boot_cmd ? r->boot_cmd : "not recorded");
	else
		snprintf(line, sizeof(line), "own");
	comment(f, "boot", line);
	comment(f, "manifest", r->manifest ? "manifest.json of the run (its --modparam, --timeout)"
					 : "none beside the cell: its modparams but the harness's own");
	comment(f, "job.env", r->job_env);
	comment(f, "argv from", r->argv_path);
	comment(f, "argv", r->argv_text);
	/* basename() may write to its argument */
	name = strdup(script);
	if (!name)
		goto oom;
	fprintf(f, "#\n"
		"# usage: %s [--runs N] [--scratch DIR]   (or REPRO_RUNS=N, REPRO_SCRATCH=DIR)\n"
		"# Each attempt: htab-torture run \"${RUN_ARGS[@]}\" --out <a fresh directory>.\n"
		"# exit: 0 the verdict and signature (by title) came back, 1 not, 2 setup error\n\n",
		basename(name));
	free(name);

	var(f, "CELL", r->id);
	var(f, "CELL_DIR", r->cell_dir);
	var(f, "OUT_DIR", r->out_dir);
	var(f, "EXPECT_VERDICT", jstr(c, "verdict"));
	var(f, "EXPECT_SIGNATURE", jstr(c, "signature"));
	var(f, "KERNEL_LABEL", jstr(c, "kernel"));
	var(f, "KERNEL_NAME", jstr(c, "kernel_name"));
	var(f, "KERNEL_LINE", jstr(c, "kernel_line"));
	var(f, "KERNEL_RELEASE", jstr(c, "kernel_release"));
	var(f, "KERNEL_HASH", jstr(c, "kernel_hash"));
	var(f, "KERNEL_IMAGE", jstr(c, "kernel_image"));
	var(f, "KERNEL_TREE", jstr(json_object_get(c, "kernel_tree"), "dir"));
	var(f, "INITRAMFS", r->initramfs);
	var(f, "MODULE", jstr(c, "module"));
	var(f, "JOB_SCRIPT", jstr(c, "job_script"));
	joined = json_dumps(json_object_get(c, "modparams"), JSON_COMPACT);
	var(f, "MODPARAMS_JSON", joined);
	free(joined);
	var(f, "NOISE", jstr(c, "noise"));
	var(f, "NOISE_CMD", jstr(c, "noise_cmd"));
	var(f, "ACCEL", jstr(c, "accel"));
	var(f, "VCPUS", num(c, "vcpus", n1, sizeof(n1)));
	var(f, "BOOT_MODE", r->boot_mode);
	var(f, "BOOT_NAME", r->boot_name);
	var(f, "ARGV_NAME", r->host ? "runner.argv" : "qemu.argv");
	snprintf(line, sizeof(line), "%d", runs);
	var(f, "RUNS", line);
	var(f, "KIT_RECORDED", kit);
	fprintf(f, "KIT=${REPRO_KIT:-$KIT_RECORDED}\n");
	fprintf(f, "HT=\"$KIT/harness/htab-torture\"\n");
	array(f, "ARGV", r->argv.v, r->argv.n);
	array(f, "JOB_ENV", env.v, env.n);
	array(f, "RUN_ARGS", r->args.v, r->args.n);
	{
		char *const needs[] = {
			"kernel image", (char *)jstr(c, "kernel_image"),
			"kernel tree", (char *)jstr(json_object_get(c, "kernel_tree"), "dir"),
			"initramfs", (char *)(r->initramfs ? r->initramfs : ""),
			"module", (char *)jstr(c, "module"), "job script", (char *)jstr(c, "job_script"),
		};
		array(f, "NEEDS", needs, sizeof(needs) / sizeof(needs[0]));
	}
	fprintf(f, "\n%s", repro_body);
	if (fclose(f)) {
		f = NULL;
		goto oom;
	}
	f = NULL;
	if (write_file_atomic(script, text, len) || chmod(script, 0755)) {
		fprintf(stderr, "error: cannot write %s: %s\n", script, strerror(errno));
		goto out;
	}
	printf("%s\n", script);
	ret = 0;
	goto out;
oom:
	fprintf(stderr, "error: out of memory\n");
out:
	if (f)
		fclose(f);
	free(text);
	strv_free(&env);
	return ret;
}

int cmd_repro(int argc, char **argv)
{
	struct repro r = { 0 };
	const char *dir = NULL, *script = NULL;
	char def[PATH_MAX + 16];
	int runs = RUNS_DEFAULT;
	int ret = parse_args(argc, argv, &dir, &script, &runs);

	if (ret)
		return ret == 1 ? 0 : 2;
	ret = load(&r, dir);
	if (ret)
		goto out;
	if (run_args(&r)) {
		fprintf(stderr, "error: out of memory\n");
		ret = 2;
		goto out;
	}
	if (!script) {
		snprintf(def, sizeof(def), "%s/repro.sh", r.cell_dir);
		script = def;
	}
	ret = write_script(&r, script, runs);
out:
	json_decref(r.cell);
	json_decref(r.manifest);
	free(r.argv_text);
	free(r.job_env);
	free(r.boot_cmd);
	strv_free(&r.args);
	strv_free(&r.argv);
	return ret;
}
