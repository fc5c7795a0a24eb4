/* Kernel reports decoded to file:line (see decode.h). */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/spawn.h"
#include "lib/util.h"
#include "lib/decode.h"

#define DECODE_FILE(f) f,
static const char *const allocator_files[] = { DECODE_ALLOCATOR_FILES(DECODE_FILE) NULL };
#undef DECODE_FILE

/* Does the ELF file at path have DWARF line tables (readelf, as the script checks)? */
static bool has_line_tables(const char *path)
{
	char *argv[] = { "readelf", "-S", "-W", (char *)path, NULL };
	struct spawn_opts o = { .null_stdin = true, .die_with_parent = true };
	char *out = NULL;
	bool yes;

	if (!file_exists(path) || spawn_run(argv, &o, &out)) {
		free(out);
		return false;
	}
	yes = out && strstr(out, " .debug_line ");
	free(out);
	return yes;
}

/* dst = a b; -1 with why (naming the path's start) when it does not fit. */
static int set_path(char *dst, size_t n, const char *a, const char *b, char *why, size_t wn)
{
	return pathf_err(why, wn, dst, n, "%s%s", a, b);
}

/* What a vm-images/ tool printed on its first line, into out; -1 with why. */
static int tool_line(const char *root, const char *tool, const char *arg1, const char *arg2,
		     const char *what, char *out, size_t n, char *why, size_t wn)
{
	char path[PATH_MAX], *text = NULL;
	struct spawn_opts o = { .null_stdin = true, .die_with_parent = true };
	int rc;

	if (set_path(path, sizeof(path), root, tool, why, wn))
		return -1;
	rc = spawn_run((char *[]){ path, (char *)arg1, (char *)arg2, NULL }, &o, &text);
	if (rc || !text || !*text) {
		fmt_cut(why, wn, "no %s (%s %s: exit %d)", what, tool + 1, arg1, rc);
		free(text);
		return -1;
	}
	text[strcspn(text, "\n")] = '\0';
	rc = set_path(out, n, text, "", why, wn);
	free(text);
	return rc;
}

/* The line's decode_stacktrace.sh, taken from its source package once (a shell file's job). */
static int line_script(const char *root, const char *line, char *out, size_t n,
		       char *why, size_t wn)
{
	return tool_line(root, "/vm-images/decode-script.sh", line, NULL, "decode_stacktrace.sh",
			 out, n, why, wn);
}

/* The script of the tree vmlinux was built in, when it is there. */
static void tree_script(const char *tree, char *out, size_t n)
{
	char path[PATH_MAX], why[64];

	if (!set_path(path, sizeof(path), tree,
		      "/scripts/decode_stacktrace.sh", why, sizeof(why)) && file_exists(path))
		snprintf(out, n, "%s", path);
}

int decoder_for_vmlinux(const char *root, const char *vmlinux, const char *modpath,
			struct decoder *d, char *why, size_t wn)
{
	char dir[PATH_MAX], line[64];

	memset(d, 0, sizeof(*d));
	if (!has_line_tables(vmlinux)) {
		fmt_cut(why, wn, "%s: not an ELF file with DWARF line tables (.debug_line)", vmlinux);
		return -1;
	}
	snprintf(d->vmlinux, sizeof(d->vmlinux), "%s", vmlinux);
	snprintf(d->modpath, sizeof(d->modpath), "%s", modpath ? modpath : "");
	snprintf(dir, sizeof(dir), "%s", vmlinux);
	tree_script(dirname(dir), d->script, sizeof(d->script));
	if (*d->script) {
		snprintf(d->basepath, sizeof(d->basepath), "%s", dir);
		return 0;
	}
	if (tool_line(root, "/vm-images/kernel-lines.sh", "line", "distro", "default kernel line",
		      line, sizeof(line), why, wn))
		return -1;
	return line_script(root, line, d->script, sizeof(d->script), why, wn);
}

static int add_path(char (*out)[PATH_MAX], int n, int max, const char *a, const char *b)
{
	if (n >= max || !a || !*a)
		return n;
	return snprintf(out[n], PATH_MAX, "%s%s", a, b) < PATH_MAX ? n + 1 : n;
}

int kernel_files(const struct decode_kernel *k, enum kernel_file kind,
		 char (*out)[PATH_MAX], int max)
{
	int n = 0;

	if (kind == KF_SYSTEM_MAP) {
		if (k->image && *k->image) {
			char img[PATH_MAX];

			snprintf(img, sizeof(img), "%s", k->image);
			n = add_path(out, n, max, dirname(img), "/System.map");
		}
		n = add_path(out, n, max, k->kdir, "/System.map");
		n = add_path(out, n, max, k->tree, "/System.map");
		return add_path(out, n, max, "/boot/System.map-", k->release);
	}
	n = add_path(out, n, max, k->tree, "/vmlinux");
	n = add_path(out, n, max, k->kdir, "/vmlinux");
	return add_path(out, n, max, "/usr/lib/debug/boot/vmlinux-", k->release);
}

int decoder_find(const char *root, const struct decode_kernel *k, struct decoder *d,
		 char *why, size_t wn)
{
	char paths[KERNEL_FILES_MAX][PATH_MAX], mod[PATH_MAX];
	int n = kernel_files(k, KF_VMLINUX, paths, KERNEL_FILES_MAX), i;
	const char *dbg = "/usr/lib/debug/";

	memset(d, 0, sizeof(*d));
	*why = '\0';
	for (i = 0; i < n && !has_line_tables(paths[i]); i++)
		;
	if (i == n) {
		if ((k->kdir && *k->kdir) || (k->tree && *k->tree))
			fmt_cut(why, wn, "%s/vmlinux has no line tables (build the variant with "
				 "--debug-info, or the tree with CONFIG_DEBUG_INFO)",
				 k->tree && *k->tree ? k->tree : k->kdir);
		else
			fmt_cut(why, wn, "no debug symbols for %s (make debug-symbols installs "
				 "linux-image-%s-dbg)", k->release, k->release);
		return -1;
	}
	snprintf(d->vmlinux, sizeof(d->vmlinux), "%s", paths[i]);
	if (strncmp(paths[i], dbg, strlen(dbg))) {
		/* in a tree: its script, and its files' paths cut from the locations
		 * (a seeded tree's own files; the seed's keep its path, "auto" finds that one) */
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s", paths[i]);
		snprintf(d->basepath, sizeof(d->basepath), "%s", dirname(dir));
		tree_script(d->basepath, d->script, sizeof(d->script));
	}
	if (!*d->script && line_script(root, k->line, d->script, sizeof(d->script), why, wn))
		return -1;
	snprintf(mod, sizeof(mod), "%s", k->module ? k->module : "");
	if (*mod)
		snprintf(d->modpath, sizeof(d->modpath), "%s", dirname(mod));
	return 0;
}

char *decoder_run(const struct decoder *d, const char *excerpt, char *why, size_t wn)
{
	char in[] = "/tmp/htab-decode-XXXXXX", *out = NULL;
	size_t len = strlen(excerpt);
	int fd = mkstemp(in), rc;

	if (fd < 0 || write(fd, excerpt, len) != (ssize_t)len) {
		fmt_cut(why, wn, "cannot write the excerpt to %s: %s", in, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(in);
		}
		return NULL;
	}
	close(fd);
	{
		char *argv[] = { "bash", (char *)d->script, (char *)d->vmlinux,
				 *d->basepath ? (char *)d->basepath : "auto",
				 (char *)d->modpath, NULL };
		struct spawn_opts o = { .in = in, .die_with_parent = true };

		if (!*d->modpath)
			argv[4] = NULL;
		rc = spawn_run(argv, &o, &out);
	}
	unlink(in);
	if (rc || !out) {
		fmt_cut(why, wn, "%s exit %d", d->script, rc);
		free(out);
		return NULL;
	}
	return out;
}

/* The allocator file that path ends with (after a '/' or whole), or NULL. */
static const char *allocator_file(const char *path, size_t len)
{
	for (const char *const *f = allocator_files; *f; f++) {
		size_t fl = strlen(*f);

		if (len >= fl && !strncmp(path + len - fl, *f, fl) &&
		    (len == fl || path[len - fl - 1] == '/'))
			return *f;
	}
	return NULL;
}

/*
 * One decoded line: "... [?] [SEG:]func (loc loc ...)" where each loc is
 * FILE:LINE, maybe followed by "(discriminator N)". The frame when one of
 * its locations is the allocator's.
 */
static bool frame_of_line(const char *l, bool unreliable_ok, struct decoded_frame *fr)
{
	bool unreliable;
	const char *open = strstr(l, " ("), *p, *name;
	size_t nlen;

	if (!open || open == l)
		return false;
	for (name = open; name > l && !isspace((unsigned char)name[-1]); name--)
		;
	/* "RIP: 0010:func": the segment before the name */
	for (p = name; p < open; p++)
		if (*p == ':')
			name = p + 1;
	nlen = (size_t)(open - name);
	if (!nlen || nlen >= sizeof(fr->func))
		return false;
	/* "? func": an unreliable frame, a stale return address on the stack */
	for (p = name; p > l && isspace((unsigned char)p[-1]); p--)
		;
	unreliable = p > l && p[-1] == '?';
	if (unreliable && !unreliable_ok)
		return false;
	for (p = open + 2; *p && *p != '\n';) {
		const char *tok = p, *colon;
		size_t tl = strcspn(tok, " )\n");
		const char *f;

		p += tl;
		while (*p == ' ' || *p == ')')
			p++;
		colon = memchr(tok, ':', tl);
		if (!colon || !isdigit((unsigned char)colon[1]))
			continue;
		f = allocator_file(tok, (size_t)(colon - tok));
		if (!f)
			continue;
		snprintf(fr->func, sizeof(fr->func), "%.*s", (int)nlen, name);
		snprintf(fr->file, sizeof(fr->file), "%s", f);
		fr->line = atoi(colon + 1);
		fr->unreliable = unreliable;
		return true;
	}
	return false;
}

static bool first_frame(const char *decoded, bool unreliable_ok, struct decoded_frame *f)
{
	for (const char *l = decoded; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
		if (frame_of_line(line, unreliable_ok, f))
			return true;
	}
	memset(f, 0, sizeof(*f));
	return false;
}

bool decode_allocator_frame(const char *decoded, struct decoded_frame *f)
{
	return first_frame(decoded, false, f);
}

bool decode_hang_frame(const char *decoded, struct decoded_frame *f)
{
	return first_frame(decoded, false, f) || first_frame(decoded, true, f);
}
