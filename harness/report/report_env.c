/* The run's environment for the report: host, accelerator, kernels, parameters. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "report/report_env.h"
#include "lib/spawn.h"
#include "lib/util.h"

char *rep_sha256_file(const char *path)
{
	char *out = NULL, *sum = NULL;

	if (access(path, R_OK))
		return NULL;
	if (!spawn_run((char *[]){ "sha256sum", "--", (char *)path, NULL }, NULL, &out) &&
	    out && strlen(out) >= 64)
		sum = strndup(out, 64);
	free(out);
	return sum;
}

/* The image QEMU booted: the word after -kernel in qemu.argv. */
static char *image_from_argv(const char *dir)
{
	char path[4200], *text, *line, *save = NULL, *img = NULL;
	bool next = false;

	snprintf(path, sizeof(path), "%s/qemu.argv", dir);
	text = read_file(path, NULL);
	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line && !img; line = strtok_r(NULL, "\n", &save)) {
		if (next)
			img = strdup(line);
		next = !strcmp(line, "-kernel");
	}
	free(text);
	return img;
}

static const char *cell_str(const struct rep_cell *c, const char *key)
{
	const char *s = json_string_value(json_object_get(c->cell_json, key));
	json_t *k = json_object_get(c->cell_json, "kernel");

	if (!s && json_is_object(k)) {	/* "kernel": {"release": …, "image": …} */
		const char *sub = !strncmp(key, "kernel_", 7) ? key + 7 : key;

		s = json_string_value(json_object_get(k, sub));
	}
	return s;
}

static void set_if(json_t *o, const char *key, const char *v)
{
	if (v && *v && !json_string_value(json_object_get(o, key)))
		json_object_set_new(o, key, json_string(v));
}

static json_t *kernel_entry(json_t *kernels, const char *label)
{
	json_t *k;
	size_t i;

	json_array_foreach(kernels, i, k)
		if (!strcmp(json_string_value(json_object_get(k, "label")), label))
			return k;
	k = json_pack("{ss}", "label", label);
	json_array_append_new(kernels, k);
	return k;
}

static json_t *build_kernels(const struct rep_run *r)
{
	json_t *kernels = json_array();

	for (size_t i = 0; i < r->n; i++) {
		const struct rep_cell *c = &r->cells[i];
		json_t *k = kernel_entry(kernels, c->kernel);
		char *img = NULL;

		set_if(k, "name", cell_str(c, "kernel_name"));
		set_if(k, "line", cell_str(c, "kernel_line"));
		set_if(k, "release", cell_str(c, "kernel_release"));
		set_if(k, "release", json_string_value(json_object_get(c->module_json,
								       "kernel_release")));
		set_if(k, "image", cell_str(c, "kernel_image"));
		if (!json_object_get(k, "image") && c->dir && (img = image_from_argv(c->dir)))
			set_if(k, "image", img);
		free(img);
		if (cell_str(c, "kernel_sha256")) {
			set_if(k, "sha256", cell_str(c, "kernel_sha256"));
			set_if(k, "sha256_source", "recorded by the run");
		}
	}
	for (size_t i = 0; i < json_array_size(kernels); i++) {
		json_t *k = json_array_get(kernels, i);
		const char *img = json_string_value(json_object_get(k, "image"));
		char *sum;

		if (json_object_get(k, "sha256") || !img)
			continue;
		sum = rep_sha256_file(img);
		if (sum) {
			json_object_set_new(k, "sha256", json_string(sum));
			json_object_set_new(k, "sha256_source", json_string("computed by report now"));
		}
		free(sum);
	}
	return kernels;
}

static void add_value(json_t *params, const char *key, json_t *v)
{
	json_t *vals = json_object_get(params, key), *x;
	char *s = json_is_string(v) ? strdup(json_string_value(v)) : json_dumps(v, JSON_ENCODE_ANY);
	size_t i;

	if (!s)
		return;
	if (!vals) {
		vals = json_array();
		json_object_set_new(params, key, vals);
	}
	json_array_foreach(vals, i, x)
		if (!strcmp(json_string_value(x), s))
			break;
	if (i == json_array_size(vals))
		json_array_append_new(vals, json_string(s));
	free(s);
}

static void add_str(json_t *params, const char *key, const char *s)
{
	json_t *v = json_string(s ? s : "?");

	add_value(params, key, v);
	json_decref(v);
}

static json_t *build_params(const struct rep_run *r)
{
	json_t *params = json_object();

	for (size_t i = 0; i < r->n; i++) {
		const char *key;
		json_t *v;

		json_object_foreach(json_object_get(r->cells[i].module_json, "params"), key, v)
			add_value(params, key, v);
		add_str(params, "noise", r->cells[i].noise);
		add_str(params, "fault", r->cells[i].fault);
	}
	return params;
}

/* "hostname: x, cpus: 2" from {"hostname": "x", "cpus": 2}: one readable line. */
static json_t *host_line(json_t *h)
{
	char *buf = NULL, *s;
	size_t len = 0;
	FILE *f;
	const char *k;
	json_t *v;

	if (json_is_string(h))
		return json_incref(h);
	f = open_memstream(&buf, &len);
	if (!f)
		return json_string("?");
	json_object_foreach(h, k, v) {
		s = json_is_string(v) ? strdup(json_string_value(v)) : json_dumps(v, JSON_ENCODE_ANY);
		fprintf(f, "%s%s: %s", ftell(f) ? ", " : "", k, s ? s : "?");
		free(s);
	}
	fclose(f);
	v = json_string(buf ? buf : "?");
	free(buf);
	return v;
}

static json_t *build_host(const struct rep_run *r)
{
	json_t *h = json_object_get(r->summary, "host");

	for (size_t i = 0; !h && i < r->n; i++)
		h = json_object_get(r->cells[i].cell_json, "host");
	return h ? host_line(h) : json_string("not recorded by the run (see report_host)");
}

char *rep_env_join(json_t *values)
{
	size_t len = 1, i;
	json_t *v;
	char *out;

	json_array_foreach(values, i, v)
		len += strlen(json_string_value(v)) + 2;
	out = calloc(1, len);
	if (!out)
		return NULL;
	json_array_foreach(values, i, v) {
		if (i)
			strcat(out, ", ");
		strcat(out, json_string_value(v));
	}
	return out;
}

json_t *rep_env_build(const struct rep_run *r)
{
	json_t *env = json_object();
	struct utsname u;
	char when[64], host[300];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", localtime(&now));
	if (uname(&u) == 0)
		snprintf(host, sizeof(host), "%s (%s %s)", u.nodename, u.sysname, u.release);
	else
		snprintf(host, sizeof(host), "unknown");
	for (size_t i = 0; i < r->n; i++)
		add_str(env, "accels", r->cells[i].accel);
	if (!json_object_get(env, "accels"))
		json_object_set_new(env, "accels", json_array());
	json_object_set_new(env, "host", build_host(r));
	json_object_set_new(env, "report_host", json_string(host));
	json_object_set_new(env, "generated_at", json_string(when));
	json_object_set_new(env, "emulated", json_boolean(r->any_tcg));
	json_object_set_new(env, "kernels", build_kernels(r));
	json_object_set_new(env, "params", build_params(r));
	return env;
}
