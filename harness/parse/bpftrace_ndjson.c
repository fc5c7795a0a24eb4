/* Reader for bpftrace 0.17 `-f json` NDJSON output (see bpftrace_ndjson.h). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/bpftrace_ndjson.h"
#include "lib/util.h"

void bt_output_init(struct bt_output *o)
{
	memset(o, 0, sizeof(*o));
	o->attached_probes = -1;
}

void bt_output_free(struct bt_output *o)
{
	for (size_t i = 0; i < o->nhists; i++)
		hist_free(&o->hists[i].h);
	free(o->hists);
	free(o->values);
	bt_output_init(o);
}

static void copy_str(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
}

static int add_value(struct bt_output *o, const char *name, const char *key, json_int_t v)
{
	struct bt_value *nv = realloc(o->values, (o->nvalues + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	o->values = nv;
	nv = &o->values[o->nvalues++];
	copy_str(nv->name, sizeof(nv->name), name);
	copy_str(nv->key, sizeof(nv->key), key);
	nv->value = v;
	return 0;
}

/* Scalars and keyed scalars; non-integer values (strings, stacks) are ignored. */
static int parse_map(struct bt_output *o, json_t *data, char *err, size_t errlen)
{
	const char *name, *key;
	json_t *v, *kv;

	json_object_foreach(data, name, v) {
		if (json_is_integer(v)) {
			if (add_value(o, name, "", json_integer_value(v)))
				return -1;
		} else if (json_is_object(v)) {
			json_object_foreach(v, key, kv) {
				if (json_is_integer(kv) &&
				    add_value(o, name, key, json_integer_value(kv)))
					return -1;
			}
		} else if (!json_is_string(v) && !json_is_real(v) && !json_is_array(v)) {
			snprintf(err, errlen, "map %s: unexpected value type", name);
			return -1;
		}
	}
	return 0;
}

/*
 * bpftrace buckets are inclusive {"min": a, "max": b}; ours are [a, b+1).
 * The first bucket may be {"max": -1} (negative values) or start at 0; the
 * last lhist bucket may have only "min".
 */
static int parse_buckets(struct bt_hist *bh, json_t *arr, char *err, size_t errlen)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e) {
		json_t *jmin = json_object_get(e, "min");
		json_t *jmax = json_object_get(e, "max");
		json_t *jcnt = json_object_get(e, "count");
		json_int_t lo, hi;

		if (!json_is_object(e) || !json_is_integer(jcnt) ||
		    (jmin && !json_is_integer(jmin)) || (jmax && !json_is_integer(jmax)) ||
		    (!jmin && !jmax) || json_integer_value(jcnt) < 0) {
			snprintf(err, errlen, "hist %s: bucket %zu needs integer count and min or max",
				 bh->name, i);
			return -1;
		}
		if (jmax && json_integer_value(jmax) < 0) {
			bh->negative += json_integer_value(jcnt);
			continue;
		}
		lo = jmin ? json_integer_value(jmin) : 0;
		if (lo < 0)
			lo = 0;
		hi = jmax ? json_integer_value(jmax) + 1 : (lo ? 2 * lo : 1);
		if (hist_add_bucket(&bh->h, (uint64_t)lo, (uint64_t)hi,
				    (uint64_t)json_integer_value(jcnt))) {
			snprintf(err, errlen, "hist %s: bucket %zu [%lld, %lld] out of order",
				 bh->name, i, (long long)lo, (long long)hi - 1);
			return -1;
		}
	}
	return 0;
}

static struct bt_hist *new_hist(struct bt_output *o, const char *name, const char *key)
{
	struct bt_hist *nh = realloc(o->hists, (o->nhists + 1) * sizeof(*nh));

	if (!nh)
		return NULL;
	o->hists = nh;
	nh = &o->hists[o->nhists++];
	memset(nh, 0, sizeof(*nh));
	copy_str(nh->name, sizeof(nh->name), name);
	copy_str(nh->key, sizeof(nh->key), key);
	hist_init(&nh->h);
	return nh;
}

static int parse_hist_one(struct bt_output *o, const char *name, const char *key,
			  json_t *arr, char *err, size_t errlen)
{
	struct bt_hist *bh;

	if (!json_is_array(arr)) {
		snprintf(err, errlen, "hist %s: expected an array of buckets", name);
		return -1;
	}
	bh = new_hist(o, name, key);
	if (!bh)
		return -1;
	if (parse_buckets(bh, arr, err, errlen)) {
		hist_free(&bh->h);
		o->nhists--;
		return -1;
	}
	return 0;
}

/* {"@ns": [buckets]} or, for a keyed map, {"@ns": {"key": [buckets]}}. */
static int parse_hist(struct bt_output *o, json_t *data, char *err, size_t errlen)
{
	const char *name, *key;
	json_t *v, *kv;

	json_object_foreach(data, name, v) {
		if (json_is_object(v)) {
			json_object_foreach(v, key, kv)
				if (parse_hist_one(o, name, key, kv, err, errlen))
					return -1;
		} else if (parse_hist_one(o, name, "", v, err, errlen)) {
			return -1;
		}
	}
	return 0;
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			return false;
	return true;
}

static int dispatch(struct bt_output *o, const char *type, json_t *data,
		    char *err, size_t errlen)
{
	if (!strcmp(type, "attached_probes")) {
		json_t *p = json_object_get(data, "probes");

		if (!json_is_integer(p)) {
			snprintf(err, errlen, "attached_probes without integer data.probes");
			return -1;
		}
		o->attached_probes = (int)json_integer_value(p);
		return 0;
	}
	if (!strcmp(type, "lost_events")) {
		json_t *n = json_object_get(data, "events");

		if (json_is_integer(n))
			o->lost_events += json_integer_value(n);
		return 0;
	}
	if (!strcmp(type, "map") || !strcmp(type, "hist")) {
		if (!json_is_object(data)) {
			snprintf(err, errlen, "%s: data must be an object", type);
			return -1;
		}
		return type[0] == 'm' ? parse_map(o, data, err, errlen)
				      : parse_hist(o, data, err, errlen);
	}
	/* printf, time, stats, join, syscall, …: not needed for the figures. */
	return 0;
}

int bt_parse_line(struct bt_output *o, const char *line, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root, *type, *data;
	int r = -1;

	if (blank(line))
		return 0;
	o->lines++;
	root = json_loads(line, 0, &jerr);
	if (!root) {
		snprintf(err, errlen, "not JSON: %s (column %d)", jerr.text, jerr.column);
		goto cleanup;
	}
	type = json_object_get(root, "type");
	data = json_object_get(root, "data");
	if (!json_is_object(root) || !json_is_string(type) || !data) {
		snprintf(err, errlen, "expected an object with \"type\" (string) and \"data\"");
		goto cleanup;
	}
	r = dispatch(o, json_string_value(type), data, err, errlen);
cleanup:
	json_decref(root);
	if (r)
		o->malformed++;
	return r;
}

int bt_parse_file(struct bt_output *o, const char *path)
{
	char *buf = read_file(path, NULL), *line;
	int lineno = 0;

	if (!buf)
		return -1;
	/* strsep, not strtok: line numbers in messages must match the file. */
	for (char *p = buf; (line = strsep(&p, "\n")) != NULL;) {
		char err[256];

		lineno++;
		if (bt_parse_line(o, line, err, sizeof(err)))
			fprintf(stderr, "warning: %s:%d: %s\n", path, lineno, err);
	}
	free(buf);
	return 0;
}

const struct bt_hist *bt_find_hist(const struct bt_output *o, const char *name)
{
	for (size_t i = o->nhists; i-- > 0;)
		if (!name || !strcmp(o->hists[i].name, name))
			return &o->hists[i];
	return NULL;
}
