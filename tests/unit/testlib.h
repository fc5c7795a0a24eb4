/* Common includes and fixture loading for the cmocka unit tests. */
#ifndef HT_TESTLIB_H
#define HT_TESTLIB_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <unistd.h>

#include "lib/util.h"

/* FIXTURES/<dir>/<name>, whole; fails the test if missing. */
static inline char *load_fixture(const char *dir, const char *name)
{
	char p[1024];
	char *s;

	snprintf(p, sizeof(p), "%s/%s/%s", FIXTURES, dir, name);
	s = read_file(p, NULL);
	if (!s)
		fail_msg("fixture %s missing", p);
	return s;
}

static inline void fixture_path(char *out, size_t n, const char *dir, const char *name)
{
	snprintf(out, n, "%s/%s/%s", FIXTURES, dir, name);
}
#endif
