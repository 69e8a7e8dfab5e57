/* The rows of an aggregate over a sequence, (seq, x), kept in a FIFO and
 * put in seq order by the aggregate itself, so that its result does not
 * depend on the order rows arrive in: change_points() and
 * lookback_baseline() (sqlfn.h describes the order). */
#include <stdlib.h>
#include <string.h>

#include "sqlfn/sqlfn.h"

/* seq: ARG_OK, ARG_NULL, or ARG_ERROR (not a finite number). */
static int read_seq(sqlite3_value *v, struct fn_seq_row *r)
{
    int type = sqlite3_value_type(v);
    if (type == SQLITE_TEXT)
        type = sqlite3_value_numeric_type(v);
    switch (type) {
    case SQLITE_NULL:
        return ARG_NULL;
    case SQLITE_INTEGER:
        r->seq_is_int = 1;
        r->seq_int = sqlite3_value_int64(v);
        return ARG_OK;
    case SQLITE_FLOAT:
        r->seq_real = sqlite3_value_double(v);
        return isfinite(r->seq_real) ? ARG_OK : ARG_ERROR;
    default:
        return ARG_ERROR;
    }
}

int sqlfn_seq_row_read(sqlite3_context *ctx, sqlite3_value **argv, struct fn_seq_row *r, int report)
{
    memset(r, 0, sizeof *r);
    int rc = read_seq(argv[0], r);
    if (rc == ARG_ERROR && report)
        sqlfn_arg_error(ctx, 0, EXPECT_FINITE, argv[0]);
    if (rc != ARG_OK)
        return rc;
    return report ? sqlfn_finite(ctx, argv, 1, EXPECT_FINITE, &r->x) : sqlfn_number(argv[1], &r->x);
}

int sqlfn_seq_rows_push(struct sqlfn_seq_rows *s, const struct fn_seq_row *r)
{
    s->f.esize = sizeof *r;
    return sqlfn_fifo_push(&s->f, r);
}

void sqlfn_seq_rows_remove(sqlite3_context *ctx, struct sqlfn_seq_rows *s, sqlite3_value **argv)
{
    struct fn_seq_row r;
    if (sqlfn_seq_row_read(ctx, argv, &r, 0) == ARG_OK)
        fn_fifo_remove(&s->f, &r);
}

struct fn_seq_row *sqlfn_seq_rows_sorted(sqlite3_context *ctx, struct sqlfn_seq_rows *s, int is_final)
{
    size_t n = s->f.len;
    struct fn_seq_row *rows = fn_fifo_items(&s->f);
    /* A window frame's rows mostly arrive in order: then no copy, no sort. */
    if (fn_seq_rows_ordered(rows, n))
        return rows;
    if (!is_final) {
        /* xValue must leave the frame as it is: sort a copy. */
        if (n > s->scratch_len) {
            struct fn_seq_row *p = sqlite3_realloc64(s->scratch, (sqlite3_uint64)n * sizeof *p);
            if (!p) {
                sqlite3_result_error_nomem(ctx);
                return NULL;
            }
            s->scratch = p;
            s->scratch_len = n;
        }
        memcpy(s->scratch, rows, n * sizeof *rows);
        rows = s->scratch;
    }
    qsort(rows, n, sizeof *rows, fn_seq_row_cmp);
    return rows;
}

void sqlfn_seq_rows_free(struct sqlfn_seq_rows *s)
{
    sqlfn_fifo_free(&s->f);
    sqlite3_free(s->scratch);
    s->scratch = NULL;
    s->scratch_len = 0;
}
