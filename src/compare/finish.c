/* From the builder's cells to the model's tables (builder.h's order), the
 * statistics of each (stats.c), then the judgement over all of them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/internal.h"
#include "compare/units.h"
#include "util/diag.h"
#include "util/natural.h"
#include "util/suggest.h"
#include "util/text.h"
#include "util/xalloc.h"

void cmp_options_init(struct cmp_options *o)
{
    memset(o, 0, sizeof *o);
    o->level = 0.95;
    o->alpha = 0.05;
    o->method = MW_BENCHSTAT;
    o->extras = 1;
}

void cmp_model_free(struct cmp_model *m)
{
    arena_free(&m->arena);
    cmp_failures_free(&m->failures);
    memset(m, 0, sizeof *m);
}

/* A table to sort, with the builder that holds it. */
struct tref {
    const struct cmp_builder *b;
    int t;
};

static int by_table_order(const void *x, const void *y)
{
    const struct cmp_builder *sorting = ((const struct tref *)x)->b;
    const struct btable *a = &sorting->tables[((const struct tref *)x)->t];
    const struct btable *b = &sorting->tables[((const struct tref *)y)->t];
    int n = a->ncfg > b->ncfg ? a->ncfg : b->ncfg;
    for (int f = 0; f < n; f++) {
        int va = f < a->ncfg ? a->cfg[f] : 0, vb = f < b->ncfg ? b->cfg[f] : 0;
        if (va == vb)
            continue;
        const char *sa = va ? sorting->values.s[va - 1] : "", *sb = vb ? sorting->values.s[vb - 1] : "";
        return strcmp(sa, sb) < 0 ? -1 : 1;
    }
    return (a->unit > b->unit) - (a->unit < b->unit);
}

/* A cell to sort: table, row, column, index. */
static int by_cell(const void *x, const void *y)
{
    const int32_t *a = x, *b = y;
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* Whether unit (as written, or tidied) is in the comma-separated list. */
static int listed(const char *list, const char *unit)
{
    size_t n = strlen(unit), len;
    for (const char *cur = list, *p; list_next(&cur, &p, &len);)
        if (len == n && memcmp(p, unit, n) == 0)
            return 1;
    return 0;
}

/* Whether u's table is shown: --metric names its metric, or (by_unit:
 * when it names no metric of the files) its unit, as written (ns/op) or as
 * the tables show it (sec/op). */
static int wanted(const struct cmp_options *o, const struct bunit *u, int by_unit)
{
    if (by_unit) {
        char shown[256]; /* as a table of another metric heads it: cpu_time (sec) */
        cmp_tidy_any(u->orig, shown, sizeof shown);
        return strcmp(o->metric, u->label) == 0 || strcmp(o->metric, u->orig) == 0 || strcmp(o->metric, shown) == 0;
    }
    return !o->metric || strcmp(o->metric, "*") == 0 || strcmp(o->metric, u->metric) == 0 ||
           (u->primary && strcmp(o->metric, "primary") == 0);
}

/* Adds s to names[0..*n) unless it is there. */
static void add_name(const char **names, size_t *n, const char *s)
{
    size_t j = 0;
    while (s && j < *n && strcmp(names[j], s) != 0)
        j++;
    if (s && j == *n)
        names[(*n)++] = s;
}

/* --metric naming no metric of the files, nor a unit: the usage error,
 * with the metrics and units they have (the nearest first). */
static int no_such_metric(const struct cmp_builder *b, const struct cmp_options *o, char **err)
{
    const char **names = xcalloc((size_t)b->n_unit_info * 4 + 2, sizeof *names);
    size_t n = 0;
    if (!names)
        return bd_fail(err, "compare: out of memory");
    for (int i = 0; i < b->n_unit_info; i++) {
        add_name(names, &n, b->unit_info[i].primary ? "primary" : NULL);
        add_name(names, &n, b->unit_info[i].metric);
        add_name(names, &n, b->unit_info[i].orig);
        add_name(names, &n, b->unit_info[i].label);
    }
    natural_sort(names, n);
    char *msg = suggest_unknown("metric or unit", "metrics and units", o->metric, names, n);
    bd_fail(err, "compare: --metric: %s", msg ? msg : "no such metric");
    free(msg);
    free(names);
    return -2;
}

/* --exact-units naming a unit the files do not have changes nothing: a
 * warning says so, with the units they have, as written (ns/op) and as
 * the tables show them (sec/op). Not an error: one list of units may
 * serve every job of a CI, some without B/op. */
static void no_such_unit(const struct cmp_builder *b, const struct cmp_options *o)
{
    const char *p, *cur = o->exact_units;
    size_t len;
    while (list_next(&cur, &p, &len)) {
        char *unit = len ? xstrndup(p, len) : NULL;
        if (!unit)
            continue;
        int found = 0;
        for (int i = 0; i < b->n_unit_info && !found; i++)
            found = strcmp(b->unit_info[i].label, unit) == 0 || strcmp(b->unit_info[i].orig, unit) == 0;
        if (found) {
            free(unit);
            continue;
        }
        const char **names = xcalloc((size_t)b->n_unit_info * 2 + 1, sizeof *names);
        size_t n = 0;
        for (int i = 0; names && i < b->n_unit_info; i++) {
            const char *uv[2] = {b->unit_info[i].orig, b->unit_info[i].label};
            for (int k = 0; k < 2; k++) {
                size_t j = 0;
                while (j < n && strcmp(names[j], uv[k]) != 0)
                    j++;
                if (j == n)
                    names[n++] = uv[k];
            }
        }
        natural_sort(names, n);
        char *msg = suggest_unknown("unit", "units", unit, names, n);
        bd_warning("compare: --exact-units: %s: nothing assumed exact for it", msg ? msg : "no such unit");
        free(msg);
        free(names);
        free(unit);
    }
}

/* The model's table for builder table bt: header facts and its cells,
 * whose values are handed to the statistics. sc[c0..c1) are its cells
 * (table, row, column, index) sorted by row and column; values[k] holds
 * cell k's values, sorted. */
static int one_table(const struct cmp_builder *b, struct cmp_model *m, const struct btable *bt, int32_t (*sc)[4],
                     int c0, int c1, double **values, size_t *counts, const struct cmp_options *o)
{
    struct cmp_table *t = &m->tables[m->ntables++];
    const struct bunit *u = &b->unit_info[bt->unit - 1];
    t->cfg = arena_alloc(&m->arena, (size_t)(b->fields.n ? b->fields.n : 1) * sizeof *t->cfg);
    if (!t->cfg)
        return -1;
    for (int f = 0; f < b->fields.n; f++)
        t->cfg[f] = f < bt->ncfg && bt->cfg[f] ? arena_strdup(&m->arena, b->values.s[bt->cfg[f] - 1]) : "";
    t->unit = arena_strdup(&m->arena, u->label);
    t->metric = arena_strdup(&m->arena, u->metric);
    t->binary = cmp_unit_binary(u->orig);
    double factor;
    cmp_unit_info(u->orig, &t->kind, &t->direction, &factor);
    t->exact = idmap_get(&b->exact.map, u->label, strlen(u->label)) != NULL ||
               (o->exact_units && (listed(o->exact_units, u->label) || listed(o->exact_units, u->orig)));
    /* Rows and columns present, in order. */
    int seen[64], *colseen = b->cols.n < 64 ? seen : xcalloc((size_t)b->cols.n + 1, sizeof *colseen);
    if (!colseen)
        return -1;
    memset(colseen, 0, (size_t)(b->cols.n + 1) * sizeof *colseen);
    size_t nrows = 0;
    for (int k = c0; k < c1; k++) {
        colseen[sc[k][2]] = 1;
        nrows += k == c0 || sc[k][1] != sc[k - 1][1];
    }
    int colix[64], *cix = b->cols.n < 64 ? colix : xcalloc((size_t)b->cols.n + 1, sizeof *cix);
    t->cols = arena_alloc(&m->arena, (size_t)b->cols.n * sizeof *t->cols);
    t->rows = arena_alloc(&m->arena, nrows * sizeof *t->rows);
    int rc = !cix || !t->cols || !t->rows ? -1 : 0;
    for (int c = 1; rc == 0 && c <= b->cols.n; c++)
        if (colseen[c]) {
            cix[c] = t->ncols;
            t->cols[t->ncols++] = arena_strdup(&m->arena, b->cols.s[c - 1]);
        }
    size_t nvals = nrows * (size_t)t->ncols;
    double **tv = rc ? NULL : xcalloc(nvals ? nvals : 1, sizeof *tv);
    size_t *tn = rc ? NULL : xcalloc(nvals ? nvals : 1, sizeof *tn);
    rc = rc || !tv || !tn ? -1 : 0;
    for (int k = c0; rc == 0 && k < c1; k++) {
        if (k == c0 || sc[k][1] != sc[k - 1][1]) {
            struct cmp_row *row = &t->rows[t->nrows++];
            row->label = arena_strdup(&m->arena, b->rows.s[sc[k][1] - 1]);
            row->cells = arena_alloc(&m->arena, (size_t)t->ncols * sizeof *row->cells);
            if (!row->cells)
                rc = -1;
        }
        size_t slot = (t->nrows - 1) * (size_t)t->ncols + (size_t)cix[sc[k][2]];
        tv[slot] = values[sc[k][3]];
        tn[slot] = counts[sc[k][3]];
    }
    if (rc == 0)
        rc = cmp_table_stats(m, t, o, tv, tn);
    free(tv);
    free(tn);
    if (colseen != seen)
        free(colseen);
    if (cix != colix)
        free(cix);
    return rc;
}

static int by_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    /* Go's sort.Float64s: NaN first */
    if (isnan(a) || isnan(b))
        return isnan(b) - isnan(a);
    return (a > b) - (a < b);
}

/* Each cell's values, sorted, in one array: values[k] points into it. */
static double *cell_values(const struct cmp_builder *b, double ***values, size_t **counts)
{
    size_t *count = xcalloc((size_t)b->ncells + 1, sizeof *count);
    double **vp = xcalloc((size_t)b->ncells + 1, sizeof *vp);
    double *all = xmalloc((b->nv ? b->nv : 1) * sizeof *all);
    size_t *fill = xcalloc((size_t)b->ncells + 1, sizeof *fill);
    if (!count || !vp || !all || !fill) {
        free(count), free(vp), free(all), free(fill);
        return NULL;
    }
    for (size_t i = 0; i < b->nv; i++)
        count[b->vcell[i]]++;
    for (int k = 0, off = 0; k < b->ncells; off += (int)count[k], k++)
        vp[k] = all + off;
    for (size_t i = 0; i < b->nv; i++)
        vp[b->vcell[i]][fill[b->vcell[i]]++] = b->vval[i];
    for (int k = 0; k < b->ncells; k++)
        qsort(vp[k], count[k], sizeof(double), by_double);
    free(fill);
    *values = vp;
    *counts = count;
    return all;
}

int cmp_builder_finish(struct cmp_builder *b, const struct cmp_options *o, struct cmp_model *m, char **err)
{
    memset(m, 0, sizeof *m);
    m->extras = o->extras;
    m->adjust = o->adjust;
    m->level = o->level;
    m->alpha = o->alpha;
    m->threshold = o->threshold;
    m->sides = arena_alloc(&m->arena, (size_t)(b->cols.n + 1) * sizeof *m->sides);
    for (int c = 0; m->sides && c < b->cols.n; c++)
        m->sides[m->nsides++] = arena_strdup(&m->arena, b->cols.s[c]);
    double **values = NULL;
    size_t *counts = NULL;
    double *all = cell_values(b, &values, &counts);
    struct tref *order = xmalloc((size_t)(b->ntables + 1) * sizeof *order);
    int32_t(*sc)[4] = xmalloc((size_t)(b->ncells + 1) * sizeof *sc);
    m->fields = arena_alloc(&m->arena, (size_t)(b->fields.n + 1) * sizeof *m->fields);
    m->tables = arena_alloc(&m->arena, (size_t)(b->ntables + 1) * sizeof *m->tables);
    int rc = !all || !order || !sc || !m->fields || !m->tables ? -1 : 0;
    for (int f = 0; rc == 0 && f < b->fields.n; f++)
        m->fields[m->nfields++] = arena_strdup(&m->arena, b->fields.s[f]);
    for (int k = 0; rc == 0 && k < b->ncells; k++) {
        memcpy(sc[k], b->cells[k], sizeof b->cells[k]);
        sc[k][3] = k;
    }
    for (int k = 0; rc == 0 && k < b->ntables; k++)
        order[k] = (struct tref){b, k};
    if (rc == 0) {
        qsort(sc, (size_t)b->ncells, sizeof *sc, by_cell);
        qsort(order, (size_t)b->ntables, sizeof *order, by_table_order);
    }
    /* Where each table's cells start in the sorted cells. */
    int *start = rc ? NULL : xcalloc((size_t)b->ntables + 1, sizeof *start);
    rc = rc || !start ? -1 : 0;
    for (int k = b->ncells - 1; rc == 0 && k >= 0; k--)
        start[sc[k][0]] = k;
    int any = 0, by_unit = 0;
    for (int i = 0; rc == 0 && i < b->n_unit_info; i++)
        any |= wanted(o, &b->unit_info[i], 0);
    /* no metric of that name: a unit, as written or as shown */
    for (int i = 0; rc == 0 && !any && o->metric && i < b->n_unit_info; i++)
        any = by_unit = wanted(o, &b->unit_info[i], 1);
    if (rc == 0 && !any && b->n_unit_info) {
        rc = no_such_metric(b, o, err);
        free(start);
        free(order);
        free(sc);
        free(all);
        free(values);
        free(counts);
        return rc;
    }
    if (rc == 0 && b->n_unit_info)
        no_such_unit(b, o);
    for (int i = 0; rc == 0 && i < b->ntables; i++) {
        int t = order[i].t, end = start[t];
        while (end < b->ncells && sc[end][0] == t)
            end++;
        if (wanted(o, &b->unit_info[b->tables[t].unit - 1], by_unit))
            rc = one_table(b, m, &b->tables[t], sc, start[t], end, values, counts, o);
    }
    if (rc == 0)
        rc = cmp_model_judge(m, o);
    if (rc || m->arena.failed)
        rc = bd_fail(err, "compare: out of memory");
    free(start);
    free(order);
    free(sc);
    free(all);
    free(values);
    free(counts);
    return rc;
}
