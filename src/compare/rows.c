/* The model as rows with the saved query `compare`'s columns (its CSV,
 * JSON, Markdown and vertical output), led by the sides' labels a and b:
 * per table and column after the first, a row per benchmark either side
 * has, then the geomean row. A table of the baseline's column alone gives
 * its rows with b empty; a table without the baseline's column (a metric
 * or unit only the other sides have) gives each column's rows with a the
 * baseline and n_a 0, as a store's compare does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const names[] = {
    "a", "b", "kind", "benchmark", "params", "variant", "metric", "unit", "n_a", "median_a", "pm_a", "n_b",
    "median_b", "pm_b", "change", "change_lo", "change_hi", "p", "p_adjusted", "verdict", "warnings",
    "no_regression", "summary", "is_geomean", "inconclusive",
};
enum { A, B, KIND, BENCHMARK, PARAMS, VARIANT, METRIC, UNIT, N_A, MEDIAN_A, PM_A, N_B, MEDIAN_B, PM_B, CHANGE,
       CHANGE_LO, CHANGE_HI, P, P_ADJUSTED, VERDICT, WARNINGS, NO_REGRESSION, SUMMARY, IS_GEOMEAN,
       INCONCLUSIVE, NCOLS };

static void real(struct rowset_builder *rb, int col, double x, int have)
{
    if (have && !isnan(x))
        rb_double(rb, col, x);
}

static void add_warnings(struct strbuf *sb, const char *const *w, int n)
{
    for (int i = 0; i < n; i++)
        if (!strstr(sb->buf ? sb->buf : "", w[i]))
            sb_printf(sb, "%s%s", sb->len ? "\n" : "", w[i]);
}

/* The table's configuration as a JSON object (its params). */
static char *params_json(const struct cmp_model *m, const struct cmp_table *t)
{
    struct strbuf sb = {0};
    sb_putc(&sb, '{');
    for (int f = 0; f < m->nfields; f++)
        if (*t->cfg[f]) {
            if (sb.len > 1)
                sb_putc(&sb, ',');
            sb_json_string(&sb, m->fields[f], strlen(m->fields[f]));
            sb_putc(&sb, ':');
            sb_json_string(&sb, t->cfg[f], strlen(t->cfg[f]));
        }
    sb_putc(&sb, '}');
    return xsb_detach(&sb);
}

static void side(struct rowset_builder *rb, int n, int median, int pm, const struct cmp_cell *c)
{
    rb_int(rb, n, c && c->present ? c->n : 0);
    if (c) {
        real(rb, median, c->center, c->present);
        real(rb, pm, c->pm, c->present);
    }
}

/* A row of side b's cell against side a's (either may be NULL: the table
 * has no column for it). */
static void cell_row(struct rowset_builder *rb, double level, const struct cmp_row *r, const struct cmp_cell *a,
                     const struct cmp_cell *b)
{
    rb_text(rb, KIND, "cell");
    rb_text(rb, BENCHMARK, r->label);
    side(rb, N_A, MEDIAN_A, PM_A, a);
    side(rb, N_B, MEDIAN_B, PM_B, b);
    struct strbuf w = {0};
    if (a)
        add_warnings(&w, a->warn, a->nwarn);
    if (a && b && b->compared) {
        real(rb, CHANGE, b->change, 1);
        real(rb, CHANGE_LO, b->ci_lo, b->has_ci);
        real(rb, CHANGE_HI, b->ci_hi, b->has_ci);
        real(rb, P, b->p_raw, b->tested);
        real(rb, P_ADJUSTED, b->p, b->tested);
        rb_text(rb, VERDICT, b->verdict);
        add_warnings(&w, b->cwarn, b->ncwarn);
        if (b->has_ci && 1 - cmp_best_p(b->n1, b->n2) < level) { /* as the saved query compare says it */
            char msg[160];
            cmp_shift_short(msg, sizeof msg, b->n1, b->n2, level);
            const char *one[] = {msg};
            add_warnings(&w, one, 1);
        }
    }
    if (b)
        add_warnings(&w, b->warn, b->nwarn);
    rb_text(rb, WARNINGS, w.len ? xsb_text(&w) : NULL);
    rb_int(rb, NO_REGRESSION, a && b && b->regressed ? 0 : 1);
    /* A ~ no outcome of the U test could take to alpha (as the text's
     * "inconclusive", and the saved query's column). */
    rb_int(rb, INCONCLUSIVE, a && a->present && b && b->present && b->compared && b->too_few && b->verdict &&
                                 strcmp(b->verdict, "~") == 0);
    sb_free(&w);
}

static void geomean_row(struct rowset_builder *rb, const struct cmp_sum *a, const struct cmp_sum *b)
{
    rb_text(rb, KIND, "geomean");
    rb_int(rb, N_A, a ? a->n : 0);
    if (a)
        real(rb, MEDIAN_A, a->summary, a->has_summary);
    rb_int(rb, N_B, b ? b->n : 0);
    if (b) {
        real(rb, MEDIAN_B, b->summary, b->has_summary);
        if (a)
            real(rb, CHANGE, (b->ratio - 1) * 100, b->has_ratio);
    }
    struct strbuf w = {0};
    if (a)
        add_warnings(&w, a->warn, a->nwarn);
    if (b)
        add_warnings(&w, b->warn, b->nwarn);
    rb_text(rb, WARNINGS, w.len ? xsb_text(&w) : NULL);
    rb_int(rb, NO_REGRESSION, 1);
    rb_int(rb, IS_GEOMEAN, 1);
    rb_int(rb, INCONCLUSIVE, 0);
    sb_free(&w);
}

int cmp_model_rows(const struct cmp_model *m, double alpha, double threshold, struct rowset *rs, char **err)
{
    (void)alpha;
    (void)threshold;
    struct rowset_builder rb;
    rowset_builder_start(&rb, rs, NCOLS, names);
    const char *summary = m->regressed ? "regressed" : "no regression";
    for (size_t i = 0; i < m->ntables; i++) {
        const struct cmp_table *t = &m->tables[i];
        char *params = params_json(m, t);
        /* base: the table has the baseline's column (its first) */
        int base = m->nsides > 0 && strcmp(t->cols[0], m->sides[0]) == 0;
        int j0 = base && t->ncols > 1 ? 1 : 0, j1 = base && t->ncols == 1 ? 1 : t->ncols;
        for (int j = j0; j < j1; j++) {
            int has_b = !base || j > 0; /* column j is a side b; compared when base */
            for (size_t r = 0; r <= t->nrows; r++) {
                const struct cmp_row *row = r < t->nrows ? &t->rows[r] : NULL;
                const struct cmp_cell *ca = base && row ? &row->cells[0] : NULL;
                const struct cmp_cell *cb = has_b && row ? &row->cells[j] : NULL;
                if (m->only_changed && (!row || !base || !cb || !cmp_cell_changed(cb)))
                    continue;
                if (row && !(ca && ca->present) && !(cb && cb->present))
                    continue;
                rb_text(&rb, A, base ? t->cols[0] : m->sides[0]);
                rb_text(&rb, B, has_b ? t->cols[j] : NULL);
                rb_text(&rb, PARAMS, params);
                rb_text(&rb, METRIC, t->metric);
                rb_text(&rb, UNIT, t->unit);
                rb_text(&rb, SUMMARY, summary);
                rb_int(&rb, IS_GEOMEAN, 0);
                if (row)
                    cell_row(&rb, m->level, row, ca, cb);
                else
                    geomean_row(&rb, base ? &t->sums[0] : NULL, has_b ? &t->sums[j] : NULL);
                rb_row(&rb);
            }
        }
        free(params);
    }
    return rowset_builder_finish(&rb, err);
}
