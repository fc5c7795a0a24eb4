/* What machine ran a cell: every result says how it was obtained. */
#ifndef HT_HOST_INFO_H
#define HT_HOST_INFO_H
#include <jansson.h>
#include <stddef.h>

/* The first "model name" of /proc/cpuinfo, or "?". */
void host_cpu_model(char *out, size_t n);

/* {"hostname", "kernel", "cpus", "mem_mib", "cpu_model", "load_avg"} of this host. */
json_t *host_info(void);
#endif
