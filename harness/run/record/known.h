/*
 * Kernel bugs the kit has found and traced to the kernel under test, not
 * to the kit: harness/known_bugs.json, one entry a bug. A finished cell
 * that matches one keeps its verdict (a known deadlock is still not a
 * PASS); cell.json "known_bug" names it, so the self-tests (`make
 * mutants`' fixed row, `make false-alarms`) count it apart from a false
 * alarm, and a user sees which of their red cells are already explained.
 *
 * An entry matches when every "match" key, a top-level string of
 * cell.json, matches its POSIX extended regex, and every "evidence" file
 * of the cell directory (hang.txt, console.log, ...) has a match for each
 * of its regexes (REG_NEWLINE: one line each). The first entry that
 * matches wins.
 */
#ifndef HT_KNOWN_H
#define HT_KNOWN_H
#include <jansson.h>
#include <stddef.h>

#define KNOWN_BUGS_FILE "harness/known_bugs.json"

/*
 * Loads and checks a list (every regex compiled): its "bugs" array, a new
 * reference, or NULL with err naming the file, the entry and the field.
 */
json_t *known_bugs_load(const char *path, char *err, size_t n);

/*
 * The entry of @bugs (known_bugs_load) that @cell (a finished cell.json
 * object) with files in @dir matches, as {"id", "title", "see"} (a new
 * reference); NULL when none does.
 */
json_t *known_bug_match(const json_t *bugs, const json_t *cell, const char *dir);
#endif
