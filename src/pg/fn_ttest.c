/* pooled_t_ci(x, first [, level [, members]]),
 * welch_t_ci(x, first [, level [, members]]) on PostgreSQL, as
 * src/sqlfn/fn_ttest.c on SQLite:
 *
 *  1. Rows whose x or first is NULL are ignored. first is a boolean, or a
 *     number (nonzero is true: sample 1), as SQLite reads it.
 *  2. NULL when the interval does not exist (too few values); otherwise
 *     jsonb with the members of fnshared's fn_json_two_sample.
 *  3. level strictly between 0 and 1 (default 0.95), members a
 *     comma-separated list of member names: each the same on every row.
 *  4. Exact sums per sample: plain states, serialized as bytes and merged
 *     exactly (parallel plans), rows removed exactly (window frames).
 *  Example: SELECT pooled_t_ci(x, g) FROM (VALUES (1, 1), (2, 1), (4, 0), (5, 0)) AS v(x, g);
 *           -- {"estimate": -3, "lo": -6.042434922296654, ...} (jsonb orders keys its own way)
 */
#include "pg/pg.h"

#include <math.h>
#include <string.h>

#include "utils/builtins.h"

struct two_state {
    struct two_sample s;
    int have_level;
    double level;
    unsigned mask;             /* 0 until members is read: then never 0 */
    char list[FN_CI_LIST_MAX]; /* members as given (a valid list is shorter) */
};

/* members (argument i): checked, the same on every row. */
static void read_members(FunctionCallInfo fcinfo, int i, struct two_state *s)
{
    char *list = PG_ARGISNULL(i) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(i));
    unsigned mask = fn_ci_members(list);
    if (!mask)
        bs_arg_error(fcinfo, i, i - 1, EXPECT_MEMBERS);
    if (!s->mask) {
        s->mask = mask;
        strlcpy(s->list, list, sizeof s->list);
    } else if (strcmp(s->list, list) != 0) {
        bs_arg_error(fcinfo, i, i - 1, EXPECT_SAME);
    }
    pfree(list);
}

BS_FUNCTION(bs_two_step)
{
    struct two_state *s = bs_plain_state(fcinfo, sizeof *s);
    double x;
    int first;
    if (bs_finite(fcinfo, 1, 0, EXPECT_FINITE, &x) == ARG_OK && (first = bs_flag(fcinfo, 2, 1)) != ARG_NULL) {
        if (PG_NARGS() > 3) {
            double level;
            if (bs_number(fcinfo, 3, &level) != ARG_OK || fn_param_check(FN_LEVEL, level))
                bs_arg_error(fcinfo, 3, 2, EXPECT_LEVEL);
            bs_same(fcinfo, 2, level, &s->have_level, &s->level);
        }
        if (PG_NARGS() > 4)
            read_members(fcinfo, 4, s);
        two_sample_add(&s->s, x, first);
    }
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_two_inverse)
{
    struct two_state *s = BS_STATE(struct two_state, 0);
    double x, f;
    if (!s)
        PG_RETURN_NULL();
    if (bs_number(fcinfo, 1, &x) == ARG_OK && bs_number(fcinfo, 2, &f) == ARG_OK)
        two_sample_remove(&s->s, x, f != 0);
    PG_RETURN_POINTER(s);
}

BS_FUNCTION(bs_two_final)
{
    struct two_state *s = (struct two_state *)PG_GETARG_POINTER(0);
    double level = s->have_level ? s->level : 0.95;
    unsigned mask = s->mask ? s->mask : FN_CI_ALL;
    int with_p = (mask & FN_CI_P) != 0;
    struct t_interval t;
    int rc = bs_def(fcinfo)->kind == BS_POOLED ? t_interval_pooled_p(&s->s, level, with_p, &t)
                                               : t_interval_welch_p(&s->s, level, with_p, &t);
    if (rc)
        PG_RETURN_NULL();
    struct fn_json j;
    fn_json_two_sample(&j, &t, mask);
    return bs_json_result(fcinfo, &j);
}

BS_FUNCTION(bs_two_combine)
{
    BS_COMBINE_PLAIN(struct two_state, a, b);
    bs_same_merge(fcinfo, 2, &a->have_level, &a->level, b->have_level, b->level);
    if (b->mask && !a->mask) {
        a->mask = b->mask;
        memcpy(a->list, b->list, sizeof a->list);
    } else if (b->mask && strcmp(a->list, b->list) != 0) {
        char got[FN_CI_LIST_MAX + 8];
        fn_describe_text(got, sizeof got, b->list);
        bs_error(fcinfo, 3, EXPECT_SAME, got);
    }
    moments_merge(&a->s.a, &b->s.a);
    moments_merge(&a->s.b, &b->s.b);
    PG_RETURN_POINTER(a);
}

BS_PLAIN_SERIAL(bs_two, struct two_state)
