/* Known kernel bugs: the list and the match (see known.h). */
#include <limits.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "run/record/known.h"

/* 1 when @re (extended) matches @s, 0 when not, -1 (err) when it does not compile. */
static int regex_on(const char *re, const char *s, char *err, size_t n)
{
	regex_t r;
	int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE);

	if (rc) {
		char msg[128];

		regerror(rc, &r, msg, sizeof(msg));
		fmt_cut(err, n, "regex /%s/: %s", re, msg);
		return -1;
	}
	rc = s && !regexec(&r, s, 0, NULL, 0);
	regfree(&r);
	return rc;
}

static const char *str_of(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* Every regex of an entry compiles, every field has its type: 0, or -1 with err. */
static int check_entry(const json_t *b, char *err, size_t n)
{
	const char *k, *fk;
	json_t *v, *evidence = json_object_get(b, "evidence");
	size_t i;
	json_t *re;
	char why[256];

	for (const char *const *f = (const char *const[]){ "id", "title", "see", NULL }; *f; f++)
		if (!str_of(b, *f) || !*str_of(b, *f)) {
			fmt_cut(err, n, "\"%s\" missing or not a string", *f);
			return -1;
		}
	if (!json_is_object(json_object_get(b, "match")) || !json_object_size(json_object_get(b, "match"))) {
		fmt_cut(err, n, "\"match\" missing or empty: an entry with no match would take every cell");
		return -1;
	}
	json_object_foreach(json_object_get(b, "match"), k, v) {
		if (!json_is_string(v)) {
			fmt_cut(err, n, "\"match.%s\" is not a string (a regex)", k);
			return -1;
		}
		if (regex_on(json_string_value(v), "", why, sizeof(why)) < 0) {
			fmt_cut(err, n, "\"match.%s\": %s", k, why);
			return -1;
		}
	}
	if (!evidence)
		return 0;
	if (!json_is_object(evidence)) {
		fmt_cut(err, n, "\"evidence\" is not an object of file names to regex arrays");
		return -1;
	}
	json_object_foreach(evidence, fk, v) {
		if (!*fk || strchr(fk, '/') || !strcmp(fk, "..") || !json_is_array(v) || !json_array_size(v)) {
			fmt_cut(err, n, "\"evidence.%s\": wants a file name of the cell directory and a non-empty array of regexes", fk);
			return -1;
		}
		json_array_foreach(v, i, re) {
			if (!json_is_string(re) || regex_on(json_string_value(re), "", why, sizeof(why)) < 0) {
				fmt_cut(err, n, "\"evidence.%s[%zu]\": %s", fk, i,
					json_is_string(re) ? why : "not a string (a regex)");
				return -1;
			}
		}
	}
	return 0;
}

json_t *known_bugs_load(const char *path, char *err, size_t n)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *bugs;
	size_t i;
	json_t *b;
	char why[512];

	if (!root) {
		fmt_cut(err, n, "%s: %s (line %d)", path, je.text, je.line);
		return NULL;
	}
	bugs = json_object_get(root, "bugs");
	if (!json_is_array(bugs)) {
		fmt_cut(err, n, "%s: no \"bugs\" array", path);
		json_decref(root);
		return NULL;
	}
	json_array_foreach(bugs, i, b) {
		if (!json_is_object(b) || check_entry(b, why, sizeof(why))) {
			fmt_cut(err, n, "%s: bugs[%zu]%s%s%s: %s", path, i, str_of(b, "id") ? " (" : "",
				str_of(b, "id") ? str_of(b, "id") : "", str_of(b, "id") ? ")" : "",
				json_is_object(b) ? why : "not an object");
			json_decref(root);
			return NULL;
		}
	}
	json_incref(bugs);
	json_decref(root);
	return bugs;
}

static bool entry_matches(const json_t *b, const json_t *cell, const char *dir)
{
	const char *k;
	json_t *v;
	char why[256];

	json_object_foreach((json_t *)json_object_get(b, "match"), k, v)
		if (regex_on(json_string_value(v), str_of(cell, k), why, sizeof(why)) != 1)
			return false;
	json_object_foreach((json_t *)json_object_get(b, "evidence"), k, v) {
		char path[PATH_MAX];
		char *text;
		size_t i;
		json_t *re;
		bool all = true;

		if (snprintf(path, sizeof(path), "%s/%s", dir, k) >= (int)sizeof(path))
			return false;
		text = read_file(path, NULL);
		if (!text)
			return false;
		json_array_foreach(v, i, re)
			if (regex_on(json_string_value(re), text, why, sizeof(why)) != 1)
				all = false;
		free(text);
		if (!all)
			return false;
	}
	return true;
}

json_t *known_bug_match(const json_t *bugs, const json_t *cell, const char *dir)
{
	size_t i;
	json_t *b;

	json_array_foreach((json_t *)bugs, i, b)
		if (entry_matches(b, cell, dir))
			return json_pack("{s:s, s:s, s:s}", "id", str_of(b, "id"),
					 "title", str_of(b, "title"), "see", str_of(b, "see"));
	return NULL;
}
