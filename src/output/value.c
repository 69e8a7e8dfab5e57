/* One value as text: exact (CSV), for reading (tables), or as JSON. */
#include "fnshared/numfmt.h"
#include "output/output.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xalloc.h"

static char *hex_of_blob(const unsigned char *p, int n, int sql_literal)
{
    struct strbuf sb = {0};
    if (sql_literal)
        sb_puts(&sb, "X'");
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%02x", p[i]);
    if (sql_literal)
        sb_putc(&sb, '\'');
    return xsb_detach(&sb);
}

char *value_text(sqlite3_value *v)
{
    char buf[40];
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return xstrdup("");
    case SQLITE_INTEGER:
        snprintf(buf, sizeof buf, "%lld", (long long)sqlite3_value_int64(v));
        return xstrdup(buf);
    case SQLITE_FLOAT:
        numfmt_real(buf, sqlite3_value_double(v));
        return xstrdup(buf);
    case SQLITE_BLOB:
        return hex_of_blob(sqlite3_value_blob(v), sqlite3_value_bytes(v), 1);
    default: {
        const char *t = (const char *)sqlite3_value_text(v);
        return xstrdup(t ? t : "");
    }
    }
}

char *value_display(sqlite3_value *v, int digits)
{
    if (sqlite3_value_type(v) != SQLITE_FLOAT)
        return value_text(v);
    char buf[40];
    numfmt_digits(buf, sqlite3_value_double(v), digits);
    return xstrdup(buf);
}

int json_put_string(struct strbuf *sb, const char *s, size_t n) { return sb_json_string(sb, s, n); }

/* Whether text (n bytes) is a JSON object or array, to be nested as it is. */
static int is_json_container(const char *t, size_t n)
{
    if (!n || (t[0] != '{' && t[0] != '['))
        return 0;
    json_t *j = json_loadb(t, n, JSON_DECODE_ANY, NULL);
    int ok = j && (json_is_object(j) || json_is_array(j));
    json_decref(j);
    return ok;
}

int json_put_value(struct strbuf *sb, sqlite3_value *v, int nest_json)
{
    char buf[40];
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        return sb_puts(sb, "null");
    case SQLITE_INTEGER:
        return sb_printf(sb, "%lld", (long long)sqlite3_value_int64(v));
    case SQLITE_FLOAT: {
        double x = sqlite3_value_double(v);
        if (!isfinite(x))
            return sb_puts(sb, "null"); /* JSON has no NaN or infinity */
        numfmt_real(buf, x);
        return sb_puts(sb, buf);
    }
    case SQLITE_BLOB: {
        char *h = hex_of_blob(sqlite3_value_blob(v), sqlite3_value_bytes(v), 0);
        int rc = json_put_string(sb, h, strlen(h));
        free(h);
        return rc;
    }
    default: {
        const char *t = (const char *)sqlite3_value_text(v);
        size_t n = (size_t)sqlite3_value_bytes(v);
        if (nest_json && is_json_container(t, n))
            return sb_append(sb, t, n);
        return json_put_string(sb, t, n);
    }
    }
}

int rowset_json(const struct rowset *rs, struct strbuf *sb, int nest_json)
{
    int rc = sb_putc(sb, '[');
    for (size_t r = 0; r < rs->nrow && rc == 0; r++) {
        rc |= sb_puts(sb, r ? ",\n  {" : "\n  {");
        for (int c = 0; c < rs->ncol; c++) {
            if (c)
                rc |= sb_puts(sb, ", ");
            rc |= json_put_string(sb, rs->names[c], strlen(rs->names[c]));
            rc |= sb_puts(sb, ": ");
            rc |= json_put_value(sb, rowset_cell(rs, r, c), nest_json);
        }
        rc |= sb_putc(sb, '}');
    }
    rc |= sb_puts(sb, rs->nrow ? "\n]" : "]");
    return rc ? -1 : 0;
}

int rowset_text_invalid(const struct rowset *rs, size_t *row, int *col, size_t *at, unsigned char *byte)
{
    for (int c = 0; c < rs->ncol; c++) {
        size_t n = strlen(rs->names[c]), bad = utf8_invalid_at(rs->names[c], n);
        if (bad < n) {
            *row = SIZE_MAX, *col = c, *at = bad, *byte = (unsigned char)rs->names[c][bad];
            return 1;
        }
    }
    for (size_t r = 0; r < rs->nrow; r++)
        for (int c = 0; c < rs->ncol; c++) {
            sqlite3_value *v = rowset_cell(rs, r, c);
            if (sqlite3_value_type(v) != SQLITE_TEXT)
                continue;
            const char *t = (const char *)sqlite3_value_text(v);
            size_t n = (size_t)sqlite3_value_bytes(v), bad = t ? utf8_invalid_at(t, n) : n;
            if (bad < n) {
                *row = r, *col = c, *at = bad, *byte = (unsigned char)t[bad];
                return 1;
            }
        }
    return 0;
}
