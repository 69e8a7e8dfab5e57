/* The page's own rows on a series drawn from a companion (chart options
 * mark=, match=, lag=): a back-test's hits, false alarms and missed
 * regressions, or the regressions among a trend's change points, each on
 * the point of the chart row whose match columns hold the same values
 * (docs/report.md, "series"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/series.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct keyed_row {
    char *key;
    size_t row;
};

static int cmp_key(const void *a, const void *b)
{
    return strcmp(((const struct keyed_row *)a)->key, ((const struct keyed_row *)b)->key);
}

/* The match columns' exact values of row i of ev, joined; the last one
 * moved back by lag (a number) when lag is not 0. NULL when memory ran
 * out or the moved value is not a number. */
static char *match_key(const struct chart_spec *sp, const struct report_eval *ev, size_t i, long long lag)
{
    struct strbuf sb = {0};
    for (int k = 0; k < sp->nmatch; k++) {
        json_t *v = report_cell(ev, i, sp->match[k]);
        char *t;
        if (lag && k == sp->nmatch - 1) {
            double x;
            if (!evaldata_num(v, &x)) {
                sb_free(&sb);
                return NULL;
            }
            t = bd_strdupf("%lld", (long long)llround(x) - lag);
        } else {
            t = evaldata_exact(v);
        }
        sb_printf(&sb, "%s%s", k ? "\x1f" : "", t ? t : "");
        if (!t)
            sb.failed = 1;
        free(t);
    }
    if (sb.failed) {
        sb_free(&sb);
        return NULL;
    }
    return xsb_detach(&sb);
}

static int class_of(struct series *s, const char *name)
{
    for (int k = 0; k < s->nmarks; k++)
        if (strcmp(s->marks[k], name) == 0)
            return k;
    char **grown = xreallocarray(s->marks, (size_t)(s->nmarks + 1), sizeof *s->marks);
    char *copy = xstrdup(name);
    if (!grown || !copy) {
        free(copy);
        if (grown)
            s->marks = grown;
        return -1;
    }
    s->marks = grown;
    s->marks[s->nmarks] = copy;
    return s->nmarks++;
}

static struct srow *find(struct series *s, const struct keyed_row *idx, size_t n, const char *key)
{
    struct keyed_row probe = {(char *)key, 0};
    const struct keyed_row *hit = n ? bsearch(&probe, idx, n, sizeof *idx, cmp_key) : NULL;
    return hit ? &s->r[hit->row] : NULL;
}

/* Page row i on the chart: its mark, and its reference point. */
static int place(struct series *s, const struct keyed_row *idx, size_t n, size_t i)
{
    const struct chart_spec *sp = s->c->spec;
    const struct report_eval *page = s->c->params_ev;
    json_t *v = report_cell(page, i, sp->mark);
    if (!v || json_is_null(v))
        return 0;
    char *name = json_is_string(v) ? xstrdup(json_string_value(v)) : evaldata_exact(v);
    char *key = name ? match_key(sp, page, i, 0) : NULL;
    int k = key ? class_of(s, name) : -1, rc = k < 0 ? -1 : 0;
    struct srow *at = rc ? NULL : find(s, idx, n, key);
    if (at && at->mark < 0)
        at->mark = k;
    /* The reference point: lag runs before a mark that has one; a missed
     * reference regression is its own. */
    double lag;
    if (at && strcmp(name, "missed") == 0) {
        at->ref = 1;
    } else if (!rc && sp->lag && evaldata_num(report_cell(page, i, sp->lag), &lag)) {
        char *back = match_key(sp, page, i, (long long)llround(lag));
        struct srow *ref = back ? find(s, idx, n, back) : NULL;
        if (ref)
            ref->ref = 1;
        free(back);
    }
    s->any_ref |= at && at->ref;
    free(name);
    free(key);
    return rc;
}

int series_marks(struct series *s)
{
    const struct chart_spec *sp = s->c->spec;
    const struct report_eval *page = s->c->params_ev;
    for (int k = 0; k < sp->nmatch; k++)
        if (!report_has_col(s->c->ev, sp->match[k]) || !report_has_col(page, sp->match[k]))
            return bd_fail(s->c->err, "chart: match=%s: not a column of both the page's rows and the chart's",
                           sp->match[k]);
    if (!report_has_col(page, sp->mark) || (sp->lag && !report_has_col(page, sp->lag)))
        return bd_fail(s->c->err, "chart: mark=%s%s%s: not a column of the page's rows", sp->mark,
                       sp->lag ? ", lag=" : "", sp->lag ? sp->lag : "");
    size_t n = report_nrows(s->c->ev), np = report_nrows(page), built = 0;
    struct keyed_row *idx = xmalloc((n ? n : 1) * sizeof *idx);
    int rc = idx ? 0 : -1;
    for (; rc == 0 && built < n; built++) {
        idx[built] = (struct keyed_row){match_key(sp, s->c->ev, built, 0), built};
        rc = idx[built].key ? 0 : -1;
    }
    if (rc == 0)
        qsort(idx, n, sizeof *idx, cmp_key);
    for (size_t i = 0; rc == 0 && i < np; i++)
        rc = place(s, idx, n, i);
    for (size_t i = 0; idx && i < built; i++)
        free(idx[i].key);
    free(idx);
    for (size_t i = 0; rc == 0 && i < n; i++)
        s->any_ref |= s->r[i].ref;
    return rc ? (*s->c->err ? -1 : bd_fail(s->c->err, "out of memory")) : 0;
}

void series_mark_style(const struct series *s, int k, const char **colour, enum shape *shape, int *filled)
{
    static const struct {
        const char *name, *colour;
        enum shape shape;
        int filled;
    } known[] = {
        {"hit", "#009E73", SHAPE_TRIANGLE, 1},        {"false alarm", "#E69F00", SHAPE_SQUARE, 0},
        {"missed", "#D55E00", SHAPE_CROSS, 0},           {"regression", "#D55E00", SHAPE_TRIANGLE, 1},
        {"improvement", "#0072B2", SHAPE_TRIANGLE_DOWN, 1},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(s->marks[k], known[i].name) == 0) {
            *colour = known[i].colour;
            *shape = known[i].shape;
            *filled = known[i].filled;
            return;
        }
    *colour = palette_colour(k + 2);
    *shape = SHAPE_DIAMOND;
    *filled = 1;
}
