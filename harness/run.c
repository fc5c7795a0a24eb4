/*
 * `htab-torture run`: resolve kernel, module, scripts and accelerator once
 * (every problem is a one-line error and exit 2 before anything is written),
 * then run the cells, skipping those already finished, and summarise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell.h"
#include "cell_json.h"
#include "paths.h"
#include "qemu_argv.h"
#include "run.h"
#include "summary.h"

static int resolve_kernel(struct run_ctx *c)
{
	const struct run_opts *o = c->o;
	char err[PATH_MAX + 128];

	if (o->kernel_image) {
		if (!file_exists(o->kernel_image)) {
			fprintf(stderr, "error: kernel image %s not found\n", o->kernel_image);
			return -1;
		}
		snprintf(c->kernel_image, sizeof(c->kernel_image), "%s", o->kernel_image);
		if (o->kernel_release) {
			snprintf(c->release, sizeof(c->release), "%s", o->kernel_release);
		} else if (bzimage_release(o->kernel_image, c->release, sizeof(c->release))) {
			fprintf(stderr, "error: cannot read the kernel release from %s (not a bzImage?); give --kernel-release\n",
				o->kernel_image);
			return -1;
		}
		return 0;
	}
	if (strcmp(o->kernel, "distro")) {
		fprintf(stderr, "error: --kernel '%s': only 'distro' is found automatically; build the variant with vm-images/build-kernel.sh %s and pass --kernel-image PATH\n",
			o->kernel, o->kernel);
		return -1;
	}
	if (distro_release("", c->release, sizeof(c->release), err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return -1;
	}
	snprintf(c->kernel_image, sizeof(c->kernel_image), "/boot/vmlinuz-%s", c->release);
	return 0;
}

static int resolve_module(struct run_ctx *c)
{
	char vermagic[128];

	if (c->o->module)
		snprintf(c->module, sizeof(c->module), "%s", c->o->module);
	else
		snprintf(c->module, sizeof(c->module), "%s/kmod/htab_torture.ko", c->root);
	if (!file_exists(c->module)) {
		fprintf(stderr, "error: module %s not found (run make first)\n", c->module);
		return -1;
	}
	if (c->module[0] != '/') {
		fprintf(stderr, "error: --module '%s': must be an absolute path (the guest sees the host root)\n",
			c->module);
		return -1;
	}
	if (!module_vermagic(c->module, vermagic, sizeof(vermagic)) &&
	    strcmp(vermagic, c->release)) {
		fprintf(stderr, "error: %s was built for %s, the guest kernel is %s (rebuild: make -C kmod KDIR=/usr/src/linux-headers-%s)\n",
			c->module, vermagic, c->release, c->release);
		return -1;
	}
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
	return 0;
}

static int resolve_out(struct run_ctx *c)
{
	const char *out = c->o->out;
	char cwd[PATH_MAX];

	if (out[0] == '/') {
		snprintf(c->out, sizeof(c->out), "%s", out);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -1;
		snprintf(c->out, sizeof(c->out), "%s/%s", cwd, out);
	}
	/* The cell directory becomes a QEMU option value and a 9p path. */
	if (strpbrk(c->out, "'\n")) {
		fprintf(stderr, "error: --out '%s': must not contain quotes or newlines\n", out);
		return -1;
	}
	return 0;
}

static int resolve(struct run_ctx *c, const struct run_opts *o)
{
	const char *q = getenv("HTAB_QEMU");

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->qemu = (char *)(q && *q ? q : "qemu-system-x86_64");
	if (repo_root(c->root, sizeof(c->root))) {
		fprintf(stderr, "error: cannot find the repository root from /proc/self/exe\n");
		return -1;
	}
	if (resolve_out(c) || resolve_kernel(c))
		return -1;
	if (resolve_module(c)) {
		if (!o->dry_run)
			return -1;
		fprintf(stderr, "(dry run: continuing without the module)\n");
	}
	if (resolve_scripts(c) || resolve_accel(c))
		return -1;
	snprintf(c->runner, sizeof(c->runner), "%s/vm-images/guest/run-job.sh", c->root);
	snprintf(c->initrd, sizeof(c->initrd), "%s/vm-images/out/initramfs-%s.cpio.gz",
		 c->root, c->release);
	return 0;
}

/* Repeats outermost: a slow drift of the host spreads over every configuration. */
typedef int (*cell_fn)(const struct run_ctx *c, struct cell *cell, json_t *cells);

static int for_each_cell(const struct run_ctx *c, cell_fn fn, json_t *cells)
{
	const struct run_opts *o = c->o;

	for (int r = 0; r < o->repeat; r++)
		for (size_t w = 0; w < o->workloads.n; w++)
			for (int v = 0; v < o->ncpus; v++) {
				struct cell cell;
				int err;

				if (harness_stop)
					return -1;
				if (cell_plan(c, o->cpus[v], o->workloads.v[w], r, &cell)) {
					cell_free(&cell);
					fprintf(stderr, "error: cannot plan cell (out of memory or path too long)\n");
					return -1;
				}
				err = fn(c, &cell, cells);
				cell_free(&cell);
				if (err)
					return err;
			}
	return 0;
}

static int print_argv(const struct run_ctx *c, struct cell *cell, json_t *cells)
{
	char *line = qemu_argv_join(&cell->argv);

	(void)c;
	(void)cells;
	if (!line)
		return -1;
	printf("%s\n", line);
	free(line);
	return 0;
}

static int run_one(const struct run_ctx *c, struct cell *cell, json_t *cells)
{
	struct boot_result br;
	json_t *j = cell_load_done(cell);

	if (j) {
		fprintf(stderr, "%s: finished before (%s), not rerun\n", cell->id,
			json_string_value(json_object_get(j, "verdict")));
		json_array_append_new(cells, j);
		return 0;
	}
	if (cell_write_job(c, cell))
		return -1;
	fprintf(stderr, "%s: booting (%s, %d vCPUs, timeout %d s, quiet %d s)\n", cell->id,
		accel_name(c->accel), cell->vcpus, cell->timeout_s, cell->quiet_s);
	if (cell_boot(cell, &br))
		return -1;
	if (br.interrupted) {
		fprintf(stderr, "%s: interrupted, QEMU killed; the cell will run again next time\n",
			cell->id);
		return -1;
	}
	j = cell_finish(c, cell, &br);
	if (!j)
		return -1;
	fprintf(stderr, "%s: %s%s%s (%.1f s)\n", cell->id,
		json_string_value(json_object_get(j, "verdict")),
		*json_string_value(json_object_get(j, "signature")) ? ": " : "",
		json_string_value(json_object_get(j, "signature")), br.wall_s);
	json_array_append_new(cells, j);
	return 0;
}

static int run_matrix(const struct run_ctx *c)
{
	json_t *cells = json_array();
	int err, rc;

	if (mkdir_p(c->out)) {
		fprintf(stderr, "error: --out %s: %s\n", c->out, strerror(errno));
		json_decref(cells);
		return 2;
	}
	if (ensure_initramfs(c->root, c->release, c->initrd)) {
		fprintf(stderr, "error: cannot build %s (vm-images/mkinitramfs.sh %s failed)\n",
			c->initrd, c->release);
		json_decref(cells);
		return 2;
	}
	install_stop_handlers();
	err = for_each_cell(c, run_one, cells);
	if (json_array_size(cells)) {
		summary_write(c->out, cells);
		summary_print(stdout, cells);
	}
	rc = harness_stop ? 128 + harness_stop : err ? 2 : summary_exit_code(cells);
	json_decref(cells);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct run_ctx c = { 0 };
	int rc;

	run_opts_init(&o);
	rc = run_opts_parse(&o, argc, argv);
	if (rc) {
		rc = rc == 1 ? 0 : 2;
		goto cleanup;
	}
	if (resolve(&c, &o)) {
		rc = 2;
		goto cleanup;
	}
	if (o.dry_run)
		rc = for_each_cell(&c, print_argv, NULL) ? 2 : 0;
	else
		rc = run_matrix(&c);
cleanup:
	strv_free(&c.bt_paths);
	run_opts_free(&o);
	return rc;
}
