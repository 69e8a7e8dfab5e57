/* Names, argument reading with benchdb's error texts, aggregate memory and
 * states, jsonb results: what the extension's function files share. */
#include "pg/pg.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

#include "stats/stop.h"

PG_MODULE_MAGIC;

/* The statistics' question whether to stop (stats/stop.h): a cancel, the
 * statement_timeout or a terminate raises the server's own error here, out
 * of the computation, which holds nothing but memory of the function's
 * context. Without it a change_points of a large window ran for hours past
 * the statement_timeout, deaf to pg_cancel_backend. */
static int bs_stop(void *arg)
{
    (void)arg;
    CHECK_FOR_INTERRUPTS();
    return 0;
}

PGDLLEXPORT void _PG_init(void);
void _PG_init(void)
{
    /* GSL's default error handler aborts the process (the server's
     * backend); its functions return NaN or infinities instead, which the
     * callers handle. */
    gsl_set_error_handler_off();
    stats_set_stop(bs_stop, NULL);
}

/* Every aggregate of the extension with its kind (the others are
 * BS_PLAIN), as src/sqlfn/extension.c registers them on SQLite. */
static const struct {
    const char *name;
    enum bs_kind kind;
} kinds[] = {
    {"variance", BS_VARIANCE}, {"stddev", BS_STDDEV}, {"t_ci", BS_T_CI}, {"mean", BS_MEAN}, {"fsum", BS_FSUM},
    {"pooled_t_ci", BS_POOLED}, {"welch_t_ci", BS_WELCH},
    {"median", BS_MEDIAN}, {"percentile", BS_PERCENTILE}, {"trimmed_mean", BS_TRIMMED},
    {"spread", BS_SPREAD}, {"median_ci", BS_MEDIAN_CI},
};

const struct bs_def *bs_def(FunctionCallInfo fcinfo)
{
    static const char *const suffixes[] = {"_step", "_inverse", "_final", "_combine"};
    struct bs_def *d = fcinfo->flinfo->fn_extra;
    if (d)
        return d;
    d = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof *d);
    char *name = get_func_name(fcinfo->flinfo->fn_oid);
    strlcpy(d->name, name ? name : "?", sizeof d->name);
    size_t n = strlen(d->name);
    for (size_t i = 0; i < lengthof(suffixes); i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && strcmp(d->name + n - k, suffixes[i]) == 0) {
            d->name[n - k] = 0;
            break;
        }
    }
    for (size_t i = 0; i < lengthof(kinds); i++)
        if (strcmp(d->name, kinds[i].name) == 0)
            d->kind = kinds[i].kind;
    fcinfo->flinfo->fn_extra = d;
    return d;
}

void bs_describe_double(char *buf, size_t size, double x)
{
    char *t = float8out_internal(x);
    strlcpy(buf, t, size);
    pfree(t);
}

static Oid arg_type(FunctionCallInfo fcinfo, int i)
{
    Oid t = get_fn_expr_argtype(fcinfo->flinfo, i);
    return OidIsValid(t) ? t : FLOAT8OID;
}

/* GOT for fcinfo's argument i. */
static void describe(FunctionCallInfo fcinfo, int i, char *buf, size_t size)
{
    if (PG_ARGISNULL(i)) {
        strlcpy(buf, "NULL", size);
        return;
    }
    Oid type = arg_type(fcinfo, i), out;
    bool varlena;
    if (type == FLOAT8OID) {
        bs_describe_double(buf, size, PG_GETARG_FLOAT8(i));
        return;
    }
    if (type == BYTEAOID) { /* SQLite's words for a blob */
        strlcpy(buf, "a blob", size);
        return;
    }
    getTypeOutputInfo(type, &out, &varlena);
    char *shown = OidOutputFunctionCall(out, PG_GETARG_DATUM(i));
    switch (type) {
    case FLOAT4OID:
    case INT2OID:
    case INT4OID:
    case INT8OID:
    case NUMERICOID:
    case BOOLOID:
        strlcpy(buf, shown, size);
        break;
    default:
        fn_describe_text(buf, size, shown);
    }
    pfree(shown);
}

void bs_error(FunctionCallInfo fcinfo, int argi, const char *expected, const char *got)
{
    char msg[256];
    fn_arg_message(msg, sizeof msg, argi, bs_def(fcinfo)->name, expected, got);
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s", msg)));
}

void bs_arg_error(FunctionCallInfo fcinfo, int i, int argi, const char *expected)
{
    char what[64];
    describe(fcinfo, i, what, sizeof what);
    bs_error(fcinfo, argi, expected, what);
}

int bs_number(FunctionCallInfo fcinfo, int i, double *out)
{
    if (PG_ARGISNULL(i))
        return ARG_NULL;
    switch (arg_type(fcinfo, i)) {
    case FLOAT8OID:
        *out = PG_GETARG_FLOAT8(i);
        return ARG_OK;
    case FLOAT4OID:
        *out = PG_GETARG_FLOAT4(i);
        return ARG_OK;
    case INT8OID:
        *out = (double)PG_GETARG_INT64(i);
        return ARG_OK;
    case INT4OID:
        *out = PG_GETARG_INT32(i);
        return ARG_OK;
    case INT2OID:
        *out = PG_GETARG_INT16(i);
        return ARG_OK;
    case BOOLOID:
        *out = PG_GETARG_BOOL(i) ? 1 : 0;
        return ARG_OK;
    case NUMERICOID:
        if (numeric_is_nan(PG_GETARG_NUMERIC(i))) {
            *out = NAN;
            return ARG_OK;
        }
        *out = DatumGetFloat8(DirectFunctionCall1(numeric_float8, PG_GETARG_DATUM(i)));
        return ARG_OK;
    default:
        return -1;
    }
}

int bs_finite(FunctionCallInfo fcinfo, int i, int argi, const char *expected, double *out)
{
    int rc = bs_number(fcinfo, i, out);
    if (rc == ARG_NULL)
        return ARG_NULL;
    if (rc != ARG_OK || !isfinite(*out))
        bs_arg_error(fcinfo, i, argi, expected);
    return ARG_OK;
}

int bs_flag(FunctionCallInfo fcinfo, int i, int argi)
{
    double d;
    int rc = bs_number(fcinfo, i, &d);
    if (rc == ARG_NULL)
        return ARG_NULL;
    if (rc != ARG_OK || isnan(d))
        bs_arg_error(fcinfo, i, argi, EXPECT_BOOLEAN);
    return d != 0;
}

void bs_same(FunctionCallInfo fcinfo, int argi, double value, int *have, double *stored)
{
    if (!*have) {
        *have = 1;
        *stored = value;
    } else if (*stored != value) {
        bs_arg_error(fcinfo, argi + 1, argi, EXPECT_SAME);
    }
}

void bs_same_merge(FunctionCallInfo fcinfo, int argi, int *have, double *stored, int have2, double stored2)
{
    if (!have2)
        return;
    if (!*have) {
        *have = 1;
        *stored = stored2;
    } else if (*stored != stored2) {
        char got[64];
        bs_describe_double(got, sizeof got, stored2);
        bs_error(fcinfo, argi, EXPECT_SAME, got);
    }
}

MemoryContext bs_agg_context(FunctionCallInfo fcinfo, int *is_window)
{
    MemoryContext cx;
    int how = AggCheckCallContext(fcinfo, &cx);
    if (!how)
        elog(ERROR, "%s() called outside an aggregate", bs_def(fcinfo)->name);
    if (is_window)
        *is_window = how == AGG_CONTEXT_WINDOW;
    return cx;
}

void *bs_plain_state(FunctionCallInfo fcinfo, size_t size)
{
    if (!PG_ARGISNULL(0))
        return PG_GETARG_POINTER(0);
    return MemoryContextAllocZero(bs_agg_context(fcinfo, NULL), size);
}

void *bs_grow(void *ctx, void *old, size_t bytes)
{
    if (!AllocSizeIsValid(bytes))
        return NULL;
    return old ? repalloc(old, bytes) : MemoryContextAlloc(ctx, bytes);
}

Datum bs_jsonb(const char *json) { return DirectFunctionCall1(jsonb_in, CStringGetDatum(json)); }

void bs_overflow_error(FunctionCallInfo fcinfo, const struct fn_overflow *o)
{
    char msg[256];
    fn_overflow_message(msg, sizeof msg, bs_def(fcinfo)->name, o);
    ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE), errmsg("%s", msg)));
}

Datum bs_json_result(FunctionCallInfo fcinfo, const struct fn_json *j)
{
    if (j->over.key)
        bs_overflow_error(fcinfo, &j->over);
    return bs_jsonb(j->buf);
}

Datum bs_serial_plain(const void *state, size_t size)
{
    bytea *b = palloc(VARHDRSZ + size);
    SET_VARSIZE(b, VARHDRSZ + size);
    memcpy(VARDATA(b), state, size);
    PG_RETURN_BYTEA_P(b);
}

void *bs_deserial_plain(FunctionCallInfo fcinfo, size_t size)
{
    bytea *b = PG_GETARG_BYTEA_PP(0);
    if (VARSIZE_ANY_EXHDR(b) != size)
        elog(ERROR, "benchstats: a serialized state of %zu bytes, expected %zu", (size_t)VARSIZE_ANY_EXHDR(b), size);
    void *s = palloc(size);
    memcpy(s, VARDATA_ANY(b), size);
    return s;
}

int bs_combine_plain(FunctionCallInfo fcinfo, size_t size, void **s1, void **s2, Datum *result)
{
    MemoryContext cx = bs_agg_context(fcinfo, NULL);
    *s1 = PG_ARGISNULL(0) ? NULL : PG_GETARG_POINTER(0);
    *s2 = PG_ARGISNULL(1) ? NULL : PG_GETARG_POINTER(1);
    if (*s1 && *s2)
        return 1;
    if (*s1 || !*s2) {
        *result = *s1 ? PointerGetDatum(*s1) : (Datum)0;
        return 0;
    }
    void *copy = MemoryContextAlloc(cx, size);
    memcpy(copy, *s2, size);
    *result = PointerGetDatum(copy);
    return 0;
}
