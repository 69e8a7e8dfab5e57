/* Time series: per history (group=) the values over time (or over a
 * number, or in order), a line per class, change points marked by a dashed
 * line labelled with the revision and the change in percent, gate alerts
 * marked by a triangle on the axis, a gate's limits as a band, and the
 * page's own rows (mark=) drawn on the points they name. Panels that hold
 * something flagged come first (docs/report.md, "series"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/display.h"
#include "report/series.h"
#include "util/diag.h"
#include "util/xalloc.h"

/* What x is: times if every value reads as one, numbers if every one
 * does, else the values in order of first appearance. */
static enum xkind x_kind(const struct chart_ctx *c)
{
    const struct chart_spec *sp = c->spec;
    if (!sp->x)
        return X_NUMBER;
    int all_time = 1, all_num = 1;
    size_t n = report_nrows(c->ev);
    for (size_t i = 0; i < n; i++) {
        json_t *v = report_cell(c->ev, i, sp->x);
        double t;
        if (!v || json_is_null(v))
            continue;
        all_time &= json_is_string(v) && display_time_parse(json_string_value(v), &t);
        all_num &= evaldata_num(v, &t);
    }
    return all_time ? X_TIME : all_num ? X_NUMBER : X_ORDER;
}

/* The x of an X_ORDER row: the index of its value among the categories. */
static int x_category(struct series *s, const json_t *xv, double *x)
{
    char *t = evaldata_show(xv, 17);
    if (!t)
        return -1;
    int k;
    for (k = 0; k < s->ncat; k++)
        if (strcmp(s->cats[k], t) == 0)
            break;
    if (k == s->ncat) {
        char **grown = xreallocarray(s->cats, (size_t)(s->ncat + 1), sizeof *s->cats);
        if (!grown) {
            free(t);
            return -1;
        }
        s->cats = grown;
        s->cats[s->ncat++] = t;
    } else {
        free(t);
    }
    *x = k;
    return 0;
}

static enum alert_kind alert_of(const json_t *v)
{
    if (!evaldata_truthy(v))
        return ALERT_NONE;
    return json_is_string(v) && strcmp(json_string_value(v), "improvement") == 0 ? ALERT_GOOD : ALERT_BAD;
}

/* Reads row i into s->r[i]. Returns 0, or -1 when memory ran out. */
static int read_row(struct series *s, size_t i)
{
    const struct chart_spec *sp = s->c->spec;
    const struct report_eval *ev = s->c->ev;
    struct axis probe = {.log = sp->log};
    struct srow *r = &s->r[i];
    r->i = i;
    r->mark = -1;
    json_t *xv = sp->x ? report_cell(ev, i, sp->x) : NULL;
    if (!sp->x) {
        r->x = (double)i;
        r->has_x = 1;
    } else if (s->xk == X_TIME) {
        r->has_x = json_is_string(xv) && display_time_parse(json_string_value(xv), &r->x);
    } else if (s->xk == X_NUMBER) {
        r->has_x = evaldata_num(xv, &r->x);
    } else if (xv && !json_is_null(xv)) {
        if (x_category(s, xv, &r->x))
            return -1;
        r->has_x = 1;
    }
    r->has_y = evaldata_num(report_cell(ev, i, sp->y), &r->y) && axis_ok(&probe, r->y);
    if (sp->change) {
        r->has_change = evaldata_num(report_cell(ev, i, sp->change), &r->change);
        s->any_change |= r->has_change;
    }
    if (sp->alert) {
        r->alert = alert_of(report_cell(ev, i, sp->alert));
        s->any_alert[r->alert] = 1;
    }
    if (sp->lower) {
        r->has_band = evaldata_num(report_cell(ev, i, sp->lower), &r->lo) && axis_ok(&probe, r->lo) &&
                      evaldata_num(report_cell(ev, i, sp->upper), &r->hi) && axis_ok(&probe, r->hi);
        s->any_band |= r->has_band;
    }
    return 0;
}

static int cmp_x(const void *a, const void *b)
{
    const struct srow *p = *(const struct srow *const *)a, *q = *(const struct srow *const *)b;
    if (p->has_x != q->has_x)
        return q->has_x - p->has_x;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->i > q->i) - (p->i < q->i);
}

/* ---- which panels come first ---- */

struct rank {
    int group, tier;
    double size; /* the largest |change| */
};

static int mark_flagged(const struct series *s, int k)
{
    const struct chart_spec *sp = s->c->spec;
    if (!sp->nflag)
        return 1;
    for (int f = 0; f < sp->nflag; f++)
        if (strcmp(sp->flag[f], s->marks[k]) == 0)
            return 1;
    return 0;
}

/* Tier 0: the latest point (largest x) alerts as a regression or carries
 * a flagged mark (a gate failing now); 1: a flagged mark or a regression's
 * alert anywhere; 2: a change point, any other mark or alert; 3: nothing
 * to see. */
static struct rank rank_of(const struct series *s, const struct groups *g, int k)
{
    struct rank r = {k, 3, 0};
    const struct srow *last = NULL;
    for (size_t j = 0; j < g->nrows[k]; j++) {
        const struct srow *w = &s->r[g->rows[k][j]];
        int tier = 3;
        if ((w->mark >= 0 && mark_flagged(s, w->mark)) || w->alert == ALERT_BAD)
            tier = 1;
        else if (w->mark >= 0 || w->has_change || w->alert || w->ref)
            tier = 2;
        r.tier = tier < r.tier ? tier : r.tier;
        if (w->has_change && fabs(w->change) > r.size)
            r.size = fabs(w->change);
        if (w->has_x && (!last || w->x >= last->x))
            last = w;
    }
    if (last && ((last->mark >= 0 && mark_flagged(s, last->mark)) || last->alert == ALERT_BAD))
        r.tier = 0;
    return r;
}

static int cmp_rank(const void *a, const void *b)
{
    const struct rank *x = a, *y = b;
    if (x->tier != y->tier)
        return x->tier - y->tier;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->group - y->group;
}

/* ---- panels ---- */

/* Whether the classes of rows[0..m) lie at levels so far apart (medians a
 * factor of 4 or more) that each needs a panel of its own. */
static int levels_differ(const struct series *s, struct srow **rows, size_t m)
{
    if (s->cl.n < 2)
        return 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < s->cl.n; k++) {
        double sum = 0;
        size_t cnt = 0;
        for (size_t j = 0; j < m; j++)
            if (rows[j]->has_y && s->cl.of_row[rows[j]->i] == k) {
                sum += rows[j]->y;
                cnt++;
            }
        if (!cnt)
            continue;
        double mean = sum / (double)cnt;
        if (mean <= 0)
            return 0;
        lo = fmin(lo, mean);
        hi = fmax(hi, mean);
    }
    return isfinite(lo) && hi >= 4 * lo;
}

/* The panels of one group: a part per PANEL_MAX_MARKS rows; a panel per
 * class when the classes' levels differ. */
static int group_panels(struct series *s, const struct groups *g, int k, int *first)
{
    size_t m = g->nrows[k];
    struct srow **rows = xmalloc((m ? m : 1) * sizeof *rows);
    if (!rows)
        return -1;
    for (size_t j = 0; j < m; j++)
        rows[j] = &s->r[g->rows[k][j]];
    qsort(rows, m, sizeof *rows, cmp_x);
    int split = levels_differ(s, rows, m), rc = 0;
    for (int cls = split ? 0 : -1; rc == 0 && cls < (split ? s->cl.n : 0); cls++) {
        size_t n = 0;
        for (size_t j = 0; j < m; j++) /* this class's rows first, in x order */
            if (cls < 0 || s->cl.of_row[rows[j]->i] == cls) {
                struct srow *t = rows[n];
                rows[n++] = rows[j];
                rows[j] = t;
            }
        qsort(rows, n, sizeof *rows, cmp_x);
        char *title = cls < 0 ? NULL : bd_strdupf("%s%s%s = %s", g->titles[k] ? g->titles[k] : "",
                                                  g->titles[k] ? " \xc2\xb7 " : "", s->c->spec->colour, s->cl.names[cls]);
        int parts = panel_parts(n);
        for (int part = 1; rc == 0 && part <= parts; part++) {
            size_t a, b;
            panel_range(n, part, &a, &b);
            struct series_panel p = {g->keys[k], title ? title : g->titles[k], rows + a, b - a, part, parts, *first};
            rc = series_panel_draw(s, &p);
            *first = 0;
        }
        free(title);
        if (split) { /* put the drawn class's rows back after the others, for the next pass */
            qsort(rows, m, sizeof *rows, cmp_x);
        }
    }
    free(rows);
    return rc;
}

static int draw_groups(struct series *s)
{
    struct groups g;
    groups_make(s->c, &g);
    struct rank *order = xmalloc((size_t)(g.n ? g.n : 1) * sizeof *order);
    int rc = order ? 0 : -1, first = 1;
    for (int k = 0; rc == 0 && k < g.n; k++)
        order[k] = rank_of(s, &g, k);
    if (order)
        qsort(order, (size_t)g.n, sizeof *order, cmp_rank);
    for (int k = 0; rc == 0 && k < g.n; k++)
        rc = group_panels(s, &g, order[k].group, &first);
    free(order);
    groups_free(&g);
    return rc;
}

int chart_series(struct chart_ctx *c)
{
    const struct chart_spec *sp = c->spec;
    struct series s = {.c = c};
    size_t n = report_nrows(c->ev);
    int rc = -1;
    s.r = xcalloc(n ? n : 1, sizeof *s.r);
    if (!s.r)
        goto out;
    s.xk = x_kind(c);
    for (size_t i = 0; i < n; i++)
        if (read_row(&s, i))
            goto out;
    const char *roles[][2] = {{"x", sp->x},         {"y", sp->y},         {"change", sp->change},
                              {"alert", sp->alert}, {"lower", sp->lower}, {"upper", sp->upper},
                              {"class", sp->colour}};
    for (size_t k = 0; k < sizeof roles / sizeof roles[0]; k++)
        roles_add(c->out, roles[k][0], roles[k][1]);
    classes_make(c, &s.cl);
    if (sp->mark && series_marks(&s)) {
        rc = -1;
        goto done;
    }
    rc = draw_groups(&s);
done:
    classes_free(&s.cl);
out:
    if (rc && !*c->err)
        bd_fail(c->err, "out of memory");
    for (int k = 0; k < s.ncat; k++)
        free(s.cats[k]);
    free(s.cats);
    for (int k = 0; k < s.nmarks; k++)
        free(s.marks[k]);
    free(s.marks);
    free(s.r);
    return rc;
}
