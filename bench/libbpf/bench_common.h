/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_common.h - the few helpers both libbpf benchmarks share: option
 * parsing that names the offending option, the environment header every
 * result starts with, and the exit codes.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>

/* One meaning each, as in stress-ng. */
enum {
	EXIT_PASS = 0,		/* ran, every invariant held */
	EXIT_FAIL = 1,		/* ran, an invariant broke (the output says which) */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_SETUP = 3,		/* the kernel refused: no BPF, no tracepoint, ENOMEM ... */
};

/*
 * Parse a whole decimal number in [min, max] for option -opt. On error,
 * print a message that names the option and its range and return -1.
 */
static inline int parse_long_opt(char opt, const char *name, const char *arg,
				 long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno == ERANGE) {
		fprintf(stderr, "invalid -%c (%s) '%s': out of range, must be in [%ld, %ld]\n",
			opt, name, arg, min, max);
		return -1;
	}
	if (errno || end == arg || *end != '\0') {
		fprintf(stderr, "invalid -%c (%s) '%s': not a number\n", opt, name, arg);
		return -1;
	}
	if (v < min || v > max) {
		fprintf(stderr, "invalid -%c (%s) %ld: must be in [%ld, %ld]\n",
			opt, name, v, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static inline unsigned long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline double now_s(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Results are only comparable with their environment: print it first.
 * Format: "# <tool>: kernel <release> <machine>, <n> CPUs online (<m> conf),
 * libbpf <x.y>, <date UTC>".
 */
static inline void print_env_header(const char *tool)
{
	struct utsname u;
	char date[32] = "?";
	time_t t = time(NULL);
	struct tm tm;

	if (uname(&u))
		strcpy(u.release, "?"), strcpy(u.machine, "?");
	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	printf("# %s: kernel %s %s, %ld CPUs online (%ld configured), libbpf %u.%u, %s\n",
	       tool, u.release, u.machine, sysconf(_SC_NPROCESSORS_ONLN),
	       sysconf(_SC_NPROCESSORS_CONF), libbpf_major_version(),
	       libbpf_minor_version(), date);
}

static int bench_verbose;

static inline int bench_libbpf_print(enum libbpf_print_level level,
				     const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !bench_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

#endif /* BENCH_COMMON_H */
