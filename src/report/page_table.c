/* A page's tables: the columns that carry the answer first, every column
 * in a collapsed <details> (docs/report.md, "Tables"). */
#include "report/page_table.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "report/display.h"
#include "report/svg.h"
#include "util/diag.h"
#include "util/xalloc.h"

static void esc(struct strbuf *sb, const char *s) { svg_esc(sb, s ? s : ""); }

/* A column name in a header: may break after each '_'. */
static void head_name(struct strbuf *sb, const char *s)
{
    for (; *s; s++) {
        char c[2] = {*s, 0};
        esc(sb, c);
        if (*s == '_')
            sb_puts(sb, "<wbr>");
    }
}

static int col_index(const struct report_eval *ev, const char *name)
{
    for (int c = 0; c < ev->ncol; c++)
        if (strcmp(ev->cols[c], name) == 0)
            return c;
    return -1;
}

/* Whether column c holds a value other than null or "" in some row. */
static int col_used(const struct report_eval *ev, int c)
{
    size_t n = report_nrows(ev);
    for (size_t i = 0; i < n; i++) {
        json_t *v = report_cell(ev, i, ev->cols[c]);
        if (v && !json_is_null(v) && !(json_is_string(v) && !*json_string_value(v)))
            return 1;
    }
    return 0;
}

/* A value as the page shows it; in a column of percentages with its sign
 * and % (+8.337%), as the terminal's table shows it. */
static void cell(struct strbuf *sb, const json_t *v, const char *col)
{
    char *full = NULL, *t = display_value(v, REPORT_DIGITS, &full);
    int num = json_is_number(v);
    if (num && t && out_percent_column(col)) {
        char *p = bd_strdupf("%s%s%%", json_number_value(v) > 0 ? "+" : "", t);
        free(t);
        t = p;
    }
    size_t len = t ? strlen(t) : 0;
    sb_puts(sb, num ? "<td class=\"n\"" : len > 40 ? "<td class=\"long\"" : len <= 24 ? "<td class=\"s\"" : "<td");
    if (full) {
        sb_puts(sb, " title=\"");
        esc(sb, full);
        sb_putc(sb, '"');
    }
    sb_putc(sb, '>');
    esc(sb, t);
    sb_puts(sb, "</td>");
    free(t);
    free(full);
}

/* Whether column c holds a time, which the table shows in UTC without a
 * zone (display_text): its head then says "(UTC)", as the site's do. */
static int col_has_time(const struct report_eval *ev, const char *col)
{
    size_t rows = report_nrows(ev);
    double t;
    for (size_t i = 0; i < rows; i++) {
        const char *s = json_string_value(json_object_get(json_array_get(ev->rows, i), col));
        if (s && strlen(s) > 10 && display_time_parse(s, &t))
            return 1;
    }
    return 0;
}

/* The table of ev's rows, in the order ord (NULL: as recorded), with the
 * columns idx[0..n); the outcome's column (oc, -1: none) is headed
 * class="o". */
static void table_of(struct strbuf *sb, const struct report_eval *ev, const size_t *ord, const int *idx, int n,
                     int oc, const char *cls)
{
    size_t rows = report_nrows(ev);
    sb_printf(sb, "<div class=\"tw\"><table class=\"%s\"><thead><tr>", cls);
    for (int k = 0; k < n; k++) {
        sb_puts(sb, idx[k] == oc ? "<th class=\"o\">" : "<th>");
        head_name(sb, ev->cols[idx[k]]);
        sb_puts(sb, col_has_time(ev, ev->cols[idx[k]]) ? " (UTC)</th>" : "</th>");
    }
    sb_puts(sb, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < rows; i++) {
        sb_puts(sb, "<tr>");
        json_t *row = json_array_get(ev->rows, ord ? ord[i] : i);
        for (int k = 0; k < n; k++)
            cell(sb, json_object_get(row, ev->cols[idx[k]]), ev->cols[idx[k]]);
        sb_puts(sb, "</tr>\n");
    }
    sb_puts(sb, "</tbody></table></div>\n");
}

/* The rows where the outcome does not hold first, then the rest, each in
 * recorded order; NULL (no outcome, or out of memory: as recorded). */
static size_t *failing_first(const struct report_eval *ev, const char *outcome)
{
    size_t rows = report_nrows(ev), k = 0;
    size_t *ord = outcome && report_failing_rows(ev, outcome) ? xmalloc(rows * sizeof *ord) : NULL;
    for (int pass = 0; ord && pass < 2; pass++)
        for (size_t i = 0; i < rows; i++)
            if (evaldata_outcome_holds(report_cell(ev, i, outcome)) == pass)
                ord[k++] = i;
    return ord;
}

void page_table(struct strbuf *sb, const struct report_eval *ev, char *const *answer, int nanswer, int details_only,
                const char *outcome)
{
    int *idx = xmalloc((size_t)(ev->ncol + 1) * sizeof *idx), n = 0;
    int oc = outcome ? col_index(ev, outcome) : -1;
    size_t *ord = details_only ? NULL : failing_first(ev, outcome);
    for (int k = 0; k < nanswer; k++) {
        int c = col_index(ev, answer[k]);
        if (c >= 0 && col_used(ev, c))
            idx[n++] = c;
    }
    size_t rows = report_nrows(ev);
    /* Without a list, or when it names none of the columns: all of them. */
    int all = n == 0 || n == ev->ncol;
    if (!details_only && !all)
        table_of(sb, ev, ord, idx, n, oc, "answer");
    for (int c = 0; c < ev->ncol; c++)
        idx[c] = c;
    if (!details_only && all) {
        table_of(sb, ev, ord, idx, ev->ncol, oc, "answer");
    } else {
        /* Every column is wider than a window (gate-percent's twenty on
         * the calibration plan: 1,666 px): the outcome's leads, so that
         * each row's verdict is in view without scrolling sideways. */
        if (oc > 0) {
            memmove(idx + 1, idx, (size_t)oc * sizeof *idx);
            idx[0] = oc;
        }
        sb_printf(sb, "<details><summary>%s: the %zu row%s with all %d columns</summary>\n",
                  details_only ? "The rows the chart draws" : "Every column", rows, rows == 1 ? "" : "s", ev->ncol);
        table_of(sb, ev, ord, idx, ev->ncol, oc, "all");
        sb_puts(sb, "</details>\n");
    }
    free(ord);
    free(idx);
}

int page_answer_columns(const char *text, char *const *show, int nshow, char ***out, int *n)
{
    *out = NULL;
    *n = 0;
    const char *list = NULL;
    size_t len = 0;
    /* A `-- columns:` line of the header, else the query's `-- show:`. */
    for (const char *p = text ? text : ""; *p;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        const char *s = p;
        while (l && isspace((unsigned char)*s))
            s++, l--;
        if (l >= 2 && strncmp(s, "--", 2) == 0) {
            const char *c = s + 2;
            while (*c == ' ')
                c++;
            if (strncmp(c, "columns:", 8) == 0) {
                list = c + 8;
                len = l - (size_t)(list - s);
            }
        } else if (l) {
            break;
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    if (!list) {
        if (!nshow)
            return 0;
        if (!(*out = xcalloc((size_t)nshow, sizeof **out)))
            return -1;
        for (int i = 0; i < nshow; i++)
            if (!((*out)[(*n)++] = xstrdup(show[i])))
                return -1;
        return 0;
    }
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += list[i] == ',';
    if (!(*out = xcalloc(cap, sizeof **out)))
        return -1;
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && list[j] != ',')
            j++;
        size_t a = i, b = j;
        while (a < b && isspace((unsigned char)list[a]))
            a++;
        while (b > a && isspace((unsigned char)list[b - 1]))
            b--;
        if (b > a && !((*out)[(*n)++] = xstrndup(list + a, b - a)))
            return -1;
        i = j + 1;
    }
    return 0;
}

void page_columns_free(char **cols, int n)
{
    for (int i = 0; i < n; i++)
        free(cols[i]);
    free(cols);
}
