/*
 * The axes of a run: what a matrix crosses, one row each. A row says the
 * axis's name (also its cell.json and manifest key), its `run` option, how
 * it shows in a cell id, its default, whether compare pairs cells on it and
 * a report draws a series per value, the summary column it gets, and how it
 * reaches the guest. Plan building, cell ids (format and parse), the
 * manifest, cell.json, the summary, the report's series and compare's keys
 * loop over this table; adding an axis is a row here, a line in HT_AXES and
 * what its values mean (run/plan/cli.c checks them, run/ passes them on).
 */
#ifndef HT_AXES_H
#define HT_AXES_H
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * X(ID, field, list): the axes in cell id order (positional ones first, then
 * the -<slug> suffixes). field names a cell's value in AXIS_VALUES, list the
 * option's values in AXIS_LISTS.
 */
#define HT_AXES(X)								\
	X(VCPUS, vcpus_text, vcpus_unused) X(WORKLOAD, workload, workloads)	\
	X(KERNEL, kernel, kernels) X(NOISE, noise, noises)			\
	X(MAP_TYPE, map_type, map_types) X(PREALLOC, prealloc, preallocs)	\
	X(MAX_ENTRIES, max_entries, max_entries_list)				\
	X(VALUE_SIZE, value_size, value_sizes)					\
	X(CALLERS, callers, callers_list)					\
	X(FAULT, fault, faults) X(TEST_ACTION, test_action, test_actions)

enum axis_id {
#define AXIS_ENUM(id, field, list) AX_##id,
	HT_AXES(AXIS_ENUM)
#undef AXIS_ENUM
	AX_NR
};

typedef const char *axis_cstr;
typedef char *axis_str;
/*
 * A cell's value of every axis, as an array (ax[AX_FAULT]) and by name
 * (fault): T is axis_cstr (borrowed) or axis_str (owned).
 */
#define AXIS_FIELD(id, field, list) field,
#define AXIS_VALUES(T)								\
	union {									\
		T ax[AX_NR];							\
		struct { T HT_AXES(AXIS_FIELD) axis_values_end_; };		\
	}
/* Every axis's list of values, as an array (axv[AX_FAULT]) and by name (faults). */
#define AXIS_LIST(id, field, list) list,
#define AXIS_LISTS(T)								\
	union {									\
		T axv[AX_NR];							\
		struct { T HT_AXES(AXIS_LIST) axis_lists_end_; };		\
	}

/* In a cell id: "v16" (prefix), "full_update" (plain), "-f<slug>" after -r<repeat>. */
enum axis_in_id { AXID_PREFIX, AXID_PLAIN, AXID_SUFFIX };
/* compare: pairs cells on the axis's own value, through its module parameter (in params), or not. */
enum axis_compare { AXC_NO, AXC_KEY, AXC_PARAM };
/* How a value reaches the guest. */
enum axis_guest { AXG_VCPUS, AXG_MODPARAM, AXG_KERNEL, AXG_JOB_ENV };

struct axis {
	const char *name;	/* cell.json and manifest key, summary and compare label */
	const char *option;	/* of `htab-torture run` */
	enum axis_in_id in_id;
	char slug;		/* AXID_PREFIX and AXID_SUFFIX: the letter before the value */
	bool dashes;		/* the value may hold '-' (one such positional axis at most) */
	bool numeric;		/* an integer in cell.json and the manifest */
	const char *dflt;	/* the value a cell has when not given; NULL: none */
	bool null_default;	/* the plan holds NULL, not dflt, for the default */
	int nest;		/* the plan's loops, outermost first (repeats are outside all) */
	enum axis_compare compare;	/* AXC_KEY, AXC_PARAM: report sorts cells by it too */
	bool bare;		/* compare names it by its value alone (else name=value) */
	bool series;		/* the report draws one line per value when the run varies it */
	int column;		/* summary column width; 0: a column only when some cell is
				   not at the default; -1: none (still splits the spread rows) */
	enum axis_guest guest;
	const char *guest_key;	/* AXG_MODPARAM: the module parameter; AXG_JOB_ENV: the variable */
};

extern const struct axis axes[AX_NR];

/* NULL, "" and the default are the default: the one test of "has a fault". */
bool axis_is_default(enum axis_id a, const char *v);
/* The value a "key=value" list gives the axis's module parameter (the last wins), or NULL. */
const char *axis_modparam(enum axis_id a, char *const *kv, size_t n);
/* The AXG_MODPARAM axis whose parameter kv ("key=value") sets, or -1. */
int axis_of_modparam(const char *kv);
/*
 * The value in effect for a cell with value v and module parameters kv: v,
 * unless v is the default and kv sets the axis's parameter (the module reads
 * the last word of its insmod line).
 */
const char *axis_effective(enum axis_id a, const char *v, char *const *kv, size_t n);
/* The fault spec a cell runs with, NULL for none. */
const char *cell_fault(const char *fault, char *const *kv, size_t n);
/* An axis's value in a cell.json, summary or manifest object (integers as text), or NULL. */
char *axis_from_json(enum axis_id a, json_t *obj);
/* Sets obj's key of the axis (an integer for numeric axes). */
void axis_to_json(enum axis_id a, json_t *obj, const char *v);
#endif
