/*
 * Cell ids (FORMAT.md): formatted from a cell's axis values, and the fault
 * slug they carry.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rundir/cell_id.h"

void fault_slug(const char *spec, char *out, size_t n)
{
	size_t len = 0, max = n - 1 < FAULT_SLUG_MAX ? n - 1 : FAULT_SLUG_MAX;
	uint32_t h = 2166136261u;

	if (!n)
		return;
	out[0] = '\0';
	if (fault_is_none(spec))
		return;
	for (const char *p = spec; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	if (strlen(spec) <= max) {
		for (const char *p = spec; *p; p++)
			out[len++] = isalnum((unsigned char)*p) || *p == '_' ? *p : '_';
		out[len] = '\0';
		return;
	}
	for (const char *p = spec; *p && len < max - 9; p++)
		out[len++] = isalnum((unsigned char)*p) || *p == '_' ? *p : '_';
	snprintf(out + len, n - len, "_%08x", h);
}

void cell_id_format(char *out, size_t n, int vcpus, const char *workload, const char *kernel,
		    const char *noise, int repeat, const char *fault, const char *test_action)
{
	char slug[FAULT_SLUG_MAX + 1];

	fault_slug(fault, slug, sizeof(slug));
	snprintf(out, n, "v%d-%s-%s-%s-r%d%s%s%s%s", vcpus, workload, kernel, noise, repeat,
		 slug[0] ? "-f" : "", slug, test_action ? "-x" : "", test_action ? test_action : "");
}
