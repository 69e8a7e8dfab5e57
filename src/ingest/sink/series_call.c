/* PostgreSQL: a small archive's pending series and values (values.c
 * keeps them as COPY rows: series' text, values' binary arrays) sent as
 * the arrays of one call of benchdb_series_values() in the pipeline,
 * instead of the series' ids and two COPYs (flush.c,
 * sink_copy_flush; docs/postgresql.md, "ingest"). */
#include "ingest/sink/statements.h"

#include <stdio.h>
#include <string.h>

#include "fnshared/numfmt.h"

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* One field of a COPY text row (f, n bytes: backslash escapes, \N for
 * NULL) as an element of an array's text form (quoted, or NULL), after
 * a comma unless first. */
static int array_elem_copy_text(struct strbuf *b, int first, const char *f, size_t n)
{
    if (!first && sb_putc(b, ','))
        return -1;
    if (n == 2 && f[0] == '\\' && f[1] == 'N')
        return sb_puts(b, "NULL");
    int bad = sb_putc(b, '"');
    for (size_t i = 0; i < n && !bad; i++) {
        char c = f[i];
        if (c == '\\' && i + 1 < n) {
            c = f[++i];
            c = c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
        }
        bad = ((c == '"' || c == '\\') && sb_putc(b, '\\')) || sb_putc(b, c);
    }
    return bad || sb_putc(b, '"');
}

/* The array field at *at of a series' COPY binary row (values.c,
 * copy_array: its length, then one dimension or none, 8-byte elements)
 * appended to b's elements (*total of them so far, grown), *at moved past
 * it; *n its elements, or -1 for NULL. 0, or -1 when out of memory. */
static int array_elems_binary(struct strbuf *b, const unsigned char **at, int dbl, size_t *total, long *n)
{
    const unsigned char *r = *at;
    uint32_t len = get_u32(r);
    if (len == 0xffffffffu) {
        *at = r + 4;
        *n = -1;
        return 0;
    }
    size_t k = get_u32(r + 4) ? get_u32(r + 16) : 0; /* dimensions, then that one's length */
    const unsigned char *e = r + 24;
    int bad = 0;
    for (size_t q = 0; q < k && !bad; q++, e += 12) {
        uint64_t bits = (uint64_t)get_u32(e + 4) << 32 | get_u32(e + 8); /* after its length (8) */
        char num[40];
        if (dbl) {
            double d;
            memcpy(&d, &bits, sizeof d);
            numfmt_real(num, d);
        } else
            snprintf(num, sizeof num, "%lld", (long long)bits);
        bad = (*total ? sb_putc(b, ',') : 0) || sb_puts(b, num);
        ++*total;
    }
    *at = r + 4 + len;
    *n = (long)k;
    return bad;
}

int sink_series_call_fits(const struct sink *s, size_t need)
{
    return need == s->n_pend && s->n_pend <= s->pipe_series &&
           s->series_rows.len + s->copy.len <= SINK_PIPE_BYTES;
}

/* It fails only as the COPYs would, on the store (the references locked,
 * the keys checked by the sink), so it is sent in the pipeline
 * (db_step_later): its error is the next waiting statement's, the
 * commit's at the latest. */
int sink_series_call(struct sink *s)
{
    struct strbuf *c = s->cols;
    int bad = 0;
    for (int k = 0; k < SINK_PIPE_COLS; k++) {
        sb_reset(&c[k]);
        bad = bad || sb_putc(&c[k], '{');
    }
    /* the series' columns from their COPY rows (values.c, pend_series),
     * but the last (archive_id, NULL) */
    const char *p = s->series_rows.buf, *end = p + s->series_rows.len;
    for (size_t i = 0; p < end && !bad; i++)
        for (int k = 0; k < 12 && !bad; k++) {
            const char *f = p;
            while (p < end && *p != '\t' && *p != '\n')
                p++;
            bad = k < 11 && array_elem_copy_text(&c[k], i == 0, f, (size_t)(p - f));
            p++;
        }
    /* per series where its values, counts and warmups are in the flat
     * arrays, and how many (0: none, NULL) */
    const unsigned char *at = (const unsigned char *)s->copy.buf;
    size_t tot[3] = {0, 0, 0};
    for (size_t i = 0; i < s->n_pend && !bad; i++) {
        for (int a = 0; a < 3 && !bad; a++) {
            size_t from = tot[a];
            long n;
            bad = array_elems_binary(&c[17 + a], &at, a != 1, &tot[a], &n) ||
                  sb_printf(&c[11 + 2 * a], "%s%zu", i ? "," : "", from) ||
                  sb_printf(&c[12 + 2 * a], "%s%ld", i ? "," : "", n < 0 ? 0 : n);
        }
    }
    for (int k = 0; k < SINK_PIPE_COLS; k++)
        bad = bad || sb_putc(&c[k], '}');
    if (bad)
        return ingest_report_oom(s->rep);
    struct db_stmt *st = sink_stmt(s, S_SERIES_VALUES);
    if (!st)
        return -1;
    for (int k = 0; k < SINK_PIPE_COLS; k++)
        db_bind_text(st, k + 1, c[k].buf, (int)c[k].len);
    int rc = sink_step_later(s, st);
    db_clear_bindings(st);
    return rc;
}
