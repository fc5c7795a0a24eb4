/*
 * Cell ids (FORMAT.md): formatted from a cell's axis values, and the fault
 * slug they carry.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

void axis_slug(enum axis_id a, const char *v, char *out, size_t n)
{
	if (a == AX_FAULT)
		fault_slug(v, out, n);
	else
		snprintf(out, n, "%s", axis_is_default(a, v) ? "" : v);
}

void cell_id_format(char *out, size_t n, const char *const ax[AX_NR], int repeat)
{
	size_t len = 0;
	bool first = true;

	out[0] = '\0';
	for (int a = 0; a < AX_NR; a++) {
		if (axes[a].in_id == AXID_SUFFIX)
			continue;
		size_t at = len;

		len += snprintf(out + len, len < n ? n - len : 0, "%s%.1s%s", first ? "" : "-",
				axes[a].in_id == AXID_PREFIX ? &axes[a].slug : "", ax[a] ? ax[a] : "");
		/* a kernel "6.12/fixed" is one directory: 6.12-fixed */
		for (char *p = out + at; at < n && (p = strchr(p, '/')); )
			*p = '-';
		first = false;
	}
	len += snprintf(out + len, len < n ? n - len : 0, "-r%d", repeat);
	for (int a = 0; a < AX_NR; a++) {
		char slug[FAULT_SLUG_MAX + 1];

		if (axes[a].in_id != AXID_SUFFIX || axis_is_default(a, ax[a]))
			continue;
		axis_slug(a, ax[a], slug, sizeof(slug));
		len += snprintf(out + len, len < n ? n - len : 0, "-%c%s", axes[a].slug, slug);
	}
}

/* Is the id's last '-' part (before end) r<digits>? */
static bool ends_in_repeat(const char *id, const char *end)
{
	const char *p = end;

	while (p > id && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p < end && p - id >= 2 && p[-1] == 'r' && p[-2] == '-';
}

static int suffix_axis(char slug)
{
	for (int a = 0; a < AX_NR; a++)
		if (axes[a].in_id == AXID_SUFFIX && axes[a].slug == slug)
			return a;
	return -1;
}

/*
 * Positional axes before the one that may hold dashes take a part each from
 * the left, those after it from the right; it keeps what is between (at
 * least one part). A missing trailing part leaves its axis unset.
 */
static int parse_positional(char *head, char *ax[AX_NR])
{
	char *parts[64];
	int np = 0, pos[AX_NR], npos = 0, dash = -1, lo, hi;

	for (char *t = strtok(head, "-"); t && np < 64; t = strtok(NULL, "-"))
		parts[np++] = t;
	for (int a = 0; a < AX_NR; a++)
		if (axes[a].in_id != AXID_SUFFIX) {
			if (axes[a].dashes)
				dash = npos;
			pos[npos++] = a;
		}
	if (dash < 0)
		dash = npos - 1;
	if (np < dash + 1)
		return -1;
	for (int i = 0; i < npos; i++)
		if (axes[pos[i]].in_id == AXID_PREFIX &&
		    (i >= np || parts[i][0] != axes[pos[i]].slug || !parts[i][1]))
			return -1;
	for (int i = 0; i < dash; i++)
		ax[pos[i]] = strdup(parts[i] + (axes[pos[i]].in_id == AXID_PREFIX));
	lo = dash;
	hi = np - 1;
	for (int i = npos - 1; i > dash && hi > lo; i--)
		ax[pos[i]] = strdup(parts[hi--]);
	{
		size_t len = 0;
		char *v;

		for (int i = lo; i <= hi; i++)
			len += strlen(parts[i]) + 1;
		v = calloc(1, len);
		for (int i = lo; v && i <= hi; i++) {
			if (i > lo)
				strcat(v, "-");
			strcat(v, parts[i]);
		}
		ax[pos[dash]] = v;
	}
	return 0;
}

int cell_id_parse(const char *id, char *ax[AX_NR], int *repeat)
{
	char *base = strdup(id), *end, *rr;
	char *suffix[AX_NR] = { 0 };
	int rc = -1;

	for (int a = 0; a < AX_NR; a++)
		ax[a] = NULL;
	if (!base)
		return -1;
	while (!ends_in_repeat(base, base + strlen(base))) {
		char *dash = strrchr(base, '-');
		int a;

		if (!dash)
			break;
		a = suffix_axis(dash[1]);
		if (a >= 0 && dash[2] && !suffix[a])
			suffix[a] = strdup(dash + 2);
		*dash = '\0';
	}
	rr = strrchr(base, '-');
	if (!rr || !ends_in_repeat(base, base + strlen(base)))
		goto cleanup;
	*repeat = (int)strtol(rr + 2, &end, 10);
	*rr = '\0';
	if (parse_positional(base, ax)) {
		for (int a = 0; a < AX_NR; a++) {
			free(ax[a]);
			ax[a] = NULL;
		}
		goto cleanup;
	}
	for (int a = 0; a < AX_NR; a++)
		if (suffix[a]) {
			ax[a] = suffix[a];
			suffix[a] = NULL;
		}
	rc = 0;
cleanup:
	for (int a = 0; a < AX_NR; a++)
		free(suffix[a]);
	free(base);
	return rc;
}
