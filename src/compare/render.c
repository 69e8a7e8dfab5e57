/* The model as benchstat's text (golang.org/x/perf
 * cmd/benchstat/internal/benchtab: Tables.ToText and Table.ToText), cell
 * for cell, then benchdb's columns after benchstat's: the change's
 * interval and the verdict of each comparison. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/texttab.h"
#include "compare/units.h"
#include "util/text.h"

#define CENTER_COLS 3 /* <center> <± pct> <notes> */
#define DELTA_COLS 3  /* <delta> <(p=... n=...)> <notes> */

/* s as a person may see it: control characters and bytes that are not
 * UTF-8 escaped (util/text.h), so that names read from files cannot
 * drive the terminal. */
static const char *shown(struct arena *a, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p >= 0x20 && *p < 0x7f)
        p++;
    if (!*p)
        return s;
    char *e = text_escape_controls(s);
    const char *out = arena_strdup(a, e);
    free(e);
    return out ? out : "";
}

static int start_col(int exp)
{
    return exp == 0 ? 1 : 1 + CENTER_COLS + (exp - 1) * (CENTER_COLS + DELTA_COLS);
}

/* The table's notes, numbered in order of first use. */
struct notes {
    const char *msg[64];
    int n;
};

static void superscript(int i, char *buf)
{
    static const char *const digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    char rev[16][4];
    int k = 0;
    for (; i > 0 && k < 16; i /= 10)
        strcpy(rev[k++], digits[i % 10]);
    buf[0] = 0;
    while (k-- > 0)
        strcat(buf, rev[k]);
}

/* msg's mark ("¹"), msg numbered at its first use. */
static void note_mark(struct notes *nt, const char *msg, char *mark)
{
    int i = 0;
    while (i < nt->n && strcmp(nt->msg[i], msg) != 0)
        i++;
    if (i == nt->n && nt->n < 64)
        nt->msg[nt->n++] = msg;
    superscript(i + 1, mark);
}

/* A cell with the marks of msgs (and of more, when given). */
static void warn(struct texttab *t, struct notes *nt, const char *const *msgs, int n, const char *const *more,
                 int nmore)
{
    char buf[256] = "", mark[40];
    for (int k = 0; k < n + nmore; k++) {
        note_mark(nt, k < n ? msgs[k] : more[k - n], mark);
        if (strlen(buf) + strlen(mark) + 2 < sizeof buf) {
            if (*buf)
                strcat(buf, " ");
            strcat(buf, mark);
        }
    }
    tt_cell(t, arena_strdup(t->arena, buf), TT_LEFT, NULL);
}

static const char *fmt(struct arena *a, const char *f, double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, f, x);
    return arena_strdup(a, buf);
}

static void header(struct texttab *t, const struct cmp_model *m, const struct cmp_table *tb, int redge)
{
    tt_row(t);
    for (int e = 0; e < tb->ncols; e++) {
        tt_col(t, start_col(e));
        tt_span(t, start_col(e + 1) - start_col(e), shown(t->arena, tb->cols[e]), TT_CENTER, " │ ");
    }
    tt_col(t, redge);
    tt_cell(t, "", TT_LEFT, " │");
    if (m->extras && tb->ncols > 2)
        for (int e = 1; e < tb->ncols; e++)
            tt_cell(t, shown(t->arena, tb->cols[e]), TT_RIGHT, "   "), tt_cell(t, "", TT_LEFT, NULL);
    tt_row(t);
    for (int e = 0; e < tb->ncols; e++) {
        int l = start_col(e);
        tt_col(t, l);
        tt_span(t, CENTER_COLS, shown(t->arena, tb->unit), TT_CENTER, " │ ");
        if (e > 0)
            tt_span(t, DELTA_COLS, m->adjust == CMP_ADJUST_HOLM ? "vs base (holm)"
                                   : m->adjust == CMP_ADJUST_BH ? "vs base (bh)"
                                                                : "vs base",
                    TT_LEFT, "  ");
        for (int j = l + 1; j < t->cur_col; j++)
            tt_set_shrink(t, j);
    }
    tt_col(t, redge);
    tt_cell(t, "", TT_LEFT, " │");
    if (m->extras && tb->ncols > 1)
        for (int e = 1; e < tb->ncols; e++)
            tt_cell(t, fmt(t->arena, "shift %g%% CI", m->level * 100), TT_RIGHT, "   "), tt_cell(t, "", TT_LEFT, NULL);
}

/* The change shown (benchstat's: of the medians) outside the interval
 * beside it (of the shift, Hodges-Lehmann), as the two are printed (the
 * change to 0.01, the interval's ends to 0.1): the reader is told why. */
static int change_outside(const struct cmp_cell *c)
{
    return c->has_ci && strcmp(c->delta, "~") != 0 && isfinite(c->change) &&
           (c->change < c->ci_lo - 0.05 || c->change > c->ci_hi + 0.05);
}

static const char outside_note[] =
    "the change (of the medians, benchstat's) lies outside the shift's interval (Hodges-Lehmann: the typical "
    "difference between the two sides' values): the values changed in shape, not by one shift";

static const char *short_note(struct arena *a, const struct cmp_cell *c, double conf, double level)
{
    char buf[160];
    if (conf > 0)
        snprintf(buf, sizeof buf, "with %lld+%lld values the shift's interval has %.1f%% confidence at most, not %g%%",
                 (long long)c->n1, (long long)c->n2, conf * 100, level * 100);
    else
        snprintf(buf, sizeof buf, "with %lld+%lld values the shift has no interval at %g%% confidence",
                 (long long)c->n1, (long long)c->n2, level * 100);
    return arena_strdup(a, buf);
}

static void row(struct texttab *t, struct notes *nt, const struct cmp_model *m, const struct cmp_table *tb,
                const struct cmp_row *r, int redge)
{
    tt_row(t);
    tt_cell(t, shown(t->arena, r->label), TT_LEFT, NULL);
    double centers[64];
    size_t nc = 0;
    for (int e = 0; e < tb->ncols && nc < 64; e++)
        if (r->cells[e].present)
            centers[nc++] = r->cells[e].center;
    struct cmp_scaler sc = cmp_common_scale(centers, nc, tb->binary);
    char buf[64];
    for (int e = 0; e < tb->ncols; e++) {
        const struct cmp_cell *c = &r->cells[e];
        if (!c->present)
            continue;
        tt_col(t, start_col(e));
        cmp_scale_format(&sc, c->center, buf, sizeof buf);
        tt_cell(t, arena_strdup(t->arena, buf), TT_RIGHT, NULL);
        tt_cell(t, c->pct, TT_RIGHT, " ± ");
        warn(t, nt, c->warn, c->nwarn, NULL, 0);
        if (e == 0 || !c->compared)
            continue;
        tt_cell(t, c->delta, TT_RIGHT, NULL);
        char note[96] = "(";
        if (c->p != 0)
            snprintf(note + 1, sizeof note - 1, "p=%0.3f ", c->p);
        if (c->n1 == c->n2)
            snprintf(note + strlen(note), sizeof note - strlen(note), "n=%lld)", (long long)c->n1);
        else
            snprintf(note + strlen(note), sizeof note - strlen(note), "n=%lld+%lld)", (long long)c->n1,
                     (long long)c->n2);
        tt_cell(t, arena_strdup(t->arena, note), TT_LEFT, NULL);
        warn(t, nt, c->cwarn, c->ncwarn, NULL, 0);
    }
    if (!m->extras)
        return;
    for (int e = 1; e < tb->ncols; e++) {
        const struct cmp_cell *c = &r->cells[e];
        tt_col(t, redge + 1 + 2 * (e - 1));
        if (!c->compared)
            continue;
        /* Its widest, [d(1), d(n1 n2)], misses the shift only when all of
         * one side lies below all of the other (R's wilcox.test warns
         * "requested conf.level not achievable" and returns it). */
        double conf = c->has_ci ? 1 - cmp_best_p(c->n1, c->n2) : 1;
        if (conf < m->level) {
            /* Said at the confidence it can have, or, with none, not given
             * as an interval. */
            char mark[40];
            note_mark(nt, short_note(t->arena, c, conf, m->level), mark);
            if (conf > 0)
                snprintf(buf, sizeof buf, "[%+.1f%%, %+.1f%%] %s", c->ci_lo, c->ci_hi, mark);
            else
                snprintf(buf, sizeof buf, "- %s", mark);
            tt_cell(t, arena_strdup(t->arena, buf), TT_RIGHT, "   ");
        } else if (c->has_ci) {
            snprintf(buf, sizeof buf, "[%+.1f%%, %+.1f%%]", c->ci_lo, c->ci_hi);
            tt_cell(t, arena_strdup(t->arena, buf), TT_RIGHT, "   ");
        } else
            tt_cell(t, "", TT_RIGHT, "   ");
        const char *v = c->verdict;
        v = v && strcmp(v, "~") && strcmp(v, "same") && strcmp(v, "?") ? v : "";
        if (change_outside(c)) {
            char mark[40];
            note_mark(nt, outside_note, mark);
            snprintf(buf, sizeof buf, "%s%s%s", v, *v ? " " : "", mark);
            v = arena_strdup(t->arena, buf);
        }
        tt_cell(t, v, TT_LEFT, NULL);
    }
}

static void geomean(struct texttab *t, struct notes *nt, const struct cmp_table *tb)
{
    tt_row(t);
    tt_cell(t, "geomean", TT_LEFT, NULL);
    char buf[64];
    for (int e = 0; e < tb->ncols; e++) {
        const struct cmp_sum *s = &tb->sums[e];
        if (s->has_summary) {
            tt_col(t, start_col(e));
            cmp_scale_one(s->summary, tb->binary, buf, sizeof buf);
            tt_cell(t, arena_strdup(t->arena, buf), TT_RIGHT, NULL);
        }
        if (e > 0) {
            tt_col(t, start_col(e) + CENTER_COLS);
            tt_cell(t, s->has_ratio ? fmt(t->arena, "%+.2f%%", (s->ratio - 1) * 100) : "?", TT_RIGHT, NULL);
        }
        tt_col(t, start_col(e + 1) - 1);
        warn(t, nt, s->warn, s->nwarn, NULL, 0);
    }
}

static int one_table(struct cmp_model *m, const struct cmp_table *tb, FILE *out)
{
    struct texttab t;
    tt_init(&t, &m->arena);
    struct notes nt = {.n = 0};
    int redge = start_col(tb->ncols + 1);
    header(&t, m, tb, redge);
    for (size_t r = 0; r < tb->nrows; r++)
        row(&t, &nt, m, tb, &tb->rows[r], redge);
    if (tb->nrows > 1 && !m->only_changed)
        geomean(&t, &nt, tb);
    int rc = m->arena.failed ? -1 : tt_format(&t, out);
    tt_free(&t);
    char mark[40];
    for (int i = 0; rc == 0 && i < nt.n; i++) {
        superscript(i + 1, mark);
        fprintf(out, "%s %s\n", mark, shown(&m->arena, nt.msg[i]));
    }
    return rc || ferror(out) ? -1 : 0;
}

int cmp_print_text(struct cmp_model *m, FILE *out)
{
    for (size_t i = 0; i < m->ntables; i++) {
        const struct cmp_table *tb = &m->tables[i];
        if (i > 0)
            fputc('\n', out);
        /* The configuration lines that changed since the last table. */
        for (int f = 0; f < m->nfields; f++)
            if (i == 0 || strcmp(tb->cfg[f], m->tables[i - 1].cfg[f]) != 0)
                fprintf(out, "%s: %s\n", shown(&m->arena, m->fields[f]), shown(&m->arena, tb->cfg[f]));
        if (one_table(m, tb, out))
            return -1;
    }
    return ferror(out) ? -1 : 0;
}
