/* Argument reading and error texts on SQLite's values, the JSON result and
 * the value FIFO on SQLite's allocator, shared by the SQL function files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfn/sqlfn.h"

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
    case SQLITE_TEXT:
        fn_describe_text(buf, size, (const char *)sqlite3_value_text(v));
        break;
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
    fn_arg_message(msg, sizeof msg, argi, sqlfn_name(ctx), expected, what);
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

void sqlfn_overflow_error(sqlite3_context *ctx, const struct fn_overflow *o)
{
    char msg[256];
    fn_overflow_message(msg, sizeof msg, sqlfn_name(ctx), o);
    sqlite3_result_error(ctx, msg, -1);
}

void sqlfn_json_result(sqlite3_context *ctx, struct fn_json *j)
{
    if (j->over.key) {
        sqlfn_overflow_error(ctx, &j->over);
        return;
    }
    sqlite3_result_text(ctx, j->buf, (int)j->len, SQLITE_TRANSIENT);
    sqlite3_result_subtype(ctx, 'J');
}

void *sqlfn_grow(void *ctx, void *old, size_t bytes)
{
    (void)ctx;
    return sqlite3_realloc64(old, (sqlite3_uint64)bytes);
}

void sqlfn_fifo_free(struct fn_fifo *f)
{
    sqlite3_free(f->data);
    *f = (struct fn_fifo){0};
}
