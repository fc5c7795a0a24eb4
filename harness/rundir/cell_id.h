/*
 * Cell ids (FORMAT.md): one cell's axis values in its directory name, written
 * and read back by the axes table (axes.h): the positional axes joined by
 * '-' ("v2-full_update-distro-none"), "-r<repeat>", then "-<slug><value>" for
 * each suffix axis not at its default.
 */
#ifndef HT_CELL_ID_H
#define HT_CELL_ID_H
#include <stdbool.h>
#include <stddef.h>
#include "rundir/axes.h"

/* ax: a value per axis (NULL: the default). */
void cell_id_format(char *out, size_t n, const char *const ax[AX_NR], int repeat);
/*
 * Reads id back: ax[] gets malloc'd values of the axes the id names (the
 * caller frees them; NULL for the others; a suffix holds its slug, not the
 * value: a fault's slug is not its spec), *repeat the repeat. -1 when id is
 * not a cell id (nothing set).
 */
int cell_id_parse(const char *id, char *ax[AX_NR], int *repeat);
/*
 * The cell id suffix of a fault spec: letters, digits and '_' kept, every
 * other character ('-' too, so an id stays split by '-') becomes '_'; longer
 * than FAULT_SLUG_MAX: the first FAULT_SLUG_MAX - 9 characters, '_' and 8 hex
 * digits of the spec's FNV-1a hash. "" for none.
 */
#define FAULT_SLUG_MAX 48
void fault_slug(const char *spec, char *out, size_t n);
/* What a suffix axis's value becomes in an id: the fault's slug, else the value ("" for the default). */
void axis_slug(enum axis_id a, const char *v, char *out, size_t n);
static inline bool fault_is_none(const char *f)
{
	return axis_is_default(AX_FAULT, f);
}
#endif
