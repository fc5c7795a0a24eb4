/*
 * A kernel report decoded to file:line (issue 25): the excerpt cell.json
 * keeps, run through the kernel's own scripts/decode_stacktrace.sh with a
 * vmlinux that has DWARF line tables — a variant built with --debug-info
 * (vm-images/kernels/debug.config) or --btf, a --kernel-tree built with
 * debug info, or a distro kernel with linux-image-RELEASE-dbg installed
 * (`make debug-symbols`). The module's frames are decoded with its .ko.
 */
#ifndef HT_DECODE_H
#define HT_DECODE_H
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The kernel a report came from, as the caller knows it ("" when not). */
struct decode_kernel {
	const char *tree;		/* --kernel-tree DIR */
	const char *kdir;		/* the tree a variant was built in */
	const char *release;
	const char *line;		/* "6.1": whose source package has the script */
	const char *module;		/* the kit's .ko the guest loaded */
	const char *image;		/* what was booted (a variant's System.map is beside it) */
};

/*
 * A kernel's own symbol files, in the one order every reader searches them
 * (decoder_find here, the hang locator in run/guest/hang.c):
 * System.map beside its image, in its build tree, in its --kernel-tree,
 * then Debian's /boot/System.map-RELEASE; vmlinux in its --kernel-tree, in
 * its build tree, then linux-image-RELEASE-dbg's
 * /usr/lib/debug/boot/vmlinux-RELEASE. Paths only: whether a file is there
 * and usable is the reader's question. Returns how many (at most max).
 */
enum kernel_file { KF_SYSTEM_MAP, KF_VMLINUX };
#define KERNEL_FILES_MAX 4
int kernel_files(const struct decode_kernel *k, enum kernel_file kind,
		 char (*out)[PATH_MAX], int max);

/* The allocator's files: the first frame in one of them is a report's "where". */
#define DECODE_ALLOCATOR_FILES(X)						\
	X("kernel/bpf/percpu_freelist.c") X("kernel/bpf/percpu_freelist.h")	\
	X("kernel/bpf/hashtab.c") X("kernel/bpf/bpf_lru_list.c")		\
	X("kernel/bpf/bpf_lru_list.h") X("kernel/bpf/memalloc.c")

struct decoder {
	char vmlinux[PATH_MAX];		/* with .debug_line */
	char script[PATH_MAX];		/* decode_stacktrace.sh */
	char modpath[PATH_MAX];		/* the directory of the module's .ko */
	char basepath[PATH_MAX];	/* cut from locations: the tree, else "auto" */
};

/*
 * The vmlinux with line tables for k (its tree's, else
 * /usr/lib/debug/boot/vmlinux-RELEASE) and a decode_stacktrace.sh (the
 * tree's, else the one vm-images/decode-script.sh takes from the line's
 * source package). -1 with why (what to install or build) when there is
 * none.
 */
int decoder_find(const char *root, const struct decode_kernel *k, struct decoder *d,
		 char *why, size_t wn);

/*
 * For a vmlinux named by path (scan --vmlinux): the script of the tree it
 * is in, else the default line's; modpath may be NULL.
 */
int decoder_for_vmlinux(const char *root, const char *vmlinux, const char *modpath,
			struct decoder *d, char *why, size_t wn);

/* The excerpt decoded (malloc'd), or NULL with why. */
char *decoder_run(const struct decoder *d, const char *excerpt, char *why, size_t wn);

/* One decoded frame: "func (file:line ...)" with its first location. */
struct decoded_frame {
	char func[128];
	char file[256];
	int line;
	bool unreliable;		/* a "? func" frame: a stale address on the stack */
};

/*
 * The first frame of a decoded excerpt (RIP line, then the call trace,
 * unreliable "?" frames skipped) whose location — the innermost of an
 * inline chain included — is one of DECODE_ALLOCATOR_FILES; false when
 * none is.
 */
bool decode_allocator_frame(const char *decoded, struct decoded_frame *f);

/*
 * For a located hang (run/guest/hang.h's vCPU lines decoded): as
 * decode_allocator_frame, else the first "? func" frame in the allocator's
 * files (f->unreliable): a CPU spinning in a lock's slow path has its
 * caller only on its stack.
 */
bool decode_hang_frame(const char *decoded, struct decoded_frame *f);
#endif
