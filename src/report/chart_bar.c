/* Bars: per row a bar from a base (ref, else 1 on a log axis, else 0) to
 * its value, labelled; optionally a line per group at a column's value
 * (a group median, say). */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/fmt_sig.h"
#include "report/svg.h"
#include "util/diag.h"

struct brow {
    size_t i;
    double v;
    int ok;
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

int chart_bar(struct chart_ctx *c)
{
    const struct chart_spec *s = c->spec;
    size_t n = report_nrows(c->ev);
    struct brow *r = calloc(n ? n : 1, sizeof *r);
    struct axis ax, probe = {.log = s->log};
    struct band_ref br;
    if (chart_band_ref(c, s->log ? 1 : 0, &br)) {
        free(r);
        return -1;
    }
    double base = br.has_ref ? br.ref : s->log ? 1 : 0, *band = br.band;
    int has_band = br.has_band;
    double vmin = base, vmax = base;
    if (has_band) {
        vmin = fmin(vmin, band[0]);
        vmax = fmax(vmax, band[1]);
    }
    for (size_t i = 0; i < n; i++) {
        r[i].i = i;
        r[i].ok = json_num(report_cell(c->ev, i, s->value), &r[i].v) && axis_ok(&probe, r[i].v);
        if (r[i].ok) {
            vmin = fmin(vmin, r[i].v);
            vmax = fmax(vmax, r[i].v);
        }
        double lv;
        if (s->line_col && json_num(report_cell(c->ev, i, s->line_col), &lv) && axis_ok(&probe, lv)) {
            vmin = fmin(vmin, lv);
            vmax = fmax(vmax, lv);
        }
    }
    axis_fit(&ax, vmin, vmax, s->log);
    roles_add(c->out, "value", s->value);
    roles_add(c->out, "class", s->colour);
    struct classes cl;
    classes_make(c, &cl);
    struct groups g;
    groups_make(c, &g);
    for (int k = 0; k < g.n; k++) {
        size_t m = g.nrows[k];
        struct brow **rows = malloc((m ? m : 1) * sizeof *rows);
        for (size_t j = 0; j < m; j++)
            rows[j] = &r[g.rows[k][j]];
        if (s->sort == SORT_VALUE)
            qsort(rows, m, sizeof *rows, cmp_value);
        double line = NAN;
        if (s->line_col && m) {
            double lv;
            if (json_num(report_cell(c->ev, rows[0]->i, s->line_col), &lv) && axis_ok(&probe, lv))
                line = lv;
        }
        int parts = panel_parts(m);
        for (int part = 1; part <= parts; part++) {
            size_t a, b;
            panel_range(m, part, &a, &b);
            size_t nb = b - a;
            struct panel *p = panel_new(c->out);
            struct strbuf *sb = &p->svg;
            double y = 4;
            y += panel_title(sb, g.titles[k], m, m == 1 ? "bar" : "bars", part, parts, y);
            int compact = nb > PANEL_LABELLED;
            if (part == 1) {
                struct legend l = {0};
                for (int q = 0; q < cl.n; q++) {
                    char *t = bd_strdupf("%s = %s", s->colour, cl.names[q]);
                    legend_add(&l, LEG_SHAPE, SHAPE_SQUARE, class_colour(&cl, q), 1, t);
                    free(t);
                }
                char buf[48];
                report_fmt_sig(buf, base, REPORT_DIGITS);
                char *t = bd_strdupf("bars start at %s", buf);
                legend_add(&l, LEG_LINE, 0, NULL, 0, t);
                free(t);
                if (has_band) {
                    char b0[48], b1[48];
                    report_fmt_sig(b0, band[0], REPORT_DIGITS);
                    report_fmt_sig(b1, band[1], REPORT_DIGITS);
                    t = bd_strdupf("band [%s, %s]", b0, b1);
                    legend_add(&l, LEG_BAND, 0, NULL, 0, t);
                    free(t);
                }
                if (!isnan(line)) {
                    report_fmt_sig(buf, line, REPORT_DIGITS);
                    t = bd_strdupf("%s = %s", s->line_col, buf);
                    legend_add(&l, LEG_DASH, 0, NULL, 0, t);
                    free(t);
                }
                y += legend_draw(sb, &l, 8, y, CHART_W - 16);
                legend_free(&l);
            }
            int lc = 0, nc = 0;
            for (size_t j = a; !compact && j < b; j++) {
                char *lb = row_label(c, rows[j]->i), nb2[48];
                report_fmt_sig(nb2, rows[j]->v, REPORT_DIGITS);
                int x1 = text_cols(lb), x2 = rows[j]->ok ? text_cols(nb2) : 8;
                lc = x1 > lc ? x1 : lc;
                nc = x2 > nc ? x2 : nc;
                free(lb);
            }
            char *note = bd_strdupf("one bar per row (%zu here)%s; hover a bar for its numbers", nb,
                                    s->sort == SORT_VALUE ? ", largest first" : "");
            struct row_layout lay = rows_layout(sb, &ax, compact, lc, nc, nb, 2, 24, note, &y);
            free(note);
            double pitch = lay.pitch, labw = lay.labw, numw = lay.numw;
            axis_ticks(&ax, 0);
            double top = y + 6, bottom = top + (double)nb * pitch;
            size_t *idx = malloc((m ? m : 1) * sizeof *idx);
            for (size_t j = 0; j < m; j++)
                idx[j] = rows[j]->i;
            char *unit = chart_unit(c, idx, m);
            free(idx);
            char *xl = bd_strdupf("%s%s%s%s%s", s->xlabel ? s->xlabel : s->value, s->log && !s->xlabel ? ", log scale" : "",
                                  unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
            free(unit);
            if (has_band)
                svg_band(sb, axis_pos(&ax, band[0]), axis_pos(&ax, band[1]), top, bottom);
            double axh = axis_draw_x(sb, &ax, bottom + 4, top, xl);
            free(xl);
            const char *rl[] = {"value", s->value, NULL};
            double x0 = axis_pos(&ax, base);
            for (size_t j = a; j < b; j++) {
                const struct brow *q = rows[j];
                double yc = top + (double)(j - a) * pitch + pitch / 2;
                int ck = cl.n ? cl.of_row[q->i] : 0;
                mark_open(c, sb, q->i, g.keys[k], cl.n ? cl.names[ck] : NULL, rl);
                if (q->ok) {
                    double x1 = axis_pos(&ax, q->v), h = compact ? fmax(1, pitch * 0.8) : 10;
                    sb_puts(sb, "<rect x=\"");
                    svg_num(sb, fmin(x0, x1));
                    sb_puts(sb, "\" y=\"");
                    svg_num(sb, yc - h / 2);
                    sb_puts(sb, "\" width=\"");
                    svg_num(sb, fmax(fabs(x1 - x0), 1));
                    sb_puts(sb, "\" height=\"");
                    svg_num(sb, h);
                    sb_printf(sb, "\" fill=\"%s\"/>", class_colour(&cl, ck));
                } else {
                    svg_shape(sb, SHAPE_CIRCLE, x0, yc, 2, "#888888", 0);
                }
                mark_close(sb);
                if (!compact) {
                    char *lb = row_label(c, q->i), *lf = text_fit(lb, (int)(labw / CHAR_W)), nb2[48];
                    svg_text(sb, 8, yc + 4, "start", "t", lf);
                    if (q->ok)
                        report_fmt_sig(nb2, q->v, REPORT_DIGITS);
                    svg_text(sb, CHART_W - 8 - numw, yc + 4, "start", "t", q->ok ? nb2 : "no value");
                    free(lb);
                    free(lf);
                }
            }
            svg_vline(sb, "ref", x0, top, bottom + 4);
            if (!isnan(line))
                svg_vline(sb, "avg", axis_pos(&ax, line), top, bottom + 4);
            p->marks = nb;
            c->out->marks += nb;
            p->h = bottom + 4 + axh + 6;
        }
        free(rows);
    }
    groups_free(&g);
    classes_free(&cl);
    free(r);
    return 0;
}
