/*
 * Option tables: one row per option (name, getopt code, argument, group,
 * help), from which both getopt_long's table and --help are made, so the
 * help cannot miss an option nor name one that is not parsed.
 */
#ifndef HT_OPTS_H
#define HT_OPTS_H
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

struct opt_spec {
	const char *name;	/* without the leading -- */
	int code;		/* what getopt_long returns for it */
	const char *arg;	/* its value in --help ("LIST"); NULL: takes none */
	const char *group;	/* --help heading; rows of one group are adjacent */
	const char *help;	/* '\n' continues on an indented line */
};

/* getopt_long's table into out (n + 1 entries, the last the terminator). */
void opts_long(struct option *out, const struct opt_spec *s, size_t n);
/* A fraction 0 < v < 1 from s, or a message naming --name and s on stderr: 0 ok, -1 bad. */
int opts_fraction(const char *name, const char *s, double *out);
/* The option names into buf, in table order: "--a, --b, --c". */
void opts_names(char *buf, size_t size, const struct opt_spec *s, size_t n);
/* The options by group, in table order: "  --name ARG   help". */
void opts_help(FILE *f, const struct opt_spec *s, size_t n);
#endif
