/* bpftrace-style text histograms for report.txt (pasteable into an email). */
#include <string.h>

#include "lib/util.h"
#include "report/report_hist_text.h"

#define BAR 52

static void human(char *buf, size_t n, uint64_t v)
{
	static const char suffix[] = "KMGTPE";
	int i = -1;

	while (v && v % 1024 == 0 && i < 5) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, n, "%llu", (unsigned long long)v);
	else
		snprintf(buf, n, "%llu%c", (unsigned long long)v, suffix[i]);
}

void rep_bucket_label(char *buf, size_t n, uint64_t lo, uint64_t hi)
{
	char a[32], b[32];

	human(a, sizeof(a), lo);
	if (hi == lo + 1) {
		snprintf(buf, n, "[%s]", a);
		return;
	}
	human(b, sizeof(b), hi);
	/* a display label; human() gives at most 21 bytes, so no cut in practice */
	fmt_cut(buf, n, "[%s, %s)", a, b);
}

static void row(FILE *f, uint64_t lo, uint64_t hi, uint64_t count, uint64_t top)
{
	char label[64], bar[BAR + 1];
	int w = top ? (int)(count * BAR / top) : 0;

	rep_bucket_label(label, sizeof(label), lo, hi);
	memset(bar, '@', (size_t)w);
	bar[w] = '\0';
	fprintf(f, "%-16s %8llu |%-*s|\n", label, (unsigned long long)count, BAR, bar);
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

void rep_hist_draw(FILE *f, const char *title, const struct hist *h)
{
	size_t first = h->n, last = 0;
	uint64_t top = 0;

	fprintf(f, "%s:\n", title);
	for (size_t i = 0; i < h->n; i++) {
		if (!h->b[i].count)
			continue;
		if (first == h->n)
			first = i;
		last = i;
		if (h->b[i].count > top)
			top = h->b[i].count;
	}
	if (first == h->n) {
		fputs("(empty)\n\n", f);
		return;
	}
	for (size_t i = first; i <= last; i++) {
		row(f, h->b[i].lo, h->b[i].hi, h->b[i].count, top);
		/* the module lists non-empty buckets only; bpftrace shows the gaps */
		if (i < last && is_pow2(h->b[i].hi) && is_pow2(h->b[i + 1].lo))
			for (uint64_t lo = h->b[i].hi; lo < h->b[i + 1].lo; lo *= 2)
				row(f, lo, lo * 2, 0, top);
	}
	fputc('\n', f);
}
