/* The axes table (see axes.h) and what every layer asks of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kmod/fault_spec.h"
#include "../kmod/params.h"
#include "rundir/axes.h"

const struct axis axes[AX_NR] = {
	[AX_VCPUS] = { .name = "vcpus", .option = "--cpus", .in_id = AXID_PREFIX, .slug = 'v',
		       .numeric = true, .nest = 8, .compare = AXC_KEY, .column = 5,
		       .guest = AXG_VCPUS },
	[AX_WORKLOAD] = { .name = "workload", .option = "--workload", .in_id = AXID_PLAIN,
			  .nest = 7, .compare = AXC_KEY, .bare = true, .column = 20, .guest = AXG_MODPARAM,
			  .guest_key = "workload" },
	[AX_KERNEL] = { .name = "kernel", .option = "--kernel", .in_id = AXID_PLAIN,
			.dashes = true, .nest = 0, .compare = AXC_KEY, .column = 12,
			.guest = AXG_KERNEL },
	[AX_NOISE] = { .name = "noise", .option = "--noise", .in_id = AXID_PLAIN, .dflt = "none",
		       .nest = 1, .compare = AXC_KEY, .series = true, .column = 6,
		       .guest = AXG_JOB_ENV, .guest_key = "NOISE_CMD" },
	[AX_MAP_TYPE] = { .name = "map_type", .option = "--map-type", .in_id = AXID_SUFFIX,
			  .slug = 'm', .dflt = HT_PARAM_DEFAULT(map_type), .nest = 4, .compare = AXC_PARAM,
			  .series = true, .column = 0, .guest = AXG_MODPARAM, .guest_key = "map_type" },
	[AX_PREALLOC] = { .name = "prealloc", .option = "--prealloc", .in_id = AXID_SUFFIX,
			  .slug = 'p', .numeric = true, .dflt = HT_PARAM_DEFAULT_STR(prealloc), .nest = 5,
			  .compare = AXC_PARAM,
			  .series = true, .column = 0, .guest = AXG_MODPARAM, .guest_key = "prealloc" },
	[AX_MAX_ENTRIES] = { .name = "max_entries", .option = "--max-entries", .in_id = AXID_SUFFIX,
			     .slug = 'e', .numeric = true,
			     .dflt = HT_PARAM_DEFAULT_STR(max_entries), .nest = 6,
			     .compare = AXC_PARAM, .series = true, .column = 0,
			     .guest = AXG_MODPARAM, .guest_key = "max_entries" },
	[AX_VALUE_SIZE] = { .name = "value_size", .option = "--value-size", .in_id = AXID_SUFFIX,
			    .slug = 's', .numeric = true,
			    .dflt = HT_PARAM_DEFAULT_STR(value_size), .nest = 6,
			    .compare = AXC_PARAM, .series = true, .column = 0,
			    .guest = AXG_MODPARAM, .guest_key = "value_size" },
	[AX_CALLERS] = { .name = "callers", .option = "--callers", .in_id = AXID_SUFFIX, .slug = 'c',
			 .dflt = HT_PARAM_DEFAULT(callers), .nest = 6, .compare = AXC_PARAM, .series = true, .column = 0,
			 .guest = AXG_MODPARAM, .guest_key = "callers" },
	[AX_FAULT] = { .name = "fault", .option = "--fault", .in_id = AXID_SUFFIX, .slug = 'f',
		       .dflt = HT_FAULT_NONE, .nest = 2, .compare = AXC_KEY, .series = true, .column = 0,
		       .guest = AXG_MODPARAM, .guest_key = "fault" },
	[AX_TEST_ACTION] = { .name = "test_action", .option = "--test-action",
			     .in_id = AXID_SUFFIX, .slug = 'x', .dflt = "none",
			     .null_default = true, .nest = 3, .column = -1,
			     .guest = AXG_JOB_ENV, .guest_key = "TEST_ACTION" },
};

bool axis_is_default(enum axis_id a, const char *v)
{
	return !v || !*v || (axes[a].dflt && !strcmp(v, axes[a].dflt));
}

const char *axis_modparam(enum axis_id a, char *const *kv, size_t n)
{
	const char *key = axes[a].guest == AXG_MODPARAM ? axes[a].guest_key : NULL;
	size_t kl = key ? strlen(key) : 0;
	const char *found = NULL;

	for (size_t i = 0; key && i < n; i++)
		if (kv[i] && !strncmp(kv[i], key, kl) && kv[i][kl] == '=')
			found = kv[i] + kl + 1;
	return found;
}

int axis_of_modparam(const char *kv)
{
	for (int a = 0; a < AX_NR; a++)
		if (axis_modparam(a, (char *const *)&kv, 1))
			return a;
	return -1;
}

const char *axis_effective(enum axis_id a, const char *v, char *const *kv, size_t n)
{
	const char *m = axis_is_default(a, v) ? axis_modparam(a, kv, n) : NULL;

	return m ? m : v;
}

const char *cell_fault(const char *fault, char *const *kv, size_t n)
{
	const char *f = axis_effective(AX_FAULT, fault, kv, n);

	return axis_is_default(AX_FAULT, f) ? NULL : f;
}

char *axis_from_json(enum axis_id a, json_t *obj)
{
	json_t *v = json_object_get(obj, axes[a].name);
	char *s = NULL;

	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v) && asprintf(&s, "%lld", (long long)json_integer_value(v)) < 0)
		return NULL;
	return s;
}

void axis_to_json(enum axis_id a, json_t *obj, const char *v)
{
	json_object_set_new(obj, axes[a].name,
			    axes[a].numeric ? json_integer(strtoll(v, NULL, 10)) : json_string(v));
}
