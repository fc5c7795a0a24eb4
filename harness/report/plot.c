/* Running gnuplot on files the report wrote. */
#include "report/plot.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/spawn.h"
#include "lib/util.h"

static int run_gnuplot(const char *dir, char *const argv[], const char *log)
{
	struct spawn_opts o = { .dir = dir, .log = log ? log : "/dev/null", .null_stdin = true };

	return spawn_run(argv, &o, NULL);
}

const char *plot_terminal(void)
{
	static const char *term;
	static bool probed;
	char *cairo[] = { "gnuplot", "-e", "set terminal pngcairo", NULL };
	char *png[] = { "gnuplot", "-e", "set terminal png", NULL };

	if (probed)
		return term;
	probed = true;
	if (run_gnuplot(NULL, cairo, NULL) == 0)
		term = "pngcairo";
	else if (run_gnuplot(NULL, png, NULL) == 0)
		term = "png";
	return term;
}

void plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

void plot_preamble(FILE *gp, const char *terminal, const char *name, int w, int h,
		   const char *title)
{
	if (!strcmp(terminal, "pngcairo"))
		fprintf(gp, "set terminal pngcairo size %d,%d font 'sans,9' noenhanced\n", w, h);
	else
		fprintf(gp, "set terminal png size %d,%d noenhanced\n", w, h);
	fprintf(gp, "set output '%s.png'\nset title ", name);
	plot_quote(gp, title);
	fputs("\nset grid\nset key outside right top vertical\n"
	      "set border 3\nset tics nomirror\n", gp);
}

int plot_render(const char *dir, const char *name, char *err, size_t errlen)
{
	char gp[512], log[4600], png[4600], child_log[520];
	char *argv[] = { "gnuplot", gp, NULL };
	int rc;

	snprintf(gp, sizeof(gp), "%s.gp", name);
	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	/* the child opens its log after chdir(dir): a relative dir would not be there */
	snprintf(child_log, sizeof(child_log), "%s.log", name);
	snprintf(png, sizeof(png), "%s/%s.png", dir, name);
	unlink(png);
	rc = run_gnuplot(dir, argv, child_log);
	if (rc == 0 && file_exists(png)) {
		unlink(log);
		return 0;
	}
	snprintf(err, errlen, rc == 127 ? "gnuplot not found" :
		 "gnuplot %s.gp failed (exit %d), see plots/%s.log", name, rc, name);
	return -1;
}

char *plot_safe_name(const char *s)
{
	char *o = strdup(s);

	for (char *p = o; p && *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_'))
			*p = '_';
	return o;
}
