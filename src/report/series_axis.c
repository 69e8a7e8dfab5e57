/* The x axis of a series panel: times (UTC), numbers, the values in order
 * of first appearance, or numbers (run order) labelled by another column
 * (tick=, e.g. each run's date). Labels never overlap: ticks are dropped
 * until they leave room. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/display.h"
#include "report/series.h"

#define MAXT 40

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
    for (double t = ceil(a->lo / step) * step; t <= a->hi && a->nt < MAXT; t += step)
        a->ticks[a->nt++] = t;
}

static void time_label(char *buf, size_t n, double t, int date_only, double span)
{
    time_t tt = (time_t)floor(t);
    struct tm tm;
    gmtime_r(&tt, &tm);
    if (!strftime(buf, n, date_only ? "%Y-%m-%d" : span > 86400 ? "%m-%d %H:%M" : "%H:%M", &tm))
        buf[0] = 0;
}

/* The label of x from the tick column: the value at the last row at or
 * before x (times as dates, or as times when every row is of one day). */
static void tick_label(const struct series *s, char *buf, size_t size, double x, struct srow **rows, size_t n,
                       int one_day)
{
    const struct srow *at = NULL;
    for (size_t j = 0; j < n; j++)
        if (rows[j]->has_x && rows[j]->x <= x + 1e-9)
            at = rows[j];
    buf[0] = 0;
    if (!at)
        return;
    json_t *v = report_cell(s->c->ev, at->i, s->c->spec->tick);
    double t;
    if (json_is_string(v) && display_time_parse(json_string_value(v), &t)) {
        time_label(buf, size, t, !one_day, 0);
        return;
    }
    char *d = display_value(v, 4, NULL), *fit = d ? text_fit(d, 12) : NULL;
    snprintf(buf, size, "%s", fit ? fit : "");
    free(d);
    free(fit);
}

/* Whether every row's tick value is a time of one day. */
static int one_day(const struct series *s, struct srow **rows, size_t n)
{
    double lo = INFINITY, hi = -INFINITY, t;
    for (size_t j = 0; j < n; j++) {
        json_t *v = report_cell(s->c->ev, rows[j]->i, s->c->spec->tick);
        if (!json_is_string(v) || !display_time_parse(json_string_value(v), &t))
            return 0;
        lo = fmin(lo, t);
        hi = fmax(hi, t);
    }
    return n && floor(lo / 86400) == floor(hi / 86400);
}

/* Numbers labelled by the tick column: a step of 1, 2, 5 x 10^k runs
 * wide enough for the labels. */
static int labelled_ticks(const struct series *s, struct axis *ax, char lab[][64], struct srow **rows, size_t n)
{
    int day = one_day(s, rows, n);
    double span = ax->hi - ax->lo, px_per = fabs(ax->p1 - ax->p0) / (span > 0 ? span : 1);
    double width = (day ? 5 : 10) * CHAR_W + 14;
    static const double m[] = {1, 2, 5};
    double step = 1;
    for (int d = 0, found = 0; !found && d < 12; d++)
        for (int k = 0; k < 3 && !found; k++) {
            step = m[k] * pow(10, d);
            found = step * px_per >= width;
        }
    ax->nt = 0;
    for (double t = ceil(ax->lo / step) * step; t <= ax->hi && ax->nt < MAXT; t += step) {
        tick_label(s, lab[ax->nt], 64, t, rows, n, day);
        if (lab[ax->nt][0]) /* before the first row: no label, no tick */
            ax->ticks[ax->nt++] = t;
    }
    return ax->nt;
}

static int order_ticks(const struct series *s, struct axis *ax, char lab[][64])
{
    double last = -1e300;
    ax->nt = 0;
    for (int k = 0; k < s->ncat && ax->nt < MAXT; k++) {
        if (k < ax->lo || k > ax->hi)
            continue;
        char *fit = text_fit(s->cats[k], 16);
        if (!fit)
            continue;
        double p = axis_pos(ax, k), half = text_cols(fit) * CHAR_W / 2 + 6;
        if (p - half >= last) {
            snprintf(lab[ax->nt], 64, "%s", fit);
            ax->ticks[ax->nt++] = k;
            last = p + half;
        }
        free(fit);
    }
    return ax->nt;
}

void series_x_axis(const struct series *s, struct strbuf *sb, struct axis *ax, double y, double top,
                   struct srow **rows, size_t n)
{
    const struct chart_spec *sp = s->c->spec;
    const char *xl = sp->xlabel ? sp->xlabel : sp->x ? sp->x : "row";
    char label[256];
    snprintf(label, sizeof label, "%s%s", xl, s->xk == X_TIME && !sp->xlabel ? " (UTC)" : "");
    if (s->xk == X_NUMBER && !sp->tick) {
        axis_ticks(ax, 0);
        axis_draw_x(sb, ax, y, top, label);
        return;
    }
    char lab[MAXT][64];
    int nt;
    if (s->xk == X_TIME) {
        int date_only;
        time_ticks(ax, &date_only);
        for (int i = 0; i < ax->nt; i++)
            time_label(lab[i], sizeof lab[i], ax->ticks[i], date_only, ax->hi - ax->lo);
        nt = ax->nt;
    } else if (s->xk == X_NUMBER) {
        nt = labelled_ticks(s, ax, lab, rows, n);
    } else {
        nt = order_ticks(s, ax, lab);
    }
    const char *tl[MAXT];
    for (int i = 0; i < nt; i++)
        tl[i] = lab[i];
    axis_draw_x_labelled(sb, ax, y, top, label, tl);
}
