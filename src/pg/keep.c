/* The state of the aggregates that keep their rows (pg.h, struct
 * bs_keep): a FIFO in the aggregate's memory, so that a moving window
 * frame drops its oldest row in O(1), and the call's constants. Parallel
 * plans serialize it as its rows and constants, and combine two by
 * concatenation: every such aggregate sorts or selects before it
 * computes, so the order of the rows never matters. */
#include "pg/pg.h"

#include <string.h>

struct bs_keep *bs_keep_state(FunctionCallInfo fcinfo, size_t esize, int param_arg)
{
    if (!PG_ARGISNULL(0))
        return (struct bs_keep *)PG_GETARG_POINTER(0);
    MemoryContext cx = bs_agg_context(fcinfo, NULL);
    struct bs_keep *s = MemoryContextAllocZero(cx, sizeof *s);
    s->cx = cx;
    s->f.esize = esize;
    s->param_arg = param_arg;
    return s;
}

void bs_keep_push(struct bs_keep *s, const void *elem)
{
    if (fn_fifo_push(&s->f, elem, bs_grow, s->cx))
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("benchstats: too many rows in one group")));
}

void *bs_keep_items(FunctionCallInfo fcinfo, struct bs_keep *s)
{
    int window;
    bs_agg_context(fcinfo, &window);
    if (!window)
        return fn_fifo_items(&s->f);
    size_t bytes = s->f.len * s->f.esize;
    if (bytes > s->scratch_bytes) {
        s->scratch = bs_grow(s->cx, s->scratch, bytes);
        if (!s->scratch)
            ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("benchstats: too many rows in one frame")));
        s->scratch_bytes = bytes;
    }
    memcpy(s->scratch, fn_fifo_items(&s->f), bytes);
    return s->scratch;
}

/* The serialized state: this header, then the rows. */
struct keep_header {
    uint64 esize, len;
    int32 param_arg, have[3];
    double param[3];
};

BS_FUNCTION(bs_keep_serial)
{
    struct bs_keep *s = (struct bs_keep *)PG_GETARG_POINTER(0);
    struct keep_header h = {s->f.esize, s->f.len, s->param_arg, {0}, {0}};
    for (int k = 0; k < 3; k++) {
        h.have[k] = s->have[k];
        h.param[k] = s->param[k];
    }
    size_t rows = s->f.len * s->f.esize;
    bytea *b = palloc(VARHDRSZ + sizeof h + rows);
    SET_VARSIZE(b, VARHDRSZ + sizeof h + rows);
    memcpy(VARDATA(b), &h, sizeof h);
    if (rows)
        memcpy(VARDATA(b) + sizeof h, fn_fifo_items(&s->f), rows);
    PG_RETURN_BYTEA_P(b);
}

/* A state in memory context cx holding rows (len of esize bytes). */
static struct bs_keep *keep_new(MemoryContext cx, const struct keep_header *h, const void *rows)
{
    struct bs_keep *s = MemoryContextAllocZero(cx, sizeof *s);
    s->cx = cx;
    s->f.esize = h->esize;
    s->param_arg = h->param_arg;
    for (int k = 0; k < 3; k++) {
        s->have[k] = h->have[k];
        s->param[k] = h->param[k];
    }
    if (h->len && fn_fifo_append(&s->f, rows, h->len, bs_grow, cx))
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("benchstats: too many rows in one group")));
    return s;
}

BS_FUNCTION(bs_keep_deserial)
{
    bytea *b = PG_GETARG_BYTEA_PP(0);
    struct keep_header h;
    size_t n = VARSIZE_ANY_EXHDR(b);
    if (n < sizeof h)
        elog(ERROR, "benchstats: a serialized state of %zu bytes", n);
    memcpy(&h, VARDATA_ANY(b), sizeof h);
    if (h.esize == 0 || (n - sizeof h) != h.len * h.esize)
        elog(ERROR, "benchstats: a serialized state of %zu bytes for %llu rows of %llu", n,
             (unsigned long long)h.len, (unsigned long long)h.esize);
    PG_RETURN_POINTER(keep_new(CurrentMemoryContext, &h, VARDATA_ANY(b) + sizeof h));
}

BS_FUNCTION(bs_keep_combine)
{
    MemoryContext cx = bs_agg_context(fcinfo, NULL);
    struct bs_keep *a = BS_STATE(struct bs_keep, 0), *b = BS_STATE(struct bs_keep, 1);
    if (!b)
        BS_RETURN_STATE(a);
    if (!a) {
        struct keep_header h = {b->f.esize, b->f.len, b->param_arg, {b->have[0], b->have[1], b->have[2]},
                                {b->param[0], b->param[1], b->param[2]}};
        PG_RETURN_POINTER(keep_new(cx, &h, fn_fifo_items(&b->f)));
    }
    for (int k = 0; k < 3; k++)
        bs_same_merge(fcinfo, a->param_arg + k, &a->have[k], &a->param[k], b->have[k], b->param[k]);
    if (fn_fifo_append(&a->f, fn_fifo_items(&b->f), b->f.len, bs_grow, a->cx))
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("benchstats: too many rows in one group")));
    PG_RETURN_POINTER(a);
}
