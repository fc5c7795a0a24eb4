/* One cell of a loaded run (report, compare): module.json figures, histogram helpers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parse/module_json.h"
#include "rundir/run_load.h"

static int load_per_cpu(struct rep_cell *c, json_t *per_cpu)
{
	json_t *o;
	size_t i, n = json_array_size(per_cpu);
	double sum = 0;

	if (!n)
		return 0;
	c->cpus = calloc(n, sizeof(*c->cpus));
	if (!c->cpus)
		return -1;
	json_array_foreach(per_cpu, i, o) {
		struct rep_cpu *p = &c->cpus[c->ncpus++];

		p->cpu = (int)json_integer_value(json_object_get(o, "cpu"));
		p->ops = (uint64_t)json_integer_value(json_object_get(o, "ops"));
		p->ops_per_sec = json_number_value(json_object_get(o, "ops_per_sec"));
		sum += p->ops_per_sec;
	}
	c->evs_per_cpu = sum / (double)c->ncpus;
	return 0;
}

static int add_hist(struct rep_hist **v, size_t *n, const char *script,
		    const char *map, const char *key, const struct hist *h)
{
	struct rep_hist *nv = realloc(*v, (*n + 1) * sizeof(**v));
	struct rep_hist *rh;
	char name[256];

	if (!nv)
		return -1;
	*v = nv;
	rh = &nv[(*n)++];
	memset(rh, 0, sizeof(*rh));
	if (key && *key)
		snprintf(name, sizeof(name), "%s[%s]", map, key);
	else
		snprintf(name, sizeof(name), "%s", map);
	rh->name = strdup(name);
	rh->script = script ? strdup(script) : NULL;
	rh->map = script ? strdup(map) : NULL;
	rh->key = key && *key ? strdup(key) : NULL;
	return rep_hist_copy(&rh->h, h);
}

int rep_cell_add_hist(struct rep_cell *c, const char *script, const char *map,
		      const char *key, const struct hist *h)
{
	if (!script)
		return add_hist(&c->lat, &c->nlat, NULL, map, NULL, h);
	return add_hist(&c->bt, &c->nbt, script, map, key, h);
}

int rep_cell_load_module(struct rep_cell *c, json_t *root)
{
	struct module_result m;
	char err[256];
	int ret = -1;

	if (module_result_parse(&m, root, err, sizeof(err))) {
		free(c->module_note);
		c->module_note = strdup(err);
		module_result_free(&m);
		return 0;	/* shown as a partial cell, not fatal */
	}
	c->module_json = json_incref(root);
	c->has_module = true;
	c->module_result = strdup(m.result);
	c->ops = (double)m.ops;
	c->ops_per_sec = m.ops_per_sec;
	c->duration_s = (double)m.duration_ns / 1e9;
	c->e2big_not_full = m.e2big_not_full;
	if (load_per_cpu(c, json_object_get(root, "per_cpu")))
		goto cleanup;
	if (!c->ncpus && c->vcpus > 0 && c->ops_per_sec > 0)
		c->evs_per_cpu = c->ops_per_sec / c->vcpus;
	for (int i = 0; i < m.nlat; i++)
		if (rep_cell_add_hist(c, NULL, m.lat[i].op, NULL, &m.lat[i].h))
			goto cleanup;
	ret = 0;
cleanup:
	module_result_free(&m);
	return ret;
}

const struct rep_hist *rep_find_hist(const struct rep_hist *v, size_t n,
				     const char *script, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		if (script && (!v[i].script || strcmp(v[i].script, script)))
			continue;
		if (!strcmp(v[i].name, name))
			return &v[i];
	}
	return NULL;
}

const struct rep_hist *rep_cell_pop(const struct rep_cell *c)
{
	return rep_find_hist(c->bt, c->nbt, POP_SCRIPT, POP_MAP);
}

const char *rep_cell_title(const struct rep_cell *c)
{
	return c->signature ? c->signature : c->reason ? c->reason : "(no signature)";
}

bool rep_verdict_bad(const char *v)
{
	return v && (!strcmp(v, "CRASH") || !strcmp(v, "TIMEOUT"));
}

bool rep_cell_counts(const struct rep_cell *c)
{
	if (rep_verdict_bad(c->verdict) || (c->verdict && !strcmp(c->verdict, "SKIP")))
		return false;
	return c->has_module || c->has_bpftrace;
}

int rep_hist_copy(struct hist *dst, const struct hist *src)
{
	hist_init(dst);
	return rep_hist_merge(dst, src);
}

/* Union of two ascending bucket lists; equal [lo, hi) buckets add up. */
int rep_hist_merge(struct hist *dst, const struct hist *src)
{
	struct hist out;
	size_t i = 0, j = 0;
	int err = 0;

	hist_init(&out);
	while (!err && (i < dst->n || j < src->n)) {
		const struct hist_bucket *a = i < dst->n ? &dst->b[i] : NULL;
		const struct hist_bucket *b = j < src->n ? &src->b[j] : NULL;

		if (a && b && a->lo == b->lo && a->hi == b->hi) {
			err = hist_add_bucket(&out, a->lo, a->hi, a->count + b->count);
			i++, j++;
		} else if (a && (!b || a->lo < b->lo)) {
			err = hist_add_bucket(&out, a->lo, a->hi, a->count);
			i++;
		} else {
			err = hist_add_bucket(&out, b->lo, b->hi, b->count);
			j++;
		}
	}
	if (err) {
		hist_free(&out);
		return -1;	/* overlapping, differently-sized buckets */
	}
	/* exact min/max survive only if every non-empty side had them */
	out.has_minmax = out.count && (!dst->count || dst->has_minmax) &&
			 (!src->count || src->has_minmax);
	if (out.has_minmax) {
		const struct hist *only = dst->count ? (src->count ? NULL : dst) : src;

		out.min = only ? only->min : (dst->min < src->min ? dst->min : src->min);
		out.max = only ? only->max : (dst->max > src->max ? dst->max : src->max);
	}
	hist_free(dst);
	*dst = out;
	return 0;
}

int rep_hist_accumulate(struct rep_hist **v, size_t *n, const struct rep_hist *src)
{
	struct rep_hist *dst = (struct rep_hist *)rep_find_hist(*v, *n, src->script, src->name);
	struct rep_hist *nv;

	if (dst)
		return rep_hist_merge(&dst->h, &src->h);
	nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return -1;
	*v = nv;
	dst = &nv[(*n)++];
	memset(dst, 0, sizeof(*dst));
	dst->name = strdup(src->name);
	dst->script = src->script ? strdup(src->script) : NULL;
	dst->map = src->map ? strdup(src->map) : NULL;
	dst->key = src->key ? strdup(src->key) : NULL;
	return rep_hist_copy(&dst->h, &src->h);
}

void rep_hists_free(struct rep_hist *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].script);
		free(v[i].map);
		free(v[i].key);
		hist_free(&v[i].h);
	}
	free(v);
}

void rep_cell_free(struct rep_cell *c)
{
	free(c->id);
	free(c->dir);
	for (int a = 0; a < AX_NR; a++)
		free(c->ax[a]);
	free(c->accel);
	free(c->verdict);
	free(c->signature);
	free(c->reason);
	free(c->module_result);
	free(c->module_note);
	free(c->bt_note);
	free(c->cpus);
	rep_hists_free(c->lat, c->nlat);
	rep_hists_free(c->bt, c->nbt);
	json_decref(c->bt_scalars);
	json_decref(c->cell_json);
	json_decref(c->module_json);
	memset(c, 0, sizeof(*c));
}
