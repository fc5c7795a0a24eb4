/*
 * Kernel coverage of a cell (FORMAT.md, "Coverage"): the .gcda files the
 * guest copied into CELL/gcov/<snapshot>/, turned into per-file and
 * per-function lines and branches hit with Debian's gcov against the
 * kernel tree that holds the .gcno files; CELL/coverage.json and one lcov
 * tracefile per snapshot. run writes them at the end of a cell, report
 * redoes them when coverage.json is missing and merges cells per workload.
 */
#ifndef HT_COVERAGE_H
#define HT_COVERAGE_H
#include <jansson.h>
#include <stddef.h>

struct cov_count {
	long long hit, total;
};

struct cov_line {
	int line;
	long long count;
	size_t nbr;
	long long *br;		/* one count per branch gcov lists on the line */
};

struct cov_func {
	char *name;
	int start, end;		/* source lines of the definition, inclusive */
	long long calls;	/* entries of its out-of-line copy; -1: inlined only */
	struct cov_count lines, branches;
};

struct cov_file {
	char *path;		/* tree-relative source ("kernel/bpf/hashtab.c") */
	struct cov_line *lines;	/* ascending */
	size_t nlines;
	struct cov_func *funcs;	/* source order */
	size_t nfuncs;
	struct cov_count lines_c, branches_c;
};

struct cov_set {
	struct cov_file *files;	/* sorted by path */
	size_t n;
};

#define COV_JSON "coverage.json"
#define COV_DIR "gcov"
/* The snapshot the figures come from: the workload's, before the verdict. */
#define COV_MAIN_SNAPSHOT "workload"
/* The module's whole life, insmod to rmmod, is the union of these two snapshots. */
#define COV_LIFE_SNAPSHOTS { "setup", "rmmod" }
#define COV_LIFE_NAME "insmod to rmmod"

/* cov_gcov.c: every .gcda under snap_dir, through gcov, against the tree kdir. */
int cov_from_gcda(const char *snap_dir, const char *kdir, const char *stage,
		  struct cov_set *s, char *err, size_t errn);
/*
 * The tree-relative path of a .gcda's object: the longest suffix of rel
 * (a path under the snapshot) whose .gcno is in kdir, without ".gcda";
 * NULL when none is. The guest keeps the tree's absolute path of build
 * time, which need not be kdir's today.
 */
char *cov_map_to_tree(const char *rel, const char *kdir);

/* cov_funcs.c: the functions of src (a C file) and their counts. */
int cov_func_ranges(const char *src, struct cov_file *f, char *err, size_t errn);
/* Recounts f's functions and totals from its lines. */
void cov_tally(struct cov_file *f);

/* cov_set.c */
void cov_set_free(struct cov_set *s);
struct cov_file *cov_set_add(struct cov_set *s, const char *path);
const struct cov_file *cov_set_find(const struct cov_set *s, const char *basename);
/* Union into dst: counts add up, so a line or branch is hit when it is in either. */
int cov_set_merge(struct cov_set *dst, const struct cov_set *src);
json_t *cov_set_json(const struct cov_set *s);
int cov_set_from_json(json_t *files, struct cov_set *s);
double cov_pct(const struct cov_count *c);

/* cov_cell.c */
/*
 * CELL/coverage.json and CELL/coverage-<snapshot>.info from CELL/gcov/.
 * *figures (may be NULL) gets the percentages for cell.json. -1 with a
 * message naming the file and the tool's words in err.
 */
int cov_cell_write(const char *cell_dir, const char *kdir, const char *kernel,
		   json_t **figures, char *err, size_t errn);
/* A snapshot of CELL/coverage.json into s; -1 when absent or unreadable. */
int cov_cell_load(const char *cell_dir, const char *snapshot, struct cov_set *s);

/* cov_metrics.c: the lists. */
enum cov_kind { COV_LINES, COV_BRANCHES };
struct cov_metric {
	const char *name;	/* cell.json coverage key, compare's metric */
	const char *file;	/* source basename */
	enum cov_kind kind;
};
extern const struct cov_metric cov_metrics[];
extern const size_t cov_nmetrics;
/* The allocator's functions the report lists first, in this order. */
extern const char *const cov_key_functions[];
extern const size_t cov_nkey_functions;
/* cell.json "coverage": the snapshot, the tree (kdir; NULL: none) and every metric's percentage. */
json_t *cov_figures(const struct cov_set *s, const char *kdir);
#endif
