/* The rows of the saved query `compare` as benchstat's tables
 * (compare.h): the statistics are the query's (queries/compare.sql), this
 * file only lays them out as src/compare prints a comparison. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/units.h"
#include "query/compare.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum col {
    C_KIND, C_BENCHMARK, C_PARAMS, C_VARIANT, C_METRIC, C_UNIT, C_N_A, C_MEDIAN_A, C_PM_A, C_N_B, C_MEDIAN_B,
    C_PM_B, C_CHANGE, C_CHANGE_LO, C_CHANGE_HI, C_P, C_P_ADJUSTED, C_VERDICT, C_WARNINGS, C_NO_REGRESSION, NCOLS
};
static const char *const col_names[NCOLS] = {
    "kind", "benchmark", "params", "variant", "metric", "unit", "n_a", "median_a", "pm_a", "n_b", "median_b",
    "pm_b", "change", "change_lo", "change_hi", "p", "p_adjusted", "verdict", "warnings", "no_regression",
};

struct view {
    const struct rowset *rs;
    int col[NCOLS];
};

static sqlite3_value *at(const struct view *v, size_t r, enum col c) { return rowset_cell(v->rs, r, v->col[c]); }

static const char *text_at(const struct view *v, size_t r, enum col c)
{
    sqlite3_value *x = at(v, r, c);
    return sqlite3_value_type(x) == SQLITE_NULL ? NULL : (const char *)sqlite3_value_text(x);
}

static int null_at(const struct view *v, size_t r, enum col c) { return sqlite3_value_type(at(v, r, c)) == SQLITE_NULL; }
static double num_at(const struct view *v, size_t r, enum col c) { return sqlite3_value_double(at(v, r, c)); }

static int same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* pkg of a row's params ("" when none). */
static const char *pkg_of(json_t *params)
{
    json_t *p = json_object_get(params, "pkg");
    return json_is_string(p) ? json_string_value(p) : "";
}

/* The label: the name without "Benchmark", the params but pkg (unless
 * keep_pkg) as "/KEY=VALUE", procs as "-N" last, the variant. */
static char *label(struct arena *a, const char *name, json_t *params, int keep_pkg, const char *variant)
{
    struct strbuf sb = {0};
    if (!name)
        name = "";
    sb_puts(&sb, strncmp(name, "Benchmark", 9) == 0 && name[9] ? name + 9 : name);
    const char *k;
    json_t *val;
    json_object_foreach(params, k, val) {
        if (strcmp(k, "procs") == 0 || (!keep_pkg && strcmp(k, "pkg") == 0))
            continue;
        char *t = json_is_string(val) ? NULL : json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
        sb_printf(&sb, "/%s=%s", k, json_is_string(val) ? json_string_value(val) : t ? t : "?");
        free(t);
    }
    json_t *procs = json_object_get(params, "procs");
    if (json_is_integer(procs))
        sb_printf(&sb, "-%lld", (long long)json_integer_value(procs));
    if (variant)
        sb_printf(&sb, " (%s)", variant);
    char *out = arena_strdup(a, xsb_text(&sb));
    sb_free(&sb);
    return out;
}

/* The warnings of a row (newline-separated) onto its cells: the median's
 * interval to the sides whose "±" is not a percentage, the rest to the
 * comparison (to the one side present when there is none); "need >= N samples to detect a difference" marks it too
 * few for the U test (inconclusive, as on files). */
static void spread_warnings(struct arena *a, const char *w, struct cmp_cell *ca, struct cmp_cell *cb)
{
    for (const char *p = w; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *msg = arena_strndup(a, p, n);
        if (msg && strstr(msg, "samples for confidence interval")) {
            struct cmp_cell *c[2] = {ca, cb};
            for (int k = 0; k < 2; k++)
                if (c[k]->present && isnan(c[k]->pm) && c[k]->nwarn < CMP_MAXWARN) {
                    c[k]->pct = "∞";
                    c[k]->warn[c[k]->nwarn++] = msg;
                }
        } else if (msg && strstr(msg, CMP_SHIFT_SHORT)) {
            /* The table's own note says it, with the confidence reached
             * (compare/render.c), and benchstat's output has none. */
        } else if (msg && !(ca->present && cb->present)) {
            /* Not compared (the one side's values left out, say): the
             * table shows no comparison to hang it on, so the present
             * side's value carries it. */
            struct cmp_cell *c = ca->present ? ca : cb;
            if (c->nwarn < CMP_MAXWARN)
                c->warn[c->nwarn++] = msg;
        } else if (msg && cb->ncwarn < CMP_MAXWARN) {
            cb->cwarn[cb->ncwarn++] = msg;
            cb->too_few |= strncmp(msg, "need ", 5) == 0 && strstr(msg, " samples to detect a difference") != NULL;
        }
        p += n + (e != NULL);
    }
}

/* As on files (compare/stats.c): a comparison no outcome of the U test
 * could take to alpha, its values not all equal. */
static void too_few(struct cmp_cell *c, double alpha)
{
    for (int i = 0; i < c->ncwarn; i++)
        if (strcmp(c->cwarn[i], "all samples are equal") == 0)
            return;
    if (c->compared && c->tested && c->p_raw > alpha && cmp_best_p(c->n1, c->n2) > alpha)
        c->too_few = 1;
}

static void side_cell(struct arena *a, const struct view *v, size_t r, enum col n, enum col med, enum col pm,
                      double factor, struct cmp_cell *c)
{
    c->n = sqlite3_value_int64(at(v, r, n));
    c->present = c->n > 0 && !null_at(v, r, med);
    c->center = num_at(v, r, med) * factor;
    c->pm = null_at(v, r, pm) ? NAN : num_at(v, r, pm);
    char buf[32];
    if (isnan(c->pm))
        c->pct = "?";
    else {
        snprintf(buf, sizeof buf, "%.0f%%", c->pm);
        c->pct = arena_strdup(a, buf);
    }
}

/* Side b's comparison with side a, as the query judged it. */
static void comparison(struct arena *a, const struct view *v, size_t r, int adjusted, struct cmp_cell *ca,
                       struct cmp_cell *cb)
{
    if (!ca->present || !cb->present)
        return;
    cb->compared = 1;
    cb->n1 = ca->n;
    cb->n2 = cb->n;
    enum col pc = adjusted ? C_P_ADJUSTED : C_P;
    cb->tested = !null_at(v, r, pc);
    cb->p = cb->tested ? num_at(v, r, pc) : 0;
    cb->p_raw = null_at(v, r, C_P) ? 0 : num_at(v, r, C_P);
    cb->change = null_at(v, r, C_CHANGE) ? NAN : num_at(v, r, C_CHANGE);
    const char *verdict = text_at(v, r, C_VERDICT);
    cb->verdict = verdict ? arena_strdup(a, verdict) : NULL;
    char buf[40];
    if (verdict && strcmp(verdict, "~") == 0)
        cb->delta = "~";
    else if (isnan(cb->change))
        cb->delta = "?";
    else if (cb->change == 0)
        cb->delta = "0.00%";
    else {
        snprintf(buf, sizeof buf, "%+.2f%%", cb->change);
        cb->delta = arena_strdup(a, buf);
    }
    cb->regressed = !null_at(v, r, C_NO_REGRESSION) && num_at(v, r, C_NO_REGRESSION) == 0;
    cb->has_ci = !null_at(v, r, C_CHANGE_LO) && !null_at(v, r, C_CHANGE_HI);
    cb->ci_lo = num_at(v, r, C_CHANGE_LO);
    cb->ci_hi = num_at(v, r, C_CHANGE_HI);
}

static void geomean(struct arena *a, const struct view *v, size_t r, double factor, struct cmp_table *t)
{
    struct cmp_sum *s = t->sums;
    s[0].n = sqlite3_value_int64(at(v, r, C_N_A));
    s[1].n = sqlite3_value_int64(at(v, r, C_N_B));
    s[0].has_summary = !null_at(v, r, C_MEDIAN_A);
    s[0].summary = num_at(v, r, C_MEDIAN_A) * factor;
    s[1].has_summary = !null_at(v, r, C_MEDIAN_B);
    s[1].summary = num_at(v, r, C_MEDIAN_B) * factor;
    s[1].has_ratio = !null_at(v, r, C_CHANGE);
    s[1].ratio = num_at(v, r, C_CHANGE) / 100 + 1;
    const char *w = text_at(v, r, C_WARNINGS);
    for (const char *p = w; p && *p && s[1].nwarn < 3;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        s[1].warn[s[1].nwarn++] = arena_strndup(a, p, n);
        p += n + (e != NULL);
    }
}

/* The rows of one metric and unit: [r0, r1). */
struct span {
    size_t r0, r1;
    int table; /* the table it is shown in */
};

/* The spans of one metric whose units show alike (ns and s: sec) as table
 * t: its cells in their order, each side's values in the shown unit; the
 * geomean row the query's when there is one span, else from the cells,
 * as on files. */
static int one_table(struct cmp_model *m, const struct view *v, const struct span *sp, int nsp, json_t **params,
                     const struct compare_sides *s, int keep_pkg, int variants, int adjusted, struct cmp_table *t)
{
    struct arena *a = &m->arena;
    size_t r0 = sp[0].r0, nrows = 0;
    const char *metric = text_at(v, r0, C_METRIC), *unit = text_at(v, r0, C_UNIT);
    char tidy[256], lab[512];
    cmp_tidy_any(unit ? unit : "", tidy, sizeof tidy);
    if (!metric || strcmp(metric, "primary") == 0 || same(metric, unit))
        snprintf(lab, sizeof lab, "%s", tidy);
    else
        snprintf(lab, sizeof lab, "%s (%s)", metric, tidy);
    t->unit = arena_strdup(a, lab);
    t->metric = arena_strdup(a, metric ? metric : "");
    t->binary = cmp_unit_binary(unit ? unit : "");
    double f;
    cmp_unit_info(unit ? unit : "", &t->kind, &t->direction, &f);
    for (int k = 0; k < nsp; k++)
        nrows += sp[k].r1 - sp[k].r0;
    t->ncols = 2;
    t->cols = arena_alloc(a, 2 * sizeof *t->cols);
    t->sums = arena_alloc(a, 2 * sizeof *t->sums);
    t->rows = arena_alloc(a, nrows * sizeof *t->rows);
    t->cfg = arena_alloc(a, 2 * sizeof *t->cfg);
    if (!t->cols || !t->sums || !t->rows || !t->cfg)
        return -1;
    t->cols[0] = s->a;
    t->cols[1] = s->b;
    t->cfg[0] = arena_strdup(a, m->nfields ? pkg_of(params[r0]) : "");
    for (int k = 0; k < nsp; k++) {
        const char *u = text_at(v, sp[k].r0, C_UNIT);
        double factor = cmp_tidy_any(u ? u : "", tidy, sizeof tidy);
        for (size_t r = sp[k].r0; r < sp[k].r1; r++) {
            if (strcmp(text_at(v, r, C_KIND), "cell") != 0) {
                if (nsp == 1)
                    geomean(a, v, r, factor, t);
                continue;
            }
            struct cmp_row *row = &t->rows[t->nrows++];
            row->label = label(a, text_at(v, r, C_BENCHMARK), params[r], keep_pkg,
                               variants ? text_at(v, r, C_VARIANT) : NULL);
            row->cells = arena_alloc(a, 2 * sizeof *row->cells);
            if (!row->label || !row->cells)
                return -1;
            side_cell(a, v, r, C_N_A, C_MEDIAN_A, C_PM_A, factor, &row->cells[0]);
            side_cell(a, v, r, C_N_B, C_MEDIAN_B, C_PM_B, factor, &row->cells[1]);
            comparison(a, v, r, adjusted, &row->cells[0], &row->cells[1]);
            spread_warnings(a, text_at(v, r, C_WARNINGS), &row->cells[0], &row->cells[1]);
            too_few(&row->cells[1], m->alpha);
            m->compared += row->cells[1].compared;
            m->regressed += row->cells[1].regressed;
        }
    }
    /* several units in one table: the query's geomeans are each unit's */
    return nsp > 1 ? cmp_table_summarize(t, m->extras) : 0;
}

/* Whether spans a and b (rows of v) are shown in one table: one metric,
 * units shown alike. */
static int one_shown_unit(const struct view *v, const struct span *a, const struct span *b)
{
    if (!same(text_at(v, a->r0, C_METRIC), text_at(v, b->r0, C_METRIC)))
        return 0;
    const char *ua = text_at(v, a->r0, C_UNIT), *ub = text_at(v, b->r0, C_UNIT);
    char ta[256], tb[256];
    cmp_tidy_any(ua ? ua : "", ta, sizeof ta);
    cmp_tidy_any(ub ? ub : "", tb, sizeof tb);
    return strcmp(ta, tb) == 0;
}

int compare_rows_model(const struct rowset *rs, const struct compare_sides *s, const struct compare_judged *j,
                       struct cmp_model *m)
{
    const char *adjust = j->adjust;
    memset(m, 0, sizeof *m);
    struct view v = {.rs = rs};
    for (int c = 0; c < NCOLS; c++)
        if ((v.col[c] = rowset_column(rs, col_names[c])) < 0)
            return 1;
    for (size_t r = 0; r < rs->nrow; r++)
        if (null_at(&v, r, C_KIND))
            return 1;
    m->extras = j->extras;
    m->level = j->level;
    m->alpha = j->alpha;
    m->threshold = j->threshold;
    m->sides = arena_alloc(&m->arena, 2 * sizeof *m->sides);
    if (!m->sides)
        return -1;
    m->sides[0] = s->a;
    m->sides[1] = s->b;
    m->nsides = 2;
    m->adjust = !adjust || strcmp(adjust, "none") == 0 ? CMP_ADJUST_NONE
                : strcmp(adjust, "holm") == 0         ? CMP_ADJUST_HOLM
                                                      : CMP_ADJUST_BH;
    json_t **params = xcalloc(rs->nrow + 1, sizeof *params);
    if (!params)
        return -1;
    /* pkg shared by every row goes above the tables, as Go's files say it. */
    int one_pkg = 1, variants = 0;
    const char *pkg0 = NULL, *var0 = NULL;
    for (size_t r = 0; r < rs->nrow; r++) {
        /* Cells often share their params: parse a text once. */
        const char *pj = text_at(&v, r, C_PARAMS), *prev = r ? text_at(&v, r - 1, C_PARAMS) : NULL;
        params[r] = pj && prev && strcmp(pj, prev) == 0 ? json_incref(params[r - 1])
                    : pj                                 ? json_loads(pj, 0, NULL)
                                                         : NULL;
        const char *kind = text_at(&v, r, C_KIND);
        if (!kind || strcmp(kind, "cell") != 0) /* never NULL (refused above); said again for gcc -fanalyzer */
            continue;
        const char *pkg = pkg_of(params[r]), *var = text_at(&v, r, C_VARIANT);
        one_pkg &= !pkg0 || strcmp(pkg0, pkg) == 0;
        variants |= pkg0 && !same(var0, var);
        if (!pkg0)
            pkg0 = pkg, var0 = var;
    }
    m->nfields = one_pkg && pkg0 && *pkg0;
    m->fields = arena_alloc(&m->arena, sizeof *m->fields);
    m->tables = arena_alloc(&m->arena, (rs->nrow + 1) * sizeof *m->tables);
    int rc = !m->fields || !m->tables ? -1 : 0;
    if (m->fields)
        m->fields[0] = "pkg";
    /* The query's tables are per metric and unit as stored; units shown
     * alike (ns and s: sec) make one table, as on files. */
    struct span *sp = rc ? NULL : xcalloc(rs->nrow + 1, sizeof *sp), *tsp = sp ? xcalloc(rs->nrow + 1, sizeof *tsp) : NULL;
    int nsp = 0, ntab = 0;
    rc = rc || !sp || !tsp ? -1 : 0;
    for (size_t r0 = 0, r1; rc == 0 && r0 < rs->nrow; r0 = r1) {
        for (r1 = r0 + 1; r1 < rs->nrow && same(text_at(&v, r1, C_METRIC), text_at(&v, r0, C_METRIC)) &&
                          same(text_at(&v, r1, C_UNIT), text_at(&v, r0, C_UNIT));
             r1++)
            ;
        sp[nsp] = (struct span){r0, r1, ntab};
        for (int k = 0; k < nsp; k++)
            if (one_shown_unit(&v, &sp[k], &sp[nsp])) {
                sp[nsp].table = sp[k].table;
                break;
            }
        ntab += sp[nsp].table == ntab;
        nsp++;
    }
    for (int t = 0; rc == 0 && t < ntab; t++) {
        int n = 0;
        for (int k = 0; k < nsp; k++)
            if (sp[k].table == t)
                tsp[n++] = sp[k];
        rc = one_table(m, &v, tsp, n, params, s, !m->nfields, variants, m->adjust != CMP_ADJUST_NONE,
                       &m->tables[m->ntables++]);
    }
    free(sp);
    free(tsp);
    for (size_t r = 0; r < rs->nrow; r++)
        json_decref(params[r]);
    free(params);
    return rc || m->arena.failed ? -1 : 0;
}
