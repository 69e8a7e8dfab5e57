/* pooled_t_ci_of(a, b [, level [, members]]), t_ci_of(m [, level]) on
 * PostgreSQL, as src/sqlfn/fn_summary.c on SQLite (its numbered rules hold
 * here too; the aggregates moments, mean and fsum are in fn_moments.c):
 *
 *  1. pooled_t_ci_of(a, b, level, members) and t_ci_of(m, level) are
 *     scalars over summaries made by moments() (STRICT: NULL in, NULL out) giving the
 *     jsonb of pooled_t_ci(x, first, level, members) and t_ci(x, level)
 *     over the summarised rows, or NULL where those are NULL. A bytea that
 *     moments() did not make, a level outside (0, 1) or an unknown member
 *     is an error with SQLite's text (a bytea is described as SQLite
 *     describes a blob).
 *  Example: SELECT t_ci_of(moments(x)) = t_ci(x) FROM (VALUES (1.0), (2.0), (4.0)) AS v(x); -- true
 */
#include "pg/pg.h"

#include "utils/builtins.h"

#include "stats/moments_bytes.h"

/* ---- intervals of summaries ---- */

/* Argument i, a bytea, as a state, or the error naming it. */
static void read_summary(FunctionCallInfo fcinfo, int i, struct moments *m)
{
    bytea *b = PG_GETARG_BYTEA_PP(i);
    if (moments_from_bytes((const unsigned char *)VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), m))
        bs_arg_error(fcinfo, i, i, EXPECT_SUMMARY);
}

/* The level at argument i, 0.95 when not given. */
static double read_level(FunctionCallInfo fcinfo, int i)
{
    double level = 0.95;
    if (PG_NARGS() > i && (bs_number(fcinfo, i, &level) != ARG_OK || fn_param_check(FN_LEVEL, level)))
        bs_arg_error(fcinfo, i, i, EXPECT_LEVEL);
    return level;
}

BS_FUNCTION(bs_pooled_t_ci_of)
{
    struct two_sample s;
    read_summary(fcinfo, 0, &s.a);
    read_summary(fcinfo, 1, &s.b);
    double level = read_level(fcinfo, 2);
    unsigned mask = FN_CI_ALL;
    if (PG_NARGS() > 3) {
        char *list = text_to_cstring(PG_GETARG_TEXT_PP(3));
        if (!(mask = fn_ci_members(list)))
            bs_arg_error(fcinfo, 3, 3, EXPECT_MEMBERS);
        pfree(list);
    }
    struct t_interval t;
    if (t_interval_pooled_p(&s, level, (mask & FN_CI_P) != 0, &t))
        PG_RETURN_NULL();
    struct fn_json j;
    fn_json_two_sample(&j, &t, mask);
    return bs_json_result(fcinfo, &j);
}

BS_FUNCTION(bs_t_ci_of)
{
    struct moments m;
    read_summary(fcinfo, 0, &m);
    double level = read_level(fcinfo, 1);
    struct t_interval t;
    if (t_interval_one(&m, level, &t))
        PG_RETURN_NULL();
    struct fn_json j;
    fn_json_t_ci(&j, &t);
    return bs_json_result(fcinfo, &j);
}
