/* Cell ids (FORMAT.md): one cell's axis values in its directory name. */
#ifndef HT_CELL_ID_H
#define HT_CELL_ID_H
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * "v%d-%s-%s-%s-r%d" (FORMAT.md) + "-f<slug>" for a fault other than none
 * (fault NULL or "none": no suffix) + "-x<action>" when a test action is set.
 */
void cell_id_format(char *out, size_t n, int vcpus, const char *workload, const char *kernel,
		    const char *noise, int repeat, const char *fault, const char *test_action);
/*
 * The cell id suffix of a fault spec: letters, digits and '_' kept, every
 * other character ('-' too, so an id stays split by '-') becomes '_'; longer
 * than FAULT_SLUG_MAX: the first FAULT_SLUG_MAX - 9 characters, '_' and 8 hex
 * digits of the spec's FNV-1a hash. "" for none.
 */
#define FAULT_SLUG_MAX 48
void fault_slug(const char *spec, char *out, size_t n);
static inline bool fault_is_none(const char *f)
{
	return !f || !*f || !strcmp(f, "none");
}

#endif
