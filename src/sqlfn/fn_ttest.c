/* pooled_t_ci(x, first [, level [, members]]),
 * welch_t_ci(x, first [, level [, members]])
 *
 *  1. Rows whose x or first is NULL are ignored. first is a boolean: rows
 *     where it is true (nonzero) form sample 1, the others sample 2.
 *  2. NULL when a sample is empty or df < 1 (pooled), or when a sample has
 *     fewer than 2 values (Welch); NULL for no rows.
 *  3. x must be a finite number, first a number, level strictly between 0
 *     and 1 (default 0.95) and the same on every row; members, text, the
 *     same on every row too.
 *  4. A JSON object: estimate (mean1 - mean2), lo, hi, se, df, t, p
 *     (two-sided), n1, n2, mean1, mean2, level. With a zero standard error,
 *     lo = hi = estimate and t, p are null (Welch: df too). Given members,
 *     a comma-separated list of some of these names ('estimate,lo,hi'),
 *     only those, in the order above, with the same values (p is computed
 *     only when asked for: it is most of an interval's cost).
 *  5. Window functions: xInverse removes a row. The state holds exact sums
 *     per sample, so results depend on the multiset of rows only (any
 *     order, any frame: the same bits).
 *  Example: WITH v(x, g) AS (VALUES (1, 1), (2, 1), (4, 0), (5, 0))
 *           SELECT pooled_t_ci(x, g) FROM v;
 *           -- {"estimate":-3,"lo":-6.042434922296654,"hi":0.042434922296654146,...}
 */
#include <string.h>

#include "sqlfn/sqlfn.h"
#include "stats/stats.h"

struct two_state {
    struct two_sample s;
    int have_level;
    double level;
    unsigned mask;      /* 0 until members is read: then never 0 */
    char list[FN_CI_LIST_MAX]; /* members as given (a valid list is shorter) */
};

/* Rows that are not (REAL or INTEGER, INTEGER [, the level as before]):
 * the general reading, with its errors. Not inlined, so that the common
 * path below stays a leaf-like function without its register saves. */
__attribute__((noinline)) static void two_step_slow(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    double x;
    if (sqlfn_finite(ctx, argv, 0, EXPECT_FINITE, &x) != ARG_OK)
        return;
    int first = sqlfn_flag(ctx, argv, 1);
    if (first < 0 || first == ARG_NULL)
        return;
    struct two_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (argc > 2) {
        double level;
        int rc = sqlfn_number(argv[2], &level);
        if (rc != ARG_OK || fn_param_check(FN_LEVEL, level)) {
            sqlfn_arg_error(ctx, 2, EXPECT_LEVEL, argv[2]);
            return;
        }
        if (sqlfn_same(ctx, argv, 2, level, &s->have_level, &s->level))
            return;
    }
    if (argc > 3) {
        const char *list = sqlite3_value_type(argv[3]) == SQLITE_TEXT ? (const char *)sqlite3_value_text(argv[3]) : NULL;
        unsigned mask = fn_ci_members(list);
        if (!mask || !list) { /* no list gives no mask; said twice for gcc -fanalyzer */
            sqlfn_arg_error(ctx, 3, EXPECT_MEMBERS, argv[3]);
            return;
        }
        if (!s->mask) {
            s->mask = mask;
            strcpy(s->list, list);
        } else if (strcmp(s->list, list) != 0) {
            sqlfn_arg_error(ctx, 3, EXPECT_SAME, argv[3]);
            return;
        }
    }
    two_sample_add(&s->s, x, first);
}

/* Once per row: the common case (a finite REAL x, an INTEGER flag, the
 * level and members already seen) reads each value once and adds;
 * anything else goes the general way. */
void sqlfn_two_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int tx = sqlite3_value_type(argv[0]);
    if ((tx == SQLITE_FLOAT || tx == SQLITE_INTEGER) && sqlite3_value_type(argv[1]) == SQLITE_INTEGER) {
        double x = tx == SQLITE_FLOAT ? sqlite3_value_double(argv[0]) : (double)sqlite3_value_int64(argv[0]);
        struct two_state *s = sqlite3_aggregate_context(ctx, sizeof *s);
        const char *list = argc > 3 && s && s->mask && sqlite3_value_type(argv[3]) == SQLITE_TEXT
                               ? (const char *)sqlite3_value_text(argv[3])
                               : NULL;
        if (s && isfinite(x) &&
            (argc == 2 || (s->have_level && sqlite3_value_type(argv[2]) == SQLITE_FLOAT &&
                           sqlite3_value_double(argv[2]) == s->level)) &&
            (argc <= 3 || (list && strcmp(list, s->list) == 0))) {
            two_sample_add(&s->s, x, sqlite3_value_int64(argv[1]) != 0);
            return;
        }
    }
    two_step_slow(ctx, argc, argv);
}

void sqlfn_two_inverse(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    struct two_state *s = sqlite3_aggregate_context(ctx, 0);
    double x, f;
    if (s && sqlfn_number(argv[0], &x) == ARG_OK && sqlfn_number(argv[1], &f) == ARG_OK)
        two_sample_remove(&s->s, x, f != 0);
}

static void two_compute(sqlite3_context *ctx)
{
    struct two_state *s = sqlite3_aggregate_context(ctx, 0);
    struct t_interval t;
    if (!s) {
        sqlite3_result_null(ctx);
        return;
    }
    double level = s->have_level ? s->level : 0.95;
    unsigned mask = s->mask ? s->mask : FN_CI_ALL;
    int with_p = (mask & FN_CI_P) != 0;
    int rc = sqlfn_kind(ctx) == KIND_POOLED ? t_interval_pooled_p(&s->s, level, with_p, &t)
                                            : t_interval_welch_p(&s->s, level, with_p, &t);
    if (rc) {
        sqlite3_result_null(ctx);
        return;
    }
    struct fn_json j;
    fn_json_two_sample(&j, &t, mask);
    sqlfn_json_result(ctx, &j);
}

void sqlfn_two_final(sqlite3_context *ctx) { two_compute(ctx); }
void sqlfn_two_value(sqlite3_context *ctx) { two_compute(ctx); }
