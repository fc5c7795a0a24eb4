/* A cell's bpftrace/<script>.ndjson files, read with bpftrace_ndjson into the cell. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/bpftrace_ndjson.h"
#include "rundir/run_load.h"

static int keep_values(struct rep_cell *c, const char *script, const struct bt_output *o)
{
	json_t *s = json_object();

	if (!s)
		return -1;
	for (size_t i = 0; i < o->nvalues; i++) {
		const struct bt_value *v = &o->values[i];

		if (!v->key[0]) {
			json_object_set_new(s, v->name, json_integer(v->value));
		} else {
			json_t *m = json_object_get(s, v->name);

			if (!json_is_object(m)) {
				m = json_object();
				json_object_set_new(s, v->name, m);
			}
			json_object_set_new(m, v->key, json_integer(v->value));
		}
	}
	if (o->lost_events)
		json_object_set_new(s, "lost_events", json_integer((json_int_t)o->lost_events));
	json_object_set_new(c->bt_scalars, script, s);
	return 0;
}

__attribute__((format(printf, 2, 3)))
static void note(struct rep_cell *c, const char *fmt, ...)
{
	char buf[512], *joined;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!c->bt_note) {
		c->bt_note = strdup(buf);
	} else if (asprintf(&joined, "%s; %s", c->bt_note, buf) >= 0) {
		free(c->bt_note);
		c->bt_note = joined;
	}
}

static int load_one(struct rep_cell *c, const char *path, const char *script)
{
	struct bt_output o;
	int ret = 0;

	bt_output_init(&o);
	if (bt_parse_file(&o, path)) {
		note(c, "%s: unreadable", script);
		goto cleanup;
	}
	if (o.malformed)
		note(c, "%s: %d malformed lines", script, o.malformed);
	if (!o.nhists && !o.nvalues)
		note(c, "%s: no maps printed (stopped early?)", script);
	for (size_t i = 0; i < o.nhists && !ret; i++)
		ret = rep_cell_add_hist(c, script, o.hists[i].name, o.hists[i].key,
					&o.hists[i].h);
	if (!ret)
		ret = keep_values(c, script, &o);
	c->has_bpftrace = true;
cleanup:
	bt_output_free(&o);
	return ret;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_ndjson(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 7 && !strcmp(d->d_name + n - 7, ".ndjson");
}

int rep_cell_load_bpftrace(struct rep_cell *c)
{
	struct dirent **ents;
	char dir[4096];
	int n, ret = 0;

	if (!c->dir)
		return 0;
	snprintf(dir, sizeof(dir), "%s/bpftrace", c->dir);
	n = scandir(dir, &ents, is_ndjson, by_name);
	if (n < 0)
		return 0;	/* no bpftrace dir: the cell is shown without it */
	if (!c->bt_scalars)
		c->bt_scalars = json_object();
	for (int i = 0; i < n; i++) {
		char path[4600], script[256];

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		snprintf(script, sizeof(script), "%.*s",
			 (int)(strlen(ents[i]->d_name) - 7), ents[i]->d_name);
		if (!ret)
			ret = load_one(c, path, script);
		free(ents[i]);
	}
	free(ents);
	return ret;
}
