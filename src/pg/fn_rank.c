/* mann_whitney(x, first [, method]), hodges_lehmann(x, first [, level])
 * on PostgreSQL, as src/sqlfn/fn_rank.c on SQLite (median_ci is in
 * fn_values.c, its rows being median's):
 *
 *  1. Rows whose x or first is NULL are ignored, their other arguments
 *     not read; NULL for no rows or when a sample is empty.
 *  2. x must be a finite number, first a boolean or a number (nonzero:
 *     sample 1); method one of 'r', 'exact', 'benchstat', level strictly
 *     between 0 and 1, each the same on every row.
 *  3. The rows are kept (struct bs_keep) and sorted when a result is asked
 *     for: the same result for any order, plan or window frame.
 *  Example: SELECT mann_whitney(x, g, 'benchstat')
 *           FROM (VALUES (1, 1), (2, 1), (3, 1), (4, 0), (5, 0), (6, 0)) AS v(x, g);
 *           -- {"p": 0.1, "u": 0, "n1": 3, "n2": 3, "exact": true}
 */
#include "pg/pg.h"

#include <string.h>

#include "utils/builtins.h"

/* x and first: ARG_OK with *o, or ARG_NULL (an ignored row); errors only
 * when report (the transition; the inverse only recognises its row). */
static int two_row(FunctionCallInfo fcinfo, struct mw_obs *o, int report)
{
    double x, f;
    int first;
    if (report) {
        if (bs_finite(fcinfo, 1, 0, EXPECT_FINITE, &x) != ARG_OK || (first = bs_flag(fcinfo, 2, 1)) == ARG_NULL)
            return ARG_NULL;
    } else {
        if (bs_number(fcinfo, 1, &x) != ARG_OK || bs_number(fcinfo, 2, &f) != ARG_OK)
            return ARG_NULL;
        first = f != 0;
    }
    fn_mw_obs(o, x, first);
    return ARG_OK;
}

BS_FUNCTION(bs_rank_step)
{
    struct bs_keep *s = bs_keep_state(fcinfo, sizeof(struct mw_obs), 2);
    struct mw_obs o;
    if (two_row(fcinfo, &o, 1) == ARG_OK) {
        if (PG_NARGS() > 3 && strcmp(bs_def(fcinfo)->name, "mann_whitney") == 0) {
            char *name = PG_ARGISNULL(3) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(3));
            int m = fn_mw_method(name);
            if (m < 0)
                bs_arg_error(fcinfo, 3, 2, EXPECT_METHOD);
            if (s->have[0] && s->param[0] != m)
                bs_arg_error(fcinfo, 3, 2, EXPECT_SAME);
            s->have[0] = 1;
            s->param[0] = m;
        } else if (PG_NARGS() > 3) {
            double level;
            if (bs_number(fcinfo, 3, &level) != ARG_OK || fn_param_check(FN_LEVEL, level))
                bs_arg_error(fcinfo, 3, 2, EXPECT_LEVEL);
            bs_same(fcinfo, 2, level, &s->have[0], &s->param[0]);
        }
        bs_keep_push(s, &o);
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_rank_inverse)
{
    struct bs_keep *s = BS_STATE(struct bs_keep, 0);
    struct mw_obs o;
    if (!s)
        PG_RETURN_NULL();
    if (two_row(fcinfo, &o, 0) == ARG_OK)
        fn_fifo_remove(&s->f, &o);
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_mw_final)
{
    struct bs_keep *s = (struct bs_keep *)PG_GETARG_POINTER(0);
    if (s->f.len == 0)
        PG_RETURN_NULL();
    enum mw_method method = s->have[0] ? (enum mw_method)s->param[0] : MW_R;
    struct mw_result r;
    int rc = stats_mann_whitney_method(bs_keep_items(fcinfo, s), s->f.len, method, &r);
    if (rc == -3)
        ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                        errmsg("%s(): samples of %lld and %lld values are too large for method 'exact' "
                               "(two samples of 188 at most); use 'r' or 'benchstat'",
                               bs_def(fcinfo)->name, (long long)r.n1, (long long)r.n2)));
    if (rc == -2)
        ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
    if (rc)
        PG_RETURN_NULL();
    struct fn_json j;
    fn_json_mann_whitney(&j, &r);
    return bs_json_result(fcinfo, &j);
}

BS_FUNCTION(bs_hl_final)
{
    struct bs_keep *s = (struct bs_keep *)PG_GETARG_POINTER(0);
    if (s->f.len == 0)
        PG_RETURN_NULL();
    struct hl_result r;
    int rc = stats_hodges_lehmann(bs_keep_items(fcinfo, s), s->f.len, s->have[0] ? s->param[0] : 0.95, &r);
    if (rc == -2)
        ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
    if (rc)
        PG_RETURN_NULL();
    struct fn_json j;
    fn_json_hodges_lehmann(&j, &r);
    return bs_json_result(fcinfo, &j);
}
