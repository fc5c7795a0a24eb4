/*
 * gnuplot as a subprocess: the caller writes NAME.dat and NAME.gp into a
 * directory, plot_render() runs `gnuplot NAME.gp` there (fork/exec, no
 * shell) and NAME.png appears; gnuplot's complaints go to NAME.log.
 */
#ifndef HT_PLOT_H
#define HT_PLOT_H
#include <stddef.h>
#include <stdio.h>

/* "pngcairo" when this gnuplot has it, else "png"; NULL without gnuplot. */
const char *plot_terminal(void);
/* The script preamble: terminal, size, output NAME.png, common style. */
void plot_preamble(FILE *gp, const char *terminal, const char *name, int w, int h,
		   const char *title);
/* 0 ok (png written); -1 with err filled. */
int plot_render(const char *dir, const char *name, char *err, size_t errlen);
/* s with everything but [A-Za-z0-9._-] made '_' (malloc'd): a file name part. */
char *plot_safe_name(const char *s);
/* A gnuplot single-quoted string: ' doubled. */
void plot_quote(FILE *f, const char *s);
#endif
