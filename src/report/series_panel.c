/* One panel of a series chart (see series.h): the legend (first panel),
 * the change points' labels in lanes, the band of limits, the reference
 * points, a line per class, the points, the alerts and the page's marks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/display.h"
#include "report/series.h"
#include "util/diag.h"
#include "util/xalloc.h"

#define PLOT_H 110.0
#define LANES 4

/* Where a panel's parts are, top to bottom. */
struct geo {
    struct axis xa, ya;
    double lanes_top, top, bottom;
};

static void legend_marks(const struct series *s, struct legend *l)
{
    for (int k = 0; k < s->nmarks; k++) {
        const char *colour;
        enum shape shape;
        int filled;
        series_mark_style(s, k, &colour, &shape, &filled);
        legend_add(l, LEG_SHAPE, shape, colour, filled, s->marks[k]);
    }
}

static double legend(const struct series *s, struct strbuf *sb, double y)
{
    const struct chart_spec *sp = s->c->spec;
    struct legend l = {0};
    for (int k = 0; k < s->cl.n; k++) {
        char *t = bd_strdupf("%s = %s", sp->colour, s->cl.names[k]);
        legend_add(&l, LEG_SHAPE, class_shape(&s->cl, k), class_colour(&s->cl, k), 1, t ? t : "");
        free(t);
    }
    if (s->any_change)
        legend_add(&l, LEG_DASH, 0, "chg", 0,
                   sp->revision ? "change point, labelled with its revision and change" : "change point, labelled with its change");
    if (s->any_ref)
        legend_add(&l, LEG_DOT, 0, NULL, 0, "reference regression");
    legend_marks(s, &l);
    if (s->any_alert[ALERT_BAD])
        legend_add(&l, LEG_SHAPE, SHAPE_TRIANGLE, palette_colour(5), 1, "gate alert (a regression)");
    if (s->any_alert[ALERT_GOOD])
        legend_add(&l, LEG_SHAPE, SHAPE_TRIANGLE_DOWN, palette_colour(0), 1, "gate alert (an improvement)");
    if (s->any_band) {
        char *t = bd_strdupf("the limits, %s to %s (no alert inside)", sp->lower, sp->upper);
        legend_add(&l, LEG_BAND, 0, NULL, 0, t ? t : "the limits");
        free(t);
    }
    double h = legend_draw(sb, &l, 8, y, CHART_W - 16);
    legend_free(&l);
    return h;
}

static char *change_text(const struct series *s, const struct srow *r)
{
    const struct chart_spec *sp = s->c->spec;
    char pct[48];
    numfmt_sig(pct, fabs(r->change), 3);
    char *rev = sp->revision ? display_value(report_cell(s->c->ev, r->i, sp->revision), REPORT_DIGITS, NULL) : NULL;
    char *revfit = text_fit(rev ? rev : "", 12);
    char *t = bd_strdupf("%s%s%s%s%%%s%s", revfit ? revfit : "", revfit && *revfit ? " " : "",
                         r->change > 0 ? "+" : r->change < 0 ? "-" : "", pct, r->mark >= 0 ? " " : "",
                         r->mark >= 0 ? s->marks[r->mark] : "");
    free(rev);
    free(revfit);
    return t;
}

/* The change points' labels, each in the first lane where it overlaps no
 * other; returns the height of the lanes used. */
static double change_labels(const struct series *s, struct strbuf *sb, const struct geo *g, struct srow **rows, size_t n)
{
    double lane_end[LANES];
    int nlanes = 0;
    struct strbuf labels = {0};
    for (size_t j = 0; j < n; j++) {
        const struct srow *r = rows[j];
        if (!r->has_change || !r->has_x)
            continue;
        char *t = change_text(s, r);
        if (!t) {
            sb->failed = 1;
            continue;
        }
        double w = text_cols(t) * CHAR_W, cx = axis_pos(&g->xa, r->x);
        double x0 = fmin(fmax(cx - w / 2, 8), CHART_W - 8 - w);
        int lane = -1;
        for (int k = 0; k < nlanes && lane < 0; k++)
            if (lane_end[k] + 8 <= x0)
                lane = k;
        if (lane < 0 && nlanes < LANES)
            lane = nlanes++;
        if (lane >= 0) {
            lane_end[lane] = x0 + w;
            svg_text(&labels, x0, (double)lane * 14 + 11, "start", r->mark >= 0 ? "tb" : "t", t);
        }
        free(t);
    }
    if (nlanes) {
        sb_puts(sb, "<g transform=\"translate(0,");
        svg_num(sb, g->lanes_top);
        sb_puts(sb, ")\">");
        sb_append(sb, labels.buf, labels.len);
        sb_puts(sb, "</g>");
    }
    if (labels.failed)
        sb->failed = 1;
    sb_free(&labels);
    return nlanes * 14.0;
}

/* The y range of the rows (their band too), and the x range. */
static void ranges(const struct series *s, struct geo *g, struct srow **rows, size_t n)
{
    double vmin = INFINITY, vmax = -INFINITY, xmin = INFINITY, xmax = -INFINITY;
    for (size_t j = 0; j < n; j++) {
        const struct srow *r = rows[j];
        if (r->has_y) {
            vmin = fmin(vmin, r->y);
            vmax = fmax(vmax, r->y);
        }
        if (r->has_band) {
            vmin = fmin(vmin, fmin(r->lo, r->hi));
            vmax = fmax(vmax, fmax(r->lo, r->hi));
        }
        if (r->has_x) {
            xmin = fmin(xmin, r->x);
            xmax = fmax(xmax, r->x);
        }
    }
    axis_fit(&g->ya, vmin, vmax, s->c->spec->log);
    axis_fit(&g->xa, xmin, xmax, 0);
    g->xa.p0 = 88;
    g->xa.p1 = CHART_W - 24;
}

static void y_label(const struct series *s, struct strbuf *sb, struct srow **rows, size_t n, double y)
{
    const struct chart_spec *sp = s->c->spec;
    size_t *idx = xmalloc((n ? n : 1) * sizeof *idx);
    char *unit = NULL;
    if (idx) {
        for (size_t j = 0; j < n; j++)
            idx[j] = rows[j]->i;
        unit = chart_unit(s->c, idx, n);
        free(idx);
    }
    char *yl = bd_strdupf("%s%s%s%s%s", sp->ylabel ? sp->ylabel : sp->y, sp->log && !sp->ylabel ? ", log scale" : "",
                          unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
    char *ylf = yl ? text_fit(yl, (int)((CHART_W - 16) / CHAR_W)) : NULL;
    if (ylf)
        svg_text(sb, 8, y + 12, "start", "tm", ylf);
    else
        sb->failed = 1;
    free(ylf);
    free(yl);
    free(unit);
}

/* The shaded band between each row's lower and upper limit, per class. */
static void band(const struct series *s, struct strbuf *sb, const struct geo *g, struct srow **rows, size_t n)
{
    int ncl = s->cl.n ? s->cl.n : 1;
    for (int k = 0; k < ncl; k++) {
        struct strbuf up = {0}, down = {0};
        for (size_t j = 0; j < n; j++) {
            const struct srow *r = rows[j];
            if (!r->has_x || !r->has_band || (s->cl.n && s->cl.of_row[r->i] != k))
                continue;
            double x = axis_pos(&g->xa, r->x);
            sb_puts(&up, up.len ? "L" : "M");
            svg_num(&up, x);
            sb_putc(&up, ' ');
            svg_num(&up, axis_pos(&g->ya, r->hi));
            struct strbuf t = {0};
            sb_puts(&t, "L");
            svg_num(&t, x);
            sb_putc(&t, ' ');
            svg_num(&t, axis_pos(&g->ya, r->lo));
            sb_append(&t, down.buf ? down.buf : "", down.len);
            sb_free(&down);
            down = t;
        }
        if (up.len)
            sb_printf(sb, "<path class=\"band\" d=\"%s%sZ\"/>", up.buf, down.buf ? down.buf : "");
        if (up.failed || down.failed)
            sb->failed = 1;
        sb_free(&up);
        sb_free(&down);
    }
}

static void lines(const struct series *s, struct strbuf *sb, const struct geo *g, struct srow **rows, size_t n)
{
    int ncl = s->cl.n ? s->cl.n : 1;
    for (int k = 0; k < ncl; k++) {
        struct strbuf d = {0};
        for (size_t j = 0; j < n; j++) {
            const struct srow *r = rows[j];
            if (!r->has_x || !r->has_y || (s->cl.n && s->cl.of_row[r->i] != k))
                continue;
            sb_puts(&d, d.len ? "L" : "M");
            svg_num(&d, axis_pos(&g->xa, r->x));
            sb_putc(&d, ' ');
            svg_num(&d, axis_pos(&g->ya, r->y));
        }
        if (d.len)
            sb_printf(sb, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" stroke-opacity=\"0.7\"/>",
                      d.buf, class_colour(&s->cl, k));
        if (d.failed)
            sb->failed = 1;
        sb_free(&d);
    }
}

/* Every row's mark: its point (a ring around a change point), its alert on
 * the axis; a row without a position as a grey cross at the left edge. */
static void points(const struct series *s, struct strbuf *sb, const struct geo *g, const char *key, struct srow **rows,
                   size_t n)
{
    const struct chart_spec *sp = s->c->spec;
    const char *rl[] = {"x", sp->x, "y", sp->y, "change", sp->change, "alert", sp->alert,
                        "lower", sp->lower, "upper", sp->upper, NULL};
    for (size_t j = 0; j < n; j++) {
        const struct srow *r = rows[j];
        int k = s->cl.n ? s->cl.of_row[r->i] : 0;
        mark_open(s->c, sb, r->i, key, s->cl.n ? s->cl.names[k] : NULL, rl);
        if (r->has_x && r->has_y) {
            double cx = axis_pos(&g->xa, r->x), cy = axis_pos(&g->ya, r->y);
            if (r->has_change)
                svg_shape(sb, SHAPE_CIRCLE, cx, cy, 5.5, palette_colour(5), 0);
            svg_shape(sb, class_shape(&s->cl, k), cx, cy, 3, class_colour(&s->cl, k), 1);
            if (r->alert == ALERT_BAD)
                svg_shape(sb, SHAPE_TRIANGLE, cx, g->bottom - 6, 5, palette_colour(5), 1);
            else if (r->alert == ALERT_GOOD)
                svg_shape(sb, SHAPE_TRIANGLE_DOWN, cx, g->bottom - 6, 5, palette_colour(0), 1);
        } else {
            sb_puts(sb, "<path d=\"M");
            svg_num(sb, g->xa.p0 + 1);
            sb_putc(sb, ' ');
            svg_num(sb, g->top + 1);
            sb_puts(sb, "l6 6m0 -6l-6 6\" stroke=\"#888\"/>");
        }
        mark_close(sb);
    }
}

/* The page's rows on the points they name, and the reference points. */
static void page_marks(const struct series *s, struct strbuf *sb, const struct geo *g, struct srow **rows, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        const struct srow *r = rows[j];
        if (!r->has_x)
            continue;
        double cx = axis_pos(&g->xa, r->x);
        if (r->ref)
            svg_vline(sb, "refl", cx, g->lanes_top, g->bottom);
        if (r->mark < 0 || !r->has_y)
            continue;
        const char *colour;
        enum shape shape;
        int filled;
        series_mark_style(s, r->mark, &colour, &shape, &filled);
        sb_printf(sb, "<g class=\"ov\" data-row=\"%zu\" data-ov=\"", r->i);
        svg_esc(sb, s->marks[r->mark]);
        sb_puts(sb, "\"><title>");
        svg_esc(sb, s->marks[r->mark]);
        sb_puts(sb, "</title>");
        svg_shape(sb, shape, cx, axis_pos(&g->ya, r->y) - (shape == SHAPE_CROSS ? 0 : 11), 5.5, colour, filled);
        sb_puts(sb, "</g>");
    }
}

int series_panel_draw(struct series *s, const struct series_panel *sp)
{
    const struct chart_spec *spec = s->c->spec;
    struct panel *p = panel_new(s->c->out);
    if (!p)
        return -1;
    struct strbuf *sb = &p->svg;
    struct geo g;
    double y = 4;
    y += panel_title(sb, sp->title, sp->n, sp->n == 1 ? "point" : "points", sp->part, sp->parts, y);
    if (sp->legend)
        y += legend(s, sb, y);
    ranges(s, &g, sp->rows, sp->n);
    y_label(s, sb, sp->rows, sp->n, y);
    y += 16;
    g.lanes_top = y;
    double lanes_h = change_labels(s, sb, &g, sp->rows, sp->n);
    g.top = y + lanes_h + 6;
    g.bottom = g.top + PLOT_H;
    g.ya.p0 = g.bottom - 6;
    g.ya.p1 = g.top + 6;
    axis_ticks(&g.ya, 1);
    axis_draw_y(sb, &g.ya, g.xa.p0 - 6, g.xa.p1, NULL);
    band(s, sb, &g, sp->rows, sp->n);
    series_x_axis(s, sb, &g.xa, g.bottom, g.top, sp->rows, sp->n);
    for (size_t j = 0; j < sp->n; j++)
        if (sp->rows[j]->has_change && sp->rows[j]->has_x)
            svg_vline(sb, "chg", axis_pos(&g.xa, sp->rows[j]->x), g.lanes_top + lanes_h, g.bottom);
    lines(s, sb, &g, sp->rows, sp->n);
    points(s, sb, &g, sp->key, sp->rows, sp->n);
    if (spec->mark)
        page_marks(s, sb, &g, sp->rows, sp->n);
    p->marks = sp->n;
    s->c->out->marks += sp->n;
    p->h = g.bottom + 38 + 6;
    return sb->failed ? -1 : 0;
}
