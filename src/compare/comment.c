/* The answer first (compare.h): a comparison counted per benchmark, its
 * changed cells, and the pull-request comment that leads with them
 * (docs/queries.md, "The pull-request comment"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/units.h"
#include "ingest/core/idmap.h"
#include "util/markdown.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const class_names[CMP_NCLASS] = {
    "slower", "worse", "faster", "better", "higher", "lower", "undetermined", "removed", "added", "inconclusive",
    "unchanged",
};
/* A benchmark counted in several metrics gets its most telling class, the
 * lowest rank: a change, then what could not be told, then unchanged,
 * and removed or added only when no metric of it was compared. */
static const int class_rank[CMP_NCLASS] = {
    [CMP_SLOWER] = 0,        [CMP_WORSE] = 1,     [CMP_FASTER] = 2,   [CMP_BETTER] = 3,
    [CMP_HIGHER] = 4,        [CMP_LOWER] = 5,     [CMP_UNKNOWN] = 6,  [CMP_INCONCLUSIVE] = 7,
    [CMP_UNCHANGED] = 8,     [CMP_REMOVED] = 9,   [CMP_ADDED] = 10,
};

const char *cmp_class_name(enum cmp_class c) { return c < CMP_NCLASS ? class_names[c] : "?"; }

int cmp_cell_changed(const struct cmp_cell *c)
{
    return c->present && c->compared && c->verdict && strcmp(c->verdict, "~") != 0 && strcmp(c->verdict, "same") != 0;
}

/* The class of a side's cell against the baseline's (either may be NULL:
 * the row has none). */
static enum cmp_class classify(const struct cmp_cell *base, const struct cmp_cell *c)
{
    int hb = base && base->present, hc = c && c->present;
    if (hb && !hc)
        return CMP_REMOVED;
    if (!hb)
        return CMP_ADDED;
    if (!cmp_cell_changed(c)) {
        /* benchstat's "~" where no outcome of the test could reach alpha
         * (n = 1+1, 3+3, 3+4: cmp_best_p): not evidence that nothing
         * changed. */
        if (c->compared && c->too_few && c->verdict && strcmp(c->verdict, "~") == 0)
            return CMP_INCONCLUSIVE;
        return CMP_UNCHANGED;
    }
    for (int k = CMP_SLOWER; k <= CMP_LOWER; k++)
        if (strcmp(c->verdict, class_names[k]) == 0)
            return (enum cmp_class)k;
    return CMP_UNKNOWN;
}

/* The table's column of side label, or -1. */
static int column_of(const struct cmp_table *t, const char *label)
{
    for (int e = 0; e < t->ncols; e++)
        if (strcmp(t->cols[e], label) == 0)
            return e;
    return -1;
}

/* A benchmark's key: side, configuration, full name (NUL-separated). */
static int bench_key(struct strbuf *sb, const struct cmp_model *m, const struct cmp_table *t, const char *side,
                     const char *label)
{
    sb->len = 0;
    int rc = sb_append(sb, side, strlen(side) + 1);
    for (int f = 0; f < m->nfields; f++)
        rc |= sb_append(sb, t->cfg[f], strlen(t->cfg[f]) + 1);
    return rc | sb_append(sb, label, strlen(label));
}

/* A benchmark as counted: its class (its most telling over its metrics),
 * the side compared with the baseline, its name. */
struct counted {
    enum cmp_class k;
    int side;
    const char *label;
    int regressed; /* some cell of it regressed (slower or worse by more than the threshold) */
};

/* Counts m's benchmarks into c and, when v is given, hands back each
 * (side, benchmark) counted with its class, in the model's order (*v
 * malloc'd, *nv of them). 0, or -1 when memory ran out. */
static int count_walk(const struct cmp_model *m, struct cmp_counts *c, struct counted **v, size_t *nv)
{
    memset(c, 0, sizeof *c);
    struct idmap seen = {0}, names = {0};
    struct counted *cls = NULL;
    size_t ncls = 0, cap = 0;
    struct strbuf key = {0};
    int rc = 0;
    const char *base = m->nsides ? m->sides[0] : NULL;
    for (size_t i = 0; rc == 0 && base && i < m->ntables; i++) {
        const struct cmp_table *t = &m->tables[i];
        int b = column_of(t, base);
        for (int s = 1; rc == 0 && s < m->nsides; s++) {
            int e = column_of(t, m->sides[s]);
            if (e < 0 && b < 0)
                continue;
            for (size_t r = 0; rc == 0 && r < t->nrows; r++) {
                const struct cmp_cell *cb = b >= 0 ? &t->rows[r].cells[b] : NULL;
                const struct cmp_cell *ce = e >= 0 ? &t->rows[r].cells[e] : NULL;
                if (!(cb && cb->present) && !(ce && ce->present))
                    continue;
                enum cmp_class k = classify(cb, ce);
                if (ce && ce->compared && k != CMP_INCONCLUSIVE)
                    c->judged++;
                if (ce && ce->compared) {
                    int first = c->n1hi == 0;
                    c->n1lo = first || ce->n1 < c->n1lo ? ce->n1 : c->n1lo;
                    c->n1hi = ce->n1 > c->n1hi ? ce->n1 : c->n1hi;
                    c->n2lo = first || ce->n2 < c->n2lo ? ce->n2 : c->n2lo;
                    c->n2hi = ce->n2 > c->n2hi ? ce->n2 : c->n2hi;
                }
                /* the benchmark, whatever the side */
                if ((rc = bench_key(&key, m, t, "", t->rows[r].label)) != 0)
                    break;
                if (!idmap_get(&names, key.buf, key.len) && (rc = idmap_put(&names, key.buf, key.len, 0)) == 0)
                    c->names++;
                if (rc || (rc = bench_key(&key, m, t, m->sides[s], t->rows[r].label)) != 0)
                    break;
                int64_t *at = idmap_get(&seen, key.buf, key.len);
                if (at) {
                    /* A benchmark measured in several metrics: its most telling verdict. */
                    if (class_rank[k] < class_rank[cls[*at].k])
                        cls[*at].k = k;
                    cls[*at].regressed |= ce && ce->regressed;
                    continue;
                }
                if (ncls == cap) {
                    size_t ncap = cap ? 2 * cap : 64;
                    struct counted *nc = xreallocarray(cls, ncap, sizeof *nc);
                    if (!nc) {
                        rc = -1;
                        break;
                    }
                    cls = nc;
                    cap = ncap;
                }
                cls[ncls] = (struct counted){k, s, t->rows[r].label, ce && ce->regressed};
                rc = idmap_put(&seen, key.buf, key.len, (int64_t)ncls);
                ncls++;
            }
        }
    }
    for (size_t i = 0; i < ncls; i++) {
        c->n[cls[i].k]++;
        /* slower or worse, but by no more than the threshold: not what the gate fails on */
        if ((cls[i].k == CMP_SLOWER || cls[i].k == CMP_WORSE) && !cls[i].regressed)
            c->by_less[cls[i].k == CMP_WORSE]++;
        /* one the harness reported failed where it is missing (--gate-strict says it so) */
        if (cls[i].k == CMP_REMOVED && cmp_failures_in(&m->failures, cls[i].label, m->sides[cls[i].side]))
            c->removed_failed++;
    }
    c->benchmarks = ncls;
    idmap_free(&seen);
    idmap_free(&names);
    sb_free(&key);
    if (rc == 0 && v) {
        *v = cls;
        *nv = ncls;
    } else
        free(cls);
    return rc ? -1 : 0;
}

int cmp_count(const struct cmp_model *m, struct cmp_counts *c) { return count_walk(m, c, NULL, NULL); }

char *cmp_nothing_judged(const struct cmp_model *m, const struct cmp_counts *c, int *unmet)
{
    *unmet = !m->compared && m->nsides >= 2;
    if (!*unmet && !cmp_counts_none_judged(c))
        return NULL;
    char *words = cmp_counts_words(c), *why = *unmet ? cmp_nothing_compared_why(m) : NULL;
    struct strbuf sb = {0};
    char alpha[40];
    cmp_go_float(m->alpha, alpha, sizeof alpha);
    if (words && *unmet && why)
        sb_printf(&sb, "nothing compared (%s): %s", words, why);
    else if (words && !*unmet)
        sb_printf(&sb, "inconclusive (%s): no cell has samples enough for the U test to reach p ≤ %s, so none "
                       "could be judged slower or faster",
                  words, alpha);
    free(words);
    free(why);
    if (!sb.len || sb.failed) {
        sb_free(&sb);
        *unmet = -1;
        return NULL;
    }
    return xsb_detach(&sb);
}

static const char *gate_word(const struct cmp_model *m, const struct cmp_counts *c)
{
    return !m->compared ? "nothing compared" : m->regressed ? "fails" : cmp_gate_incomplete(m, c) ? "incomplete" : "passes";
}

char *cmp_counts_json(const struct cmp_model *m, const struct cmp_counts *c)
{
    struct strbuf sb = {0};
    int rc = sb_putc(&sb, '{');
    for (int k = 0; k < CMP_NCLASS; k++) {
        size_t less = k == CMP_SLOWER || k == CMP_WORSE ? c->by_less[k == CMP_WORSE] : 0;
        rc |= sb_printf(&sb, "\"%s\": %zu, ", class_names[k], c->n[k] - less);
        if (k == CMP_SLOWER || k == CMP_WORSE) /* with a threshold: those the gate lets pass */
            rc |= sb_printf(&sb, "\"%s_by_less\": %zu, ", class_names[k], less);
    }
    /* cells_judged: the compared cells the test could judge; 0 beside
     * "passes" is the comment's "passes, judging no cell". */
    rc |= sb_printf(&sb,
                    "\"benchmarks\": %zu, \"cells_compared\": %zu, \"cells_judged\": %zu, \"regressed\": %zu, "
                    "\"gate\": \"%s\"}",
                    c->benchmarks, m->compared, c->judged, m->regressed, gate_word(m, c));
    if (rc) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

static int put_range(struct strbuf *sb, int64_t lo, int64_t hi)
{
    return lo == hi ? sb_printf(sb, "%lld", (long long)lo)
                    : sb_printf(sb, "%lld to %lld", (long long)lo, (long long)hi);
}

/* The compared cells' sample counts: "n = 10+10" when every cell has as
 * many on each side (benchstat's way), else each side's in words, "n = 1
 * to 10 per cell in base, 10 in head" ("1–10+1–10" read as arithmetic). */
static int put_counts_n(struct strbuf *sb, const struct cmp_model *m, const struct cmp_counts *c)
{
    if (c->n1lo == c->n1hi && c->n2lo == c->n2hi)
        return sb_printf(sb, "; n = %lld+%lld", (long long)c->n1lo, (long long)c->n2lo);
    int rc = sb_puts(sb, "; n = ");
    rc |= put_range(sb, c->n1lo, c->n1hi);
    rc |= sb_puts(sb, " per cell in ");
    rc |= sb_put_markdown(sb, m->sides[0], strlen(m->sides[0]), MD_TEXT);
    rc |= sb_puts(sb, ", ");
    rc |= put_range(sb, c->n2lo, c->n2hi);
    if (m->nsides > 2)
        return rc | sb_puts(sb, " in the others");
    rc |= sb_puts(sb, " in ");
    return rc | sb_put_markdown(sb, m->sides[1], strlen(m->sides[1]), MD_TEXT);
}

/* "2 slower, 1 faster, 27 unchanged": slower, faster and unchanged
 * always, the other classes when there are any; with a threshold, those
 * slower or worse by no more than it apart, after them ("1 slower, 1
 * slower by less"), since the gate does not fail on them. */
static int put_counts(struct strbuf *sb, const struct cmp_counts *c)
{
    static const enum cmp_class order[] = {CMP_SLOWER, CMP_WORSE,   CMP_FASTER,  CMP_BETTER, CMP_HIGHER,
                                           CMP_LOWER,  CMP_UNKNOWN, CMP_REMOVED, CMP_ADDED,  CMP_INCONCLUSIVE,
                                           CMP_UNCHANGED};
    int rc = 0, n = 0;
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        enum cmp_class k = order[i];
        size_t less = k == CMP_SLOWER || k == CMP_WORSE ? c->by_less[k == CMP_WORSE] : 0;
        if (c->n[k] - less || k == CMP_SLOWER || k == CMP_FASTER || k == CMP_UNCHANGED)
            rc |= sb_printf(sb, "%s%zu %s", n++ ? ", " : "", c->n[k] - less, class_names[k]);
        if (less)
            rc |= sb_printf(sb, ", %zu %s by less", less, class_names[k]);
    }
    return rc;
}

char *cmp_after_verdict(const struct cmp_model *m, const struct cmp_counts *c)
{
    struct strbuf sb = {0};
    int rc = 0;
    if (m->threshold > 0) {
        /* "no regression" beside "1 slower" reads as a contradiction
         * unless the threshold that let the slower cell pass is said. */
        char th[40];
        cmp_go_float(m->threshold, th, sizeof th);
        rc |= sb_printf(&sb, " by more than %s%%", th);
    }
    rc |= sb_puts(&sb, " (");
    rc |= put_counts(&sb, c);
    if (m->nsides > 2) /* a benchmark counted once per side: 13 of 5 benchmarks, say */
        rc |= sb_printf(&sb, "; %d sides, each against the first", m->nsides);
    rc |= sb_putc(&sb, ')');
    if (rc) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

char *cmp_counts_words(const struct cmp_counts *c)
{
    struct strbuf sb = {0};
    if (put_counts(&sb, c)) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

char *cmp_summary_markdown(const struct cmp_model *m, const struct cmp_counts *c)
{
    struct strbuf sb = {0};
    int rc = 0;
    if (!m->compared && m->nsides >= 2) {
        char *why = cmp_nothing_compared_why(m);
        rc |= !why || sb_puts(&sb, "**Nothing compared** (");
        rc |= put_counts(&sb, c);
        rc |= sb_puts(&sb, "): ");
        rc |= why ? sb_put_markdown(&sb, why, strlen(why), MD_TEXT) : 0; /* it names the sides and configurations */
        rc |= sb_printf(&sb, " — gate: %s", gate_word(m, c));
        rc |= cmp_failures_clause(&sb, &m->failures, 1);
        free(why);
        if (rc) {
            sb_free(&sb);
            return NULL;
        }
        return xsb_detach(&sb);
    }
    rc |= sb_puts(&sb, "**");
    rc |= put_counts(&sb, c);
    rc |= sb_puts(&sb, "**");
    char alpha[40];
    cmp_go_float(m->alpha, alpha, sizeof alpha);
    rc |= sb_puts(&sb, " (");
    if (m->nsides > 2) /* in the same parentheses: "(3 sides, each against the first; unchanged: ..." */
        rc |= sb_printf(&sb, "%d sides, each against the first; ", m->nsides);
    rc |= sb_printf(&sb, "unchanged: p > %s, Mann–Whitney U test", alpha);
    if (m->adjust != CMP_ADJUST_NONE)
        rc |= sb_puts(&sb, m->adjust == CMP_ADJUST_HOLM ? ", Holm-adjusted" : ", Benjamini-Hochberg-adjusted");
    if (c->n[CMP_INCONCLUSIVE])
        rc |= sb_printf(&sb, "; inconclusive: too few samples for p ≤ %s", alpha);
    if (c->n1hi)
        rc |= put_counts_n(&sb, m, c);
    rc |= sb_printf(&sb, ") — gate: %s", gate_word(m, c));
    if (cmp_gate_incomplete(m, c)) {
        char *why = cmp_gate_incomplete_why(m, c, 1);
        rc |= !why || sb_printf(&sb, " (%s)", why);
        free(why);
    } else if (cmp_counts_none_judged(c))
        rc |= sb_puts(&sb, ", judging no cell: none has samples enough for p ≤ ") || sb_puts(&sb, alpha);
    if (m->threshold > 0) {
        char th[40];
        cmp_go_float(m->threshold, th, sizeof th);
        rc |= sb_printf(&sb, " (it fails on a cell slower or worse by more than %s%%)", th);
    }
    rc |= cmp_failures_clause(&sb, &m->failures, 1);
    if (rc) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

void cmp_model_only_changed(struct cmp_model *m)
{
    size_t nt = 0;
    for (size_t i = 0; i < m->ntables; i++) {
        struct cmp_table *t = &m->tables[i];
        size_t nr = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            int changed = 0;
            for (int e = 1; e < t->ncols; e++)
                changed |= cmp_cell_changed(&t->rows[r].cells[e]);
            if (changed)
                t->rows[nr++] = t->rows[r];
        }
        t->nrows = nr;
        if (nr)
            m->tables[nt++] = *t;
    }
    m->ntables = nt;
    m->only_changed = 1;
}

/* ---- the comment ---- */

/* One changed cell: table, row, side column. */
struct changed {
    const struct cmp_table *t;
    const struct cmp_row *row;
    int e;
    enum cmp_class k;
    size_t r, table; /* the row's place in its table, the table's in the model */
    double size;     /* the largest |change| of the row's cells in this class (by_size) */
};

/* By class and row: the order in which by_size's sizes are found. */
static int by_row(const void *x, const void *y)
{
    const struct changed *a = x, *b = y;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    return (a->r > b->r) - (a->r < b->r);
}

/* By class, slower first; within a class the largest change first, a
 * benchmark's metrics (sec/op, B/s) together, by its largest; then by row,
 * table and side. */
static int by_size(const void *x, const void *y)
{
    const struct changed *a = x, *b = y;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    /* sizes equal as shown (+25.00% and +25.00%) keep the rows' order */
    if (fabs(a->size - b->size) > 1e-9 * fmax(a->size, b->size))
        return a->size > b->size ? -1 : 1;
    if (a->r != b->r)
        return a->r < b->r ? -1 : 1;
    if (a->table != b->table)
        return a->table < b->table ? -1 : 1;
    return (a->e > b->e) - (a->e < b->e);
}

static int put_md(struct strbuf *sb, const char *s)
{
    return sb_put_markdown(sb, s, strlen(s), MD_CELL);
}

/* A side's value as benchstat shows it: "46.55n ± 9%". */
static int put_value(struct strbuf *sb, const struct cmp_scaler *sc, const struct cmp_cell *c)
{
    char buf[64];
    cmp_scale_format(sc, c->center, buf, sizeof buf);
    return sb_printf(sb, "%s ± %s", buf, c->pct ? c->pct : "?");
}

static int changed_row(struct strbuf *sb, const struct cmp_model *m, const struct changed *x, int with_unit,
                       int with_side, int inconclusive)
{
    const struct cmp_cell *base = &x->row->cells[0], *c = &x->row->cells[x->e];
    double centers[2] = {base->center, c->center};
    struct cmp_scaler sc = cmp_common_scale(centers, 2, x->t->binary);
    int rc = sb_puts(sb, "| ");
    rc |= put_md(sb, x->row->label);
    if (with_unit) {
        rc |= sb_puts(sb, " | ");
        rc |= put_md(sb, x->t->unit);
    }
    if (with_side) {
        rc |= sb_puts(sb, " | ");
        rc |= put_md(sb, x->t->cols[x->e]);
    }
    rc |= sb_puts(sb, " | ");
    rc |= put_value(sb, &sc, base);
    rc |= sb_puts(sb, " | ");
    rc |= put_value(sb, &sc, c);
    if (inconclusive && !isnan(c->change)) /* the change as measured, where benchstat shows "~" */
        rc |= sb_printf(sb, " | %+.2f%% | ", c->change);
    else
        rc |= sb_printf(sb, " | %s | ", c->delta ? c->delta : "?");
    if (c->tested)
        rc |= sb_printf(sb, "%.3f", c->p);
    if (m->extras)
        rc |= sb_printf(sb, " | %s", inconclusive ? "inconclusive" : c->verdict);
    return rc | sb_puts(sb, " |\n");
}

/* The table of the changed cells, slower first, the largest change first
 * within a class (by_size); or (inconclusive) of the cells too small to test, after
 * a line saying so, nothing when there are none. */
static int changed_table(struct strbuf *sb, const struct cmp_model *m, int inconclusive)
{
    size_t n = 0, cap = 0;
    struct changed *v = NULL;
    int rc = 0;
    /* A unit column: the values are scaled numbers (46.55n) whose unit is
     * the table's (sec/op, real_time (sec), B/op). */
    const int with_unit = 1;
    for (size_t i = 0; rc == 0 && i < m->ntables; i++)
        for (size_t r = 0; rc == 0 && r < m->tables[i].nrows; r++)
            for (int e = 1; e < m->tables[i].ncols; e++) {
                const struct cmp_row *row = &m->tables[i].rows[r];
                if (inconclusive ? classify(&row->cells[0], &row->cells[e]) != CMP_INCONCLUSIVE
                                 : !cmp_cell_changed(&row->cells[e]))
                    continue;
                if (n == cap) {
                    size_t ncap = cap ? 2 * cap : 32;
                    struct changed *nv = xreallocarray(v, ncap, sizeof *nv);
                    if (!nv) {
                        rc = -1;
                        break;
                    }
                    v = nv;
                    cap = ncap;
                }
                v[n] = (struct changed){&m->tables[i], row, e, classify(&row->cells[0], &row->cells[e]), r, i, 0};
                n++;
            }
    if (rc == 0 && n == 0) {
        free(v);
        return inconclusive ? 0 : sb_puts(sb, m->compared ? "No cell changed.\n" : "No cell was compared.\n");
    }
    if (inconclusive) {
        char alpha[40];
        cmp_go_float(m->alpha, alpha, sizeof alpha);
        rc |= sb_printf(sb, "\nInconclusive: too few samples for the U test to reach p ≤ %s; the change as "
                            "measured, not a verdict:\n\n", alpha);
    }
    qsort(v, n, sizeof *v, by_row);
    for (size_t i = 0, j; i < n; i = j) { /* each row's largest |change| in its class */
        double size = 0;
        for (j = i; j < n && v[j].k == v[i].k && v[j].r == v[i].r; j++)
            if (isfinite(v[j].row->cells[v[j].e].change) && fabs(v[j].row->cells[v[j].e].change) > size)
                size = fabs(v[j].row->cells[v[j].e].change);
        for (size_t k = i; k < j; k++)
            v[k].size = size;
    }
    qsort(v, n, sizeof *v, by_size);
    int with_side = m->nsides > 2;
    const char *base = m->nsides ? m->sides[0] : "base";
    rc |= sb_puts(sb, "| benchmark");
    if (with_unit)
        rc |= sb_puts(sb, " | unit");
    if (with_side)
        rc |= sb_puts(sb, " | side");
    rc |= sb_puts(sb, " | ");
    for (int col = 0; col < 2; col++) {
        if (col)
            rc |= sb_puts(sb, " | ");
        if (col == 0)
            rc |= put_md(sb, base);
        else
            rc |= with_side ? sb_puts(sb, "value") : put_md(sb, m->nsides > 1 ? m->sides[1] : "head");
    }
    rc |= sb_puts(sb, m->adjust == CMP_ADJUST_NONE ? " | change | p" : " | change | p (adjusted)");
    rc |= sb_puts(sb, m->extras ? " | verdict |\n" : " |\n");
    rc |= sb_puts(sb, "| --- |");
    for (int k = 0; k < with_unit + with_side; k++)
        rc |= sb_puts(sb, " --- |");
    rc |= sb_puts(sb, " ---: | ---: | ---: | ---: |");
    rc |= sb_puts(sb, m->extras ? " --- |\n" : "\n");
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = changed_row(sb, m, &v[i], with_unit, with_side, inconclusive);
    free(v);
    return rc ? -1 : 0;
}

/* The benchmarks the first line counts removed or added, named: a list
 * item per side and class, "1 removed (in base.json, not in head.json):
 * BM_Parse", "BM_Parse (failed)" where the harness reported it failed
 * in the side that lacks it, ten names at most ("and 26 more"); nothing
 * when there are none. A benchmark gone from a side (renamed, skipped, failed) is a
 * change the tables above do not show. */
#define GONE_NAMED 10
static int one_side_only(struct strbuf *sb, const struct cmp_model *m)
{
    struct cmp_counts c;
    struct counted *v = NULL;
    size_t nv = 0;
    if (count_walk(m, &c, &v, &nv))
        return -1;
    int rc = 0, items = 0;
    for (int s = 1; s < m->nsides; s++)
        for (int added = 0; added < 2; added++) {
            enum cmp_class k = added ? CMP_ADDED : CMP_REMOVED;
            size_t n = 0;
            for (size_t i = 0; i < nv; i++)
                n += v[i].side == s && v[i].k == k;
            if (!n)
                continue;
            const char *in = added ? m->sides[s] : m->sides[0], *not_in = added ? m->sides[0] : m->sides[s];
            rc |= sb_printf(sb, "%s- %zu %s (in ", items++ ? "" : "\n", n, class_names[k]);
            rc |= sb_put_markdown(sb, in, strlen(in), MD_TEXT);
            rc |= sb_puts(sb, ", not in ");
            rc |= sb_put_markdown(sb, not_in, strlen(not_in), MD_TEXT);
            rc |= sb_puts(sb, "): ");
            size_t shown = 0;
            for (size_t i = 0; i < nv && shown < GONE_NAMED; i++)
                if (v[i].side == s && v[i].k == k) {
                    rc |= sb_puts(sb, shown++ ? ", " : "");
                    rc |= sb_put_markdown(sb, v[i].label, strlen(v[i].label), MD_TEXT);
                    if (cmp_failures_in(&m->failures, v[i].label, not_in))
                        rc |= sb_puts(sb, " (failed)");
                }
            if (n > shown)
                rc |= sb_printf(sb, " and %zu more", n - shown);
            rc |= sb_putc(sb, '\n');
        }
    free(v);
    return rc ? -1 : 0;
}

/* The whole comparison as benchstat's text, in a code fence longer than
 * any run of backticks in it (so that no name can close it). */
static int details(struct strbuf *sb, struct cmp_model *m, const struct cmp_counts *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return -1;
    int rc = cmp_print_text(m, f);
    rc |= fclose(f) ? -1 : 0;
    if (rc || !text) {
        free(text);
        return -1;
    }
    size_t run = 0, longest = 0;
    for (size_t i = 0; i < len; i++) {
        run = text[i] == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    size_t fence = longest >= 3 ? longest + 1 : 3;
    rc |= sb_printf(sb, "\n<details><summary>All %zu benchmark%s, as benchstat prints them</summary>\n\n",
                    c->names, c->names == 1 ? "" : "s");
    for (size_t i = 0; i < fence; i++)
        rc |= sb_putc(sb, '`');
    rc |= sb_puts(sb, "text\n");
    rc |= sb_append(sb, text, len);
    for (size_t i = 0; i < fence; i++)
        rc |= sb_putc(sb, '`');
    rc |= sb_puts(sb, "\n\n</details>\n");
    free(text);
    return rc ? -1 : 0;
}

int cmp_print_comment(struct cmp_model *m, FILE *out)
{
    struct cmp_counts c;
    struct strbuf sb = {0};
    char *line = NULL;
    int rc = cmp_count(m, &c);
    if (rc == 0 && !(line = cmp_summary_markdown(m, &c)))
        rc = -1;
    if (rc == 0)
        rc = sb_printf(&sb, "%s\n\n", line);
    if (rc == 0 && m->failures.n > CMP_FAILURES_SHOWN)
        rc = cmp_failures_list(&sb, &m->failures);
    if (rc == 0)
        rc = changed_table(&sb, m, 0);
    if (rc == 0)
        rc = changed_table(&sb, m, 1);
    if (rc == 0)
        rc = one_side_only(&sb, m);
    if (rc == 0)
        rc = details(&sb, m, &c);
    if (rc == 0 && sb.len && fwrite(sb.buf, 1, sb.len, out) != sb.len)
        rc = -1;
    free(line);
    sb_free(&sb);
    return rc || ferror(out) ? -1 : 0;
}
