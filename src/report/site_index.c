/* index.html: what the store holds and what is wrong with it, first: a
 * headline naming the failing decisions, then the open regressions
 * (histories whose latest change point is a regression); the latest
 * verdict of each query (failing first; not the evaluations report
 * recorded to draw a chart), the plans and hosts, then every history
 * (regressed first, a sparkline each) and every evaluation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/display.h"
#include "report/headline.h"
#include "report/site.h"
#include "report/svg.h"
#include "util/diag.h"
#include "util/text.h"
#include "util/xalloc.h"

static void esc(struct strbuf *sb, const char *s) { svg_esc(sb, s ? s : ""); }

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The distinct values of the runs' plan (which 0) or host (1), sorted. */
static char **distinct(const struct site *s, int which, size_t *n)
{
    char **v = xmalloc((s->nruns ? s->nruns : 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < s->nruns; i++)
        v[i] = which ? s->runs[i].host : s->runs[i].plan;
    qsort(v, s->nruns, sizeof *v, cmp_str);
    for (size_t i = 0; i < s->nruns; i++)
        if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
            v[(*n)++] = v[i];
    return v;
}

static size_t open_regressions(const struct site *s, const char *plan)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nh; i++)
        n += s->h[i].last && s->h[i].last->regression && (!plan || strcmp(s->h[i].plan, plan) == 0);
    return n;
}

/* "plan-SLUG" for an anchor: letters and digits, the rest '-', and the index. */
static void anchor(struct strbuf *sb, const char *what, const char *name, size_t k)
{
    sb_printf(sb, "%s-", what);
    for (const char *p = name; *p; p++)
        sb_putc(sb, (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ? *p : '-');
    sb_printf(sb, "-%zu", k);
}


/* By query, plan (none first), then newest first. */
static int cmp_query_plan(const void *a, const void *b)
{
    const struct site_eval *x = *(const struct site_eval *const *)a, *y = *(const struct site_eval *const *)b;
    int c = strcmp(x->query, y->query);
    if (!c)
        c = !x->plan || !y->plan ? (x->plan != NULL) - (y->plan != NULL) : strcmp(x->plan, y->plan);
    return c ? c : (x->id < y->id) - (x->id > y->id);
}

/* The failing decisions first, then the rest, each newest first. */
static int cmp_failing_newest(const void *a, const void *b)
{
    const struct site_eval *x = *(const struct site_eval *const *)a, *y = *(const struct site_eval *const *)b;
    int c = (y->failing > 0) - (x->failing > 0);
    return c ? c : (x->id < y->id) - (x->id > y->id);
}

/* The latest verdict of each query and plan: of the evaluations not
 * recorded to draw another's chart, the newest of each query and plan; the
 * decisions whose outcome fails somewhere first, then the rest, each
 * newest first. Returns them (*n), or NULL (none, or out of memory: *n 0). */
static const struct site_eval **latest_verdicts(const struct site *s, size_t *n)
{
    const struct site_eval **v = s->nevals ? xmalloc(s->nevals * sizeof *v) : NULL;
    size_t m = 0;
    *n = 0;
    for (size_t i = 0; v && i < s->nevals; i++)
        if (!s->evals[i].drawn_for)
            v[m++] = &s->evals[i];
    if (!v)
        return NULL;
    qsort(v, m, sizeof *v, cmp_query_plan);
    for (size_t i = 0; i < m; i++)
        if (i == 0 || strcmp(v[i]->query, v[i - 1]->query) != 0 || !text_same(v[i]->plan, v[i - 1]->plan))
            v[(*n)++] = v[i];
    qsort(v, *n, sizeof *v, cmp_failing_newest);
    return v;
}

/* The failing decisions among the latest verdicts, in words and numbers,
 * a query failing on several plans once: "22 of 23 latest decisions fail:
 * placement-rule on 21 plans, compare (plan crc32): 5 of 36 benchmarks
 * slower or worse; " (what its page's headline counts, else "in 5 of 37
 * rows"), or nothing when none fails. v: latest_verdicts', the failing
 * first. */
static void failing_decisions(struct strbuf *sb, const struct site_eval *const *v, size_t n)
{
    size_t fail = 0, dec = 0, named = 0, left = 0;
    for (size_t k = 0; k < n; k++) {
        fail += v[k]->failing > 0;
        dec += v[k]->decision;
    }
    if (!fail)
        return;
    sb_printf(sb, "%zu of %zu latest decision%s fail%s: ", fail, dec, dec == 1 ? "" : "s", fail == 1 ? "s" : "");
    for (size_t k = 0; k < fail; k++) {
        const struct site_eval *e = v[k];
        size_t plans = 0, seen = 0;
        for (size_t j = 0; j < fail; j++)
            if (strcmp(v[j]->query, e->query) == 0) {
                plans++;
                seen += j < k;
            }
        if (seen) /* named with its first */
            continue;
        if (named == 3) {
            left += plans;
            continue;
        }
        sb_puts(sb, named++ ? ", " : "");
        esc(sb, e->query);
        if (plans > 1) {
            sb_printf(sb, " on %zu plans", plans);
            continue;
        }
        if (e->plan) {
            sb_puts(sb, " (plan ");
            esc(sb, e->plan);
            sb_puts(sb, ")");
        }
        char *words = report_failing_words(e->headline); /* its page's count, in its page's unit */
        if (words) {
            sb_puts(sb, ": ");
            esc(sb, words);
        } else {
            sb_printf(sb, " in %zu of %zu row%s", e->failing, e->nrows, e->nrows == 1 ? "" : "s");
        }
        free(words);
    }
    if (left)
        sb_printf(sb, " and %zu more", left);
    sb_puts(sb, "; ");
}

/* What is wrong first: the failing decisions, then the open regressions
 * (else that there are none, and that the decisions pass). */
static void headline(struct strbuf *sb, const struct site *s, const struct site_eval *const *v, size_t n)
{
    size_t open = open_regressions(s, NULL), dec = 0, fail = 0;
    for (size_t k = 0; k < n; k++) {
        dec += v[k]->decision;
        fail += v[k]->failing > 0;
    }
    sb_printf(sb, "<h1 class=\"headline%s\">", open || fail ? "" : " empty");
    failing_decisions(sb, v, n);
    if (open) {
        const struct site_history *h = &s->h[s->order[0]];
        char *t = site_history_title(h), pct[56];
        site_pct(pct, h->last->change);
        sb_printf(sb, "%zu of %zu histor%s regressed and not recovered; the largest, ", open, s->nh,
                  s->nh == 1 ? "y" : "ies");
        esc(sb, t);
        sb_printf(sb, ", %s from run ", pct);
        site_run_named(sb, &s->runs[h->pts[h->last->at].run]);
        const struct site_run *good = site_last_good(s, h, h->last_line, h->last);
        if (good) { /* the range to bisect, as regressions' headline gives it */
            sb_puts(sb, ", last good ");
            esc(sb, good->name);
        }
        free(t);
    } else {
        sb_printf(sb, "no open regression in %zu histor%s", s->nh, s->nh == 1 ? "y" : "ies");
    }
    if (dec && !fail)
        sb_printf(sb, dec == 1 ? "; the latest decision passes" : "; the %zu latest decisions pass", dec);
    sb_puts(sb, "</h1>\n");
}

/* A row of a table of histories: sparkline, name, points, latest change. */
static void history_row(struct strbuf *sb, const struct site *s, const struct site_history *h)
{
    char *t = site_history_title(h);
    sb_puts(sb, "<tr><td>");
    site_sparkline(sb, s, h);
    sb_printf(sb, "</td><td><a href=\"%s\">", h->file);
    esc(sb, t);
    sb_printf(sb, "</a></td><td class=\"n\">%zu</td>", h->npts);
    free(t);
    if (h->last) {
        const struct site_run *r = &s->runs[h->pts[h->last->at].run];
        char pct[56], when[32] = "";
        double at;
        site_pct(pct, h->last->change);
        if (r->started_at && display_time_parse(r->started_at, &at))
            display_time(when, at, 1);
        sb_printf(sb, "<td class=\"n %s\">%s</td><td>%s from run ", h->last->regression ? "reg" : "imp", pct,
                  h->last->regression ? "regression" : "improvement");
        site_run_named(sb, r);
        sb_printf(sb, ", %s", when);
        const struct site_run *good = site_last_good(s, h, h->last_line, h->last);
        if (good) {
            sb_puts(sb, h->last->regression ? "; last good " : "; after ");
            site_run_named(sb, good);
        }
        sb_puts(sb, "</td></tr>\n");
    } else {
        sb_puts(sb, "<td></td><td>no change point</td></tr>\n");
    }
}

static void histories_table(struct strbuf *sb, const struct site *s, const char *plan, int open_only)
{
    sb_puts(sb, "<div class=\"tw\"><table class=\"h\"><thead><tr><th>scores</th><th>history</th><th>runs</th>"
                "<th>latest change</th><th>where</th></tr></thead><tbody>\n");
    for (size_t k = 0; k < s->nh; k++) {
        const struct site_history *h = &s->h[s->order[k]];
        if ((plan && strcmp(h->plan, plan) != 0) || (open_only && !(h->last && h->last->regression)))
            continue;
        history_row(sb, s, h);
    }
    sb_puts(sb, "</tbody></table></div>\n");
}

/* The latest verdict of each query and plan (latest_verdicts). */
static void verdicts(struct strbuf *sb, const struct site_eval *const *v, size_t n)
{
    if (!n)
        return;
    sb_puts(sb, "<h2 id=\"verdicts\">The latest verdicts, failing decisions first</h2>\n<div class=\"tw\"><table>"
                "<thead><tr><th>query</th><th>plan</th><th>parameters</th><th>evaluation</th><th>recorded (UTC)</th>"
                "<th>what it found</th></tr></thead><tbody>\n");
    for (size_t k = 0; k < n; k++) {
        const struct site_eval *e = v[k];
        sb_puts(sb, "<tr><td><code>");
        esc(sb, e->query);
        sb_puts(sb, "</code></td><td>");
        esc(sb, e->plan);
        sb_puts(sb, "</td><td>");
        if (e->params) { /* what makes two verdicts of one query on one store differ */
            sb_puts(sb, "<code>");
            esc(sb, e->params);
            sb_puts(sb, "</code>");
        } else {
            sb_puts(sb, "defaults");
        }
        sb_printf(sb, "</td><td><a href=\"%s\">%lld</a></td><td class=\"s\">", e->file, e->id);
        esc(sb, e->at);
        sb_puts(sb, "</td><td>");
        esc(sb, e->headline ? e->headline : e->outcome);
        sb_puts(sb, "</td></tr>\n");
    }
    sb_puts(sb, "</tbody></table></div>\n");
}

static void plans(struct strbuf *sb, const struct site *s, char **names, size_t n)
{
    sb_puts(sb, "<h2 id=\"plans\">Plans</h2>\n<div class=\"tw\"><table><thead><tr><th>plan</th><th>runs</th>"
                "<th>hosts</th><th>histories</th><th>open regressions</th><th>first run (UTC)</th><th>latest run (UTC)</th>"
                "</tr></thead><tbody>\n");
    for (size_t k = 0; k < n; k++) {
        size_t runs = 0, hist = 0;
        double lo = INFINITY, hi = -INFINITY, t;
        char *hosts[4096];
        size_t nhosts = 0;
        for (size_t i = 0; i < s->nruns; i++) {
            const struct site_run *r = &s->runs[i];
            if (strcmp(r->plan, names[k]) != 0)
                continue;
            runs++;
            if (r->started_at && display_time_parse(r->started_at, &t)) {
                lo = fmin(lo, t);
                hi = fmax(hi, t);
            }
            int seen = 0;
            for (size_t j = 0; j < nhosts && !seen; j++)
                seen = strcmp(hosts[j], r->host) == 0;
            if (!seen && nhosts < sizeof hosts / sizeof *hosts)
                hosts[nhosts++] = r->host;
        }
        for (size_t i = 0; i < s->nh; i++)
            hist += strcmp(s->h[i].plan, names[k]) == 0;
        char a[32] = "", b[32] = "";
        if (isfinite(lo)) {
            display_time(a, lo, 0);
            display_time(b, hi, 0);
        }
        sb_puts(sb, "<tr><td><a href=\"#");
        anchor(sb, "plan", names[k], k);
        sb_puts(sb, "\">");
        esc(sb, names[k]);
        sb_printf(sb, "</a></td><td class=\"n\">%zu</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
                      "<td class=\"n\">%zu</td><td class=\"s\">%s</td><td class=\"s\">%s</td></tr>\n",
                  runs, nhosts, hist, open_regressions(s, names[k]), a, b);
    }
    sb_puts(sb, "</tbody></table></div>\n");
}

static void hosts(struct strbuf *sb, const struct site *s, char **names, size_t n)
{
    sb_puts(sb, "<h2 id=\"hosts\">Hosts</h2>\n<div class=\"tw\"><table><thead><tr><th>host</th><th>runs</th>"
                "<th>histories</th></tr></thead><tbody>\n");
    for (size_t k = 0; k < n; k++) {
        size_t runs = 0, hist = 0;
        for (size_t i = 0; i < s->nruns; i++)
            runs += strcmp(s->runs[i].host, names[k]) == 0;
        for (size_t i = 0; i < s->nh; i++)
            hist += strcmp(s->h[i].host, names[k]) == 0;
        sb_puts(sb, "<tr><td>");
        esc(sb, names[k]);
        sb_printf(sb, "</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td></tr>\n", runs, hist);
    }
    sb_puts(sb, "</tbody></table></div>\n");
}

static void plan_section(struct strbuf *sb, const struct site *s, const char *plan, size_t k)
{
    sb_puts(sb, "<section id=\"");
    anchor(sb, "plan", plan, k);
    sb_puts(sb, "\"><h3>plan <code>");
    esc(sb, plan);
    sb_puts(sb, "</code></h3>\n");
    histories_table(sb, s, plan, 0);
    sb_puts(sb, "</section>\n");
}

static void every_evaluation(struct strbuf *sb, const struct site *s)
{
    if (!s->nevals)
        return;
    sb_printf(sb, "<details><summary>Every evaluation recorded (%zu)</summary>\n<ul>\n", s->nevals);
    for (size_t i = s->nevals; i-- > 0;) {
        const struct site_eval *e = &s->evals[i];
        sb_printf(sb, "<li><a href=\"%s\">%lld <code>", e->file, e->id);
        esc(sb, e->query);
        sb_puts(sb, "</code></a> ");
        if (e->params) {
            sb_puts(sb, "(<code>");
            esc(sb, e->params);
            sb_puts(sb, "</code>) ");
        }
        esc(sb, e->at);
        sb_puts(sb, *e->at ? " UTC: " : ": "); /* as the page's provenance says it */
        esc(sb, e->headline ? e->headline : e->outcome);
        if (e->drawn_for)
            sb_printf(sb, " (recorded by report to draw the chart of evaluation %lld)", e->drawn_for);
        sb_puts(sb, "</li>\n");
    }
    sb_puts(sb, "</ul></details>\n");
}

char *site_index_headline(const struct site *s)
{
    size_t nv = 0;
    const struct site_eval **v = latest_verdicts(s, &nv);
    struct strbuf h = {0}, t = {0};
    headline(&h, s, v, nv);
    free(v);
    static const char *const ent[][2] = {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}};
    for (const char *p = xsb_text(&h); *p;) {
        if (*p == '<') { /* the <h1> around it */
            p += strcspn(p, ">") + (p[strcspn(p, ">")] != 0);
            continue;
        }
        size_t k = 0;
        while (*p == '&' && k < sizeof ent / sizeof ent[0] && strncmp(p, ent[k][0], strlen(ent[k][0])) != 0)
            k++;
        if (*p == '&' && k < sizeof ent / sizeof ent[0]) {
            sb_puts(&t, ent[k][1]);
            p += strlen(ent[k][0]);
        } else {
            sb_putc(&t, *p++);
        }
    }
    sb_free(&h);
    while (t.len && t.buf[t.len - 1] == '\n')
        t.buf[--t.len] = 0;
    return xsb_detach(&t);
}

int site_index_page(const struct site *s, struct strbuf *sb, char **err)
{
    size_t np = 0, nhost = 0, nv = 0;
    char **pl = distinct(s, 0, &np), **ho = distinct(s, 1, &nhost);
    const struct site_eval **v = latest_verdicts(s, &nv);
    if (!pl || !ho || (s->nevals && !v)) {
        free(pl);
        free(ho);
        free(v);
        return bd_fail(err, "out of memory");
    }
    site_head(sb, "every history and verdict", NULL);
    char pv[3][40];
    site_params_text(s, pv);
    sb_printf(sb, "<header><p class=\"what\"><strong>benchdb site</strong> \xc2\xb7 %zu plan%s \xc2\xb7 %zu host%s "
                  "\xc2\xb7 %zu histor%s \xc2\xb7 %zu evaluation%s \xc2\xb7 data <code>%.12s</code> (%lld archives) "
                  "\xc2\xb7 change points as <code>regressions</code> finds them with <code>window=%s, "
                  "max_pvalue=%s, min_magnitude=%s</code></p>\n",
              np, np == 1 ? "" : "s", nhost, nhost == 1 ? "" : "s", s->nh, s->nh == 1 ? "y" : "ies", s->nevals,
              s->nevals == 1 ? "" : "s", s->fingerprint, s->archives, pv[0], pv[1], pv[2]);
    headline(sb, s, v, nv);
    sb_printf(sb, "<nav>%s%s<a href=\"#plans\">plans</a><a href=\"#hosts\">hosts</a>"
                  "<a href=\"#histories\">every history</a></nav>\n</header>\n",
              open_regressions(s, NULL) ? "<a href=\"#open\">open regressions</a>" : "",
              nv ? "<a href=\"#verdicts\">verdicts</a>" : "");
    if (open_regressions(s, NULL)) {
        sb_puts(sb, "<h2 id=\"open\">Open regressions: the latest change point is a regression</h2>\n");
        sb_printf(sb, "<p>The change points are those <code>benchdb query regressions --param plan=PLAN --param "
                      "window=%s --param max_pvalue=%s --param min_magnitude=%s</code> lists for each plan (a history "
                      "here is one plan's runs; without a plan, regressions joins the plans' runs of a host and cell), "
                      "a regression or an improvement each; a history is here when its latest one is a regression."
                      "</p>\n",
                  pv[0], pv[1], pv[2]);
        histories_table(sb, s, NULL, 1);
    }
    verdicts(sb, v, nv);
    plans(sb, s, pl, np);
    hosts(sb, s, ho, nhost);
    sb_puts(sb, "<h2 id=\"histories\">Every history, open regressions first</h2>\n");
    for (int pass = 0; pass < 2; pass++) /* plans with open regressions first */
        for (size_t k = 0; k < np; k++) {
            if ((open_regressions(s, pl[k]) > 0) != (pass == 0))
                continue;
            plan_section(sb, s, pl[k], k);
        }
    every_evaluation(sb, s);
    site_foot(sb);
    free(pl);
    free(ho);
    free(v);
    return sb->failed ? bd_fail(err, "out of memory") : 0;
}
