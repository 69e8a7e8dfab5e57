/* Result output in four formats: an aligned table for a terminal, RFC 4180
 * CSV, a JSON array of objects, and a Markdown pipe table. */
#include "output/output.h"

#include <stdlib.h>
#include <string.h>

#include "util/diag.h"

int out_format_parse(const char *s, enum out_format *f)
{
    static const struct { const char *name; enum out_format f; } names[] = {
        {"table", OUT_TABLE}, {"csv", OUT_CSV}, {"json", OUT_JSON}, {"markdown", OUT_MARKDOWN}, {"md", OUT_MARKDOWN},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *f = names[i].f;
            return 0;
        }
    return -1;
}

int rowset_collect(struct rowset *rs, sqlite3_stmt *st)
{
    if (!rs->names) {
        rs->ncol = sqlite3_column_count(st);
        rs->names = calloc((size_t)rs->ncol + 1, sizeof *rs->names);
        if (!rs->names)
            return SQLITE_NOMEM;
        for (int c = 0; c < rs->ncol; c++) {
            const char *n = sqlite3_column_name(st, c);
            rs->names[c] = strdup(n ? n : "");
            if (!rs->names[c])
                return SQLITE_NOMEM;
        }
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (rs->nrow == rs->cap) {
            size_t cap = rs->cap ? rs->cap * 2 : 16;
            sqlite3_value **p = realloc(rs->cells, cap * (size_t)(rs->ncol ? rs->ncol : 1) * sizeof *p);
            if (!p)
                return SQLITE_NOMEM;
            rs->cells = p;
            rs->cap = cap;
        }
        for (int c = 0; c < rs->ncol; c++) {
            sqlite3_value *v = sqlite3_value_dup(sqlite3_column_value(st, c));
            if (!v)
                return SQLITE_NOMEM;
            rs->cells[rs->nrow * (size_t)rs->ncol + (size_t)c] = v;
        }
        rs->nrow++;
    }
    return rc;
}

void rowset_free(struct rowset *rs)
{
    for (size_t i = 0; i < rs->nrow * (size_t)rs->ncol; i++)
        sqlite3_value_free(rs->cells[i]);
    free(rs->cells);
    if (rs->names)
        for (int c = 0; c < rs->ncol; c++)
            free(rs->names[c]);
    free(rs->names);
    memset(rs, 0, sizeof *rs);
}

static char *hex_of_blob(const unsigned char *p, int n, int sql_literal)
{
    struct strbuf sb = {0};
    if (sql_literal)
        sb_puts(&sb, "X'");
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%02x", p[i]);
    if (sql_literal)
        sb_putc(&sb, '\'');
    return sb_detach(&sb);
}

char *value_text(sqlite3_value *v)
{
    char buf[40];
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return strdup("");
    case SQLITE_INTEGER:
        snprintf(buf, sizeof buf, "%lld", (long long)sqlite3_value_int64(v));
        return strdup(buf);
    case SQLITE_FLOAT:
        fmt_double(buf, sqlite3_value_double(v));
        return strdup(buf);
    case SQLITE_BLOB:
        return hex_of_blob(sqlite3_value_blob(v), sqlite3_value_bytes(v), 1);
    default: {
        const char *t = (const char *)sqlite3_value_text(v);
        return strdup(t ? t : "");
    }
    }
}

int json_put_string(struct strbuf *sb, const char *s, size_t n) { return sb_json_string(sb, s, n); }

int json_put_value(struct strbuf *sb, sqlite3_value *v)
{
    char buf[40];
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return sb_puts(sb, "null");
    case SQLITE_INTEGER:
        return sb_printf(sb, "%lld", (long long)sqlite3_value_int64(v));
    case SQLITE_FLOAT: {
        double x = sqlite3_value_double(v);
        if (x != x || x - x != 0)
            return sb_puts(sb, "null"); /* JSON has no NaN or infinity */
        fmt_double(buf, x);
        return sb_puts(sb, buf);
    }
    case SQLITE_BLOB: {
        char *h = hex_of_blob(sqlite3_value_blob(v), sqlite3_value_bytes(v), 0);
        int rc = json_put_string(sb, h, strlen(h));
        free(h);
        return rc;
    }
    default:
        return json_put_string(sb, (const char *)sqlite3_value_text(v), (size_t)sqlite3_value_bytes(v));
    }
}

int rowset_json(const struct rowset *rs, struct strbuf *sb)
{
    int rc = sb_putc(sb, '[');
    for (size_t r = 0; r < rs->nrow && rc == 0; r++) {
        rc |= sb_puts(sb, r ? ",\n  {" : "\n  {");
        for (int c = 0; c < rs->ncol; c++) {
            if (c)
                rc |= sb_puts(sb, ", ");
            rc |= json_put_string(sb, rs->names[c], strlen(rs->names[c]));
            rc |= sb_puts(sb, ": ");
            rc |= json_put_value(sb, rowset_cell(rs, r, c));
        }
        rc |= sb_putc(sb, '}');
    }
    rc |= sb_puts(sb, rs->nrow ? "\n]" : "]");
    return rc ? -1 : 0;
}

/* Display width in terminal columns: UTF-8 code points. */
static size_t width_of(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

static void pad(FILE *out, size_t n)
{
    while (n--)
        fputc(' ', out);
}

static int is_number(sqlite3_value *v)
{
    int t = sqlite3_value_type(v);
    return t == SQLITE_INTEGER || t == SQLITE_FLOAT;
}

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void md_field(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n')
            fputs("<br>", out);
        else if (*s != '\r')
            fputc(*s, out);
    }
}

static int print_table(const struct rowset *rs, FILE *out, int markdown)
{
    size_t n = rs->nrow * (size_t)rs->ncol;
    char **text = calloc(n ? n : 1, sizeof *text);
    size_t *w = calloc((size_t)rs->ncol + 1, sizeof *w);
    int *numeric = calloc((size_t)rs->ncol + 1, sizeof *numeric);
    if (!text || !w || !numeric) {
        free(text); free(w); free(numeric);
        return -1;
    }
    for (int c = 0; c < rs->ncol; c++) {
        w[c] = width_of(rs->names[c]);
        numeric[c] = rs->nrow > 0;
    }
    for (size_t r = 0; r < rs->nrow; r++)
        for (int c = 0; c < rs->ncol; c++) {
            sqlite3_value *v = rowset_cell(rs, r, c);
            char *t = value_text(v);
            if (!markdown && t && strpbrk(t, "\n\r\t")) {
                /* One row per line on a terminal: show control characters escaped. */
                struct strbuf esc = {0};
                for (const char *p = t; *p; p++)
                    if (*p == '\n') sb_puts(&esc, "\\n");
                    else if (*p == '\r') sb_puts(&esc, "\\r");
                    else if (*p == '\t') sb_puts(&esc, "\\t");
                    else sb_putc(&esc, *p);
                free(t);
                t = sb_detach(&esc);
            }
            if (markdown && t) {
                /* Escaping widens the cell: measure what is printed. */
                size_t extra = 0;
                for (const char *p = t; *p; p++)
                    extra += *p == '|' ? 1 : *p == '\n' ? 3 : 0;
                w[c] = w[c] > width_of(t) + extra ? w[c] : width_of(t) + extra;
            } else if (t && width_of(t) > w[c]) {
                w[c] = width_of(t);
            }
            if (sqlite3_value_type(v) != SQLITE_NULL && !is_number(v))
                numeric[c] = 0;
            text[r * (size_t)rs->ncol + (size_t)c] = t;
        }
    const char *sep = markdown ? " | " : "  ";
    if (markdown)
        fputs("| ", out);
    for (int c = 0; c < rs->ncol; c++) {
        if (c)
            fputs(sep, out);
        if (numeric[c] && !markdown)
            pad(out, w[c] - width_of(rs->names[c]));
        if (markdown)
            md_field(out, rs->names[c]);
        else
            fputs(rs->names[c], out);
        if (!(numeric[c] && !markdown) && (c + 1 < rs->ncol || markdown))
            pad(out, w[c] - width_of(rs->names[c]));
    }
    fputs(markdown ? " |\n" : "\n", out);
    if (markdown)
        fputs("|", out);
    for (int c = 0; c < rs->ncol; c++) {
        if (markdown) {
            fputc(' ', out);
            for (size_t i = 0; i < (w[c] > 3 ? w[c] : 3) - (numeric[c] ? 1 : 0); i++)
                fputc('-', out);
            fputs(numeric[c] ? ": |" : " |", out);
        } else {
            if (c)
                fputs(sep, out);
            for (size_t i = 0; i < w[c]; i++)
                fputc('-', out);
        }
    }
    fputc('\n', out);
    for (size_t r = 0; r < rs->nrow; r++) {
        if (markdown)
            fputs("| ", out);
        for (int c = 0; c < rs->ncol; c++) {
            const char *t = text[r * (size_t)rs->ncol + (size_t)c];
            size_t tw = width_of(t);
            if (markdown)
                for (const char *p = t; *p; p++)
                    tw += *p == '|' ? 1 : *p == '\n' ? 3 : 0;
            if (!markdown && c + 1 == rs->ncol && !numeric[c] && !*t)
                break; /* no trailing blanks after an empty last cell */
            if (c)
                fputs(sep, out);
            if (numeric[c])
                pad(out, w[c] - tw);
            if (markdown)
                md_field(out, t);
            else
                fputs(t, out);
            if (!numeric[c] && (c + 1 < rs->ncol || markdown))
                pad(out, w[c] - tw);
        }
        fputs(markdown ? " |\n" : "\n", out);
    }
    for (size_t i = 0; i < n; i++)
        free(text[i]);
    free(text);
    free(w);
    free(numeric);
    return 0;
}

int rowset_print(const struct rowset *rs, enum out_format f, FILE *out)
{
    switch (f) {
    case OUT_TABLE:
        if (rs->ncol)
            print_table(rs, out, 0);
        break;
    case OUT_MARKDOWN:
        if (rs->ncol)
            print_table(rs, out, 1);
        break;
    case OUT_CSV:
        if (!rs->ncol)
            break;
        for (int c = 0; c < rs->ncol; c++) {
            if (c)
                fputc(',', out);
            csv_field(out, rs->names[c]);
        }
        fputs("\r\n", out);
        for (size_t r = 0; r < rs->nrow; r++) {
            for (int c = 0; c < rs->ncol; c++) {
                if (c)
                    fputc(',', out);
                char *t = value_text(rowset_cell(rs, r, c));
                csv_field(out, t ? t : "");
                free(t);
            }
            fputs("\r\n", out);
        }
        break;
    case OUT_JSON: {
        struct strbuf sb = {0};
        if (rowset_json(rs, &sb)) {
            sb_free(&sb);
            return -1;
        }
        fputs(sb.buf, out);
        fputc('\n', out);
        sb_free(&sb);
        break;
    }
    }
    return ferror(out) ? -1 : 0;
}
