/* Forest plot: per row an estimate with its interval, on a shared axis
 * (log or linear), the band shaded, a reference line (1 on a log axis),
 * intervals that exclude it filled, rows sorted by estimate; optional
 * summary rows as diamonds and warnings from a column. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/chart.h"
#include "report/display.h"
#include "report/svg.h"
#include "util/diag.h"
#include "report/forest.h"
#include "util/xalloc.h"

static int cmp_est(const void *a, const void *b)
{
    const struct frow *x = *(const struct frow *const *)a, *y = *(const struct frow *const *)b;
    if (x->has_e != y->has_e)
        return y->has_e - x->has_e;
    if (x->has_e && x->e != y->e)
        return x->e < y->e ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

void forest_fmt(char *buf, double x) { numfmt_sig(buf, x, REPORT_DIGITS); }

static void row_style(const struct forest *f, const struct frow *r, const char **colour, enum shape *shape)
{
    if (f->cl.n) {
        *colour = class_colour(&f->cl, f->cl.of_row[r->i]);
        *shape = class_shape(&f->cl, f->cl.of_row[r->i]);
    } else if (f->above || f->below) {
        *colour = r->dir > 0 ? palette_colour(5) : r->dir < 0 ? palette_colour(0) : "#666666";
        *shape = r->dir > 0 ? SHAPE_TRIANGLE : r->dir < 0 ? SHAPE_TRIANGLE_DOWN : SHAPE_CIRCLE;
    } else {
        *colour = palette_colour(0);
        *shape = SHAPE_CIRCLE;
    }
}

char *forest_numbers_text(const struct forest *f, const struct frow *r)
{
    char e[48], lo[48], hi[48];
    if (!r->has_e)
        return xstrdup("no estimate");
    forest_fmt(e, r->e);
    if (!r->has_ci)
        return xstrdup(e);
    forest_fmt(lo, r->lo);
    forest_fmt(hi, r->hi);
    const char *word = r->dir > 0 ? f->above : r->dir < 0 ? f->below : NULL;
    return bd_strdupf("%s [%s, %s]%s%s", e, lo, hi, word ? " " : "", word ? word : "");
}

void forest_hline(struct strbuf *sb, double x0, double x1, double y, const char *colour, double w, double op)
{
    sb_puts(sb, "<line x1=\"");
    svg_num(sb, x0);
    sb_puts(sb, "\" x2=\"");
    svg_num(sb, x1);
    sb_puts(sb, "\" y1=\"");
    svg_num(sb, y);
    sb_puts(sb, "\" y2=\"");
    svg_num(sb, y);
    sb_printf(sb, "\" stroke=\"%s\" stroke-width=\"%.1f\"", colour, w);
    if (op < 1)
        sb_printf(sb, " stroke-opacity=\"%.2f\"", op);
    sb_puts(sb, "/>");
}

/* One line per class of the group: how many, in the band, excluding ref. */
double forest_class_lines(struct forest *f, struct strbuf *sb, struct frow **rows, size_t n, double y)
{
    const struct chart_spec *s = f->c->spec;
    int ncl = f->cl.n ? f->cl.n : 1;
    double h = 0;
    char refs[48];
    forest_fmt(refs, f->ref);
    for (int k = 0; k < ncl; k++) {
        size_t cnt = 0, inband = 0, excl = 0, up = 0, down = 0, est = 0;
        for (size_t j = 0; j < n; j++) {
            const struct frow *r = rows[j];
            if (r->summary || (f->cl.n && f->cl.of_row[r->i] != k))
                continue;
            cnt++;
            est += r->has_e;
            inband += r->has_e && f->has_band && r->e >= f->band[0] && r->e <= f->band[1];
            excl += r->dir != 0;
            up += r->dir > 0;
            down += r->dir < 0;
        }
        if (!cnt)
            continue;
        struct strbuf t = {0};
        char pct[48];
        if (f->cl.n)
            sb_printf(&t, "%s = %s: ", s->colour, f->cl.names[k]);
        sb_printf(&t, "%zu interval%s", cnt, cnt == 1 ? "" : "s");
        if (f->has_band) {
            char b0[48], b1[48];
            forest_fmt(b0, f->band[0]);
            forest_fmt(b1, f->band[1]);
            forest_fmt(pct, 100.0 * (double)inband / (double)cnt);
            sb_printf(&t, " \xc2\xb7 %zu (%s%%) estimates in the band [%s, %s]", inband, pct, b0, b1);
        }
        if (f->has_ref && f->any_ci) {
            forest_fmt(pct, 100.0 * (double)excl / (double)cnt);
            sb_printf(&t, " \xc2\xb7 %zu (%s%%) exclude %s", excl, pct, refs);
            if (f->above || f->below)
                sb_printf(&t, ": %zu %s, %zu %s", up, f->above ? f->above : "above", down,
                          f->below ? f->below : "below");
        }
        if (est < cnt)
            sb_printf(&t, " \xc2\xb7 %zu without an estimate", cnt - est);
        h += svg_wrapped(sb, 8, y + h + 12, "t", xsb_text(&t), (int)((CHART_W - 16) / CHAR_W));
        sb_free(&t);
    }
    return h;
}

/* Whether some row of class k is drawn as a class mark (not a summary). */
static int class_drawn(const struct forest *f, int k)
{
    size_t n = report_nrows(f->c->ev);
    for (size_t i = 0; i < n; i++)
        if (!f->r[i].summary && f->cl.of_row[i] == k)
            return 1;
    return 0;
}

double forest_legend(struct forest *f, struct strbuf *sb, double y, int compact, size_t nout)
{
    const struct chart_spec *s = f->c->spec;
    struct legend l = {0};
    char refs[48];
    forest_fmt(refs, f->ref);
    for (int k = 0; k < f->cl.n; k++) {
        if (!class_drawn(f, k))
            continue; /* only summary rows have it: they are diamonds */
        char *t = bd_strdupf("%s = %s", s->colour, f->cl.names[k]);
        legend_add(&l, LEG_SHAPE, class_shape(&f->cl, k), class_colour(&f->cl, k), 1, t);
        free(t);
    }
    if (f->has_ref && f->any_ci) {
        char *t;
        /* Labelled rows: a filled marker excludes ref, a hollow one includes
         * it. Compact rows: a bold line with a tick at the right edge
         * excludes it, a faint line includes it. */
        const char *ex = compact ? "bold, ticked at the right" : "filled";
        if (f->above || f->below) {
            t = compact ? bd_strdupf("%s (%s): interval above %s", f->above ? f->above : "above", ex, refs)
                        : bd_strdupf("%s: interval above %s", f->above ? f->above : "above", refs);
            legend_add(&l, LEG_SHAPE, f->cl.n ? SHAPE_CIRCLE : SHAPE_TRIANGLE, f->cl.n ? "#444444" : palette_colour(5),
                       1, t);
            free(t);
            t = compact ? bd_strdupf("%s (%s): interval below %s", f->below ? f->below : "below", ex, refs)
                        : bd_strdupf("%s: interval below %s", f->below ? f->below : "below", refs);
            legend_add(&l, LEG_SHAPE, f->cl.n ? SHAPE_CIRCLE : SHAPE_TRIANGLE_DOWN,
                       f->cl.n ? "#444444" : palette_colour(0), 1, t);
            free(t);
        } else {
            t = bd_strdupf("%s: interval excludes %s", ex, refs);
            legend_add(&l, LEG_SHAPE, SHAPE_CIRCLE, "#444444", 1, t);
            free(t);
        }
        t = bd_strdupf("%s: interval includes %s", compact ? "faint" : "hollow", refs);
        legend_add(&l, LEG_SHAPE, SHAPE_CIRCLE, f->cl.n || !(f->above || f->below) ? "#444444" : "#666666", compact, t);
        free(t);
    }
    if (f->has_band) {
        char b0[48], b1[48];
        forest_fmt(b0, f->band[0]);
        forest_fmt(b1, f->band[1]);
        char *t = bd_strdupf("band [%s, %s]", b0, b1);
        legend_add(&l, LEG_BAND, 0, NULL, 0, t);
        free(t);
    }
    if (f->has_ref) {
        char *t = bd_strdupf("line at %s", refs);
        legend_add(&l, LEG_LINE, 0, NULL, 0, t);
        free(t);
    }
    if (s->summary)
        legend_add(&l, LEG_SHAPE, SHAPE_DIAMOND, "#000000", 1, "summary row, its interval as a diamond");
    if (f->clipped && nout) {
        char *t = bd_strdupf("%zu row%s beyond the axis, drawn at its edge (values at the right)", nout,
                             nout == 1 ? "" : "s");
        legend_add(&l, LEG_TEXT, 0, NULL, 0, t ? t : "");
        free(t);
    }
    double h = legend_draw(sb, &l, 8, y, CHART_W - 16);
    legend_free(&l);
    return h;
}

/* A position on the axis, held within its ends (a clipped axis). */
static double clamped(const struct axis *ax, double v)
{
    double p = axis_pos(ax, v), lo = fmin(ax->p0, ax->p1), hi = fmax(ax->p0, ax->p1);
    return fmin(fmax(p, lo - 2), hi + 2);
}

static void edge_arrow(struct strbuf *sb, double x, double y, int dir, double r, const char *colour)
{
    sb_puts(sb, "<path d=\"M");
    svg_num(sb, x + dir * r * 1.4);
    sb_putc(sb, ' ');
    svg_num(sb, y);
    sb_puts(sb, "L");
    svg_num(sb, x - dir * r * 0.6);
    sb_putc(sb, ' ');
    svg_num(sb, y - r);
    sb_puts(sb, "L");
    svg_num(sb, x - dir * r * 0.6);
    sb_putc(sb, ' ');
    svg_num(sb, y + r);
    sb_printf(sb, "Z\" fill=\"%s\" stroke=\"%s\"/>", colour, colour);
}

void forest_draw_mark(struct forest *f, struct strbuf *sb, const struct frow *r, const char *key, double yc,
                      double pitch, int compact)
{
    const struct chart_spec *s = f->c->spec;
    const char *rl[7] = {"estimate", s->estimate, "lo", s->lo, "hi", s->hi, NULL};
    const char *colour;
    enum shape shape;
    row_style(f, r, &colour, &shape);
    mark_open(f->c, sb, r->i, key, f->cl.n ? f->cl.names[f->cl.of_row[r->i]] : NULL, rl);
    struct axis *ax = &f->ax;
    if (r->summary && r->has_e) {
        double xe = clamped(ax, r->e);
        double x0 = r->has_ci ? clamped(ax, r->lo) : xe - 5;
        double x1 = r->has_ci ? clamped(ax, r->hi) : xe + 5;
        sb_puts(sb, "<path d=\"M");
        svg_num(sb, x0);
        sb_putc(sb, ' ');
        svg_num(sb, yc);
        sb_puts(sb, "L");
        svg_num(sb, xe);
        sb_putc(sb, ' ');
        svg_num(sb, yc - 6);
        sb_puts(sb, "L");
        svg_num(sb, x1);
        sb_putc(sb, ' ');
        svg_num(sb, yc);
        sb_puts(sb, "L");
        svg_num(sb, xe);
        sb_putc(sb, ' ');
        svg_num(sb, yc + 6);
        sb_printf(sb, "Z\" fill=\"%s\" stroke=\"#000\"/>", r->dir ? "#000" : "#fff");
    } else if (r->has_e) {
        double w = compact ? (r->dir ? 1.6 : 1) : (r->dir ? 2.2 : 1.4);
        double op = compact && !r->dir ? 0.55 : 1;
        if (r->has_ci)
            forest_hline(sb, clamped(ax, r->lo), clamped(ax, r->hi), yc, colour, w, op);
        double rad = compact ? fmax(1.2, fmin(3, pitch * 0.45)) : 4;
        if (r->out) /* beyond the clipped axis: an arrow at its edge, pointing where it lies */
            edge_arrow(sb, r->out < 0 ? ax->p0 - 4 : ax->p1 + 4, yc, r->out, fmax(rad, 3), colour);
        else
            svg_shape(sb, shape, axis_pos(ax, r->e), yc, rad, colour, r->dir != 0 || compact);
        if (compact && r->dir)
            forest_hline(sb, ax->p1 + 12, ax->p1 + 24, yc, colour, fmax(1, fmin(3, pitch * 0.8)), 1);
    } else {
        /* No estimate: a grey cross at the left edge (the tooltip says why). */
        double x = ax->p0 + 4, d = compact ? fmin(2, pitch / 2) : 3;
        sb_puts(sb, "<path d=\"M");
        svg_num(sb, x - d);
        sb_putc(sb, ' ');
        svg_num(sb, yc - d);
        sb_puts(sb, "l");
        svg_num(sb, 2 * d);
        sb_putc(sb, ' ');
        svg_num(sb, 2 * d);
        sb_puts(sb, "m0 ");
        svg_num(sb, -2 * d);
        sb_puts(sb, "l");
        svg_num(sb, -2 * d);
        sb_putc(sb, ' ');
        svg_num(sb, 2 * d);
        sb_puts(sb, "\" stroke=\"#888\" stroke-width=\"1.2\"/>");
    }
    mark_close(sb);
}

/* Reads row i; the values it adds to the axis's range go to vals. */
static void read_row(struct forest *f, size_t i, double *vals, size_t *nv)
{
    const struct chart_spec *s = f->c->spec;
    const struct report_eval *ev = f->c->ev;
    struct axis probe = {.log = s->log};
    struct frow *r = &f->r[i];
    r->i = i;
    r->has_e = evaldata_num(report_cell(ev, i, s->estimate), &r->e) && axis_ok(&probe, r->e);
    r->has_ci = r->has_e && evaldata_num(report_cell(ev, i, s->lo), &r->lo) && axis_ok(&probe, r->lo) &&
                evaldata_num(report_cell(ev, i, s->hi), &r->hi) && axis_ok(&probe, r->hi);
    r->summary = s->summary && evaldata_truthy(report_cell(ev, i, s->summary));
    if (r->has_e)
        vals[(*nv)++] = r->e;
    if (r->has_ci) {
        vals[(*nv)++] = r->lo;
        vals[(*nv)++] = r->hi;
        f->any_ci = 1;
        if (f->has_ref)
            r->dir = r->lo > f->ref ? 1 : r->hi < f->ref ? -1 : 0;
    }
    if (s->note) {
        /* One note a line (compare's warnings are benchstat's notes, one a
         * line): each said once, not a row's lines run together. */
        char *t = evaldata_show(report_cell(ev, i, s->note), REPORT_DIGITS);
        for (char *line = t, *end; line && *line; line = end ? end + 1 : NULL) {
            if ((end = strchr(line, '\n')))
                *end = 0;
            if (*line)
                notes_add(f->c->out, line);
        }
        free(t);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A linear axis that a few extreme rows would squash is clipped. With the
 * estimates' distances from the reference sorted, the largest more than 6
 * times the third quartile, the extreme rows are those above the widest
 * gap (a factor of 3 or more) among the distances beyond 4 times the third
 * quartile: a -85% cell is cut off, a +12% regression beside changes of
 * 2% is not. The axis covers the other estimates and the intervals of
 * those that exclude the reference; the extreme rows are drawn at its
 * edge, their values in the numbers column, and longer intervals are cut
 * there. Returns the half-width around ref, or 0 for no clipping. */
static double clip_width(const struct forest *f, size_t n)
{
    if (f->c->spec->log || n < 4)
        return 0;
    double *d = xmalloc(n * sizeof *d), ref = f->has_ref ? f->ref : 0;
    size_t m = 0;
    if (!d)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (f->r[i].has_e && !f->r[i].summary)
            d[m++] = fabs(f->r[i].e - ref);
    double w = 0, cut = -1, gap = 3;
    if (m >= 4) {
        qsort(d, m, sizeof *d, cmp_double);
        double q3 = d[(3 * m) / 4], top = d[m - 1];
        for (size_t k = 1; q3 > 0 && top > 6 * q3 && k < m; k++)
            if (d[k] > 4 * q3 && d[k - 1] > 0 && d[k] / d[k - 1] >= gap) {
                gap = d[k] / d[k - 1];
                cut = d[k - 1];
            }
        /* Every estimate up to the cut with room, and the whole interval of
         * each that excludes ref (an interval that includes it may be cut at
         * the edge: it says "no change" either way). */
        for (size_t i = 0; cut > 0 && i < n; i++) {
            const struct frow *r = &f->r[i];
            if (!r->has_e || r->summary || fabs(r->e - ref) > cut)
                continue;
            w = fmax(w, 1.25 * fabs(r->e - ref));
            if (r->has_ci && r->dir)
                w = fmax(w, 1.05 * fmax(fabs(r->lo - ref), fabs(r->hi - ref)));
        }
        if (w >= top)
            w = 0;
    }
    free(d);
    return w;
}

/* The axis: every value, or clipped (clip_width). */
static void fit_axis(struct forest *f, size_t n, double *vals, size_t nv)
{
    const struct chart_spec *s = f->c->spec;
    if (f->has_band) {
        vals[nv++] = f->band[0];
        vals[nv++] = f->band[1];
    }
    if (f->has_ref)
        vals[nv++] = f->ref;
    double vmin = INFINITY, vmax = -INFINITY;
    for (size_t k = 0; k < nv; k++) {
        vmin = fmin(vmin, vals[k]);
        vmax = fmax(vmax, vals[k]);
    }
    double w = clip_width(f, n), ref = f->has_ref ? f->ref : 0;
    if (w > 0) {
        f->clipped = 1;
        vmin = fmax(vmin, ref - w);
        vmax = fmin(vmax, ref + w);
        if (f->has_band) {
            vmin = fmin(vmin, f->band[0]);
            vmax = fmax(vmax, f->band[1]);
        }
        for (size_t i = 0; i < n; i++) {
            struct frow *r = &f->r[i];
            r->out = !r->has_e ? 0 : r->e < vmin ? -1 : r->e > vmax ? 1 : 0;
            f->nout += r->out != 0;
        }
    }
    axis_fit(&f->ax, vmin, vmax, s->log);
}

/* The panels of group k: rows sorted by estimate (unless sort=none),
 * summary rows last. */
static int group_panels(struct forest *f, const struct groups *g, int k)
{
    size_t m = g->nrows[k], nm = 0, ns = 0;
    struct frow **all = xmalloc((m ? m : 1) * sizeof *all), **main = xmalloc((m ? m : 1) * sizeof *main),
                **sums = xmalloc((m ? m : 1) * sizeof *sums);
    int rc = all && main && sums ? 0 : -1;
    for (size_t j = 0; rc == 0 && j < m; j++) {
        struct frow *r = &f->r[g->rows[k][j]];
        all[j] = r;
        if (r->summary)
            sums[ns++] = r;
        else
            main[nm++] = r;
    }
    if (rc == 0 && f->c->spec->sort != SORT_NONE)
        qsort(main, nm, sizeof *main, cmp_est);
    int parts = panel_parts(nm);
    for (int part = 1; rc == 0 && part <= parts; part++) {
        size_t a, b;
        panel_range(nm, part, &a, &b);
        struct forest_panel fp = {g->keys[k], g->titles[k], main + a, sums, all, b - a, part == parts ? ns : 0, m,
                                  part, parts};
        rc = forest_panel_draw(f, &fp);
    }
    free(all);
    free(main);
    free(sums);
    return rc;
}

int chart_forest(struct chart_ctx *c)
{
    const struct chart_spec *s = c->spec;
    struct forest f = {.c = c, .above = s->above, .below = s->below};
    struct band_ref br;
    if (chart_band_ref(c, s->log ? 1 : 0, &br))
        return -1;
    memcpy(f.band, br.band, sizeof f.band);
    f.ref = br.ref;
    f.has_band = br.has_band;
    f.has_ref = br.has_ref;
    size_t n = report_nrows(c->ev), nv = 0;
    f.r = xcalloc(n ? n : 1, sizeof *f.r);
    double *vals = xmalloc((3 * n + 3) * sizeof *vals);
    int rc = -1;
    if (!f.r || !vals)
        goto out;
    for (size_t i = 0; i < n; i++)
        read_row(&f, i, vals, &nv);
    fit_axis(&f, n, vals, nv);
    roles_add(c->out, "estimate", s->estimate);
    roles_add(c->out, "lo", s->lo);
    roles_add(c->out, "hi", s->hi);
    roles_add(c->out, "class", s->colour);
    classes_make(c, &f.cl);
    struct groups g;
    groups_make(c, &g);
    rc = 0;
    for (int k = 0; rc == 0 && k < g.n; k++)
        rc = group_panels(&f, &g, k);
    groups_free(&g);
    classes_free(&f.cl);
out:
    free(vals);
    free(f.r);
    return rc ? bd_fail(c->err, "out of memory") : 0;
}
