/*
 * A run directory's plan (its cells, in order) and manifest.json: built from
 * the plan, reconciled with an earlier one when a run resumes, written and
 * loaded (see manifest.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util.h"
#include "rundir/cell_id.h"
#include "rundir/manifest.h"

void plan_free(struct plan *p)
{
	free(p->cells);
	p->cells = NULL;
	p->n = 0;
	strv_free(&p->strings);
}

/* Suffix axes only when not at the default: manifests of runs without them stay as they were. */
static json_t *plan_cell_json(const struct plan_cell *c)
{
	json_t *j = json_pack("{s:I, s:s}", "index", (json_int_t)c->index, "id", c->id);

	for (int a = 0; a < AX_NR; a++)
		if (axes[a].in_id != AXID_SUFFIX)
			axis_to_json(a, j, c->ax[a]);
	json_object_set_new(j, "repeat", json_integer(c->repeat));
	for (int a = 0; a < AX_NR; a++)
		if (axes[a].in_id == AXID_SUFFIX && !axis_is_default(a, c->ax[a]))
			axis_to_json(a, j, c->ax[a]);
	return j;
}

json_t *manifest_build(const struct plan *p, json_t *params, int shard_i, int shard_n)
{
	json_t *cells = json_array();

	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(cells, plan_cell_json(&p->cells[i]));
	return json_pack("{s:i, s:O, s:o, s:o, s:o}", "version", 1, "params", params,
			 "shard", shard_n > 1 ? json_pack("{s:i, s:i}", "index", shard_i,
							  "count", shard_n) : json_null(),
			 "cells", cells, "runs", json_array());
}

/* The first key whose value differs, for the message. */
static const char *first_diff(json_t *a, json_t *b)
{
	const char *k;
	json_t *v;

	json_object_foreach(a, k, v)
		if (!json_equal(v, json_object_get(b, k)))
			return k;
	json_object_foreach(b, k, v)
		if (!json_object_get(a, k))
			return k;
	return "?";
}

static json_t *find_cell(json_t *cells, const char *id)
{
	size_t i;
	json_t *c;

	json_array_foreach(cells, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "id")) ?: "", id))
			return c;
	return NULL;
}

int manifest_reconcile(json_t *old, json_t *want, json_t **merged, char *err, size_t errlen)
{
	json_t *op = json_object_get(old, "params"), *wp = json_object_get(want, "params");
	json_t *cells, *c;
	size_t i;

	*merged = NULL;
	if (!json_equal(op, wp)) {
		const char *k = first_diff(op, wp);
		char *a = json_dumps(json_object_get(op, k), JSON_ENCODE_ANY | JSON_COMPACT);
		char *b = json_dumps(json_object_get(wp, k), JSON_ENCODE_ANY | JSON_COMPACT);

		snprintf(err, errlen, "the run there has %s %s, this command %s; use another --out",
			 k, a ? a : "(none)", b ? b : "(none)");
		free(a);
		free(b);
		return -1;
	}
	if (!json_equal(json_object_get(old, "shard"), json_object_get(want, "shard"))) {
		snprintf(err, errlen, "the run there is a different shard of the plan; use another --out");
		return -1;
	}
	*merged = json_deep_copy(old);
	cells = json_object_get(*merged, "cells");
	json_array_foreach(json_object_get(want, "cells"), i, c) {
		const char *id = json_string_value(json_object_get(c, "id"));

		if (!find_cell(cells, id)) {
			json_t *n = json_deep_copy(c);

			json_object_set_new(n, "index", json_integer((json_int_t)json_array_size(cells)));
			json_array_append_new(cells, n);
		}
	}
	if (!json_is_array(json_object_get(*merged, "runs")))
		json_object_set_new(*merged, "runs", json_array());
	return 0;
}

void manifest_add_run(json_t *m, int argc, char **argv)
{
	json_t *cmd = json_array();
	char when[64];
	time_t t = time(NULL);
	struct tm tm;

	for (int i = 0; i < argc; i++)
		json_array_append_new(cmd, json_string(argv[i]));
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S%z", localtime_r(&t, &tm));
	json_array_append_new(json_object_get(m, "runs"),
			      json_pack("{s:o, s:s}", "command", cmd, "started", when));
}

int manifest_write(const char *dir, json_t *m)
{
	char path[4096];
	char *dump = json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	int err;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	err = dump ? write_file_atomic(path, dump, strlen(dump)) : -1;
	free(dump);
	return err;
}

json_t *manifest_load(const char *dir, char *err, size_t errlen)
{
	char path[4096];
	json_error_t je;
	json_t *m;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (!file_exists(path)) {
		snprintf(err, errlen, "%s: no manifest.json (not a run directory)", dir);
		return NULL;
	}
	m = json_load_file(path, 0, &je);
	if (!m || !json_is_array(json_object_get(m, "cells"))) {
		snprintf(err, errlen, "%s: unreadable: %s", path, m ? "no cells" : je.text);
		json_decref(m);
		return NULL;
	}
	return m;
}
