/*
 * Noise profiles: named stress-ng command lines that run inside the guest
 * (the host's /usr/bin/stress-ng, seen through the read-only host root)
 * from before bpftrace attaches until after the module is unloaded.
 */
#ifndef HT_NOISE_H
#define HT_NOISE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

struct noise_profile {
	const char *name;
	const char *description;
	/*
	 * stress-ng arguments; {N} = vCPUs, {H} = vCPUs/2, {Q} = vCPUs/4 (each at
	 * least 1), {V} = vm_mb. "" for none. The common tail (metrics, YAML,
	 * timeout) is added.
	 */
	const char *args;
	int vm_mb;		/* MB each of the {Q} --vm workers maps; 0: no vm stressor */
};

extern const struct noise_profile noise_profiles[];

const struct noise_profile *noise_find(const char *name);
/* MB the profile's vm workers map at vcpus (guest RAM adds it); 0 for none or NULL. */
int noise_mem_mb(const struct noise_profile *p, int vcpus);
/* "none, cpu, vm, …" for error messages. */
void noise_print_names(FILE *f);
/* "name  description" lines for --help. */
void noise_print_table(FILE *f);
/*
 * The NOISE_CMD for a cell: malloc'd, "" for none. timeout_s is stress-ng's
 * own -t, a backstop: the runner stops it with SIGINT after the stress.
 * The YAML goes to noise.yaml in the current directory (the runner cds into
 * the cell directory first).
 */
char *noise_cmd(const struct noise_profile *p, int vcpus, int timeout_s);
/*
 * Metrics from stress-ng's --yaml output: {"stressors": {name: {bogo_ops,
 * bogo_ops_per_sec_real, wall_clock_s, user_s, system_s, …}}}. NULL when the
 * text has no metrics section.
 */
json_t *noise_parse_yaml(const char *text);
#endif
