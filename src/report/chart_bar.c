/* Bars: per row a bar from a base (ref, else 1 on a log axis, else 0) to
 * its value, labelled; optionally a line per group at a column's value
 * (a group median, say). */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/chart.h"
#include "report/display.h"
#include "report/svg.h"
#include "util/diag.h"
#include "util/xalloc.h"

struct brow {
    size_t i;
    double v;
    int ok;
};

struct bars {
    struct chart_ctx *c;
    struct brow *r;
    struct axis ax;
    struct classes cl;
    double base, band[2];
    int has_band;
};

/* One panel: rows[a, b) of a group of m, its line (NAN: none). */
struct bar_panel {
    const char *key, *title;
    struct brow **rows;
    size_t m, a, b;
    int part, parts;
    double line;
};

static int cmp_value(const void *a, const void *b)
{
    const struct brow *x = *(const struct brow *const *)a, *y = *(const struct brow *const *)b;
    if (x->ok != y->ok)
        return y->ok - x->ok;
    if (x->ok && x->v != y->v)
        return x->v > y->v ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static void legend(const struct bars *bs, struct strbuf *sb, double line, double *y)
{
    const struct chart_spec *s = bs->c->spec;
    struct legend l = {0};
    char buf[48], b0[48], b1[48];
    for (int q = 0; q < bs->cl.n; q++) {
        char *t = bd_strdupf("%s = %s", s->colour, bs->cl.names[q]);
        legend_add(&l, LEG_SHAPE, SHAPE_SQUARE, class_colour(&bs->cl, q), 1, t);
        free(t);
    }
    numfmt_sig(buf, bs->base, REPORT_DIGITS);
    char *t = bd_strdupf("bars start at %s", buf);
    legend_add(&l, LEG_LINE, 0, NULL, 0, t);
    free(t);
    if (bs->has_band) {
        numfmt_sig(b0, bs->band[0], REPORT_DIGITS);
        numfmt_sig(b1, bs->band[1], REPORT_DIGITS);
        t = bd_strdupf("band [%s, %s]", b0, b1);
        legend_add(&l, LEG_BAND, 0, NULL, 0, t);
        free(t);
    }
    if (!isnan(line)) {
        numfmt_sig(buf, line, REPORT_DIGITS);
        t = bd_strdupf("%s = %s", s->line_col, buf);
        legend_add(&l, LEG_DASH, 0, NULL, 0, t);
        free(t);
    }
    *y += legend_draw(sb, &l, 8, *y, CHART_W - 16);
    legend_free(&l);
}

static char *axis_label(const struct bars *bs, const struct bar_panel *bp)
{
    const struct chart_spec *s = bs->c->spec;
    size_t *idx = xmalloc((bp->m ? bp->m : 1) * sizeof *idx);
    char *unit = NULL;
    if (idx) {
        for (size_t j = 0; j < bp->m; j++)
            idx[j] = bp->rows[j]->i;
        unit = chart_unit(bs->c, idx, bp->m);
        free(idx);
    }
    char *xl = bd_strdupf("%s%s%s%s%s", s->xlabel ? s->xlabel : s->value, s->log && !s->xlabel ? ", log scale" : "",
                          unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
    free(unit);
    return xl;
}

/* One row's bar (its mark) and, labelled, its label and value. */
static void bar_row(const struct bars *bs, struct strbuf *sb, const struct bar_panel *bp, const struct brow *q,
                    const struct row_layout *lay, double yc, int compact)
{
    const struct chart_spec *s = bs->c->spec;
    const char *rl[] = {"value", s->value, NULL};
    double x0 = axis_pos(&bs->ax, bs->base);
    int ck = bs->cl.n ? bs->cl.of_row[q->i] : 0;
    mark_open(bs->c, sb, q->i, bp->key, bs->cl.n ? bs->cl.names[ck] : NULL, rl);
    if (q->ok) {
        double x1 = axis_pos(&bs->ax, q->v), h = compact ? fmax(1, lay->pitch * 0.8) : 10;
        sb_puts(sb, "<rect x=\"");
        svg_num(sb, fmin(x0, x1));
        sb_puts(sb, "\" y=\"");
        svg_num(sb, yc - h / 2);
        sb_puts(sb, "\" width=\"");
        svg_num(sb, fmax(fabs(x1 - x0), 1));
        sb_puts(sb, "\" height=\"");
        svg_num(sb, h);
        sb_printf(sb, "\" fill=\"%s\"/>", class_colour(&bs->cl, ck));
    } else {
        svg_shape(sb, SHAPE_CIRCLE, x0, yc, 2, "#888888", 0);
    }
    mark_close(sb);
    if (compact)
        return;
    char *lb = row_label(bs->c, q->i), *lf = text_fit(lb, (int)(lay->labw / CHAR_W)), num[48];
    svg_text(sb, 8, yc + 4, "start", "t", lf);
    if (q->ok)
        numfmt_sig(num, q->v, REPORT_DIGITS);
    svg_text(sb, CHART_W - 8 - lay->numw, yc + 4, "start", "t", q->ok ? num : "no value");
    free(lb);
    free(lf);
}

static int bar_panel(struct bars *bs, const struct bar_panel *bp)
{
    const struct chart_spec *s = bs->c->spec;
    struct panel *p = panel_new(bs->c->out);
    if (!p)
        return -1;
    struct strbuf *sb = &p->svg;
    size_t nb = bp->b - bp->a;
    double y = 4;
    y += panel_title(sb, bp->title, bp->m, bp->m == 1 ? "bar" : "bars", bp->part, bp->parts, y);
    int compact = nb > PANEL_LABELLED;
    if (bp->part == 1)
        legend(bs, sb, bp->line, &y);
    int lc = 0, nc = 0;
    for (size_t j = bp->a; !compact && j < bp->b; j++) {
        char *lb = row_label(bs->c, bp->rows[j]->i), num[48];
        numfmt_sig(num, bp->rows[j]->v, REPORT_DIGITS);
        int x1 = text_cols(lb), x2 = bp->rows[j]->ok ? text_cols(num) : 8;
        lc = x1 > lc ? x1 : lc;
        nc = x2 > nc ? x2 : nc;
        free(lb);
    }
    char *note = bd_strdupf("one bar per row (%zu here)%s; hover a bar for its numbers", nb,
                            s->sort == SORT_VALUE ? ", largest first" : "");
    struct row_layout lay = rows_layout(sb, &bs->ax, compact, lc, nc, nb, 2, 24, note ? note : "", &y);
    free(note);
    axis_ticks(&bs->ax, 0);
    double top = y + 6, bottom = top + (double)nb * lay.pitch;
    char *xl = axis_label(bs, bp);
    if (bs->has_band)
        svg_band(sb, axis_pos(&bs->ax, bs->band[0]), axis_pos(&bs->ax, bs->band[1]), top, bottom);
    double axh = axis_draw_x(sb, &bs->ax, bottom + 4, top, xl ? xl : "");
    free(xl);
    for (size_t j = bp->a; j < bp->b; j++)
        bar_row(bs, sb, bp, bp->rows[j], &lay, top + (double)(j - bp->a) * lay.pitch + lay.pitch / 2, compact);
    svg_vline(sb, "ref", axis_pos(&bs->ax, bs->base), top, bottom + 4);
    if (!isnan(bp->line))
        svg_vline(sb, "avg", axis_pos(&bs->ax, bp->line), top, bottom + 4);
    p->marks = nb;
    bs->c->out->marks += nb;
    p->h = bottom + 4 + axh + 6;
    return sb->failed ? -1 : 0;
}

/* The values, and the axis over them, the base, the band and the lines. */
static int read_rows(struct bars *bs, const struct band_ref *br)
{
    const struct chart_spec *s = bs->c->spec;
    size_t n = report_nrows(bs->c->ev);
    struct axis probe = {.log = s->log};
    if (!(bs->r = xcalloc(n ? n : 1, sizeof *bs->r)))
        return -1;
    bs->base = br->has_ref ? br->ref : s->log ? 1 : 0;
    memcpy(bs->band, br->band, sizeof bs->band);
    bs->has_band = br->has_band;
    double vmin = bs->base, vmax = bs->base, lv;
    if (bs->has_band) {
        vmin = fmin(vmin, bs->band[0]);
        vmax = fmax(vmax, bs->band[1]);
    }
    for (size_t i = 0; i < n; i++) {
        struct brow *r = &bs->r[i];
        r->i = i;
        r->ok = evaldata_num(report_cell(bs->c->ev, i, s->value), &r->v) && axis_ok(&probe, r->v);
        if (r->ok) {
            vmin = fmin(vmin, r->v);
            vmax = fmax(vmax, r->v);
        }
        if (s->line_col && evaldata_num(report_cell(bs->c->ev, i, s->line_col), &lv) && axis_ok(&probe, lv)) {
            vmin = fmin(vmin, lv);
            vmax = fmax(vmax, lv);
        }
    }
    axis_fit(&bs->ax, vmin, vmax, s->log);
    return 0;
}

static int group_panels(struct bars *bs, const struct groups *g, int k)
{
    const struct chart_spec *s = bs->c->spec;
    struct axis probe = {.log = s->log};
    size_t m = g->nrows[k];
    struct brow **rows = xmalloc((m ? m : 1) * sizeof *rows);
    if (!rows)
        return -1;
    for (size_t j = 0; j < m; j++)
        rows[j] = &bs->r[g->rows[k][j]];
    if (s->sort == SORT_VALUE)
        qsort(rows, m, sizeof *rows, cmp_value);
    double line = NAN, lv;
    if (s->line_col && m && evaldata_num(report_cell(bs->c->ev, rows[0]->i, s->line_col), &lv) && axis_ok(&probe, lv))
        line = lv;
    int parts = panel_parts(m), rc = 0;
    for (int part = 1; rc == 0 && part <= parts; part++) {
        struct bar_panel bp = {g->keys[k], g->titles[k], rows, m, 0, 0, part, parts, line};
        panel_range(m, part, &bp.a, &bp.b);
        rc = bar_panel(bs, &bp);
    }
    free(rows);
    return rc;
}

int chart_bar(struct chart_ctx *c)
{
    struct bars bs = {.c = c};
    struct band_ref br;
    if (chart_band_ref(c, c->spec->log ? 1 : 0, &br))
        return -1;
    int rc = read_rows(&bs, &br);
    if (rc == 0) {
        roles_add(c->out, "value", c->spec->value);
        roles_add(c->out, "class", c->spec->colour);
        classes_make(c, &bs.cl);
        struct groups g;
        groups_make(c, &g);
        for (int k = 0; rc == 0 && k < g.n; k++)
            rc = group_panels(&bs, &g, k);
        groups_free(&g);
        classes_free(&bs.cl);
    }
    free(bs.r);
    return rc ? bd_fail(c->err, "out of memory") : 0;
}
