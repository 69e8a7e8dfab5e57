/* What the site's pages share: the head (the report page's CSS, the same
 * policy that forbids fetching anything), the links back to the index,
 * the footer, a sparkline. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "report/display.h"
#include "report/report.h"
#include "report/site.h"
#include "report/svg.h"
#include "version.h"

static const char site_css[] = "table.h td{vertical-align:middle}svg.spark{display:block}"
                               "td.reg{color:#b34700;font-weight:600}td.imp{color:#005a8c}"
                               "section{margin-top:8px}";

void site_head(struct strbuf *sb, const char *title, const char *root)
{
    sb_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta name=\"generator\" content=\"benchdb " BENCHDB_VERSION "\">\n<title>");
    svg_esc(sb, title);
    sb_printf(sb, " \xe2\x80\x94 benchdb site</title>\n<style>%s%s%s</style>\n</head>\n<body><main>\n", report_page_css,
              svg_css, site_css);
    if (root)
        sb_printf(sb, "<nav><a href=\"%sindex.html\">\xe2\x86\x90 every history and verdict (index)</a></nav>\n", root);
}

void site_foot(struct strbuf *sb)
{
    sb_puts(sb, "<footer>Written by <code>benchdb site</code> " BENCHDB_VERSION " from the store; numbers rounded to 4 "
                "significant digits, revisions cut to 12 characters (whole in their titles), times in UTC. No script, "
                "nothing fetched: every link is a file of this site.</footer>\n</main></body></html>\n");
}

void site_pct(char *buf, double x)
{
    char t[48];
    numfmt_sig(t, fabs(x), 3);
    snprintf(buf, 56, "%s%s%%", x > 0 ? "+" : x < 0 ? "-" : "", t);
}

const struct site_run *site_last_good(const struct site *s, const struct site_history *h, const struct site_line *l,
                                      const struct site_cp *c)
{
    return c->at > l->first ? &s->runs[h->pts[c->at - 1].run] : NULL;
}

void site_run_named(struct strbuf *sb, const struct site_run *r)
{
    svg_esc(sb, r->name);
    if (r->revision) {
        sb_puts(sb, " (");
        if (display_is_sha(r->revision))
            sb_append(sb, r->revision, 12);
        else
            svg_esc(sb, r->revision);
        sb_puts(sb, ")");
    }
}

#define SPARK_W 140.0
#define SPARK_H 26.0
#define SPARK_N 140 /* at most this many points: means of equal runs of points */

void site_sparkline(struct strbuf *sb, const struct site *s, const struct site_history *h)
{
    (void)s;
    if (!h->nlines)
        return;
    const struct site_line *l = &h->lines[0];
    size_t n = l->count, m = n < SPARK_N ? n : SPARK_N;
    double v[SPARK_N], lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < m; k++) {
        size_t a = k * n / m, b = (k + 1) * n / m;
        double sum = 0;
        for (size_t j = a; j < b; j++)
            sum += h->pts[l->first + j].value;
        v[k] = sum / (double)(b - a);
        lo = fmin(lo, v[k]);
        hi = fmax(hi, v[k]);
    }
    double span = hi > lo ? hi - lo : 1;
    sb_printf(sb, "<svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                  "viewBox=\"0 0 %d %d\" role=\"img\"><title>",
              (int)SPARK_W, (int)SPARK_H, (int)SPARK_W, (int)SPARK_H);
    char a[48], b[48];
    numfmt_sig(a, lo, REPORT_DIGITS);
    numfmt_sig(b, hi, REPORT_DIGITS);
    sb_printf(sb, "%zu runs, %s to %s ", n, a, b);
    svg_esc(sb, h->unit ? h->unit : "");
    sb_puts(sb, "</title><path fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.2\" d=\"");
    for (size_t k = 0; k < m; k++) {
        sb_puts(sb, k ? "L" : "M");
        svg_num(sb, m > 1 ? 2 + (SPARK_W - 4) * (double)k / (double)(m - 1) : SPARK_W / 2);
        sb_putc(sb, ' ');
        svg_num(sb, SPARK_H - 3 - (SPARK_H - 6) * (v[k] - lo) / span);
    }
    sb_puts(sb, "\"/>");
    for (size_t j = 0; j < l->ncps; j++) { /* each change point: a tick, vermillion for a regression */
        double x = n > 1 ? 2 + (SPARK_W - 4) * (double)(l->cps[j].at - l->first) / (double)(n - 1) : SPARK_W / 2;
        sb_printf(sb, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.5\"/>", x, x,
                  (int)SPARK_H, l->cps[j].regression ? "#D55E00" : "#009E73");
    }
    sb_puts(sb, "</svg>");
}

void site_params_text(const struct site *s, char buf[3][40])
{
    numfmt_shortest(buf[0], 40, s->window);
    numfmt_shortest(buf[1], 40, s->max_pvalue);
    numfmt_shortest(buf[2], 40, s->min_magnitude);
}
