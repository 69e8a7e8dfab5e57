/* Forest plot: per row an estimate with its interval, on a shared axis
 * (log or linear), the band shaded, a reference line (1 on a log axis),
 * intervals that exclude it filled, rows sorted by estimate; optional
 * summary rows as diamonds and warnings from a column. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/fmt_sig.h"
#include "report/svg.h"
#include "util/diag.h"

struct frow {
    size_t i;
    double e, lo, hi;
    int has_e, has_ci;
    int dir;     /* +1 interval above ref, -1 below, 0 neither (or no ref) */
    int summary; /* drawn as a diamond after the others */
};

static int cmp_est(const void *a, const void *b)
{
    const struct frow *x = *(const struct frow *const *)a, *y = *(const struct frow *const *)b;
    if (x->has_e != y->has_e)
        return y->has_e - x->has_e;
    if (x->has_e && x->e != y->e)
        return x->e < y->e ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

struct forest {
    struct chart_ctx *c;
    struct frow *r;
    struct classes cl;
    struct axis ax;
    double band[2], ref;
    int has_band, has_ref, any_ci;
    const char *above, *below;
};

static void fmt(char *buf, double x) { report_fmt_sig(buf, x, REPORT_DIGITS); }

static void row_style(const struct forest *f, const struct frow *r, const char **colour, enum shape *shape)
{
    if (f->cl.n) {
        *colour = class_colour(&f->cl, f->cl.of_row[r->i]);
        *shape = class_shape(f->cl.of_row[r->i]);
    } else if (f->above || f->below) {
        *colour = r->dir > 0 ? palette_colour(5) : r->dir < 0 ? palette_colour(0) : "#666666";
        *shape = r->dir > 0 ? SHAPE_TRIANGLE : r->dir < 0 ? SHAPE_TRIANGLE_DOWN : SHAPE_CIRCLE;
    } else {
        *colour = palette_colour(0);
        *shape = SHAPE_CIRCLE;
    }
}

static char *numbers_text(const struct forest *f, const struct frow *r)
{
    char e[48], lo[48], hi[48];
    if (!r->has_e)
        return strdup("no estimate");
    fmt(e, r->e);
    if (!r->has_ci)
        return strdup(e);
    fmt(lo, r->lo);
    fmt(hi, r->hi);
    const char *word = r->dir > 0 ? f->above : r->dir < 0 ? f->below : NULL;
    return bd_strdupf("%s [%s, %s]%s%s", e, lo, hi, word ? " " : "", word ? word : "");
}

static void hline(struct strbuf *sb, double x0, double x1, double y, const char *colour, double w, double op)
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
static double class_lines(struct forest *f, struct strbuf *sb, struct frow **rows, size_t n, double y)
{
    const struct chart_spec *s = f->c->spec;
    int ncl = f->cl.n ? f->cl.n : 1;
    double h = 0;
    char refs[48];
    fmt(refs, f->ref);
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
            fmt(b0, f->band[0]);
            fmt(b1, f->band[1]);
            fmt(pct, 100.0 * (double)inband / (double)cnt);
            sb_printf(&t, " \xc2\xb7 %zu (%s%%) estimates in the band [%s, %s]", inband, pct, b0, b1);
        }
        if (f->has_ref && f->any_ci) {
            fmt(pct, 100.0 * (double)excl / (double)cnt);
            sb_printf(&t, " \xc2\xb7 %zu (%s%%) exclude %s", excl, pct, refs);
            if (f->above || f->below)
                sb_printf(&t, ": %zu %s, %zu %s", up, f->above ? f->above : "above", down,
                          f->below ? f->below : "below");
        }
        if (est < cnt)
            sb_printf(&t, " \xc2\xb7 %zu without an estimate", cnt - est);
        h += svg_wrapped(sb, 8, y + h + 12, "t", t.buf, (int)((CHART_W - 16) / CHAR_W));
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

static double legend(struct forest *f, struct strbuf *sb, double y, int compact)
{
    const struct chart_spec *s = f->c->spec;
    struct legend l = {0};
    char refs[48];
    fmt(refs, f->ref);
    for (int k = 0; k < f->cl.n; k++) {
        if (!class_drawn(f, k))
            continue; /* only summary rows have it: they are diamonds */
        char *t = bd_strdupf("%s = %s", s->colour, f->cl.names[k]);
        legend_add(&l, LEG_SHAPE, class_shape(k), class_colour(&f->cl, k), 1, t);
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
        fmt(b0, f->band[0]);
        fmt(b1, f->band[1]);
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
    double h = legend_draw(sb, &l, 8, y, CHART_W - 16);
    legend_free(&l);
    return h;
}

static void draw_mark(struct forest *f, struct strbuf *sb, const struct frow *r, const char *key, double yc,
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
        double x0 = r->has_ci ? axis_pos(ax, r->lo) : axis_pos(ax, r->e) - 5;
        double x1 = r->has_ci ? axis_pos(ax, r->hi) : axis_pos(ax, r->e) + 5;
        double xe = axis_pos(ax, r->e);
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
            hline(sb, axis_pos(ax, r->lo), axis_pos(ax, r->hi), yc, colour, w, op);
        double rad = compact ? fmax(1.2, fmin(3, pitch * 0.45)) : 4;
        svg_shape(sb, shape, axis_pos(ax, r->e), yc, rad, colour, r->dir != 0 || compact);
        if (compact && r->dir)
            hline(sb, ax->p1 + 12, ax->p1 + 24, yc, colour, fmax(1, fmin(3, pitch * 0.8)), 1);
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

static void panel(struct forest *f, const char *key, const char *title, struct frow **rows, size_t n, struct frow **sums, size_t nsum,
                  struct frow **all, size_t nall, int part, int parts)
{
    const struct chart_spec *s = f->c->spec;
    struct panel *p = panel_new(f->c->out);
    struct strbuf *sb = &p->svg;
    double y = 4;
    y += panel_title(sb, title, nall, nall == 1 ? "interval" : "intervals", part, parts, y);
    int compact = n > PANEL_LABELLED;
    if (part == 1) {
        y += class_lines(f, sb, all, nall, y);
        y += 4 + legend(f, sb, y + 4, compact);
    }
    int lc = 0, nc = 0;
    for (size_t pass = 0; !compact && pass < 2; pass++)
        for (size_t j = 0; j < (pass ? nsum : n); j++) {
            const struct frow *r = pass ? sums[j] : rows[j];
            char *l = row_label(f->c, r->i), *t = numbers_text(f, r);
            int a = text_cols(l), b = text_cols(t);
            lc = a > lc ? a : lc;
            nc = b > nc ? b : nc;
            free(l);
            free(t);
        }
    char *note = bd_strdupf("one line per row (%zu here), %s; hover a mark for its numbers", n,
                            s->sort == SORT_NONE ? "in the evaluation's order" : "sorted by estimate");
    struct row_layout lay = rows_layout(sb, &f->ax, compact, lc, nc, n, 2, 40, note, &y);
    free(note);
    double pitch = lay.pitch, labw = lay.labw, numw = lay.numw;
    axis_ticks(&f->ax, 0);
    double top = y + 6, bottom = top + (double)n * pitch + (nsum ? 8 + 20.0 * (double)nsum : 0);
    if (f->has_band) {
        svg_band(sb, axis_pos(&f->ax, f->band[0]), axis_pos(&f->ax, f->band[1]), top, bottom);
    }
    char *xl;
    char *unit = NULL;
    {
        size_t *idx = malloc((nall ? nall : 1) * sizeof *idx);
        for (size_t j = 0; j < nall; j++)
            idx[j] = all[j]->i;
        unit = chart_unit(f->c, idx, nall);
        free(idx);
    }
    if (s->xlabel)
        xl = bd_strdupf("%s%s%s%s", s->xlabel, unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
    else
        xl = bd_strdupf("%s and its interval [%s, %s]%s%s%s%s", s->estimate, s->lo, s->hi,
                        f->ax.log ? ", log scale" : "", unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
    double axh = axis_draw_x(sb, &f->ax, bottom + 4, top, xl);
    free(xl);
    free(unit);
    if (f->has_ref)
        svg_vline(sb, "ref", axis_pos(&f->ax, f->ref), top, bottom + 4);
    for (size_t j = 0; j < n; j++) {
        double yc = top + (double)j * pitch + pitch / 2;
        draw_mark(f, sb, rows[j], key, yc, pitch, compact);
        if (!compact) {
            char *l = row_label(f->c, rows[j]->i), *lf = text_fit(l, (int)(labw / CHAR_W));
            svg_text(sb, 8, yc + 4, "start", "t", lf);
            char *t = numbers_text(f, rows[j]);
            svg_text(sb, CHART_W - 8 - numw, yc + 4, "start", "t", t);
            free(l);
            free(lf);
            free(t);
        }
    }
    if (nsum) {
        double ys = top + (double)n * pitch + 4;
        sb_puts(sb, "<line class=\"sep\" x1=\"8\" x2=\"");
        svg_num(sb, CHART_W - 8);
        sb_puts(sb, "\" y1=\"");
        svg_num(sb, ys);
        sb_puts(sb, "\" y2=\"");
        svg_num(sb, ys);
        sb_puts(sb, "\"/>");
        for (size_t j = 0; j < nsum; j++) {
            double yc = ys + 4 + 20.0 * (double)j + 10;
            draw_mark(f, sb, sums[j], key, yc, 20, 0);
            char *l = row_label(f->c, sums[j]->i);
            if (l && !*l) { /* a summary row without a label of its own (benchstat's geomean row) */
                free(l);
                l = strdup("summary");
            }
            char *lf = text_fit(l, compact ? 40 : (int)(labw / CHAR_W));
            char *t = numbers_text(f, sums[j]);
            if (compact) {
                /* Compact panels have no label column: label and numbers in one text at the left. */
                char *both = bd_strdupf("%s: %s", lf, t);
                svg_text(sb, 8, yc - 8, "start", "tb", both);
                free(both);
            } else {
                svg_text(sb, 8, yc + 4, "start", "tb", lf);
                svg_text(sb, CHART_W - 8 - numw, yc + 4, "start", "tb", t);
            }
            free(l);
            free(lf);
            free(t);
        }
    }
    p->marks = n + nsum;
    f->c->out->marks += n + nsum;
    p->h = bottom + 4 + axh + 6;
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
    size_t n = report_nrows(c->ev);
    f.r = calloc(n ? n : 1, sizeof *f.r);
    double vmin = INFINITY, vmax = -INFINITY;
    struct axis probe = {.log = s->log};
#define TAKE(v) (vmin = fmin(vmin, (v)), vmax = fmax(vmax, (v)))
    for (size_t i = 0; i < n; i++) {
        struct frow *r = &f.r[i];
        r->i = i;
        r->has_e = json_num(report_cell(c->ev, i, s->estimate), &r->e) && axis_ok(&probe, r->e);
        r->has_ci = r->has_e && json_num(report_cell(c->ev, i, s->lo), &r->lo) && axis_ok(&probe, r->lo) &&
                    json_num(report_cell(c->ev, i, s->hi), &r->hi) && axis_ok(&probe, r->hi);
        r->summary = s->summary && json_truthy(report_cell(c->ev, i, s->summary));
        if (r->has_e)
            TAKE(r->e);
        if (r->has_ci) {
            TAKE(r->lo);
            TAKE(r->hi);
            f.any_ci = 1;
            if (f.has_ref)
                r->dir = r->lo > f.ref ? 1 : r->hi < f.ref ? -1 : 0;
        }
        if (s->note) {
            json_t *v = report_cell(c->ev, i, s->note);
            char *t = json_show(v, REPORT_DIGITS);
            if (*t)
                notes_add(c->out, t);
            free(t);
        }
    }
    if (f.has_band) {
        TAKE(f.band[0]);
        TAKE(f.band[1]);
    }
    if (f.has_ref)
        TAKE(f.ref);
#undef TAKE
    axis_fit(&f.ax, vmin, vmax, s->log);
    roles_add(c->out, "estimate", s->estimate);
    roles_add(c->out, "lo", s->lo);
    roles_add(c->out, "hi", s->hi);
    roles_add(c->out, "class", s->colour);
    classes_make(c, &f.cl);
    struct groups g;
    groups_make(c, &g);
    for (int k = 0; k < g.n; k++) {
        size_t m = g.nrows[k], nm = 0, ns = 0;
        struct frow **all = malloc((m ? m : 1) * sizeof *all), **main = malloc((m ? m : 1) * sizeof *main),
                    **sums = malloc((m ? m : 1) * sizeof *sums);
        for (size_t j = 0; j < m; j++) {
            struct frow *r = &f.r[g.rows[k][j]];
            all[j] = r;
            if (r->summary)
                sums[ns++] = r;
            else
                main[nm++] = r;
        }
        if (s->sort != SORT_NONE)
            qsort(main, nm, sizeof *main, cmp_est);
        int parts = panel_parts(nm);
        for (int part = 1; part <= parts; part++) {
            size_t a, b;
            panel_range(nm, part, &a, &b);
            panel(&f, g.keys[k], g.titles[k], main + a, b - a, sums, part == parts ? ns : 0, all, m, part, parts);
        }
        free(all);
        free(main);
        free(sums);
    }
    groups_free(&g);
    classes_free(&f.cl);
    free(f.r);
    return 0;
}
