/* Argument reading, error texts, the JSON writer and the value FIFO shared
 * by the SQL function files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfn/sqlfn.h"

static const char *ordinal(int argi)
{
    static const char *const names[] = {"1st", "2nd", "3rd", "4th", "5th"};
    return argi >= 0 && argi < 5 ? names[argi] : "nth";
}

/* How the offending value reads in an error: as SQLite prints numbers, text
 * in quotes (shortened at a character boundary), NULL, or "a blob". */
static void describe(sqlite3_value *v, char *buf, size_t size)
{
    switch (sqlite3_value_type(v)) {
    case SQLITE_NULL:
        snprintf(buf, size, "NULL");
        break;
    case SQLITE_BLOB:
        snprintf(buf, size, "a blob");
        break;
    case SQLITE_TEXT: {
        const char *t = (const char *)sqlite3_value_text(v);
        size_t n = t ? strlen(t) : 0, max = 40;
        if (n <= max) {
            snprintf(buf, size, "'%s'", t ? t : "");
        } else {
            while (max > 0 && ((unsigned char)t[max] & 0xC0) == 0x80)
                max--;
            snprintf(buf, size, "'%.*s...'", (int)max, t);
        }
        break;
    }
    default: {
        const char *t = (const char *)sqlite3_value_text(v);
        snprintf(buf, size, "%s", t ? t : "?");
    }
    }
}

void sqlfn_arg_error(sqlite3_context *ctx, int argi, const char *expected, sqlite3_value *got)
{
    char what[64], msg[256];
    describe(got, what, sizeof what);
    snprintf(msg, sizeof msg, "%s argument to %s() is not %s: %s", ordinal(argi), sqlfn_name(ctx), expected, what);
    sqlite3_result_error(ctx, msg, -1);
}

int sqlfn_number_slow(sqlite3_value *v, double *out)
{
    if (sqlite3_value_type(v) != SQLITE_TEXT)
        return ARG_ERROR;
    /* Converts the text in place when all of it is a number. */
    switch (sqlite3_value_numeric_type(v)) {
    case SQLITE_INTEGER:
        *out = (double)sqlite3_value_int64(v);
        return ARG_OK;
    case SQLITE_FLOAT:
        *out = sqlite3_value_double(v);
        return ARG_OK;
    default:
        return ARG_ERROR;
    }
}

int sqlfn_same(sqlite3_context *ctx, sqlite3_value **argv, int argi, double value, int *have, double *stored)
{
    if (!*have) {
        *have = 1;
        *stored = value;
        return 0;
    }
    if (*stored == value)
        return 0;
    sqlfn_arg_error(ctx, argi, EXPECT_SAME, argv[argi]);
    return -1;
}

void sqlfn_json_begin(struct sqlfn_json *j)
{
    j->buf[0] = '{';
    j->len = 1;
}

/* Appends n bytes, or as many as fit (the buffer is sized so that they
 * always do: 12 members of at most about 40 bytes). */
static void json_put(struct sqlfn_json *j, const char *text, size_t n)
{
    size_t room = sizeof j->buf - 1 - j->len;
    if (n > room)
        n = room;
    memcpy(j->buf + j->len, text, n);
    j->len += n;
    j->buf[j->len] = 0;
}

static void json_key(struct sqlfn_json *j, const char *key)
{
    size_t n = strlen(key);
    if (n + 4 > sizeof j->buf - 1 - j->len)
        return; /* cannot happen: the buffer holds every result whole */
    char *o = j->buf + j->len;
    if (j->len > 1)
        *o++ = ',';
    *o++ = '"';
    memcpy(o, key, n);
    o += n;
    *o++ = '"';
    *o++ = ':';
    *o = 0;
    j->len = (size_t)(o - j->buf);
}

static void json_raw(struct sqlfn_json *j, const char *text)
{
    json_put(j, text, strlen(text));
}

void sqlfn_json_num(struct sqlfn_json *j, const char *key, double x)
{
    json_key(j, key);
    if (!isfinite(x)) {
        json_raw(j, "null");
        return;
    }
    if (sizeof j->buf - j->len > 40) {
        /* Straight into the buffer (40 bytes hold any double's text). */
        sqlfn_fmt_double(j->buf + j->len, 40, x);
        j->len += strlen(j->buf + j->len);
        return;
    }
    char num[40];
    sqlfn_fmt_double(num, sizeof num, x);
    json_raw(j, num);
}

void sqlfn_json_int(struct sqlfn_json *j, const char *key, int64_t x)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)x);
    json_key(j, key);
    json_raw(j, num);
}

void sqlfn_json_bool(struct sqlfn_json *j, const char *key, int b)
{
    json_key(j, key);
    json_raw(j, b ? "true" : "false");
}

void sqlfn_json_result(sqlite3_context *ctx, struct sqlfn_json *j)
{
    json_raw(j, "}");
    sqlite3_result_text(ctx, j->buf, (int)j->len, SQLITE_TRANSIENT);
    sqlite3_result_subtype(ctx, 'J');
}

int sqlfn_fifo_push(struct sqlfn_fifo *f, const void *elem)
{
    if (f->start + f->len == f->cap) {
        if (f->start > 0 && f->start >= f->len) {
            /* Mostly removed rows at the front: slide the live ones down. */
            memmove(f->data, sqlfn_fifo_items(f), f->len * f->esize);
            f->start = 0;
        } else {
            size_t cap = f->cap ? f->cap * 2 : 64;
            unsigned char *d = sqlite3_realloc64(f->data, (sqlite3_uint64)cap * f->esize);
            if (!d)
                return -1;
            f->data = d;
            f->cap = cap;
        }
    }
    memcpy(f->data + (f->start + f->len) * f->esize, elem, f->esize);
    f->len++;
    return 0;
}

void sqlfn_fifo_remove(struct sqlfn_fifo *f, const void *elem)
{
    unsigned char *items = sqlfn_fifo_items(f);
    if (f->len == 0)
        return;
    if (memcmp(items, elem, f->esize) == 0) {
        f->start++;
        f->len--;
        if (f->len == 0)
            f->start = 0;
        return;
    }
    for (size_t i = 1; i < f->len; i++) {
        if (memcmp(items + i * f->esize, elem, f->esize) == 0) {
            memmove(items + i * f->esize, items + (i + 1) * f->esize, (f->len - i - 1) * f->esize);
            f->len--;
            return;
        }
    }
}

void sqlfn_fifo_free(struct sqlfn_fifo *f)
{
    sqlite3_free(f->data);
    *f = (struct sqlfn_fifo){0};
}
