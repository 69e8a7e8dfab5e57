#ifndef BENCHDB_COMPARE_INTERNAL_H
#define BENCHDB_COMPARE_INTERNAL_H
/* What the builder (builder.c) hands to the statistics (stats.c). */
#include "compare/compare.h"
#include "ingest/core/idmap.h"

/* A string interned in order of first appearance: ids 1, 2, ... */
struct interner {
    struct idmap map;
    const char **s; /* s[id - 1] */
    int n, cap;
};
/* The id of s (added when new), or -1 when memory ran out. */
int intern(struct interner *in, struct arena *a, const char *s, size_t len);
void interner_free(struct interner *in);

/* Grows *p (of *cap elements of size elem) to hold need; -1 on failure. */
int grow_array(void **p, int *cap, int need, size_t elem);

/* A table as the builder collected it. */
struct btable {
    int32_t *cfg;  /* value ids per field (0: absent) */
    int ncfg;
    int unit;      /* unit label id */
};

struct bunit {
    const char *label, *orig, *metric;
    int primary;
};

struct cmp_builder {
    struct arena arena;
    struct interner fields, values, rows, cols, units;
    struct bunit *unit_info; /* by unit id - 1 */
    int n_unit_info, cap_unit_info;
    struct interner exact;   /* units assumed exact */
    struct interner ignored; /* configuration keys left out (--ignore) */
    struct interner keys;    /* every configuration key seen, left out ones too */
    struct idmap unit_meta;  /* "UNIT\0KEY" of Unit lines: the value's id in values */
    struct idmap table_keys;
    struct btable *tables;
    int ntables, cap_tables;
    struct idmap cell_keys;
    int32_t (*cells)[3];     /* table, row, col (0-based table, 1-based row and col ids) */
    int ncells, cap_cells;
    int32_t *vcell;          /* each value's cell */
    double *vval;
    size_t nv, capv;
    int32_t *tuple;          /* scratch: a result's configuration */
    int cap_tuple;
};

/* The statistics of one table whose cells hold their values sorted
 * (stats.c): summaries, comparisons with the first column, verdicts. */
int cmp_table_stats(struct cmp_model *m, struct cmp_table *t, const struct cmp_options *o, double **vals,
                    size_t *nvals);
/* Adjusts every p of the model (per pair of columns) and judges the cells
 * again, then the geomeans. */
int cmp_model_judge(struct cmp_model *m, const struct cmp_options *o);

#endif
