/* Time series: per history (group=) the values over time (or over a
 * number, or in order), a line per class, change points marked by a dashed
 * line labelled with the revision and the change in percent, gate alerts
 * marked by a triangle on the axis. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/chart.h"
#include "report/fmt_sig.h"
#include "report/svg.h"
#include "util/diag.h"

enum xkind { X_TIME, X_NUMBER, X_ORDER };

struct srow {
    size_t i;
    double x, y, change;
    int has_x, has_y, has_change, alert;
};

/* RFC 3339 (2026-10-21T03:57:00Z, fractions, offsets, a space for the T)
 * or a date alone, as seconds since 1970 UTC. */
static int time_parse(const char *s, double *out)
{
    int Y, M, D, h = 0, m = 0, n = 0;
    double sec = 0;
    if (sscanf(s, "%4d-%2d-%2d%n", &Y, &M, &D, &n) != 3 || n != 10)
        return 0;
    const char *p = s + 10;
    int off = 0;
    if (*p == 'T' || *p == 't' || *p == ' ') {
        int k = 0;
        if (sscanf(p + 1, "%2d:%2d:%lf%n", &h, &m, &sec, &k) != 3)
            return 0;
        p += 1 + k;
        if (*p == 'Z' || *p == 'z') {
            p++;
        } else if (*p == '+' || *p == '-') {
            int oh, om, k2 = 0;
            if (sscanf(p + 1, "%2d:%2d%n", &oh, &om, &k2) != 2 || k2 != 5)
                return 0;
            off = (*p == '-' ? -1 : 1) * (oh * 3600 + om * 60);
            p += 6;
        }
    }
    if (*p || M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec < 0 || sec >= 61)
        return 0;
    struct tm tm = {.tm_year = Y - 1900, .tm_mon = M - 1, .tm_mday = D, .tm_hour = h, .tm_min = m};
    *out = (double)timegm(&tm) + sec - off;
    return 1;
}

/* Ticks of a time axis: a step from a fixed list, labels as dates or times. */
static void time_ticks(struct axis *a, int *date_only)
{
    static const double steps[] = {1,     5,     15,    30,     60,     300,     900,     1800,     3600,
                                   10800, 21600, 43200, 86400,  172800, 604800,  2592000, 7776000,  31536000};
    double span = a->hi - a->lo, step = steps[sizeof steps / sizeof steps[0] - 1];
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (span / steps[i] <= 6) {
            step = steps[i];
            break;
        }
    *date_only = step >= 86400;
    int cols = *date_only ? 10 : span > 86400 ? 11 : 5;
    double px = fabs(a->p1 - a->p0) / (span / step);
    while (px < cols * CHAR_W + 12) { /* labels too close: double the step */
        step *= 2;
        px *= 2;
    }
    a->nt = 0;
    for (double t = ceil(a->lo / step) * step; t <= a->hi && a->nt < 40; t += step)
        a->ticks[a->nt++] = t;
}

static void time_label(char *buf, size_t n, double t, int date_only, double span)
{
    time_t tt = (time_t)floor(t);
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, n, date_only ? "%Y-%m-%d" : span > 86400 ? "%m-%d %H:%M" : "%H:%M", &tm);
}

struct series {
    struct chart_ctx *c;
    struct srow *r;
    enum xkind xk;
    char **cats; /* X_ORDER: the x values in order of first appearance */
    int ncat;
    struct classes cl;
    int any_change, any_alert;
};

static int cmp_x(const void *a, const void *b)
{
    const struct srow *p = *(const struct srow *const *)a, *q = *(const struct srow *const *)b;
    if (p->has_x != q->has_x)
        return q->has_x - p->has_x;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

static void draw_x_axis(struct series *s, struct strbuf *sb, struct axis *ax, double y, double top, const char *label)
{
    if (s->xk == X_NUMBER) {
        axis_ticks(ax, 0);
        axis_draw_x(sb, ax, y, top, label);
        return;
    }
    /* Time and order axes: ticks chosen here, drawn with the same look. */
    char lab[40][64];
    int nt = 0;
    if (s->xk == X_TIME) {
        int date_only;
        time_ticks(ax, &date_only);
        for (int i = 0; i < ax->nt; i++)
            time_label(lab[i], sizeof lab[i], ax->ticks[i], date_only, ax->hi - ax->lo);
        nt = ax->nt;
    } else {
        double last = -1e300;
        ax->nt = 0;
        for (int k = 0; k < s->ncat && ax->nt < 40; k++) {
            if (k < ax->lo || k > ax->hi)
                continue;
            char *fit = text_fit(s->cats[k], 16);
            double p = axis_pos(ax, k), half = text_cols(fit) * CHAR_W / 2 + 6;
            if (p - half >= last) {
                snprintf(lab[ax->nt], sizeof lab[0], "%s", fit);
                ax->ticks[ax->nt++] = k;
                last = p + half;
            }
            free(fit);
        }
        nt = ax->nt;
    }
    const char *tl[40];
    for (int i = 0; i < nt; i++)
        tl[i] = lab[i];
    axis_draw_x_labelled(sb, ax, y, top, label, tl);
}

static char *change_text(const struct series *s, const struct srow *r)
{
    const struct chart_spec *sp = s->c->spec;
    char pct[48];
    report_fmt_sig(pct, r->change, 3);
    char *rev = sp->revision ? json_show(report_cell(s->c->ev, r->i, sp->revision), REPORT_DIGITS) : strdup("");
    char *revfit = text_fit(rev, 14);
    char *t = bd_strdupf("%s%s%s%s%%", revfit, *revfit ? " " : "", r->change > 0 ? "+" : "", pct);
    free(rev);
    free(revfit);
    return t;
}

#define PLOT_H 110.0
#define LANES 6

static void panel(struct series *s, const char *key, const char *title, struct srow **rows, size_t n, int part, int parts, int first)
{
    const struct chart_spec *sp = s->c->spec;
    struct panel *p = panel_new(s->c->out);
    struct strbuf *sb = &p->svg;
    double y = 4;
    y += panel_title(sb, title, n, n == 1 ? "point" : "points", part, parts, y);
    if (first) {
        struct legend l = {0};
        for (int k = 0; k < s->cl.n; k++) {
            char *t = bd_strdupf("%s = %s", sp->colour, s->cl.names[k]);
            legend_add(&l, LEG_SHAPE, class_shape(k), class_colour(&s->cl, k), 1, t);
            free(t);
        }
        if (s->any_change)
            legend_add(&l, LEG_DASH, 0, "chg", 0,
                       sp->revision ? "change point, labelled with its revision and change" : "change point, labelled with its change");
        if (s->any_alert)
            legend_add(&l, LEG_SHAPE, SHAPE_TRIANGLE, palette_colour(5), 1, "gate alert");
        y += legend_draw(sb, &l, 8, y, CHART_W - 16);
        legend_free(&l);
    }
    /* y range of this panel */
    double vmin = INFINITY, vmax = -INFINITY, xmin = INFINITY, xmax = -INFINITY;
    for (size_t j = 0; j < n; j++) {
        if (rows[j]->has_y) {
            vmin = fmin(vmin, rows[j]->y);
            vmax = fmax(vmax, rows[j]->y);
        }
        if (rows[j]->has_x) {
            xmin = fmin(xmin, rows[j]->x);
            xmax = fmax(xmax, rows[j]->x);
        }
    }
    struct axis ya, xa;
    axis_fit(&ya, vmin, vmax, sp->log);
    axis_fit(&xa, xmin, xmax, 0);
    xa.p0 = 88;
    xa.p1 = CHART_W - 24;
    char *unit;
    {
        size_t *idx = malloc((n ? n : 1) * sizeof *idx);
        for (size_t j = 0; j < n; j++)
            idx[j] = rows[j]->i;
        unit = chart_unit(s->c, idx, n);
        free(idx);
    }
    char *yl = bd_strdupf("%s%s%s%s%s", sp->ylabel ? sp->ylabel : sp->y, sp->log && !sp->ylabel ? ", log scale" : "",
                          unit ? " (" : "", unit ? unit : "", unit ? ")" : "");
    free(unit);
    char *ylf = text_fit(yl, (int)((CHART_W - 16) / CHAR_W));
    svg_text(sb, 8, y + 12, "start", "tm", ylf);
    free(ylf);
    free(yl);
    y += 16;
    /* Change labels in lanes above the plot, left to right. */
    double lane_end[LANES];
    int nlanes = 0;
    struct strbuf labels = {0};
    for (size_t j = 0; j < n; j++) {
        const struct srow *r = rows[j];
        if (!r->has_change || !r->has_x)
            continue;
        char *t = change_text(s, r);
        double w = text_cols(t) * CHAR_W, cx = axis_pos(&xa, r->x);
        double x0 = fmin(fmax(cx - w / 2, 8), CHART_W - 8 - w);
        int lane = -1;
        for (int k = 0; k < nlanes; k++)
            if (lane_end[k] + 8 <= x0) {
                lane = k;
                break;
            }
        if (lane < 0 && nlanes < LANES)
            lane = nlanes++;
        if (lane >= 0) {
            lane_end[lane] = x0 + w;
            svg_text(&labels, x0, (double)lane * 14 + 11, "start", "t", t);
        }
        free(t);
    }
    double lanes_h = nlanes * 14.0;
    if (nlanes) {
        sb_printf(sb, "<g transform=\"translate(0,");
        svg_num(sb, y);
        sb_puts(sb, ")\">");
        sb_append(sb, labels.buf, labels.len);
        sb_puts(sb, "</g>");
    }
    sb_free(&labels);
    double top = y + lanes_h + 6, bottom = top + PLOT_H;
    ya.p0 = bottom - 6;
    ya.p1 = top + 6;
    axis_ticks(&ya, 1);
    axis_draw_y(sb, &ya, xa.p0 - 6, xa.p1, NULL);
    const char *xl = sp->xlabel ? sp->xlabel
                     : sp->x      ? sp->x
                                  : "row";
    char *xlt = bd_strdupf("%s%s", xl, s->xk == X_TIME ? " (UTC)" : "");
    draw_x_axis(s, sb, &xa, bottom, top, xlt);
    free(xlt);
    /* change lines from the lanes down to the axis */
    for (size_t j = 0; j < n; j++)
        if (rows[j]->has_change && rows[j]->has_x) {
            svg_vline(sb, "chg", axis_pos(&xa, rows[j]->x), y + lanes_h, bottom);
        }
    /* a line per class, through its points in x order */
    int ncl = s->cl.n ? s->cl.n : 1;
    for (int k = 0; k < ncl; k++) {
        struct strbuf d = {0};
        for (size_t j = 0; j < n; j++) {
            const struct srow *r = rows[j];
            if (!r->has_x || !r->has_y || (s->cl.n && s->cl.of_row[r->i] != k))
                continue;
            sb_puts(&d, d.len ? "L" : "M");
            svg_num(&d, axis_pos(&xa, r->x));
            sb_putc(&d, ' ');
            svg_num(&d, axis_pos(&ya, r->y));
        }
        if (d.len)
            sb_printf(sb, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" stroke-opacity=\"0.7\"/>",
                      d.buf, class_colour(&s->cl, k));
        sb_free(&d);
    }
    const char *rl[] = {"x", sp->x, "y", sp->y, "change", sp->change, "alert", sp->alert, NULL};
    for (size_t j = 0; j < n; j++) {
        const struct srow *r = rows[j];
        int k = s->cl.n ? s->cl.of_row[r->i] : 0;
        mark_open(s->c, sb, r->i, key, s->cl.n ? s->cl.names[k] : NULL, rl);
        if (r->has_x && r->has_y) {
            double cx = axis_pos(&xa, r->x), cy = axis_pos(&ya, r->y);
            if (r->has_change)
                svg_shape(sb, SHAPE_CIRCLE, cx, cy, 5.5, palette_colour(5), 0);
            svg_shape(sb, class_shape(k), cx, cy, 3, class_colour(&s->cl, k), 1);
            if (r->alert)
                svg_shape(sb, SHAPE_TRIANGLE, cx, bottom - 6, 5, palette_colour(5), 1);
        } else {
            /* no position: a grey cross at the plot's left edge */
            sb_puts(sb, "<path d=\"M");
            svg_num(sb, xa.p0 + 1);
            sb_putc(sb, ' ');
            svg_num(sb, top + 1);
            sb_puts(sb, "l6 6m0 -6l-6 6\" stroke=\"#888\"/>");
        }
        mark_close(sb);
    }
    p->marks = n;
    s->c->out->marks += n;
    p->h = bottom + 38 + 6;
}

int chart_series(struct chart_ctx *c)
{
    const struct chart_spec *sp = c->spec;
    struct series s = {.c = c};
    size_t n = report_nrows(c->ev);
    s.r = calloc(n ? n : 1, sizeof *s.r);
    /* What x is: times if every value reads as one, numbers if every one
     * does, else the values in order of first appearance. */
    int all_time = sp->x != NULL, all_num = sp->x != NULL;
    for (size_t i = 0; sp->x && i < n; i++) {
        json_t *v = report_cell(c->ev, i, sp->x);
        double t;
        if (json_is_null(v) || !v)
            continue;
        all_time &= json_is_string(v) && time_parse(json_string_value(v), &t);
        all_num &= json_num(v, &t);
    }
    s.xk = !sp->x ? X_NUMBER : all_time ? X_TIME : all_num ? X_NUMBER : X_ORDER;
    struct axis probe = {.log = sp->log};
    for (size_t i = 0; i < n; i++) {
        struct srow *r = &s.r[i];
        r->i = i;
        json_t *xv = sp->x ? report_cell(c->ev, i, sp->x) : NULL;
        if (!sp->x) {
            r->x = (double)i;
            r->has_x = 1;
        } else if (s.xk == X_TIME) {
            r->has_x = json_is_string(xv) && time_parse(json_string_value(xv), &r->x);
        } else if (s.xk == X_NUMBER) {
            r->has_x = json_num(xv, &r->x);
        } else if (xv && !json_is_null(xv)) {
            char *t = json_show(xv, 17);
            int k;
            for (k = 0; k < s.ncat; k++)
                if (strcmp(s.cats[k], t) == 0)
                    break;
            if (k == s.ncat) {
                s.cats = realloc(s.cats, (size_t)(s.ncat + 1) * sizeof *s.cats);
                s.cats[s.ncat++] = t;
            } else {
                free(t);
            }
            r->x = k;
            r->has_x = 1;
        }
        r->has_y = json_num(report_cell(c->ev, i, sp->y), &r->y) && axis_ok(&probe, r->y);
        if (sp->change) {
            json_t *cv = report_cell(c->ev, i, sp->change);
            r->has_change = json_num(cv, &r->change);
            s.any_change |= r->has_change;
        }
        if (sp->alert) {
            r->alert = json_truthy(report_cell(c->ev, i, sp->alert));
            s.any_alert |= r->alert;
        }
    }
    roles_add(c->out, "x", sp->x);
    roles_add(c->out, "y", sp->y);
    roles_add(c->out, "change", sp->change);
    roles_add(c->out, "alert", sp->alert);
    roles_add(c->out, "class", sp->colour);
    classes_make(c, &s.cl);
    struct groups g;
    groups_make(c, &g);
    for (int k = 0; k < g.n; k++) {
        size_t m = g.nrows[k];
        struct srow **rows = malloc((m ? m : 1) * sizeof *rows);
        for (size_t j = 0; j < m; j++)
            rows[j] = &s.r[g.rows[k][j]];
        qsort(rows, m, sizeof *rows, cmp_x);
        int parts = panel_parts(m);
        for (int part = 1; part <= parts; part++) {
            size_t a, b;
            panel_range(m, part, &a, &b);
            panel(&s, g.keys[k], g.titles[k], rows + a, b - a, part, parts, k == 0 && part == 1);
        }
        free(rows);
    }
    groups_free(&g);
    classes_free(&s.cl);
    for (int k = 0; k < s.ncat; k++)
        free(s.cats[k]);
    free(s.cats);
    free(s.r);
    return 0;
}
