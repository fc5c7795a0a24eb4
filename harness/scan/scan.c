/*
 * The `scan` subcommand: each file's first kernel report as run would title
 * it in cell.json (crash.kind, signature), one line per file or JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/opts.h"
#include "lib/util.h"
#include "parse/console_scan.h"
#include "lib/decode.h"
#include "scan/scan.h"

static const struct opt_spec scan_opts[] = {
	{ "json", 'j', NULL, "options", "print a JSON array, one object per file, instead of lines" },
	{ "vmlinux", 'v', "PATH", "options",
	  "decode each report to file:line with this vmlinux (DWARF line tables:\n"
	  "a tree built with CONFIG_DEBUG_INFO, /usr/lib/debug/boot/vmlinux-R)\n"
	  "and the kernel's scripts/decode_stacktrace.sh (its tree's, else the\n"
	  "default line's source package's); prints the decoded report and its\n"
	  "first frame in the allocator's files (where)" },
	{ "modules", 'm', "DIR", "options", "with --vmlinux: where the .ko files of module frames are" },
	{ "help", 'h', NULL, "options", "this text" },
};
#define NSCAN_OPTS (sizeof(scan_opts) / sizeof(scan_opts[0]))

struct scan_file {
	const char *path;
	char *text;
	struct console_report rep;
	bool found;
	char *decoded;		/* with --vmlinux and a report */
	struct decoded_frame where;
	bool have_where;
};

struct scan_args {
	bool json;
	const char *vmlinux, *modules;
};

static void usage(FILE *f)
{
	fputs("usage: htab-torture scan [--json] [--vmlinux PATH [--modules DIR]] FILE...\n"
	      "  Each FILE (a console.log, a dmesg.txt, any kernel log) through the classifier\n"
	      "  that gives run's cells their CRASH verdict: its first kernel report (panic,\n"
	      "  Oops, BUG:, WARNING:, GPF, KASAN, soft/hard lockup, RCU stall, hung task,\n"
	      "  lockdep), titled as cell.json's signature. One line per file:\n"
	      "    FILE: clean\n"
	      "    FILE: KIND: TITLE     e.g. 'console.log: warning: WARNING in test_warning'\n"
	      "  KIND is cell.json's crash.kind: panic oops bug gpf warning soft_lockup\n"
	      "  hard_lockup rcu_stall hung_task lockdep kasan.\n\n", f);
	opts_help(f, scan_opts, NSCAN_OPTS);
	fputs("\nexit status: 0 every file clean, 1 a report in one at least,\n"
	      "2 usage error or a file that cannot be read (nothing printed)\n", f);
}

/* 0 ok (*a set, files from argv[optind]), 1 help printed, 2 usage error. */
static int parse_args(int argc, char **argv, struct scan_args *a)
{
	struct option longopts[NSCAN_OPTS + 1];
	char names[128];
	int c;

	opts_long(longopts, scan_opts, NSCAN_OPTS);
	memset(a, 0, sizeof(*a));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': a->json = true; break;
		case 'v': a->vmlinux = optarg; break;
		case 'm': a->modules = optarg; break;
		case 'h': usage(stdout); return 1;
		default:
			opts_names(names, sizeof(names), scan_opts, NSCAN_OPTS);
			fprintf(stderr, "error: unknown option '%s': scan takes %s\n",
				argv[optind - 1], names);
			return 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "error: no file to scan (see 'htab-torture scan --help')\n");
		return 2;
	}
	if (a->modules && !a->vmlinux) {
		fprintf(stderr, "error: --modules goes with --vmlinux (the kernel the modules belong to)\n");
		return 2;
	}
	return 0;
}

static json_t *file_json(const struct scan_file *f)
{
	char *ex = f->found ? console_excerpt(f->text, f->rep.lineno) : NULL;
	json_t *o = json_pack("{s:s, s:s}", "file", f->path, "kind", crash_kind_name(f->rep.kind));

	if (!o) {
		free(ex);
		return NULL;
	}
	json_object_set_new(o, "signature", f->found ? json_string(f->rep.signature) : json_null());
	json_object_set_new(o, "line", f->found ? json_string(f->rep.line) : json_null());
	json_object_set_new(o, "lineno", f->found ? json_integer(f->rep.lineno) : json_null());
	json_object_set_new(o, "reports", json_integer(f->rep.nreports));
	json_object_set_new(o, "excerpt", ex ? json_string(ex) : json_null());
	if (f->decoded)
		json_object_set_new(o, "decoded", json_string(f->decoded));
	if (f->have_where)
		json_object_set_new(o, "where", json_pack("{s:s, s:s, s:i}", "function", f->where.func,
							  "file", f->where.file, "line", f->where.line));
	free(ex);
	return o;
}

/* 0 written, -1 not. */
static int print_json(const struct scan_file *files, size_t n)
{
	json_t *a = json_array();
	int ret = -1;

	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, file_json(&files[i])))
			goto out;
	if (a && !json_dumpf(a, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) &&
	    fputc('\n', stdout) != EOF)
		ret = 0;
out:
	json_decref(a);
	return ret;
}

static void print_lines(const struct scan_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct scan_file *f = &files[i];

		if (f->found)
			printf("%s: %s: %s\n", f->path, crash_kind_name(f->rep.kind), f->rep.signature);
		if (f->have_where)
			printf("  where: %s (%s:%d)\n", f->where.func, f->where.file, f->where.line);
		for (const char *l = f->decoded; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
			printf("  %.*s\n", (int)strcspn(l, "\n"), l);
		if (!f->found)
			printf("%s: clean\n", f->path);
	}
}

/* f's first report decoded with d: 0, or -1 said. */
static int decode_file(const struct decoder *d, struct scan_file *f)
{
	char why[PATH_MAX + 256] = "no excerpt", *ex = console_excerpt(f->text, f->rep.lineno);

	f->decoded = ex ? decoder_run(d, ex, why, sizeof(why)) : NULL;
	free(ex);
	if (!f->decoded) {
		fprintf(stderr, "error: %s: cannot decode its report: %s\n", f->path, why);
		return -1;
	}
	f->have_where = decode_allocator_frame(f->decoded, &f->where);
	return 0;
}

int cmd_scan(int argc, char **argv)
{
	struct scan_file *files;
	struct scan_args a;
	struct decoder d;
	size_t n, nfound = 0;
	bool unreadable = false;
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret == 1 ? 0 : 2;
	if (a.vmlinux) {
		char root[PATH_MAX], why[PATH_MAX + 256];

		if (repo_root(root, sizeof(root)) ||
		    decoder_for_vmlinux(root, a.vmlinux, a.modules, &d, why, sizeof(why))) {
			fprintf(stderr, "error: --vmlinux %s: %s\n", a.vmlinux, why);
			return 2;
		}
	}
	n = (size_t)(argc - optind);
	files = calloc(n, sizeof(*files));
	if (!files) {
		fprintf(stderr, "error: out of memory\n");
		return 2;
	}
	/* Every file is read before anything is printed: one unreadable, no verdict. */
	for (size_t i = 0; i < n; i++) {
		struct scan_file *f = &files[i];
		struct stat st;

		f->path = argv[optind + i];
		if (!stat(f->path, &st) && S_ISDIR(st.st_mode))
			errno = EISDIR;
		else
			f->text = read_file(f->path, NULL);
		if (!f->text) {
			fprintf(stderr, "error: %s: %s\n", f->path, strerror(errno));
			unreadable = true;
			continue;
		}
		f->found = console_scan(f->text, &f->rep) == 1;
		nfound += f->found;
		if (f->found && a.vmlinux && decode_file(&d, f)) {
			unreadable = true;
			continue;
		}
	}
	ret = 2;
	if (unreadable)
		goto cleanup;
	if (a.json) {
		if (print_json(files, n)) {
			fprintf(stderr, "error: cannot write the JSON\n");
			goto cleanup;
		}
	} else {
		print_lines(files, n);
	}
	ret = fflush(stdout) ? 2 : nfound ? 1 : 0;
cleanup:
	for (size_t i = 0; i < n; i++) {
		free(files[i].text);
		free(files[i].decoded);
	}
	free(files);
	return ret;
}
