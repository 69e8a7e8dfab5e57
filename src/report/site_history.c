/* A history's page: the headline (its latest change point, or none), the
 * trend chart (the report's series: runs in order, dated, each change
 * point labelled with its revision and change, regressions marked), the
 * change points, the evaluations whose rows name it, and every run with
 * its revision. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/chart.h"
#include "report/display.h"
#include "report/site.h"
#include "report/svg.h"
#include "util/diag.h"
#include "util/xalloc.h"

/* The chart: trend's view, the unit from the page (not a column of every
 * row: a page of 365 runs stays small), a line per variant when there are
 * several. */
static const char chart_one[] =
    "-- chart: series x=seq tick=started_at y=value change=change_percent revision=revision "
    "mark=kind match=seq flag=regression xlabel=\"run, in order (dates in UTC)\"";
static const char chart_many[] =
    "-- chart: series colour=variant x=seq tick=started_at y=value change=change_percent revision=revision "
    "mark=kind match=variant,seq flag=regression xlabel=\"run, in order (dates in UTC)\"";

static json_t *text_or_null(const char *s) { return s ? json_string(s) : json_null(); }

/* The history's points as rows, as trend returns them (and kind). */
static json_t *history_rows(const struct site *s, const struct site_history *h)
{
    json_t *rows = json_array();
    int oom = !rows;
    for (int k = 0; !oom && k < h->nlines; k++) {
        const struct site_line *l = &h->lines[k];
        size_t c = 0;
        for (size_t j = 0; !oom && j < l->count; j++) {
            const struct site_point *p = &h->pts[l->first + j];
            const struct site_run *r = &s->runs[p->run];
            const struct site_cp *cp = c < l->ncps && l->cps[c].at == l->first + j ? &l->cps[c++] : NULL;
            json_t *o = json_object();
            oom = !o || (h->nlines > 1 && json_object_set_new(o, "variant", text_or_null(l->variant))) ||
                  json_object_set_new(o, "seq", json_integer((json_int_t)j + 1)) ||
                  json_object_set_new(o, "run", text_or_null(r->name)) ||
                  json_object_set_new(o, "revision", text_or_null(r->revision)) ||
                  json_object_set_new(o, "started_at", text_or_null(r->started_at)) ||
                  json_object_set_new(o, "value", json_real(p->value)) ||
                  json_object_set_new(o, "change_percent", cp ? json_real(cp->change) : json_null()) ||
                  json_object_set_new(o, "kind", cp ? json_string(cp->regression ? "regression" : "improvement")
                                                    : json_null()) ||
                  json_array_append_new(rows, o);
        }
    }
    if (oom) {
        json_decref(rows);
        return NULL;
    }
    return rows;
}

static void headline(struct strbuf *sb, const struct site *s, const struct site_history *h)
{
    char *title = site_history_title(h);
    sb_printf(sb, "<h1 class=\"headline%s\">", h->last ? "" : " empty");
    svg_esc(sb, title ? title : "");
    if (h->last) {
        const struct site_run *r = &s->runs[h->pts[h->last->at].run];
        char pct[56], b[48], a[48];
        site_pct(pct, h->last->change);
        numfmt_sig(b, h->last->before, REPORT_DIGITS);
        numfmt_sig(a, h->last->after, REPORT_DIGITS);
        const struct site_run *good = site_last_good(s, h, h->last_line, h->last);
        sb_printf(sb, ": %s by %s from run ", h->last->regression ? "regressed" : "improved", pct);
        site_run_named(sb, r);
        if (good) { /* the range to bisect, as regressions' headline gives it */
            sb_puts(sb, h->last->regression ? ", last good " : ", after ");
            site_run_named(sb, good);
        }
        sb_printf(sb, ", its mean %s to %s", b, a);
        if (h->unit) {
            sb_putc(sb, ' ');
            svg_esc(sb, h->unit);
        }
    } else {
        sb_printf(sb, ": no change point in %zu run%s", h->npts, h->npts == 1 ? "" : "s");
    }
    sb_puts(sb, "</h1>\n");
    free(title);
}

static int chart(struct strbuf *sb, const struct site *s, const struct site_history *h, char **err)
{
    struct chart_spec spec;
    struct report_eval ev;
    json_t *rows = history_rows(s, h);
    if (!rows || report_eval_take(&ev, "history", json_object(), rows))
        return bd_fail(err, "out of memory");
    char *line = bd_strdupf("%s ylabel=\"value%s%s%s\"\n", h->nlines > 1 ? chart_many : chart_one,
                            h->unit && !strchr(h->unit, '"') ? " (" : "", h->unit && !strchr(h->unit, '"') ? h->unit : "",
                            h->unit && !strchr(h->unit, '"') ? ")" : "");
    int bad = !line || chart_spec_parse(line, "site", &spec, err) < 0;
    free(line);
    if (bad) {
        report_eval_free(&ev);
        return -1;
    }
    struct chart_out co;
    int rc = chart_draw(&spec, &ev, &ev, &co, err);
    if (rc == 0) {
        sb_printf(sb, "<h2>The scores, run by run</h2>\n<figure><div class=\"chart\" data-kind=\"series\" "
                      "data-rows=\"%zu\" data-marks=\"%zu\">\n",
                  report_nrows(&ev), co.marks);
        for (int i = 0; i < co.n; i++) {
            sb_printf(sb, "<svg class=\"panel\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"%d\" "
                          "height=\"%.1f\" viewBox=\"0 0 %d %.1f\">",
                      (int)CHART_W, co.v[i].h, (int)CHART_W, co.v[i].h);
            sb_append(sb, xsb_text(&co.v[i].svg), co.v[i].svg.len);
            sb_puts(sb, "</svg>\n");
        }
        char pv[3][40];
        site_params_text(s, pv);
        sb_printf(sb, "</div><figcaption>Change points as the saved query regressions finds them (Otava's E-divisive "
                      "means, window %s, p at most %s, magnitude at least %s).</figcaption></figure>\n",
                  pv[0], pv[1], pv[2]);
    }
    chart_out_free(&co);
    chart_spec_free(&spec);
    report_eval_free(&ev);
    return rc;
}

/* A revision, cut to 12 characters when a hash, whole in its title. */
static void revision(struct strbuf *sb, const char *rev)
{
    sb_puts(sb, "<code title=\"");
    svg_esc(sb, rev);
    sb_puts(sb, "\">");
    if (display_is_sha(rev))
        sb_append(sb, rev, 12);
    else
        svg_esc(sb, rev);
    sb_puts(sb, "</code>");
}

/* A change point's cells of runs: the last good run, the first of the new
 * regime, and "GOOD..BAD", the revisions to bisect between (git's range:
 * the commits after the last good one up to the first bad one); the first
 * bad revision alone when the line has no run before it, or the last good
 * run no revision. */
static void range_cells(struct strbuf *sb, const struct site_run *good, const struct site_run *r)
{
    svg_esc(sb, good ? good->name : "");
    sb_puts(sb, "</td><td>");
    svg_esc(sb, r->name);
    sb_puts(sb, "</td><td>");
    if (good && good->revision && r->revision) {
        revision(sb, good->revision);
        sb_puts(sb, "..");
    }
    if (r->revision)
        revision(sb, r->revision);
}

static void change_table(struct strbuf *sb, const struct site *s, const struct site_history *h)
{
    size_t n = 0;
    for (int k = 0; k < h->nlines; k++)
        n += h->lines[k].ncps;
    if (!n)
        return;
    sb_puts(sb, "<h2>Change points</h2>\n<div class=\"tw\"><table><thead><tr><th>variant</th><th>last good run</th>"
                "<th>run</th><th>revision range</th><th>started (UTC)</th><th>mean before</th><th>mean after</th>"
                "<th>change</th><th>p</th><th>kind</th></tr></thead><tbody>\n");
    for (int k = 0; k < h->nlines; k++)
        for (size_t j = 0; j < h->lines[k].ncps; j++) {
            const struct site_cp *c = &h->lines[k].cps[j];
            const struct site_run *r = &s->runs[h->pts[c->at].run];
            char b[48], a[48], p[48], pct[56], t[32] = "";
            double when;
            numfmt_sig(b, c->before, REPORT_DIGITS);
            numfmt_sig(a, c->after, REPORT_DIGITS);
            numfmt_sig(p, c->pvalue, REPORT_DIGITS);
            site_pct(pct, c->change);
            if (r->started_at && display_time_parse(r->started_at, &when))
                display_time(t, when, 0);
            sb_puts(sb, "<tr><td>");
            svg_esc(sb, h->lines[k].variant ? h->lines[k].variant : "");
            sb_puts(sb, "</td><td>");
            range_cells(sb, site_last_good(s, h, &h->lines[k], c), r);
            sb_printf(sb, "</td><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n %s\">%s</td>"
                          "<td class=\"n\">%s</td><td class=\"%s\">%s</td></tr>\n",
                      t, b, a, c->regression ? "reg" : "imp", pct, p, c->regression ? "reg" : "imp",
                      c->regression ? "regression" : "improvement");
        }
    sb_puts(sb, "</tbody></table></div>\n");
}

/* Every run of the history with its revision, collapsed. */
static void runs_table(struct strbuf *sb, const struct site *s, const struct site_history *h)
{
    sb_printf(sb, "<details><summary>Every run (%zu) and its revision</summary>\n<div class=\"tw\"><table><thead><tr>"
                  "%s<th>#</th><th>run</th><th>revision</th><th>started (UTC)</th><th>value</th></tr></thead><tbody>\n",
              h->npts, h->nlines > 1 ? "<th>variant</th>" : "");
    for (int k = 0; k < h->nlines; k++)
        for (size_t j = 0; j < h->lines[k].count; j++) {
            const struct site_point *p = &h->pts[h->lines[k].first + j];
            const struct site_run *r = &s->runs[p->run];
            char v[48], t[32] = "";
            double when;
            numfmt_sig(v, p->value, REPORT_DIGITS);
            if (r->started_at && display_time_parse(r->started_at, &when))
                display_time(t, when, 0);
            sb_puts(sb, "<tr>");
            if (h->nlines > 1) {
                sb_puts(sb, "<td>");
                svg_esc(sb, h->lines[k].variant ? h->lines[k].variant : "");
                sb_puts(sb, "</td>");
            }
            sb_printf(sb, "<td class=\"n\">%zu</td><td>", j + 1);
            svg_esc(sb, r->name);
            sb_puts(sb, "</td><td>");
            if (r->revision && display_is_sha(r->revision)) {
                sb_printf(sb, "<code title=\"%s\">%.12s</code>", r->revision, r->revision);
            } else {
                svg_esc(sb, r->revision ? r->revision : "");
            }
            sb_printf(sb, "</td><td class=\"s\">%s</td><td class=\"n\">%s</td></tr>\n", t, v);
        }
    sb_puts(sb, "</tbody></table></div></details>\n");
}

static void eval_links(struct strbuf *sb, const struct site *s, const struct site_history *h)
{
    if (!h->nevals)
        return;
    sb_printf(sb, "<h2>Evaluations that name this history</h2>\n<ul>\n");
    for (size_t k = 0; k < h->nevals; k++)
        for (size_t i = 0; i < s->nevals; i++) {
            const struct site_eval *e = &s->evals[i];
            if (e->id != h->evals[k])
                continue;
            sb_printf(sb, "<li><a href=\"../%s\">evaluation %lld: <code>", e->file, e->id);
            svg_esc(sb, e->query);
            sb_puts(sb, "</code></a> ");
            if (e->params) {
                sb_puts(sb, "(<code>");
                svg_esc(sb, e->params);
                sb_puts(sb, "</code>) ");
            }
            svg_esc(sb, e->at ? e->at : "");
            sb_puts(sb, e->at && *e->at ? " UTC: " : ": ");
            svg_esc(sb, e->headline ? e->headline : e->outcome ? e->outcome : "");
            sb_puts(sb, "</li>\n");
        }
    sb_puts(sb, "</ul>\n");
}

int site_history_page(const struct site *s, const struct site_history *h, struct strbuf *out, char **err)
{
    char *title = site_history_title(h);
    if (!title)
        return bd_fail(err, "out of memory");
    site_head(out, title, "../");
    free(title);
    sb_puts(out, "<header><p class=\"what\"><strong>history</strong> \xc2\xb7 plan <code>");
    svg_esc(out, h->plan);
    sb_puts(out, "</code> \xc2\xb7 host <code>");
    svg_esc(out, h->host);
    sb_puts(out, "</code> \xc2\xb7 metric <code>");
    svg_esc(out, h->metric);
    sb_printf(out, "</code> \xc2\xb7 %zu point%s</p>\n", h->npts, h->npts == 1 ? "" : "s");
    headline(out, s, h);
    sb_puts(out, "</header>\n");
    if (chart(out, s, h, err))
        return -1;
    change_table(out, s, h);
    runs_table(out, s, h);
    eval_links(out, s, h);
    site_foot(out);
    return out->failed ? bd_fail(err, "out of memory") : 0;
}
