/* t_quantile(p, df), t_cdf(t, df), normal_quantile(p), ci_exp(ci),
 * ci_recip(ci), ci_excludes(ci, value), benchdb_version() on PostgreSQL,
 * as src/sqlfn/fn_scalar.c and fn_normal.c on SQLite:
 *
 *  1. A NULL argument gives NULL (the functions are STRICT).
 *  2. p must be in [0, 1] (0 and 1 give -Infinity and Infinity), df a
 *     positive finite number; a NaN result is NULL, as SQLite has no NaN.
 *  3. ci is jsonb: an object with numeric estimate, lo and hi, as the
 *     interval functions return; ci_recip also needs lo > 0. ci_exp and
 *     ci_recip return it with estimate, lo and hi replaced (null where
 *     not finite) and every other member as it was; ci_excludes returns 1
 *     when value lies outside [lo, hi], else 0 (an integer, as on SQLite).
 *  Example: SELECT t_quantile(0.975, 8); -- 2.3060041352041662
 */
#include "fnshared/numfmt.h"
#include "pg/pg.h"

#include <math.h>
#include <string.h>

#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

#include "stats/normal.h"
#include "version.h"

static double read_df(FunctionCallInfo fcinfo)
{
    double df = PG_GETARG_FLOAT8(1);
    if (!(df > 0) || isinf(df))
        bs_arg_error(fcinfo, 1, 1, EXPECT_DF);
    return df;
}

/* p (argument 0) in [0, 1]. */
static double read_probability(FunctionCallInfo fcinfo)
{
    double p = PG_GETARG_FLOAT8(0);
    if (!(p >= 0 && p <= 1))
        bs_arg_error(fcinfo, 0, 0, EXPECT_PROBABILITY);
    return p;
}

BS_FUNCTION(bs_t_quantile)
{
    double p = read_probability(fcinfo);
    BS_RETURN_DOUBLE(t_quantile(p, read_df(fcinfo)));
}

BS_FUNCTION(bs_t_cdf)
{
    double t = PG_GETARG_FLOAT8(0);
    if (isnan(t))
        PG_RETURN_NULL(); /* SQLite reads NaN as NULL */
    BS_RETURN_DOUBLE(t_cdf(t, read_df(fcinfo)));
}

BS_FUNCTION(bs_normal_quantile) { BS_RETURN_DOUBLE(normal_quantile(read_probability(fcinfo))); }

BS_FUNCTION(bs_version) { PG_RETURN_TEXT_P(cstring_to_text(BENCHDB_VERSION)); }

/* ---- intervals ---- */

static const char *const ci_keys[3] = {"estimate", "lo", "hi"};

/* The interval in argument 0: estimate, lo, hi into v; an error when it is
 * not one. */
static Jsonb *read_ci(FunctionCallInfo fcinfo, double v[3])
{
    Jsonb *jb = PG_GETARG_JSONB_P(0);
    int ok = JB_ROOT_IS_OBJECT(jb) && !JB_ROOT_IS_SCALAR(jb);
    for (int i = 0; ok && i < 3; i++) {
        JsonbValue *m = getKeyJsonValueFromContainer(&jb->root, ci_keys[i], strlen(ci_keys[i]), NULL);
        ok = m && m->type == jbvNumeric;
        if (ok)
            v[i] = DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(m->val.numeric)));
    }
    if (!ok)
        bs_arg_error(fcinfo, 0, 0, EXPECT_CI);
    return jb;
}

/* x as a jsonb number (shortest round-trip digits), null when not finite. */
static void number_value(JsonbValue *out, double x)
{
    if (!isfinite(x)) {
        out->type = jbvNull;
        return;
    }
    char num[40];
    numfmt_shortest(num, sizeof num, x);
    out->type = jbvNumeric;
    out->val.numeric = DatumGetNumeric(
        DirectFunctionCall3(numeric_in, CStringGetDatum(num), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1)));
}

/* jb with estimate, lo, hi replaced by v[0..2]. */
static Datum write_ci(FunctionCallInfo fcinfo, Jsonb *jb, const double v[3])
{
    struct fn_overflow over = fn_ci_overflow(v);
    if (over.key)
        bs_overflow_error(fcinfo, &over);
    JsonbParseState *st = NULL;
    JsonbIterator *it = JsonbIteratorInit(&jb->root);
    JsonbValue val, *res = NULL;
    JsonbIteratorToken tok;
    int slot = -1;
    while ((tok = JsonbIteratorNext(&it, &val, false)) != WJB_DONE) {
        if (tok == WJB_KEY) {
            slot = -1;
            for (int i = 0; i < 3; i++)
                if (val.val.string.len == (int)strlen(ci_keys[i]) &&
                    memcmp(val.val.string.val, ci_keys[i], val.val.string.len) == 0)
                    slot = i;
            res = pushJsonbValue(&st, tok, &val);
        } else if (tok == WJB_VALUE && slot >= 0) {
            JsonbValue nv;
            number_value(&nv, v[slot]);
            res = pushJsonbValue(&st, tok, &nv);
            slot = -1;
        } else {
            res = pushJsonbValue(&st, tok, tok == WJB_VALUE || tok == WJB_ELEM ? &val : NULL);
        }
    }
    PG_RETURN_JSONB_P(JsonbValueToJsonb(res));
}

BS_FUNCTION(bs_ci_exp)
{
    double v[3];
    Jsonb *jb = read_ci(fcinfo, v);
    double e[3] = {exp(v[0]), exp(v[1]), exp(v[2])};
    return write_ci(fcinfo, jb, e);
}

BS_FUNCTION(bs_ci_recip)
{
    double v[3];
    Jsonb *jb = read_ci(fcinfo, v);
    if (!(v[1] > 0))
        bs_arg_error(fcinfo, 0, 0, EXPECT_CI_POSITIVE);
    double r[3] = {1 / v[0], 1 / v[2], 1 / v[1]};
    return write_ci(fcinfo, jb, r);
}

BS_FUNCTION(bs_ci_excludes)
{
    double v[3];
    read_ci(fcinfo, v);
    double value = PG_GETARG_FLOAT8(1);
    if (isnan(value))
        PG_RETURN_NULL();
    PG_RETURN_INT32(value < v[1] || value > v[2]);
}
