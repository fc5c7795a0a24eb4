/*
 * host_info: the host a cell ran on, recorded in cell.json as "host" so a
 * report can say where its figures come from (a TCG figure from a loaded
 * 2-core machine reads differently from one on a quiet 96-core box).
 */
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "run/plan/host_info.h"

void host_cpu_model(char *out, size_t n)
{
	char line[512], *v;
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(out, n, "?");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(v = strchr(line, ':')))
			continue;
		v += strspn(v + 1, " \t") + 1;
		v[strcspn(v, "\n")] = 0;
		snprintf(out, n, "%s", v);
		break;
	}
	if (f)
		fclose(f);
}

json_t *host_info(void)
{
	struct utsname u;
	struct sysinfo si;
	char model[256];
	double load[3] = { -1, -1, -1 };
	json_t *h = json_object();

	if (!uname(&u)) {
		json_object_set_new(h, "hostname", json_string(u.nodename));
		json_object_set_new(h, "kernel", json_string(u.release));
	}
	json_object_set_new(h, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	if (!sysinfo(&si))
		json_object_set_new(h, "mem_mib",
				    json_integer((json_int_t)si.totalram * si.mem_unit >> 20));
	host_cpu_model(model, sizeof(model));
	json_object_set_new(h, "cpu_model", json_string(model));
	/* The load when the cell ended: other guests share these cores. */
	if (getloadavg(load, 3) == 3)
		json_object_set_new(h, "load_avg", json_pack("[f, f, f]", load[0], load[1], load[2]));
	return h;
}
