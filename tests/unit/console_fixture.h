/*
 * The console fixtures (the .log files of tests/fixtures/console, format in
 * the README there): each one's header ("# kind: …", "# title: …") and the
 * console text after it, which is all the classifier is given.
 */
#ifndef HT_CONSOLE_FIXTURE_H
#define HT_CONSOLE_FIXTURE_H
#include <dirent.h>

#include "testlib.h"

struct console_fixture {
	char *text;		/* the console after the header; malloc'd */
	char kind[32];		/* "# kind:" */
	char title[256];	/* "# title:"; "" when none */
};

/* name's header into fx and the console after it into fx->text. */
static inline void console_fixture_load(const char *name, struct console_fixture *fx)
{
	char *all = load_fixture("console", name), *p = all;

	memset(fx, 0, sizeof(*fx));
	while (!strncmp(p, "# ", 2)) {
		int n = (int)strcspn(p, "\n");

		if (!strncmp(p, "# kind: ", 8))
			snprintf(fx->kind, sizeof(fx->kind), "%.*s", n - 8, p + 8);
		else if (!strncmp(p, "# title: ", 9))
			snprintf(fx->title, sizeof(fx->title), "%.*s", n - 9, p + 9);
		p += n + (p[n] == '\n');
	}
	fx->text = strdup(p);
	free(all);
	if (!fx->text)
		fail_msg("out of memory");
}

/* The console of fixture name, without its header. */
static inline char *console_fixture_text(const char *name)
{
	struct console_fixture fx;

	console_fixture_load(name, &fx);
	return fx.text;
}

static inline int console_fixture_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".log");
}

/* Every *.log fixture, sorted; *list to free with each entry. */
static inline int console_fixture_names(struct dirent ***list)
{
	char dir[1024];
	int n;

	snprintf(dir, sizeof(dir), "%s/console", FIXTURES);
	n = scandir(dir, list, console_fixture_filter, alphasort);
	if (n <= 0)
		fail_msg("no console fixtures in %s", dir);
	return n;
}
#endif
