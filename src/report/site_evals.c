/* The recorded evaluations on the site: each one's page (the report page,
 * its chart from a companion recorded on the same data, or none), its
 * headline for the index, and the histories its rows name, whose pages
 * link to it. Nothing is run: a site only reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_spec.h"
#include "report/display.h"
#include "report/headline.h"
#include "report/report.h"
#include "report/site.h"
#include "util/diag.h"
#include "util/xalloc.h"

/* ---- the histories an evaluation's rows name ---- */

static const char *text_of(const json_t *row, const char *col)
{
    const json_t *v = json_object_get(row, col);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static void add_eval(struct site_history *h, long long id)
{
    if (h->nevals && h->evals[h->nevals - 1] == id)
        return;
    h->evals = xreallocarray(h->evals, h->nevals + 1, sizeof *h->evals);
    h->evals[h->nevals++] = id;
}

/* Histories by host, benchmark and params: what a row names. */
static const struct site *g_s;

static int cmp_cell3(const struct site_history *h, const char *host, const char *bench, const char *params)
{
    int c;
    if ((c = strcmp(h->host, host)) || (c = strcmp(h->benchmark, bench)))
        return c;
    return strcmp(h->params, params);
}

static int cmp_cell(const void *a, const void *b)
{
    const struct site_history *y = &g_s->h[*(const size_t *)b];
    int c = cmp_cell3(&g_s->h[*(const size_t *)a], y->host, y->benchmark, y->params);
    return c ? c : (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Every history named by a row (host, benchmark, params; plan and metric
 * when the row, or else the evaluation's parameters, say). */
static void link_rows(struct site *s, const size_t *by_cell, const struct report_eval *ev)
{
    if (!ev->ncol || !report_has_col(ev, "host") || !report_has_col(ev, "benchmark") || !report_has_col(ev, "params"))
        return;
    const char *pplan = text_of(ev->params, "plan"), *pmetric = text_of(ev->params, "metric");
    if (pmetric && strcmp(pmetric, "*") == 0)
        pmetric = NULL;
    size_t i;
    json_t *row;
    json_array_foreach(ev->rows, i, row) {
        const char *host = text_of(row, "host"), *bench = text_of(row, "benchmark"), *params = text_of(row, "params");
        const char *plan = text_of(row, "plan"), *metric = text_of(row, "metric");
        if (!host || !bench || !params)
            continue;
        plan = plan ? plan : pplan;
        metric = metric ? metric : pmetric;
        size_t lo = 0, hi = s->nh;
        while (lo < hi) { /* the first history of this host and cell */
            size_t mid = (lo + hi) / 2;
            if (cmp_cell3(&s->h[by_cell[mid]], host, bench, params) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < s->nh && cmp_cell3(&s->h[by_cell[lo]], host, bench, params) == 0; lo++) {
            struct site_history *h = &s->h[by_cell[lo]];
            if ((!plan || strcmp(h->plan, plan) == 0) && (!metric || strcmp(h->metric, metric) == 0))
                add_eval(h, ev->id);
        }
    }
}

/* ---- pages ---- */

struct drawn {
    struct report_eval ev, cev;
    struct chart_spec spec;
    struct saved_query *parsed, *now;
    struct report_companion_run comp;
    char *reg, *verify, *no_chart, *nav;
};

static void drawn_free(struct drawn *d)
{
    report_eval_free(&d->ev);
    report_eval_free(&d->cev);
    chart_spec_free(&d->spec);
    saved_query_free(d->parsed);
    saved_query_free(d->now);
    report_companion_free(&d->comp);
    free(d->reg);
    free(d->verify);
    free(d->no_chart);
    free(d->nav);
}

/* The chart's companion, recorded on the same data; or why there is none. */
static void companion(struct site *s, struct drawn *d)
{
    char *err = NULL;
    if (report_companion(s->db, s->qp, &d->ev, d->spec.from, &d->spec, 0, &d->comp, &err) ||
        report_eval_load(s->db, d->comp.id, &d->cev, &err)) {
        d->no_chart = err;
        return;
    }
    free(err);
}

/* Loads evaluation id and what its page needs. Returns 0, or -1 with *err. */
static int load(struct site *s, long long id, struct drawn *d, char **err)
{
    memset(d, 0, sizeof *d);
    if (report_eval_load(s->db, id, &d->ev, err))
        return -1;
    char src[160], *e2 = NULL;
    snprintf(src, sizeof src, "evaluation %lld (%s)", d->ev.id, d->ev.query_name);
    if (chart_spec_parse(d->ev.text, src, &d->spec, err) < 0)
        return -1;
    d->parsed = saved_query_parse(xstrdup(d->ev.text), src, 0, &e2); /* without it: no descriptions */
    free(e2);
    e2 = NULL;
    int unknown = 0;
    d->now = saved_query_find(s->qp, d->ev.query_name, &unknown, &e2);
    free(e2);
    if (d->spec.from)
        companion(s, d);
    d->reg = report_registration_text(s->db, &d->ev, d->parsed);
    d->verify = report_verify_text(&d->ev, d->now, s->qp);
    d->nav = xstrdup("<nav><a href=\"../index.html\">\xe2\x86\x90 every history and verdict (index)</a></nav>\n");
    return 0;
}

static int summarize(struct site_eval *e, const struct drawn *d, char **err)
{
    char src[160];
    snprintf(src, sizeof src, "evaluation %lld (%s)", d->ev.id, d->ev.query_name);
    json_t *at = json_string(d->ev.evaluated_at ? d->ev.evaluated_at : "");
    e->id = d->ev.id;
    e->query = xstrdup(d->ev.query_name);
    /* The plan it judged, else the plan it was asked about (a query that
     * judges no plan, like regressions, still names one in its parameters). */
    const char *plan = d->ev.judged_plan ? d->ev.judged_plan : text_of(d->ev.params, "plan");
    e->plan = plan ? xstrdup(plan) : NULL;
    e->at = at ? display_value(at, REPORT_DIGITS, NULL) : NULL;
    e->outcome = d->ev.outcome ? xstrdup(d->ev.outcome) : NULL;
    e->params = report_params_given(&d->ev, d->parsed, "plan"); /* the plan has a column of its own */
    e->file = bd_strdupf("e/%lld.html", d->ev.id);
    e->decision = d->parsed && d->parsed->outcome;
    e->nrows = report_nrows(&d->ev);
    e->failing = report_failing_rows(&d->ev, e->decision ? d->parsed->outcome : NULL);
    e->companion = d->comp.id != d->ev.id ? d->comp.id : 0;
    json_decref(at);
    /* A headline line that does not parse (a query file's typo, recorded
     * for good): its page opens with the outcome line, the site is still
     * made, and it says so, as query warns of it; not the whole site
     * refused for one page. */
    char *hl_err = NULL;
    if (report_headline(&d->ev, d->cev.rows ? &d->cev : NULL, src, &e->headline, &hl_err)) {
        e->headline = NULL;
        bd_warning("site: %s (no headline: its page opens with its outcome line; 'benchdb report --evaluation "
                   "%lld' refuses it)",
                   hl_err ? hl_err : "a headline line cannot be read", d->ev.id);
    }
    free(hl_err);
    if (!e->query || !e->at || !e->file)
        return bd_fail(err, "out of memory");
    return 0;
}

static int eval_page(struct site *s, struct drawn *d, struct site_writer *w, const char *file, char **err)
{
    int charted = d->spec.kind != CHART_TABLE && (!d->spec.from || d->cev.rows);
    struct report_page pg = {&d->ev, charted ? (d->spec.from ? &d->cev : &d->ev) : NULL, &d->spec, d->parsed,
                             d->reg, d->verify, d->nav, d->no_chart, 1};
    struct strbuf page = {0};
    int rc = report_html(&page, &pg, err) < 0 ? -1 : site_put(w, file, &page, err);
    sb_free(&page);
    (void)s;
    return rc;
}

static int cmp_eval_id(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = ((const struct site_eval *)b)->id;
    return (x > y) - (x < y);
}

/* Marks each companion recorded after the evaluation whose chart it draws
 * (as `benchdb report` records one, for the page) as drawn for it (the
 * latest such evaluation before it): not a verdict of its own on the
 * index. One recorded before was the user's own (a report reuses it), and
 * stays one. */
static void mark_drawn(struct site *s)
{
    for (size_t i = 0; i < s->nevals; i++) {
        const struct site_eval *p = &s->evals[i];
        if (p->companion <= p->id)
            continue;
        struct site_eval *c = bsearch(&p->companion, s->evals, s->nevals, sizeof *s->evals, cmp_eval_id);
        if (c)
            c->drawn_for = p->id; /* the nearest before it: the one it was recorded for */
    }
}

int site_read_evals(struct site *s, struct site_writer *w, char **err)
{
    struct db_stmt *st;
    long long *ids = NULL;
    size_t n = 0, cap = 0;
    if (db_prepare(s->db, "SELECT id FROM evaluation ORDER BY id", &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the evaluations: %s", db_errmsg(s->db));
    /* x-allocations abort when memory runs out (util/xalloc.h): no NULL to check */
    size_t *by_cell = xmalloc((s->nh ? s->nh : 1) * sizeof *by_cell);
    for (size_t k = 0; k < s->nh; k++)
        by_cell[k] = k;
    g_s = s;
    qsort(by_cell, s->nh, sizeof *by_cell, cmp_cell);
    int rc = 0, step;
    while ((step = db_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            ids = xreallocarray(ids, cap, sizeof *ids);
        }
        ids[n++] = db_column_int64(st, 0);
    }
    /* a read that failed part-way is an error, not a site of fewer evaluations */
    if (step != SQLITE_DONE)
        rc = bd_fail(err, "cannot read the evaluations: %s", db_errmsg(s->db));
    db_finalize(st);
    if (rc == 0)
        s->evals = xcalloc(n ? n : 1, sizeof *s->evals);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct drawn d;
        rc = load(s, ids[i], &d, err);
        /* a connection lost while this one was read (a part of its page
         * may be missing): this one and the rest not drawn, said once, as
         * ingest says it, not "no connection to the server" for the next */
        if (db_lost(s->db)) {
            free(*err);
            *err = NULL;
            rc = bd_fail(err, "site: the connection to the store was lost: %zu evaluation%s not drawn (the first: %lld), "
                              "nor the histories' pages and the index; run it again once the server is back",
                         n - i, n - i == 1 ? "" : "s", ids[i]);
        }
        if (rc == 0) {
            struct site_eval *e = &s->evals[s->nevals++];
            rc = summarize(e, &d, err);
            if (rc == 0)
                rc = eval_page(s, &d, w, e->file, err);
            link_rows(s, by_cell, &d.ev);
        }
        drawn_free(&d);
    }
    if (rc == 0)
        mark_drawn(s);
    free(ids);
    free(by_cell);
    return rc;
}
