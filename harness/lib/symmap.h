/*
 * A kernel's symbol table as System.map (or `nm -n vmlinux`) prints it,
 * "ADDRESS TYPE NAME" a line, and addresses looked up in it the way the
 * kernel's own %pS prints them: "func+0xOFF/0xSIZE".
 */
#ifndef HT_SYMMAP_H
#define HT_SYMMAP_H
#include <stdbool.h>
#include <stddef.h>

struct ksym {
	unsigned long long addr;
	char type;		/* nm's letter: t/T text, d/D/r/R/b/B data, … */
	char *name;
};

struct symmap {
	struct ksym *v;		/* sorted by address */
	size_t n;
	size_t ntext;		/* how many are text (t, T, w, W) */
	/* The kernel's text, where the map names it (0: not named). */
	unsigned long long stext, etext, sinittext, einittext;
};

/* Parses text; 0 with the symbols in m (maybe none), -1 on no memory. */
int symmap_parse(struct symmap *m, const char *text);
void symmap_free(struct symmap *m);
/* The address of the symbol named name, of any type; 0 when there is none. */
unsigned long long symmap_addr(const struct symmap *m, const char *name);
/*
 * The text symbol addr is in: true with *sym, *off (addr - its address) and
 * *size (the next symbol's address - its address), as the kernel's
 * kallsyms does. False outside the kernel's text (_stext.._etext and
 * _sinittext.._einittext where the map has them): module addresses,
 * user space, data.
 */
bool symmap_lookup(const struct symmap *m, unsigned long long addr, const struct ksym **sym,
		   unsigned long long *off, unsigned long long *size);
/* "func+0x4d/0x1a0" into out; false (out "") where symmap_lookup is. */
bool symmap_format(const struct symmap *m, unsigned long long addr, char *out, size_t n);
#endif
