/* Dot strip: per group (a host, say) a strip per label (a cell) holding a
 * dot per row (a run's value), a tick at the strip's mean, and a dashed
 * line at the group's average; geometric means on a log axis. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/fmt_sig.h"
#include "report/svg.h"
#include "util/diag.h"

struct strip {
    size_t *rows; /* evaluation rows of the strip */
    size_t n;
    char *label;
    double mean, lo, hi;
    size_t nv;
};

static double tr(int lg, double v) { return lg ? log(v) : v; }
static double untr(int lg, double v) { return lg ? exp(v) : v; }

static int cmp_mean(const void *a, const void *b)
{
    const struct strip *x = a, *y = b;
    if (x->nv != y->nv)
        return x->nv ? -1 : 1;
    return (x->mean < y->mean) - (x->mean > y->mean);
}

int chart_strip(struct chart_ctx *c)
{
    const struct chart_spec *s = c->spec;
    size_t n = report_nrows(c->ev);
    double *val = malloc((n ? n : 1) * sizeof *val);
    char *ok = calloc(n ? n : 1, 1);
    struct axis ax, probe = {.log = s->log};
    double vmin = INFINITY, vmax = -INFINITY;
    struct band_ref br;
    if (chart_band_ref(c, NAN, &br))
        goto fail;
    double ref = br.ref, *band = br.band;
    int has_ref = br.has_ref, has_band = br.has_band;
    for (size_t i = 0; i < n; i++) {
        ok[i] = json_num(report_cell(c->ev, i, s->value), &val[i]) && axis_ok(&probe, val[i]);
        if (ok[i]) {
            vmin = fmin(vmin, val[i]);
            vmax = fmax(vmax, val[i]);
        }
    }
    if (has_ref) {
        vmin = fmin(vmin, ref);
        vmax = fmax(vmax, ref);
    }
    if (has_band) {
        vmin = fmin(vmin, band[0]);
        vmax = fmax(vmax, band[1]);
    }
    axis_fit(&ax, vmin, vmax, s->log);
    roles_add(c->out, "value", s->value);
    roles_add(c->out, "class", s->colour);
    struct classes cl;
    classes_make(c, &cl);
    struct groups g;
    groups_make(c, &g);
    for (int k = 0; k < g.n; k++) {
        /* strips: the group's rows by label, in order of first appearance */
        struct groups sg;
        groups_split(c, g.rows[k], g.nrows[k], row_label, NULL, &sg);
        size_t nst = (size_t)sg.n;
        struct strip *st = calloc(nst ? nst : 1, sizeof *st);
        double gsum = 0;
        size_t gn = 0;
        for (size_t m = 0; m < nst; m++) {
            struct strip *p = &st[m];
            p->rows = sg.rows[m];
            p->n = sg.nrows[m];
            p->label = sg.keys[m];
            sg.rows[m] = NULL;
            sg.keys[m] = NULL;
            p->lo = INFINITY;
            p->hi = -INFINITY;
            for (size_t d = 0; d < p->n; d++) {
                size_t i = p->rows[d];
                if (!ok[i])
                    continue;
                p->mean += tr(s->log, val[i]);
                p->lo = fmin(p->lo, val[i]);
                p->hi = fmax(p->hi, val[i]);
                p->nv++;
                gsum += tr(s->log, val[i]);
                gn++;
            }
        }
        groups_free(&sg);
        for (size_t m = 0; m < nst; m++)
            if (st[m].nv)
                st[m].mean = untr(s->log, st[m].mean / (double)st[m].nv);
        if (s->sort == SORT_VALUE)
            qsort(st, nst, sizeof *st, cmp_mean);
        double gmean = gn ? untr(s->log, gsum / (double)gn) : NAN;
        int parts = panel_parts(nst);
        for (int part = 1; part <= parts; part++) {
            size_t a, b;
            panel_range(nst, part, &a, &b);
            size_t ns = b - a, marks = 0;
            for (size_t m = a; m < b; m++)
                marks += st[m].n;
            struct panel *p = panel_new(c->out);
            struct strbuf *sb = &p->svg;
            double y = 4;
            y += panel_title(sb, g.titles[k], g.nrows[k], g.nrows[k] == 1 ? "value" : "values", part, parts, y);
            int compact = ns > PANEL_LABELLED;
            if (part == 1) {
                struct legend l = {0};
                for (int q = 0; q < cl.n; q++) {
                    char *t = bd_strdupf("%s = %s", s->colour, cl.names[q]);
                    legend_add(&l, LEG_SHAPE, class_shape(q), class_colour(&cl, q), 1, t);
                    free(t);
                }
                char buf[48];
                report_fmt_sig(buf, gmean, REPORT_DIGITS);
                char *t = bd_strdupf("average of %s: %s (%s mean of %zu values)", g.titles[k] ? g.titles[k] : "all",
                                     gn ? buf : "none", s->log ? "geometric" : "arithmetic", gn);
                legend_add(&l, LEG_DASH, 0, NULL, 0, t);
                free(t);
                legend_add(&l, LEG_TEXT, 0, NULL, 0, "| each strip's mean");
                if (has_band) {
                    char b0[48], b1[48];
                    report_fmt_sig(b0, band[0], REPORT_DIGITS);
                    report_fmt_sig(b1, band[1], REPORT_DIGITS);
                    t = bd_strdupf("band [%s, %s]", b0, b1);
                    legend_add(&l, LEG_BAND, 0, NULL, 0, t);
                    free(t);
                }
                if (has_ref) {
                    report_fmt_sig(buf, ref, REPORT_DIGITS);
                    t = bd_strdupf("line at %s", buf);
                    legend_add(&l, LEG_LINE, 0, NULL, 0, t);
                    free(t);
                }
                y += legend_draw(sb, &l, 8, y, CHART_W - 16);
                legend_free(&l);
            }
            char **nums = calloc(ns ? ns : 1, sizeof *nums);
            int lc = 0, nc = 0;
            for (size_t m = 0; !compact && m < ns; m++) {
                const struct strip *q = &st[a + m];
                char mb[48], sp[48];
                report_fmt_sig(mb, q->mean, REPORT_DIGITS);
                report_fmt_sig(sp, s->log ? q->hi / q->lo : q->hi - q->lo, REPORT_DIGITS);
                nums[m] = q->nv ? bd_strdupf("n %zu, mean %s, %s %s", q->nv, mb, s->log ? "max/min" : "range", sp)
                                : strdup("no values");
                int lcm = text_cols(q->label), ncm = text_cols(nums[m]);
                lc = lcm > lc ? lcm : lc;
                nc = ncm > nc ? ncm : nc;
            }
            char *note = bd_strdupf("one strip per label (%zu here); hover a dot for its numbers", ns);
            struct row_layout lay = rows_layout(sb, &ax, compact, lc, nc, ns, 3, 24, note, &y);
            free(note);
            double pitch = lay.pitch, labw = lay.labw, numw = lay.numw;
            axis_ticks(&ax, 0);
            double top = y + 6, bottom = top + (double)ns * pitch;
            if (has_band) {
                svg_band(sb, axis_pos(&ax, band[0]), axis_pos(&ax, band[1]), top, bottom);
            }
            size_t *idx = malloc((g.nrows[k] ? g.nrows[k] : 1) * sizeof *idx);
            memcpy(idx, g.rows[k], g.nrows[k] * sizeof *idx);
            char *unit = chart_unit(c, idx, g.nrows[k]);
            free(idx);
            char *xl = bd_strdupf("%s%s%s%s%s", s->xlabel ? s->xlabel : s->value, s->log && !s->xlabel ? ", log scale" : "",
                                  unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
            free(unit);
            double axh = axis_draw_x(sb, &ax, bottom + 4, top, xl);
            free(xl);
            if (has_ref) {
                svg_vline(sb, "ref", axis_pos(&ax, ref), top, bottom + 4);
            }
            if (gn) {
                svg_vline(sb, "avg", axis_pos(&ax, gmean), top, bottom + 4);
            }
            const char *rl[] = {"value", s->value, NULL};
            for (size_t m = 0; m < ns; m++) {
                const struct strip *q = &st[a + m];
                double yc = top + (double)m * pitch + pitch / 2;
                if (m % 2 == 1 && !compact) { /* zebra: strips apart at a glance */
                    sb_puts(sb, "<rect x=\"");
                    svg_num(sb, ax.p0);
                    sb_puts(sb, "\" y=\"");
                    svg_num(sb, yc - pitch / 2);
                    sb_puts(sb, "\" width=\"");
                    svg_num(sb, ax.p1 - ax.p0);
                    sb_puts(sb, "\" height=\"");
                    svg_num(sb, pitch);
                    sb_puts(sb, "\" fill=\"#000\" fill-opacity=\"0.04\"/>");
                }
                if (q->nv) {
                    double x = axis_pos(&ax, q->mean);
                    sb_puts(sb, "<line x1=\"");
                    svg_num(sb, x);
                    sb_puts(sb, "\" x2=\"");
                    svg_num(sb, x);
                    sb_puts(sb, "\" y1=\"");
                    svg_num(sb, yc - pitch * 0.45);
                    sb_puts(sb, "\" y2=\"");
                    svg_num(sb, yc + pitch * 0.45);
                    sb_puts(sb, "\" stroke=\"#000\" stroke-width=\"1.5\"/>");
                }
                for (size_t d = 0; d < q->n; d++) {
                    size_t i = q->rows[d];
                    int ck = cl.n ? cl.of_row[i] : 0;
                    mark_open(c, sb, i, g.keys[k], cl.n ? cl.names[ck] : NULL, rl);
                    double jit = compact ? 0 : ((double)(d % 5) - 2) * 1.6;
                    if (ok[i])
                        svg_shape(sb, class_shape(ck), axis_pos(&ax, val[i]), yc + jit, compact ? fmin(2.5, pitch / 2) : 3.2,
                                  class_colour(&cl, ck), 1);
                    else
                        svg_shape(sb, SHAPE_CIRCLE, ax.p0 + 4, yc, 2, "#888888", 0);
                    mark_close(sb);
                }
                if (!compact) {
                    char *lf = text_fit(q->label, (int)(labw / CHAR_W));
                    svg_text(sb, 8, yc + 4, "start", "t", lf);
                    svg_text(sb, CHART_W - 8 - numw, yc + 4, "start", "t", nums[m]);
                    free(lf);
                }
                free(nums[m]);
            }
            free(nums);
            p->marks = marks;
            c->out->marks += marks;
            p->h = bottom + 4 + axh + 6;
        }
        for (size_t m = 0; m < nst; m++) {
            free(st[m].rows);
            free(st[m].label);
        }
        free(st);
    }
    groups_free(&g);
    classes_free(&cl);
    free(val);
    free(ok);
    return 0;
fail:
    free(val);
    free(ok);
    return -1;
}
