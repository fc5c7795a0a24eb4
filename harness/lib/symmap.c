/* A kernel symbol table (see symmap.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/symmap.h"

static bool is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int symmap_parse(struct symmap *m, const char *text)
{
	size_t cap = 0;

	memset(m, 0, sizeof(*m));
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned long long addr;
		char type, name[256];

		/* "ffffffff81000000 T _text"; nm's "U name" lines (no address) do not parse. */
		if (sscanf(l, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (m->n == cap) {
			struct ksym *nv = realloc(m->v, (cap ? 2 * cap : 4096) * sizeof(*nv));

			if (!nv)
				goto nomem;
			m->v = nv;
			cap = cap ? 2 * cap : 4096;
		}
		m->v[m->n].addr = addr;
		m->v[m->n].type = type;
		m->v[m->n].name = strdup(name);
		if (!m->v[m->n].name)
			goto nomem;
		m->ntext += is_text(type);
		m->n++;
	}
	if (m->n)
		qsort(m->v, m->n, sizeof(*m->v), by_addr);
	m->stext = symmap_addr(m, "_stext");
	m->etext = symmap_addr(m, "_etext");
	m->sinittext = symmap_addr(m, "_sinittext");
	m->einittext = symmap_addr(m, "_einittext");
	return 0;
nomem:
	symmap_free(m);
	return -1;
}

void symmap_free(struct symmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

unsigned long long symmap_addr(const struct symmap *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			return m->v[i].addr;
	return 0;
}

/* Inside [a, b) when the map names both ends; *named says whether it does. */
static bool within(unsigned long long a, unsigned long long b, unsigned long long addr, bool *named)
{
	if (!a || !b)
		return false;
	*named = true;
	return addr >= a && addr < b;
}

bool symmap_lookup(const struct symmap *m, unsigned long long addr, const struct ksym **sym,
		   unsigned long long *off, unsigned long long *size)
{
	size_t lo = 0, hi = m->n, i;
	bool named = false;

	if (!m->ntext)
		return false;
	if (!within(m->stext, m->etext, addr, &named) &&
	    !within(m->sinittext, m->einittext, addr, &named) && named)
		return false;
	/* The last symbol at or below addr, then back to a text one. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false;
	for (i = lo - 1; !is_text(m->v[i].type); i--)
		if (!i)
			return false;
	*sym = &m->v[i];
	*off = addr - m->v[i].addr;
	/* Its size: up to the next symbol at a higher address (aliases share one). */
	*size = 0;
	for (size_t j = i + 1; j < m->n; j++)
		if (m->v[j].addr > m->v[i].addr) {
			*size = m->v[j].addr - m->v[i].addr;
			break;
		}
	return *size == 0 || *off < *size;
}

bool symmap_format(const struct symmap *m, unsigned long long addr, char *out, size_t n)
{
	const struct ksym *s;
	unsigned long long off, size;

	*out = '\0';
	if (!symmap_lookup(m, addr, &s, &off, &size))
		return false;
	snprintf(out, n, "%s+0x%llx/0x%llx", s->name, off, size);
	return true;
}
