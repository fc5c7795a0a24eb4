/*
 * report.junit.xml: the run as JUnit XML, the format the test views of
 * GitLab, GitHub actions and Jenkins read. One <testsuite> (the run), one
 * <testcase> per cell; FAIL is a <failure>, CRASH and TIMEOUT (and a cell
 * never finished) an <error>, SKIP <skipped>. Written with libxml2's
 * xmlwriter, which does the escaping; what it cannot escape (control
 * characters, bytes that are not UTF-8, both seen on serial consoles) is
 * replaced first (rep_text_safe), so the file always parses.
 */
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "report/report_out.h"
#include "lib/util.h"

struct jw {
	xmlTextWriterPtr w;
	bool err;
};

static void start(struct jw *j, const char *el)
{
	if (!j->err && xmlTextWriterStartElement(j->w, BAD_CAST el) < 0)
		j->err = true;
}

static void end(struct jw *j)
{
	if (!j->err && xmlTextWriterEndElement(j->w) < 0)
		j->err = true;
}

static void attr(struct jw *j, const char *name, const char *value)
{
	char *v = rep_text_safe(value ? value : "");

	if (!v || (!j->err && xmlTextWriterWriteAttribute(j->w, BAD_CAST name, BAD_CAST v) < 0))
		j->err = true;
	free(v);
}

static void __attribute__((format(printf, 3, 4)))
attrf(struct jw *j, const char *name, const char *fmt, ...)
{
	char *v;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&v, fmt, ap);
	va_end(ap);
	if (n < 0) {
		j->err = true;
		return;
	}
	attr(j, name, v);
	free(v);
}

static void text(struct jw *j, const char *s)
{
	char *v = rep_text_safe(s ? s : "");

	if (!v || (!j->err && xmlTextWriterWriteString(j->w, BAD_CAST v) < 0))
		j->err = true;
	free(v);
}

static void property(struct jw *j, const char *name, const char *value)
{
	if (!value || !*value)
		return;
	start(j, "property");
	attr(j, "name", name);
	attr(j, "value", value);
	end(j);
}

/* The cell's wall time on the host (cell.json timings.wall_s); NAN unknown. */
static double wall_s(const struct rep_cell *c)
{
	json_t *t = json_object_get(json_object_get(c->cell_json ? c->cell_json : c->summary_cell,
						    "timings"), "wall_s");

	return json_is_number(t) ? json_number_value(t) : NAN;
}

/* cell.json's host.hostname, the first cell that recorded one. */
static const char *hostname(const struct rep_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		json_t *h = json_object_get(r->cells[i].cell_json, "host");
		const char *s = json_string_value(json_object_get(h, "hostname"));

		if (s)
			return s;
	}
	return NULL;
}

/* The strings of a JSON array joined with ", ", each with suffix(v) after it (malloc'd). */
static char *join(json_t *a, const char *(*suffix)(const char *))
{
	char *out = NULL;
	size_t len = 0, i;
	json_t *v;
	FILE *f;

	if (!json_array_size(a) || !(f = open_memstream(&out, &len)))
		return NULL;
	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v) ? json_string_value(v) : "?";

		fprintf(f, "%s%s%s", i ? ", " : "", s, suffix ? suffix(s) : "");
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

static const char *emulated(const char *accel)
{
	return !strcmp(accel, "tcg") ? " (emulated)" : "";
}

/*
 * accel ("tcg (emulated)", "kvm"), emulated, host, the kernels' labels and
 * per kernel kernel.LABEL.name, .line, .release where the cells have them.
 */
static void properties(struct jw *j, const struct rep_run *r, json_t *env)
{
	json_t *kernels = json_object_get(env, "kernels"), *labels = json_array(), *k;
	char key[300], *s;
	size_t i;

	start(j, "properties");
	s = join(json_object_get(env, "accels"), emulated);
	property(j, "accel", s);
	free(s);
	property(j, "emulated", r->any_tcg ? "true" : "false");
	property(j, "host", json_string_value(json_object_get(env, "host")));
	json_array_foreach(kernels, i, k)
		json_array_append(labels, json_object_get(k, "label"));
	s = join(labels, NULL);
	property(j, "kernels", s);
	free(s);
	json_decref(labels);
	json_array_foreach(kernels, i, k) {
		static const char *const keys[] = { "name", "line", "release" };
		const char *label = json_string_value(json_object_get(k, "label"));

		for (size_t n = 0; n < sizeof(keys) / sizeof(keys[0]); n++) {
			snprintf(key, sizeof(key), "kernel.%s.%s", label, keys[n]);
			property(j, key, json_string_value(json_object_get(k, keys[n])));
		}
	}
	end(j);
}

static void testcase(struct jw *j, const struct rep_cell *c)
{
	enum rep_outcome o = rep_cell_outcome(c);
	double t = wall_s(c);
	char *body = NULL, *notes = NULL;

	start(j, "testcase");
	attr(j, "name", c->id);
	attrf(j, "classname", "htab-torture.%s", c->workload ? c->workload : "unknown");
	if (!isnan(t))
		attrf(j, "time", "%.3f", t);
	switch (o) {
	case REP_PASSED:
		break;
	case REP_SKIPPED:
		start(j, "skipped");
		attr(j, "message", rep_cell_title(c));
		end(j);
		break;
	case REP_FAILED:
		start(j, "failure");
		attr(j, "message", rep_cell_title(c));
		attr(j, "type", c->verdict);
		body = rep_problem_excerpt(c);
		text(j, body);
		end(j);
		break;
	case REP_ERROR:
		start(j, "error");
		if (!strcmp(c->verdict, "INCOMPLETE")) {
			notes = rep_cell_notes(c);
			attr(j, "message", notes ? notes : "the harness never finished this cell");
		} else {
			attr(j, "message", rep_cell_title(c));
			body = rep_problem_excerpt(c);
		}
		attr(j, "type", c->verdict);
		if (body)
			text(j, body);
		end(j);
		break;
	}
	end(j);
	free(body);
	free(notes);
}

/* The run's totals, which <testsuites> and its one <testsuite> both carry. */
struct totals {
	size_t tests, count[4];	/* by enum rep_outcome */
	double time;
	bool timed;		/* some cell has a wall time */
};

static void open_counted(struct jw *j, const char *el, const char *name, const struct totals *t)
{
	start(j, el);
	attr(j, "name", name);
	attrf(j, "tests", "%zu", t->tests);
	attrf(j, "failures", "%zu", t->count[REP_FAILED]);
	attrf(j, "errors", "%zu", t->count[REP_ERROR]);
	attrf(j, "skipped", "%zu", t->count[REP_SKIPPED]);
	if (t->timed)
		attrf(j, "time", "%.3f", t->time);
}

static void testsuite(struct jw *j, const struct rep_run *r, json_t *env)
{
	struct totals t = { .tests = r->n };
	char path[PATH_MAX];

	for (size_t i = 0; i < r->n; i++) {
		double s = wall_s(&r->cells[i]);

		t.count[rep_cell_outcome(&r->cells[i])]++;
		if (!isnan(s)) {
			t.time += s;
			t.timed = true;
		}
	}
	if (!realpath(r->dir, path))
		snprintf(path, sizeof(path), "%s", r->dir);
	open_counted(j, "testsuites", "htab-torture", &t);
	open_counted(j, "testsuite", basename(path), &t);
	if (hostname(r))
		attr(j, "hostname", hostname(r));
	properties(j, r, env);
	for (size_t i = 0; i < r->n; i++)
		testcase(j, &r->cells[i]);
	end(j);
	end(j);
}

int rep_write_junit(const struct rep_run *r, json_t *env, const char *path)
{
	xmlBufferPtr buf = xmlBufferCreate();
	struct jw j = { .w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL };
	int ret = -1;

	if (!j.w)
		goto out;
	if (xmlTextWriterSetIndent(j.w, 1) < 0 ||
	    xmlTextWriterSetIndentString(j.w, BAD_CAST "  ") < 0 ||
	    xmlTextWriterStartDocument(j.w, NULL, "UTF-8", NULL) < 0)
		j.err = true;
	testsuite(&j, r, env);
	if (!j.err && xmlTextWriterEndDocument(j.w) < 0)
		j.err = true;
	xmlFreeTextWriter(j.w);
	if (!j.err)
		ret = write_file_atomic(path, (const char *)xmlBufferContent(buf),
					xmlBufferLength(buf));
out:
	if (buf)
		xmlBufferFree(buf);
	if (ret)
		fprintf(stderr, "error: cannot write %s\n", path);
	return ret ? -1 : 0;
}
