/*
 * A guest that went silent past its budget, located before it is killed.
 * Over the boot's QMP monitor QEMU stops the guest ("stop": every vCPU
 * leaves its translated code with its registers written back; under TCG a
 * running vCPU's RIP is otherwise not kept up to date), each vCPU's
 * registers are read (HMP "info registers" per cpu-index), every
 * instruction pointer is symbolised with the kernel's System.map (checked
 * against the running kernel's linux_banner, KASLR offset found there) and
 * each kernel stack is scanned for text addresses (the kernel's "?"
 * frames: a hint, not an unwind). It needs nothing of the guest: a guest
 * spinning with interrupts off on every CPU answers as well as an idle one.
 *
 * CELL/hang.txt is the report (FORMAT.md, "hang.txt"): a header line the
 * console classifier titles (parse/console_scan.h, CK_HANG), a line per
 * vCPU, then QEMU's own register dumps.
 */
#ifndef HT_HANG_H
#define HT_HANG_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct kernel_res;
struct hang_ctx;

#define HANG_FILE "hang.txt"

/* What a cell's hang_ctx is about; the strings must outlive it. */
struct hang_in {
	const char *log_dir;		/* the boot's directory: qmp.in, qmp.out */
	const char *cell_dir;		/* where hang.txt goes */
	const struct kernel_res *k;	/* its System.map / vmlinux, release */
	int vcpus;
};

/* A cell's QMP session with its guest (opened on first use); NULL on no memory. */
struct hang_ctx *hang_open(const struct hang_in *in);
void hang_close(struct hang_ctx *h);

/*
 * Locates the guest's vCPUs and writes hang.txt; silent_s (host s since the
 * guest last grew a file) and why (the budget it went past, one line) go
 * into both. The cell.json "hang" object (FORMAT.md), never NULL: with
 * "error" when QEMU could not be asked (then no hang.txt). The guest is
 * left stopped: the caller kills it.
 */
json_t *hang_locate(struct hang_ctx *h, double silent_s, const char *why);

/*
 * A boot silent before its runner, looked at without ending it: whether it
 * has the TCG boot stall's shape (multi-threaded TCG on a host with fewer
 * cores than vCPUs; seen with bzImage, XZ and PVH boots of 6.1 at 16-96
 * vCPUs): most vCPUs at one instruction pointer with interrupts off
 * (44 of 48, the int3 entry of a text poke a vCPU ran stale code over), at
 * the same one twice 500 ms apart. A healthy boot has its vCPUs
 * idle or moving. True: the guest is left stopped and what describes
 * the pile ("44 of 48 vCPUs at 0x…"); false: it runs on, what says what
 * the looks saw or that QEMU did not answer (the budget still ends it).
 */
bool hang_boot_stalled(struct hang_ctx *h, char *what, size_t n);
#endif
