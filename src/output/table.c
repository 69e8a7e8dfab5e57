/* Output for a person: an aligned table, one record per block (vertical,
 * as sqlite3 -line), and a Markdown pipe table. Reals are rounded for
 * display (value_display) and control characters escaped
 * (text_escape_controls); only the columns of out_opts.show are shown. */
#include <stdlib.h>
#include <string.h>

#include "output/human.h"
#include "util/diag.h"
#include "util/markdown.h"
#include "util/text.h"
#include "util/xalloc.h"

/* The cells as they are printed. */
struct grid {
    int ncol;
    size_t nrow;
    char **head;    /* ncol column names */
    char **text;    /* nrow * ncol cells */
    size_t *w;      /* widest cell or name per column */
    int *numeric;   /* every non-NULL value a number: right-aligned */
    int *whole;     /* a column of names: never wrapped */
};

static void grid_free(struct grid *g)
{
    for (size_t i = 0; g->text && i < g->nrow * (size_t)g->ncol; i++)
        free(g->text[i]);
    for (int c = 0; g->head && c < g->ncol; c++)
        free(g->head[c]);
    free(g->text);
    free(g->head);
    free(g->w);
    free(g->numeric);
    free(g->whole);
}

/* A cell for Markdown: literal text whatever it holds (util/markdown.h). */
static char *markdown_cell(const char *s) { return markdown_escape(s, MD_CELL); }

static char *shown(const char *s, int markdown) { return markdown ? markdown_cell(s) : text_escape_controls(s); }

/* The shown columns' indices: out_opts.show's names that rs has, in that
 * order, or every column. */
static int shown_columns(const struct rowset *rs, const struct out_opts *o, int *cols)
{
    int n = 0;
    if (!o->show) {
        for (int c = 0; c < rs->ncol; c++)
            cols[n++] = c;
        return n;
    }
    for (int i = 0; i < o->nshow; i++) {
        int c = rowset_column(rs, o->show[i]);
        if (c >= 0)
            cols[n++] = c;
    }
    return n;
}

/* Whether a column holds names (a benchmark, host, run, plan...): its
 * values print whole, never wrapped, in every width (docs/queries.md,
 * "Output"), so that a name reads the same whatever else is shown. */
static int name_column(const char *col)
{
    static const char *const names[] = {"benchmark", "host", "run", "plan", "variant", "source", "revision", "name",
                                        "query", "test", "a", "b", "run_group", "query_name", "version", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(col, names[i]) == 0)
            return 1;
    size_t n = strlen(col);
    return strncmp(col, "run_", 4) == 0 || (n > 4 && strcmp(col + n - 4, "_run") == 0) ||
           (n > 5 && strcmp(col + n - 5, "_host") == 0);
}

int out_percent_column(const char *col)
{
    size_t n = strlen(col);
    return n > 8 && strcmp(col + n - 8, "_percent") == 0;
}

static char *with_percent(char *shown_value, sqlite3_value *v)
{
    int type = sqlite3_value_type(v);
    if (!shown_value || (type != SQLITE_INTEGER && type != SQLITE_FLOAT))
        return shown_value;
    char *t = bd_strdupf("%s%s%%", sqlite3_value_double(v) > 0 ? "+" : "", shown_value);
    free(shown_value);
    return t;
}

static int grid_build(struct grid *g, const struct rowset *rs, const struct out_opts *o, int markdown)
{
    memset(g, 0, sizeof *g);
    int *cols = xcalloc((size_t)rs->ncol + 1, sizeof *cols);
    if (!cols)
        return -1;
    g->ncol = shown_columns(rs, o, cols);
    g->nrow = rs->nrow;
    size_t n = g->nrow * (size_t)g->ncol;
    g->head = xcalloc((size_t)g->ncol + 1, sizeof *g->head);
    g->text = xcalloc(n ? n : 1, sizeof *g->text);
    g->w = xcalloc((size_t)g->ncol + 1, sizeof *g->w);
    g->numeric = xcalloc((size_t)g->ncol + 1, sizeof *g->numeric);
    g->whole = xcalloc((size_t)g->ncol + 1, sizeof *g->whole);
    if (!g->head || !g->text || !g->w || !g->numeric || !g->whole) {
        free(cols);
        return -1;
    }
    for (int c = 0; c < g->ncol; c++) {
        g->head[c] = shown(rs->names[cols[c]], markdown);
        g->whole[c] = name_column(rs->names[cols[c]]);
        g->w[c] = text_width(g->head[c]);
        g->numeric[c] = g->nrow > 0;
        for (size_t r = 0; r < g->nrow; r++) {
            sqlite3_value *v = rowset_cell(rs, r, cols[c]);
            int type = sqlite3_value_type(v);
            char *raw = value_display(v, o->digits);
            if (out_percent_column(rs->names[cols[c]]))
                raw = with_percent(raw, v);
            char *t = raw ? shown(raw, markdown) : NULL;
            free(raw);
            if (!t) {
                free(cols);
                return -1;
            }
            if (text_width(t) > g->w[c])
                g->w[c] = text_width(t);
            if (type != SQLITE_NULL && type != SQLITE_INTEGER && type != SQLITE_FLOAT)
                g->numeric[c] = 0;
            g->text[r * (size_t)g->ncol + (size_t)c] = t;
        }
    }
    free(cols);
    return 0;
}

static void pad(FILE *out, size_t n)
{
    while (n--)
        fputc(' ', out);
}

static void repeat(FILE *out, int ch, size_t n)
{
    while (n--)
        fputc(ch, out);
}

static size_t table_width(const struct grid *g)
{
    size_t w = g->ncol ? 2 * (size_t)(g->ncol - 1) : 0;
    for (int c = 0; c < g->ncol; c++)
        w += g->w[c];
    return w;
}

/* One line of the aligned table: numbers right-aligned, no trailing blanks. */
static void table_line(FILE *out, const struct grid *g, char *const *cells)
{
    int last = g->ncol - 1;
    while (last >= 0 && !*cells[last])
        last--; /* no trailing blanks after empty last cells */
    for (int c = 0; c <= last; c++) {
        size_t gap = g->w[c] - text_width(cells[c]);
        if (c)
            fputs("  ", out);
        if (g->numeric[c])
            pad(out, gap);
        fputs(cells[c], out);
        if (!g->numeric[c] && c < last)
            pad(out, gap);
    }
    fputc('\n', out);
}

static void print_table(FILE *out, const struct grid *g)
{
    table_line(out, g, g->head);
    for (int c = 0; c < g->ncol; c++) {
        if (c)
            fputs("  ", out);
        repeat(out, '-', g->w[c]);
    }
    fputc('\n', out);
    for (size_t r = 0; r < g->nrow; r++)
        table_line(out, g, g->text + r * (size_t)g->ncol);
}

/* Prints t from column `at` on, wrapped at blanks so that no line passes
 * width (0: no limit); continuation lines start at column `at`. A word is
 * never split: one longer than a line gets a line of its own. */
static void print_wrapped(FILE *out, const char *t, size_t at, size_t width)
{
    size_t room = width > at + 10 ? width - at : 0;
    while (room && text_width(t) > room) {
        /* The last blank within room code points, else the first after. */
        size_t cut = 0, w = 0;
        for (size_t i = 0; t[i]; i++) {
            if (t[i] == ' ' && w <= room)
                cut = i; /* w: the width before it */
            if (((unsigned char)t[i] & 0xC0) != 0x80)
                w++;
            if (w > room && cut)
                break;
        }
        if (!cut && !t[cut = strcspn(t, " ")])
            break; /* one word, longer than a line: whole */
        fprintf(out, "%.*s\n", (int)cut, t);
        t += cut + 1;
        pad(out, at);
    }
    fprintf(out, "%s\n", t);
}

static void print_vertical(FILE *out, const struct grid *g, size_t width)
{
    size_t nw = 0;
    for (int c = 0; c < g->ncol; c++)
        if (text_width(g->head[c]) > nw)
            nw = text_width(g->head[c]);
    for (size_t r = 0; r < g->nrow; r++) {
        if (r)
            fputc('\n', out);
        for (int c = 0; c < g->ncol; c++) {
            const char *t = g->text[r * (size_t)g->ncol + (size_t)c];
            pad(out, nw - text_width(g->head[c]));
            fprintf(out, "%s =%s", g->head[c], *t ? " " : "");
            print_wrapped(out, t, nw + 3, g->whole[c] ? 0 : width);
        }
    }
}

static void markdown_line(FILE *out, const struct grid *g, char *const *cells)
{
    fputs("|", out);
    for (int c = 0; c < g->ncol; c++) {
        size_t gap = (g->w[c] > 3 ? g->w[c] : 3) - text_width(cells[c]);
        fputc(' ', out);
        if (g->numeric[c] && cells != g->head)
            pad(out, gap);
        fputs(cells[c], out);
        if (!g->numeric[c] || cells == g->head)
            pad(out, gap);
        fputs(" |", out);
    }
    fputc('\n', out);
}

static void print_markdown(FILE *out, const struct grid *g)
{
    markdown_line(out, g, g->head);
    fputs("|", out);
    for (int c = 0; c < g->ncol; c++) {
        fputc(' ', out);
        repeat(out, '-', (g->w[c] > 3 ? g->w[c] : 3) - (g->numeric[c] ? 1 : 0));
        fputs(g->numeric[c] ? ": |" : " |", out);
    }
    fputc('\n', out);
    for (size_t r = 0; r < g->nrow; r++)
        markdown_line(out, g, g->text + r * (size_t)g->ncol);
}

int rowset_print_human(const struct rowset *rs, const struct out_opts *o, FILE *out)
{
    if (!rs->ncol)
        return 0;
    struct grid g;
    int markdown = o->format == OUT_MARKDOWN;
    if (grid_build(&g, rs, o, markdown)) {
        grid_free(&g);
        return -1;
    }
    if (markdown)
        print_markdown(out, &g);
    else if (o->format == OUT_VERTICAL || (!o->wide && o->max_width > 0 && table_width(&g) > (size_t)o->max_width))
        print_vertical(out, &g, (size_t)o->max_width);
    else
        print_table(out, &g);
    grid_free(&g);
    return 0;
}
