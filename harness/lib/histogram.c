/* Latency histograms: buckets, percentiles by interpolation, a text printer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/histogram.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_free(struct hist *h)
{
	free(h->b);
	hist_init(h);
}

int hist_add_bucket(struct hist *h, uint64_t lo, uint64_t hi, uint64_t count)
{
	if (hi <= lo)
		return -1;
	if (h->n && lo < h->b[h->n - 1].hi)
		return -1;	/* buckets must ascend without overlap */
	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 32;
		struct hist_bucket *b = realloc(h->b, cap * sizeof(*b));

		if (!b)
			return -1;
		h->b = b;
		h->cap = cap;
	}
	h->b[h->n++] = (struct hist_bucket){ lo, hi, count };
	h->count += count;
	return 0;
}

double hist_percentile(const struct hist *h, double p)
{
	double rank, cum = 0, v = NAN;

	if (!h->count)
		return NAN;
	if (p < 0)
		p = 0;
	if (p > 100)
		p = 100;
	rank = p / 100.0 * (double)h->count;
	for (size_t i = 0; i < h->n; i++) {
		const struct hist_bucket *b = &h->b[i];

		if (!b->count)
			continue;
		if (cum + (double)b->count >= rank) {
			double frac = (rank - cum) / (double)b->count;

			v = (double)b->lo + frac * (double)(b->hi - b->lo);
			break;
		}
		cum += (double)b->count;
	}
	if (h->has_minmax) {
		if (v > (double)h->max)
			v = (double)h->max;
		if (v < (double)h->min)
			v = (double)h->min;
	}
	return v;
}

void hist_summarize(const struct hist *h, struct hist_stats *s)
{
	s->count = h->count;
	s->p50 = hist_percentile(h, 50);
	s->p90 = hist_percentile(h, 90);
	s->p99 = hist_percentile(h, 99);
	s->max = NAN;
	if (h->has_minmax && h->count) {
		s->max = (double)h->max;
		return;
	}
	for (size_t i = h->n; i-- > 0;) {
		if (h->b[i].count) {
			s->max = (double)(h->b[i].hi - 1);
			break;
		}
	}
}

void hist_print(FILE *f, const struct hist *h, const char *unit)
{
	uint64_t top = 0;
	const int width = 40;

	for (size_t i = 0; i < h->n; i++)
		if (h->b[i].count > top)
			top = h->b[i].count;
	fprintf(f, "%20s : count    distribution\n", unit);
	for (size_t i = 0; i < h->n; i++) {
		int stars = top ? (int)(h->b[i].count * width / top) : 0;

		fprintf(f, "%10llu -> %-10llu : %-8llu |%-*.*s|\n",
			(unsigned long long)h->b[i].lo,
			(unsigned long long)(h->b[i].hi - 1),
			(unsigned long long)h->b[i].count, width, stars,
			"****************************************");
	}
}
