/* Options of `htab-torture run`: one struct, parsed and validated in one place. */
#ifndef HT_CLI_H
#define HT_CLI_H
#include <stdbool.h>
#include "accel.h"
#include "util.h"

#define MAX_VCPUS 256
#define MAX_DURATION_S 3600

struct run_opts {
	int cpus[64];
	int ncpus;
	struct strv workloads;
	int duration_s;
	const char *out;
	const char *kernel;		/* label: "distro" or a variant name */
	const char *kernel_image;	/* --kernel-image / HTAB_KERNEL_IMAGE */
	const char *kernel_release;	/* --kernel-release; else from the image */
	const char *module;		/* --module; default kmod/htab_torture.ko */
	enum accel_mode accel;
	struct strv bpftrace;		/* script names; empty = none */
	struct strv modparams;		/* key=val, passed through */
	const char *map_type;		/* NULL = module default */
	int prealloc;			/* -1 = module default */
	int timeout_s;			/* 0 = derived per cell */
	int repeat;
	bool dry_run;
	const char *test_action;	/* hidden: panic|hang|warn */
};

extern const char *const workload_names[];

void run_opts_init(struct run_opts *o);
void run_opts_free(struct run_opts *o);
/* 0 ok, 1 --help printed, 2 usage error (message already on stderr). */
int run_opts_parse(struct run_opts *o, int argc, char **argv);
void run_usage(FILE *f);
#endif
