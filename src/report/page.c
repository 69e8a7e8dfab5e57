/* The report page: provenance, the rule, the verdict table, the chart and
 * the rows, as one HTML file that needs nothing else; or the chart alone
 * as one SVG file. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/display.h"
#include "report/headline.h"
#include "report/page_table.h"
#include "report/report.h"
#include "report/svg.h"
#include "util/diag.h"
#include "version.h"
#include "util/xalloc.h"

const char report_page_css[] =
    "body{font:15px/1.45 system-ui,\"DejaVu Sans\",sans-serif;color:#1a1a1a;background:#fff;margin:0}"
    "main{max-width:1200px;margin:0 auto;padding:12px 16px 40px}"
    "nav{font-size:14px;margin:4px 0 8px}nav a{margin-right:14px}"
    "h1{font-size:24px;line-height:1.3;margin:6px 0 6px}h2{font-size:19px;margin:26px 0 8px;border-bottom:1px solid #ccc}"
    "h3{font-size:16px;margin:18px 0 6px}"
    "p.what{color:#444;margin:4px 0;font-size:14px}"
    "h1.headline{border-left:6px solid #0072B2;background:#f2f6fa;padding:8px 12px}"
    "h1.headline.empty{border-left-color:#999;background:#f4f4f4}"
    ".summary{color:#444;margin:0 0 10px;font-size:14px}"
    ".outcome{font-size:14px;color:#333;margin:4px 0}"
    "dl.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:3px 14px;margin:8px 0;font-size:14px}"
    "dl.meta dt{font-weight:600;color:#333}dl.meta dd{margin:0;overflow-wrap:anywhere}"
    "code,pre{font-family:\"DejaVu Sans Mono\",monospace;font-size:13px}"
    "pre{background:#f4f4f4;padding:8px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0;max-width:100%}"
    "th,td{border:1px solid #d0d0d0;padding:2px 6px;vertical-align:top;overflow-wrap:break-word}"
    "th{background:#f0f0f0;text-align:left;font-weight:600;overflow-wrap:normal}td.n{text-align:right;font-variant-numeric:tabular-nums;"
    "white-space:nowrap}"
    "td.long{min-width:14em;overflow-wrap:anywhere}td.s{white-space:nowrap}div.tw{overflow-x:auto;max-width:100%}"
    "td[title]{text-decoration:underline dotted #999}"
    "tr.cond td{background:#fffbe6}"
    "figure{margin:10px 0}figure svg{display:block;max-width:100%;height:auto}"
    "figcaption{font-size:13px;color:#444}"
    "details{margin:10px 0}summary{cursor:pointer;font-weight:600}"
    "ul.notes{background:#fff4e5;border-left:5px solid #E69F00;padding:6px 6px 6px 28px}"
    "footer{margin-top:30px;font-size:12px;color:#666}";

static void esc(struct strbuf *sb, const char *s) { svg_esc(sb, s ? s : ""); }

static const char *query_param_desc(const struct saved_query *q, const char *name, const char **def)
{
    *def = NULL;
    if (!q)
        return "";
    const struct saved_param *sp = saved_query_param(q, name);
    if (!sp)
        return "";
    *def = sp->has_default ? sp->def : NULL;
    return sp->description ? sp->description : "";
}

static const char *param_desc(const struct report_page *p, const char *name, const char **def)
{
    return query_param_desc(p->query, name, def);
}

static int is_condition(const char *desc) { return strncmp(desc, "condition", 9) == 0; }

/* Whether the recorded value v of parameter name is its default in q (a
 * default is text as written: '0' is the default of a value recorded 0.0). */
static int is_default(const struct saved_query *q, const char *name, const json_t *v)
{
    const char *def;
    query_param_desc(q, name, &def);
    if (!def)
        return 0;
    if (json_is_null(v))
        return strcmp(def, "null") == 0;
    char *t = json_is_string(v) ? xstrdup(json_string_value(v)) : evaldata_exact(v);
    int same = t && strcmp(t, def) == 0;
    double x, y;
    char *end;
    if (!same && t && evaldata_num(v, &x) && !json_is_string(v)) {
        y = strtod(def, &end);
        same = end != def && !*end && x == y;
    }
    free(t);
    return same;
}

char *report_params_given(const struct report_eval *ev, const struct saved_query *q, const char *skip)
{
    struct strbuf sb = {0};
    const char *k;
    json_t *v;
    json_object_foreach(ev->params, k, v) {
        if (is_default(q, k, v) || (skip && strcmp(k, skip) == 0))
            continue;
        char *t = evaldata_param(v);
        sb_printf(&sb, "%s%s=%s", sb.len ? ", " : "", k, t ? t : "");
        free(t);
    }
    return sb.len ? xsb_detach(&sb) : NULL;
}

/* The parameters that differ from their defaults, as NAME=VALUE, each in
 * <code>; "none" or "the defaults" when there are none. */
static void params_given(struct strbuf *sb, const struct report_page *p)
{
    const char *k;
    json_t *v;
    int n = 0;
    json_object_foreach(p->ev->params, k, v) {
        if (is_default(p->query, k, v))
            continue;
        char *t = evaldata_param(v);
        sb_puts(sb, n++ ? ", <code>" : "<code>");
        esc(sb, k);
        sb_putc(sb, '=');
        svg_esc(sb, t);
        sb_puts(sb, "</code>");
        free(t);
    }
    if (!n)
        sb_puts(sb, json_object_size(p->ev->params) ? "the defaults" : "none");
}

static void provenance(struct strbuf *sb, const struct report_page *p)
{
    const struct report_eval *ev = p->ev;
    sb_puts(sb, "<dl class=\"meta\">\n<dt>Rule</dt><dd><code>");
    esc(sb, ev->query_name);
    sb_puts(sb, "</code>, text SHA-256 <code>");
    esc(sb, ev->sha256);
    sb_puts(sb, "</code></dd>\n<dt>Parameters</dt><dd>");
    params_given(sb, p);
    if (json_object_size(ev->params))
        sb_puts(sb, " (every parameter, with its default, below)");
    sb_printf(sb, "</dd>\n<dt>Evaluation</dt><dd>%lld, recorded ", ev->id);
    json_t *at = json_string(ev->evaluated_at ? ev->evaluated_at : "");
    char *when = display_value(at, REPORT_DIGITS, NULL);
    svg_esc(sb, when);
    free(when);
    json_decref(at);
    sb_printf(sb, " UTC, %lld row%s</dd>\n<dt>Data fingerprint</dt><dd><code>", ev->row_count,
              ev->row_count == 1 ? "" : "s");
    esc(sb, ev->fingerprint);
    sb_printf(sb, "</code> (%lld archive%s)</dd>\n", ev->archive_count, ev->archive_count == 1 ? "" : "s");
    if (p->chart_ev && p->chart_ev != ev) {
        sb_printf(sb, "<dt>Chart drawn from</dt><dd>evaluation %lld of <code>", p->chart_ev->id);
        esc(sb, p->chart_ev->query_name);
        sb_puts(sb, "</code> (text SHA-256 <code>");
        sb_append(sb, p->chart_ev->sha256, 12);
        sb_puts(sb, "</code>): the same parameters on the same data fingerprint</dd>\n");
    }
    sb_puts(sb, "<dt>benchdb version</dt><dd>");
    esc(sb, ev->tool_version);
    sb_puts(sb, " (evaluation); " BENCHDB_VERSION " (this report)</dd>\n<dt>Registration</dt><dd>");
    if (ev->registration) {
        sb_puts(sb, "<strong>");
        esc(sb, ev->registration);
        sb_puts(sb, "</strong>");
        if (p->registration) {
            sb_puts(sb, ": ");
            esc(sb, p->registration);
        }
    } else {
        /* registration fixes a rule for the plan its -- judges: line
         * names; gate-zscore with plan=nightly still has none */
        sb_puts(sb, "not applicable: a rule is registered for the plan its <code>-- judges:</code> line names, "
                    "and this query has none");
    }
    sb_puts(sb, "</dd>\n<dt>Re-verify</dt><dd><pre>");
    esc(sb, p->verify);
    sb_puts(sb, "</pre></dd>\n</dl>\n");
}

/* The conditions in words: parameters whose description says "condition N: ...". */
static void conditions(struct strbuf *sb, const struct report_page *p)
{
    int nc = 0;
    const char *k;
    json_t *v;
    json_object_foreach(p->ev->params, k, v) {
        const char *def, *d = param_desc(p, k, &def);
        if (!is_condition(d))
            continue;
        if (!nc++)
            sb_puts(sb, "<h3>The rule's conditions</h3>\n<p>In the rule's own words, with the values this evaluation "
                        "used:</p><ul>\n");
        char *t = evaldata_param(v);
        const char *colon = strchr(d, ':');
        sb_puts(sb, "<li><strong>");
        if (colon) {
            struct strbuf h = {0};
            sb_append(&h, d, (size_t)(colon - d));
            if (h.buf)
                h.buf[0] = (char)toupper((unsigned char)h.buf[0]);
            esc(sb, xsb_text(&h));
            sb_free(&h);
            sb_puts(sb, "</strong>:");
            esc(sb, colon + 1);
        } else {
            esc(sb, d);
            sb_puts(sb, "</strong>");
        }
        sb_puts(sb, " (<code>");
        esc(sb, k);
        sb_puts(sb, " = ");
        svg_esc(sb, t);
        sb_puts(sb, "</code>)</li>\n");
        free(t);
    }
    if (nc)
        sb_puts(sb, "</ul>\n");
}

static void rule_section(struct strbuf *sb, const struct report_page *p)
{
    const char *k;
    json_t *v;
    sb_puts(sb, "<details><summary>Every parameter, its default and meaning</summary>\n<div class=\"tw\"><table>"
                "<thead><tr><th>parameter</th><th>value</th><th>default</th><th>meaning</th></tr></thead><tbody>\n");
    json_object_foreach(p->ev->params, k, v) {
        const char *def, *d = param_desc(p, k, &def);
        char *t = evaldata_param(v);
        sb_puts(sb, is_condition(d) ? "<tr class=\"cond\"><td><code>" : "<tr><td><code>");
        esc(sb, k);
        sb_puts(sb, "</code></td><td>");
        svg_esc(sb, t);
        sb_puts(sb, "</td><td>");
        esc(sb, def ? def : "(required)");
        sb_puts(sb, "</td><td>");
        esc(sb, d);
        sb_puts(sb, "</td></tr>\n");
        free(t);
    }
    sb_puts(sb, "</tbody></table></div></details>\n");
}

static void panel_svg(struct strbuf *sb, const struct panel *pn, double y, int nested)
{
    sb_puts(sb, "<svg class=\"panel\"");
    if (nested) {
        sb_puts(sb, " x=\"0\" y=\"");
        svg_num(sb, y);
        sb_putc(sb, '"');
    } else {
        sb_puts(sb, " xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"");
    }
    sb_printf(sb, " width=\"%d\" height=\"", (int)CHART_W);
    svg_num(sb, pn->h);
    sb_printf(sb, "\" viewBox=\"0 0 %d ", (int)CHART_W);
    svg_num(sb, pn->h);
    sb_puts(sb, "\">");
    sb_append(sb, xsb_text(&pn->svg), pn->svg.len);
    sb_puts(sb, "</svg>\n");
}

static const char *what_of(enum chart_kind k)
{
    switch (k) {
    case CHART_FOREST: return "Each row's estimate and interval";
    case CHART_SERIES: return "Values over time";
    case CHART_STRIP: return "Spread of the values";
    case CHART_BAR: return "Each row's value";
    default: return "Rows";
    }
}

/* <head> and the opening of <main>. */
static void page_head(struct strbuf *sb, const struct report_page *p, const char *headline)
{
    const struct report_eval *ev = p->ev;
    sb_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta name=\"generator\" content=\"benchdb " BENCHDB_VERSION "\">\n<title>");
    if (headline) {
        esc(sb, headline);
        sb_puts(sb, " \xe2\x80\x94 ");
    }
    esc(sb, ev->query_name);
    if (ev->judged_plan) {
        sb_puts(sb, " on ");
        esc(sb, ev->judged_plan);
    }
    sb_printf(sb, " (evaluation %lld)</title>\n<style>%s%s</style>\n</head>\n<body><main>\n", ev->id, report_page_css, svg_css);
    if (p->nav)
        sb_puts(sb, p->nav);
}

/* Whether an outcome line says no more than a row count ("2 rows"). */
static int outcome_is_count(const char *s)
{
    size_t n = strspn(s, "0123456789");
    return n && (strcmp(s + n, " rows") == 0 || strcmp(s + n, " row") == 0);
}

/* The first screen: what was asked, the answer in a sentence, the outcome. */
static void page_header(struct strbuf *sb, const struct report_page *p, const char *headline)
{
    const struct report_eval *ev = p->ev;
    sb_puts(sb, "<header>\n<p class=\"what\"><strong>");
    esc(sb, ev->query_name);
    sb_puts(sb, "</strong>");
    if (ev->judged_plan) {
        sb_puts(sb, " on plan <code>");
        esc(sb, ev->judged_plan);
        sb_puts(sb, "</code>");
    }
    sb_puts(sb, " \xc2\xb7 parameters: ");
    params_given(sb, p);
    sb_printf(sb, " \xc2\xb7 evaluation %lld</p>\n", ev->id);
    sb_printf(sb, "<h1 class=\"headline%s\">", report_nrows(ev) ? "" : " empty");
    esc(sb, headline ? headline : ev->outcome);
    sb_puts(sb, "</h1>\n");
    if (headline && ev->outcome && strcmp(headline, ev->outcome) != 0 && !outcome_is_count(ev->outcome)) {
        sb_puts(sb, "<p class=\"outcome\">Outcome: ");
        esc(sb, ev->outcome);
        sb_puts(sb, "</p>\n");
    }
    if (p->query && p->query->summary && *p->query->summary) {
        sb_puts(sb, "<p class=\"summary\">");
        esc(sb, p->query->summary);
        sb_puts(sb, "</p>\n");
    }
    sb_puts(sb, "</header>\n");
}

/* The chart, its caption and warnings, and its rows collapsed. */
static void chart_section(struct strbuf *sb, const struct report_page *p, const struct chart_out *co)
{
    sb_puts(sb, "<h2>");
    esc(sb, p->spec->title ? p->spec->title : what_of(p->spec->kind));
    if (p->chart_ev != p->ev) {
        sb_puts(sb, ": <code>");
        esc(sb, p->chart_ev->query_name);
        sb_puts(sb, "</code>");
    }
    sb_puts(sb, "</h2>\n");
    sb_printf(sb, "<figure><div class=\"chart\" data-kind=\"%s\" data-evaluation=\"%lld\" data-rows=\"%zu\" "
                  "data-marks=\"%zu\" data-roles=\"",
              chart_kind_name(p->spec->kind), p->chart_ev->id, report_nrows(p->chart_ev), co->marks);
    esc(sb, xsb_text(&co->roles));
    sb_puts(sb, "\">\n");
    for (int i = 0; i < co->n; i++)
        panel_svg(sb, &co->v[i], 0, 0);
    sb_printf(sb, "</div><figcaption>%zu marks, one per row of evaluation %lld; hover a mark for its numbers.",
              co->marks, p->chart_ev->id);
    if (co->n > 1)
        sb_printf(sb, " %d panels, flagged ones first: one per group, a group of more than %d rows continued in "
                      "further panels.", co->n, PANEL_MAX_MARKS);
    sb_puts(sb, "</figcaption></figure>\n");
    if (co->nnotes) {
        sb_puts(sb, "<h3>Warnings</h3><ul class=\"notes\">\n");
        for (int i = 0; i < co->nnotes; i++) {
            sb_puts(sb, "<li>");
            esc(sb, co->notes[i]);
            sb_puts(sb, "</li>\n");
        }
        sb_puts(sb, "</ul>\n");
    }
}

/* The body between the header and the provenance. */
static void page_body(struct strbuf *sb, const struct report_page *p, const struct chart_out *co, char **cols,
                      int ncols)
{
    const struct report_eval *ev = p->ev;
    int drawn = p->spec->kind != CHART_TABLE && p->chart_ev;
    if (!report_nrows(ev)) /* an empty result: the headline says what was looked at */
        return;
    if (!drawn || p->chart_ev != ev) {
        sb_puts(sb, drawn ? "<h2>The verdict</h2>\n" : "<h2>The rows</h2>\n");
        page_table(sb, ev, cols, ncols, 0, p->query ? p->query->outcome : NULL);
    }
    conditions(sb, p);
    if (!drawn && p->no_chart) {
        sb_puts(sb, "<p class=\"outcome\">No chart: ");
        esc(sb, p->no_chart);
        sb_puts(sb, "</p>\n");
    }
    if (drawn) {
        chart_section(sb, p, co);
        /* the chart's rows: the page's query's outcome when they are its rows too */
        const char *ce = p->chart_ev->query_name;
        page_table(sb, p->chart_ev, NULL, 0, 1,
                   p->query && ce && ev->query_name && strcmp(ce, ev->query_name) == 0 ? p->query->outcome : NULL);
    }
}

long long report_html(struct strbuf *sb, const struct report_page *p, char **err)
{
    const struct report_eval *ev = p->ev;
    struct chart_out co = {0};
    char *headline = NULL, **cols = NULL, src[160];
    int ncols = 0;
    long long marks = -1;
    int drawn = p->spec->kind != CHART_TABLE && p->chart_ev && report_nrows(ev);
    snprintf(src, sizeof src, "evaluation %lld (%s)", ev->id, ev->query_name);
    if (drawn && chart_draw(p->spec, p->chart_ev, ev, &co, err))
        goto out;
    if (report_headline(ev, p->chart_ev, src, &headline, err)) {
        if (!p->headline_optional)
            goto out;
        free(*err); /* said by the caller (the site warns once, as it reads the evaluation) */
        *err = NULL;
        headline = NULL;
    }
    if (page_answer_columns(ev->text, p->query ? p->query->show : NULL, p->query ? p->query->nshow : 0, &cols,
                            &ncols)) {
        bd_fail(err, "out of memory");
        goto out;
    }
    page_head(sb, p, headline);
    page_header(sb, p, headline);
    page_body(sb, p, &co, cols, ncols);
    sb_puts(sb, "<h2>Where this comes from</h2>\n");
    provenance(sb, p);
    rule_section(sb, p);
    sb_puts(sb, "<footer>Written by benchdb " BENCHDB_VERSION " from the recorded evaluation; numbers rounded to "
                "4 significant digits, revisions cut to 12 characters and times in UTC (exact values in the cells' "
                "titles, each mark's data attributes and <code>benchdb history</code>).</footer>\n</main></body></html>\n");
    if (sb->failed) {
        bd_fail(err, "report: out of memory");
        goto out;
    }
    marks = (long long)co.marks;
out:
    free(headline);
    page_columns_free(cols, ncols);
    chart_out_free(&co);
    return marks;
}

int report_check_chart(const struct chart_spec *spec, const struct report_eval *ev, const struct report_eval *page,
                       char **err)
{
    if (spec->kind == CHART_TABLE || spec->from)
        return 0;
    struct chart_out co = {0};
    int rc = chart_draw(spec, ev, page ? page : ev, &co, err);
    chart_out_free(&co);
    return rc;
}

int report_svg_possible(const struct chart_spec *spec, const char *query_name, char **err)
{
    if (spec->kind != CHART_TABLE)
        return 0;
    return bd_fail(err, "report: query %s has no chart (its header has no '-- chart:' line, or a table view): "
                        "--format svg needs one",
                   query_name);
}

long long report_svg(struct strbuf *sb, const struct report_page *p, char **err)
{
    const struct report_eval *ev = p->ev;
    if (report_svg_possible(p->spec, ev->query_name, err))
        return -1;
    struct chart_out co = {0};
    if (chart_draw(p->spec, p->chart_ev, ev, &co, err)) {
        chart_out_free(&co);
        return -1;
    }
    /* A heading: what, which evaluation, which data; then the panels, stacked. */
    struct strbuf head = {0};
    double y = 0;
    char *t = bd_strdupf("%s%s%s \xc2\xb7 evaluation %lld \xc2\xb7 rule sha256 %.12s \xc2\xb7 data %.12s \xc2\xb7 "
                         "benchdb %s",
                         ev->query_name, ev->judged_plan ? " on " : "", ev->judged_plan ? ev->judged_plan : "", ev->id,
                         ev->sha256, ev->fingerprint, ev->tool_version);
    char *fit = text_fit(t, (int)((CHART_W - 16) / TITLE_CHAR_W));
    svg_text(&head, 8, 18, "start", "tt", fit);
    free(fit);
    free(t);
    y = 24;
    /* The headline first, as on the page; then the outcome line. */
    char *headline = NULL, src[160];
    snprintf(src, sizeof src, "evaluation %lld (%s)", ev->id, ev->query_name);
    if (report_headline(ev, p->chart_ev, src, &headline, err)) {
        sb_free(&head);
        chart_out_free(&co);
        return -1;
    }
    if (headline)
        y += svg_wrapped(&head, 8, y + 12, "tb", headline, (int)((CHART_W - 16) / CHAR_W));
    free(headline);
    y += svg_wrapped(&head, 8, y + 12, "t", ev->outcome ? ev->outcome : "", (int)((CHART_W - 16) / CHAR_W));
    if (p->chart_ev != ev) {
        t = bd_strdupf("drawn from evaluation %lld of %s (same parameters, same data)", p->chart_ev->id,
                       p->chart_ev->query_name);
        y += svg_wrapped(&head, 8, y + 12, "tm", t, (int)((CHART_W - 16) / CHAR_W));
        free(t);
    }
    y += 6;
    double total = y;
    for (int i = 0; i < co.n; i++)
        total += co.v[i].h;
    struct strbuf notes = {0};
    double nh = 0;
    for (int i = 0; i < co.nnotes; i++) {
        char *w = bd_strdupf("warning: %s", co.notes[i]);
        nh += svg_wrapped(&notes, 8, total + nh + 12, "t", w, (int)((CHART_W - 16) / CHAR_W));
        free(w);
    }
    total += nh + (nh ? 8 : 0);
    sb_printf(sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                  "height=\"",
              (int)CHART_W);
    svg_num(sb, total);
    sb_printf(sb, "\" viewBox=\"0 0 %d ", (int)CHART_W);
    svg_num(sb, total);
    sb_printf(sb, "\" data-kind=\"%s\" data-evaluation=\"%lld\" data-rows=\"%zu\" data-marks=\"%zu\" data-roles=\"",
              chart_kind_name(p->spec->kind), p->chart_ev->id, report_nrows(p->chart_ev), co.marks);
    esc(sb, xsb_text(&co.roles));
    sb_printf(sb, "\">\n<style>%s</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n", svg_css);
    sb_append(sb, head.buf, head.len);
    sb_putc(sb, '\n');
    for (int i = 0; i < co.n; i++) {
        panel_svg(sb, &co.v[i], y, 1);
        y += co.v[i].h;
    }
    if (notes.len)
        sb_append(sb, notes.buf, notes.len);
    sb_puts(sb, "</svg>\n");
    long long marks = head.failed || notes.failed || sb->failed ? bd_fail(err, "report: out of memory") : (long long)co.marks;
    sb_free(&head);
    sb_free(&notes);
    chart_out_free(&co);
    return marks;
}
