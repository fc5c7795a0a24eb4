/*
 * Noise profiles (one table: name, what it disturbs, stress-ng arguments
 * scaled to the guest's vCPUs) and the parser of stress-ng's YAML metrics.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "run/plan/noise.h"

const struct noise_profile noise_profiles[] = {
	{ "none", "no noise", "", 0 },
	{ "cpu", "a CPU hog on every vCPU: the stress kthreads share their CPUs",
	  "--cpu {N} --cpu-method int64", 0 },
	{ "vm", "page faults and mmap/munmap churn (vCPUs/4 workers)",
	  "--vm {Q} --vm-bytes {V}M", 64 },
	{ "sched", "context switches and yields: scheduler and IPI traffic",
	  "--switch {H} --yield {H}", 0 },
	{ "irq", "timer interrupts (1 kHz per worker) and clock reads on every vCPU",
	  "--timer {N} --timer-freq 1000 --clock {H}", 0 },
	{ "mixed", "cpu + vm + sched at half strength",
	  "--cpu {H} --cpu-method int64 --vm {Q} --vm-bytes {V}M --switch {Q}", 32 },
	{ NULL, NULL, NULL, 0 },
};

/* {H} and {Q}: half and a quarter of the vCPUs, at least one */
static int half(int vcpus)
{
	return vcpus / 2 > 0 ? vcpus / 2 : 1;
}

static int quarter(int vcpus)
{
	return vcpus / 4 > 0 ? vcpus / 4 : 1;
}

int noise_mem_mb(const struct noise_profile *p, int vcpus)
{
	return p && p->vm_mb ? quarter(vcpus) * p->vm_mb : 0;
}

const struct noise_profile *noise_find(const char *name)
{
	for (const struct noise_profile *p = noise_profiles; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

void noise_print_names(FILE *f)
{
	for (const struct noise_profile *p = noise_profiles; p->name; p++)
		fprintf(f, "%s%s", p == noise_profiles ? "" : ", ", p->name);
}

void noise_print_table(FILE *f)
{
	for (const struct noise_profile *p = noise_profiles; p->name; p++) {
		fprintf(f, "  %-6s %s", p->name, p->description);
		if (p->vm_mb)
			fprintf(f, "; %d MB a vm worker, added to the guest's RAM", p->vm_mb);
		fputc('\n', f);
	}
}

char *noise_cmd(const struct noise_profile *p, int vcpus, int timeout_s)
{
	int h = half(vcpus), q = quarter(vcpus);
	struct strbuf out = STRBUF_INIT;

	if (!p->args[0])
		return strdup("");
	sb_append(&out, "stress-ng ");
	for (const char *s = p->args; *s; s++) {
		int v = -1;

		if (s[0] == '{' && s[1] && s[2] == '}') {
			v = s[1] == 'N' ? vcpus : s[1] == 'H' ? h : s[1] == 'Q' ? q :
			    s[1] == 'V' ? p->vm_mb : -1;
		}
		if (v >= 0) {
			sb_appendf(&out, "%d", v);
			s += 2;
		} else {
			sb_appendf(&out, "%c", *s);
		}
	}
	sb_appendf(&out, " --metrics-brief --yaml noise.yaml -t %ds", timeout_s);
	return sb_take(&out);
}

/* "      key: value" → key, value (trimmed); 0 when the line has that shape. */
static int yaml_kv(const char *line, size_t len, char *k, size_t kn, char *v, size_t vn)
{
	const char *c = memchr(line, ':', len), *s = line, *e;

	if (!c)
		return -1;
	while (s < c && (*s == ' ' || *s == '-'))
		s++;
	snprintf(k, kn, "%.*s", (int)(c - s), s);
	s = c + 1;
	e = line + len;
	while (s < e && *s == ' ')
		s++;
	snprintf(v, vn, "%.*s", (int)(e - s), s);
	return 0;
}

static const char *json_key(const char *yaml_key)
{
	static const struct { const char *y, *j; } map[] = {
		{ "bogo-ops", "bogo_ops" },
		{ "bogo-ops-per-second-real-time", "bogo_ops_per_sec_real" },
		{ "bogo-ops-per-second-usr-sys-time", "bogo_ops_per_sec_cpu" },
		{ "wall-clock-time", "wall_clock_s" },
		{ "user-time", "user_s" },
		{ "system-time", "system_s" },
		{ "cpu-usage-per-instance", "cpu_usage_per_instance_pct" },
		{ "max-rss", "max_rss_kb" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].y, yaml_key))
			return map[i].j;
	return NULL;
}

json_t *noise_parse_yaml(const char *text)
{
	json_t *stressors = NULL, *cur = NULL;
	bool in_metrics = false;

	for (const char *p = text; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char k[64], v[128];

		if (len && p[0] != ' ' && p[0] != '-') {
			in_metrics = !strncmp(p, "metrics:", 8);
			if (in_metrics && !stressors)
				stressors = json_object();
			cur = NULL;
		} else if (in_metrics && !yaml_kv(p, len, k, sizeof(k), v, sizeof(v))) {
			const char *dash = p + strspn(p, " ");

			if (*dash == '-' && !strcmp(k, "stressor")) {
				cur = json_object();
				json_object_set_new(stressors, v, cur);
			} else if (cur && json_key(k)) {
				char *end;
				double d = strtod(v, &end);

				if (end != v)
					json_object_set_new(cur, json_key(k), json_real(d));
			}
		}
		p = eol ? eol + 1 : NULL;
	}
	if (!stressors)
		return NULL;
	return json_pack("{s:o}", "stressors", stressors);
}
