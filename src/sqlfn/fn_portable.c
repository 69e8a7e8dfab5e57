/* string_agg(value, delimiter), least(v, ...), greatest(v, ...): what
 * PostgreSQL has and SQLite 3.40 lacks, so that saved queries run on both.
 * Registered only when the library does not already have them (extension.c
 * probes each), with PostgreSQL 15's semantics:
 *
 *  1. string_agg concatenates the non-NULL values in arrival order, each
 *     after the delimiter given on its own row (the first value's delimiter
 *     is dropped; a NULL delimiter adds nothing); NULL when no value is
 *     non-NULL. Values and delimiters are read as text, numbers as SQLite
 *     prints them.
 *  2. least and greatest take one argument or more and ignore NULLs; NULL
 *     only when every argument is NULL. They compare as SQLite compares
 *     values: numbers (integers and reals by value) before text (bytewise,
 *     the BINARY collation) before blobs; of equal values the first is
 *     returned, with its type.
 *  3. string_agg is also a window function: a frame gives the aggregate of
 *     its rows, removing the oldest row in O(1).
 *  Example: WITH v(x) AS (VALUES ('a'), (NULL), ('b')) SELECT string_agg(x, ', ') FROM v; -- 'a, b'
 *           SELECT least(3, NULL, 1.5), greatest('b', 2, NULL); -- 1.5, 'b'
 */
#include <string.h>

#include "sqlfn/sqlfn.h"

/* ---- string_agg ---- */

/* One value's part of the text: its delimiter's bytes, then its own. */
struct agg_part {
    size_t dlen, vlen;
};

/* The text is every part in arrival order, delimiters included, from
 * start; the result skips the first part's delimiter. */
struct agg_state {
    struct fn_fifo parts;
    char *text;
    size_t start, len, cap; /* live bytes are text[start, start + len) */
};

static int agg_append(struct agg_state *s, const void *bytes, size_t n)
{
    if (s->start + s->len + n > s->cap) {
        if (s->start > 0) { /* removed rows' bytes at the front: drop them */
            memmove(s->text, s->text + s->start, s->len);
            s->start = 0;
        }
        if (s->len + n > s->cap) {
            size_t cap = s->cap ? s->cap : 64;
            while (cap < s->len + n)
                cap *= 2;
            char *t = sqlite3_realloc64(s->text, cap);
            if (!t)
                return -1;
            s->text = t;
            s->cap = cap;
        }
    }
    if (n)
        memcpy(s->text + s->start + s->len, bytes, n);
    s->len += n;
    return 0;
}

void sqlfn_string_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return;
    struct agg_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    s->parts.esize = sizeof(struct agg_part);
    /* The delimiter first: reading the value as text may not invalidate
     * it, as they are different sqlite3_value objects. */
    const void *d = sqlite3_value_text(argv[1]);
    size_t dlen = d ? (size_t)sqlite3_value_bytes(argv[1]) : 0;
    if (!d && sqlite3_value_type(argv[1]) != SQLITE_NULL)
        goto nomem;
    if (agg_append(s, d, dlen))
        goto nomem;
    const void *v = sqlite3_value_text(argv[0]);
    size_t vlen = v ? (size_t)sqlite3_value_bytes(argv[0]) : 0;
    if (!v || agg_append(s, v, vlen)) {
        s->len -= dlen;
        goto nomem;
    }
    struct agg_part part = {dlen, vlen};
    if (sqlfn_fifo_push(&s->parts, &part)) {
        s->len -= dlen + vlen;
        goto nomem;
    }
    return;
nomem:
    sqlite3_result_error_nomem(ctx);
}

/* Removes a row's part: SQLite's frames drop rows in arrival order, so it
 * is the first part, found at once; another one is searched for (the first
 * of equal parts: which of them goes does not change the text). A NULL
 * value was never added. */
void sqlfn_string_agg_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct agg_state *s = sqlite3_aggregate_context(ctx, 0);
    if (!s || sqlite3_value_type(argv[0]) == SQLITE_NULL || s->parts.len == 0)
        return;
    const char *d = (const char *)sqlite3_value_text(argv[1]);
    size_t dlen = d ? (size_t)sqlite3_value_bytes(argv[1]) : 0;
    const char *v = (const char *)sqlite3_value_text(argv[0]);
    size_t vlen = v ? (size_t)sqlite3_value_bytes(argv[0]) : 0;
    struct agg_part *parts = fn_fifo_items(&s->parts);
    size_t at = 0, k = 0;
    for (; k < s->parts.len; k++) {
        const char *p = s->text + s->start + at;
        if (parts[k].dlen == dlen && parts[k].vlen == vlen && (!dlen || memcmp(p, d, dlen) == 0) &&
            (!vlen || memcmp(p + dlen, v, vlen) == 0))
            break;
        at += parts[k].dlen + parts[k].vlen;
    }
    if (k == s->parts.len)
        k = 0, at = 0; /* not found (out of memory reading it): the oldest */
    size_t n = parts[k].dlen + parts[k].vlen;
    if (k == 0) {
        s->start += n;
    } else {
        char *p = s->text + s->start + at;
        memmove(p, p + n, s->len - at - n);
    }
    s->len -= n;
    if (k == 0)
        s->parts.start++;
    else
        memmove(parts + k, parts + k + 1, (s->parts.len - k - 1) * sizeof *parts);
    if (--s->parts.len == 0)
        s->parts.start = s->start = s->len = 0;
}

static void string_agg_compute(sqlite3_context *ctx, int is_final)
{
    struct agg_state *s = sqlite3_aggregate_context(ctx, 0);
    if (!s || s->parts.len == 0) {
        sqlite3_result_null(ctx);
    } else {
        const struct agg_part *front = fn_fifo_items(&s->parts);
        sqlite3_result_text64(ctx, s->text + s->start + front->dlen, s->len - front->dlen, SQLITE_TRANSIENT,
                              SQLITE_UTF8);
    }
    if (s && is_final) {
        sqlfn_fifo_free(&s->parts);
        sqlite3_free(s->text);
        s->text = NULL;
    }
}

void sqlfn_string_agg_final(sqlite3_context *ctx) { string_agg_compute(ctx, 1); }
void sqlfn_string_agg_value(sqlite3_context *ctx) { string_agg_compute(ctx, 0); }

/* ---- least, greatest ---- */

/* SQLite's order of an integer against a real, exactly (its
 * sqlite3IntFloatCompare without long double): -1, 0 or 1. */
static int int_real_cmp(sqlite3_int64 i, double r)
{
    if (r < -9223372036854775808.0)
        return 1;
    if (r >= 9223372036854775808.0)
        return -1;
    sqlite3_int64 y = (sqlite3_int64)r;
    if (i != y)
        return i < y ? -1 : 1;
    double s = (double)i;
    return s < r ? -1 : s > r;
}

static int type_class(int type)
{
    return type == SQLITE_INTEGER || type == SQLITE_FLOAT ? 1 : type == SQLITE_TEXT ? 2 : 3;
}

/* a < b: -1, a = b: 0, a > b: 1; neither is NULL. */
static int value_cmp(sqlite3_value *a, sqlite3_value *b)
{
    int ta = sqlite3_value_type(a), tb = sqlite3_value_type(b);
    int ca = type_class(ta), cb = type_class(tb);
    if (ca != cb)
        return ca < cb ? -1 : 1;
    if (ca == 1) {
        if (ta == SQLITE_INTEGER && tb == SQLITE_INTEGER) {
            sqlite3_int64 x = sqlite3_value_int64(a), y = sqlite3_value_int64(b);
            return (x > y) - (x < y);
        }
        if (ta == SQLITE_INTEGER)
            return int_real_cmp(sqlite3_value_int64(a), sqlite3_value_double(b));
        if (tb == SQLITE_INTEGER)
            return -int_real_cmp(sqlite3_value_int64(b), sqlite3_value_double(a));
        double x = sqlite3_value_double(a), y = sqlite3_value_double(b);
        return (x > y) - (x < y);
    }
    const void *pa = ca == 2 ? (const void *)sqlite3_value_text(a) : sqlite3_value_blob(a);
    int na = sqlite3_value_bytes(a);
    const void *pb = ca == 2 ? (const void *)sqlite3_value_text(b) : sqlite3_value_blob(b);
    int nb = sqlite3_value_bytes(b);
    int n = na < nb ? na : nb;
    int c = n > 0 ? memcmp(pa, pb, (size_t)n) : 0;
    return c ? (c > 0) - (c < 0) : (na > nb) - (na < nb);
}

void sqlfn_least_greatest(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    if (argc < 1) {
        char *msg = sqlite3_mprintf("wrong number of arguments to function %s()", sqlfn_name(ctx));
        if (msg)
            sqlite3_result_error(ctx, msg, -1);
        else
            sqlite3_result_error_nomem(ctx);
        sqlite3_free(msg);
        return;
    }
    int sign = sqlfn_kind(ctx) == KIND_LEAST ? -1 : 1;
    sqlite3_value *best = NULL;
    for (int i = 0; i < argc; i++) {
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
            continue;
        if (!best || value_cmp(argv[i], best) == sign)
            best = argv[i];
    }
    if (best)
        sqlite3_result_value(ctx, best);
}
