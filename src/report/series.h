#ifndef BENCHDB_REPORT_SERIES_H
#define BENCHDB_REPORT_SERIES_H
/* What the series chart's files share (chart_series.c reads the rows and
 * orders the panels, series_panel.c draws one, series_marks.c puts the
 * page's own rows on the chart). */
#include <stddef.h>

#include "report/chart.h"

enum xkind { X_TIME, X_NUMBER, X_ORDER };

/* Alerts: none, a regression's (or any other truthy value), an improvement's. */
enum alert_kind { ALERT_NONE, ALERT_BAD, ALERT_GOOD };

struct srow {
    size_t i;
    double x, y, change, lo, hi;
    int has_x, has_y, has_change, has_band;
    enum alert_kind alert;
    int mark;     /* the page row drawn here (mark=): its class, or -1 */
    int ref;      /* a reference point (lag=, or a missed mark) */
};

struct series {
    struct chart_ctx *c;
    struct srow *r;
    enum xkind xk;
    char **cats; /* X_ORDER: the x values in order of first appearance */
    int ncat;
    struct classes cl;
    int any_change, any_alert[3], any_band, any_ref;
    char **marks; /* mark= classes, in order of first appearance */
    int nmarks;
};

/* One panel: rows (sorted by x) of group `key`, titled title; part k of
 * parts; legend: whether to draw the legend (the first panel). */
struct series_panel {
    const char *key, *title;
    struct srow **rows;
    size_t n;
    int part, parts, legend;
};
/* Returns 0, or -1 when memory ran out. */
int series_panel_draw(struct series *s, const struct series_panel *sp);

/* The x axis at y (grid lines up to top): times, numbers (labelled by the
 * tick= column of rows[0..n), sorted by x, when given) or the values in
 * order. */
void series_x_axis(const struct series *s, struct strbuf *sb, struct axis *ax, double y, double top,
                   struct srow **rows, size_t n);

/* Puts the page's rows (spec->mark, matched by spec->match) on the chart's
 * rows: each srow's mark and ref. Returns 0, or -1 with *c->err. */
int series_marks(struct series *s);
/* The colour and shape of mark class k (hit, missed, regression, ...). */
void series_mark_style(const struct series *s, int k, const char **colour, enum shape *shape, int *filled);

#endif
