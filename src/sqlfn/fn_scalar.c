/* t_quantile(p, df), t_cdf(t, df), ci_exp(ci), ci_recip(ci),
 * ci_excludes(ci, value)
 *
 *  1. A NULL argument gives NULL.
 *  2. p must be a number in [0, 1] (0 and 1 give -Inf and +Inf); t any
 *     number (infinities included); df a positive finite number.
 *  3. ci must be JSON object text with numeric estimate, lo and hi, as
 *     pooled_t_ci(), welch_t_ci() and t_ci() return; ci_recip() also needs
 *     lo > 0. ci_exp() and ci_recip() return the object with estimate, lo
 *     and hi replaced and every other member as it was, subtype 'J'.
 *  Example: SELECT t_quantile(0.975, 8); -- 2.3060041352041662
 */
#include <jansson.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "sqlfn/sqlfn.h"
#include "stats/stats.h"

static int any_null(int argc, sqlite3_value **argv)
{
    for (int i = 0; i < argc; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL)
            return 1;
    return 0;
}

static int read_df(sqlite3_context *ctx, sqlite3_value **argv, double *df)
{
    if (sqlfn_number(argv[1], df) != ARG_OK || !(*df > 0) || isinf(*df)) {
        sqlfn_arg_error(ctx, 1, EXPECT_DF, argv[1]);
        return -1;
    }
    return 0;
}

void sqlfn_t_quantile(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    double p, df;
    if (any_null(argc, argv))
        return;
    if (sqlfn_number(argv[0], &p) != ARG_OK || !(p >= 0 && p <= 1)) {
        sqlfn_arg_error(ctx, 0, EXPECT_PROBABILITY, argv[0]);
        return;
    }
    if (read_df(ctx, argv, &df))
        return;
    sqlite3_result_double(ctx, t_quantile(p, df));
}

void sqlfn_t_cdf(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    double t, df;
    if (any_null(argc, argv))
        return;
    if (sqlfn_number(argv[0], &t) != ARG_OK) {
        sqlfn_arg_error(ctx, 0, EXPECT_NUMBER, argv[0]);
        return;
    }
    if (read_df(ctx, argv, &df))
        return;
    sqlite3_result_double(ctx, t_cdf(t, df));
}

/* The interval object in argv[0] and its estimate, lo, hi; NULL with the
 * error set when it is not one. */
static json_t *read_ci(sqlite3_context *ctx, sqlite3_value **argv, double v[3])
{
    static const char *const keys[3] = {"estimate", "lo", "hi"};
    json_t *root = NULL;
    if (sqlite3_value_type(argv[0]) == SQLITE_TEXT) {
        const char *text = (const char *)sqlite3_value_text(argv[0]);
        json_error_t err;
        if (!text) {
            sqlite3_result_error_nomem(ctx);
            return NULL;
        }
        root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
        /* jansson leaves the error text empty when its lexer's first
         * allocation fails and says "out of memory" for most others. */
        if (!root && (err.text[0] == '\0' || json_error_code(&err) == json_error_out_of_memory)) {
            sqlite3_result_error_nomem(ctx);
            return NULL;
        }
    }
    int ok = json_is_object(root);
    for (int i = 0; ok && i < 3; i++) {
        json_t *m = json_object_get(root, keys[i]);
        ok = json_is_number(m);
        if (ok)
            v[i] = json_number_value(m);
    }
    if (!ok) {
        json_decref(root);
        sqlfn_arg_error(ctx, 0, EXPECT_CI, argv[0]);
        return NULL;
    }
    return root;
}

/* Writes root with estimate, lo, hi replaced by v[0..2] as the result. */
static void write_ci(sqlite3_context *ctx, json_t *root, const double v[3])
{
    struct fn_overflow over = fn_ci_overflow(v);
    if (over.key) {
        sqlfn_overflow_error(ctx, &over);
        return;
    }
    sqlite3_str *out = sqlite3_str_new(NULL);
    const char *key;
    json_t *val;
    int first = 1;
    sqlite3_str_appendchar(out, 1, '{');
    json_object_foreach(root, key, val) {
        json_t *k = json_string(key);
        char *ktext = k ? json_dumps(k, JSON_ENCODE_ANY) : NULL;
        json_decref(k);
        if (!ktext) {
            sqlite3_free(sqlite3_str_finish(out));
            sqlite3_result_error_nomem(ctx);
            return;
        }
        sqlite3_str_appendf(out, "%s%s:", first ? "" : ",", ktext);
        free(ktext);
        first = 0;
        int slot = strcmp(key, "estimate") == 0 ? 0 : strcmp(key, "lo") == 0 ? 1 : strcmp(key, "hi") == 0 ? 2 : -1;
        if (slot >= 0 || json_is_real(val)) {
            double x = slot >= 0 ? v[slot] : json_real_value(val);
            char num[40];
            if (isfinite(x))
                numfmt_shortest(num, sizeof num, x);
            else
                strcpy(num, "null");
            sqlite3_str_appendall(out, num);
        } else {
            char *text = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
            if (!text) {
                sqlite3_free(sqlite3_str_finish(out));
                sqlite3_result_error_nomem(ctx);
                return;
            }
            sqlite3_str_appendall(out, text);
            free(text);
        }
    }
    sqlite3_str_appendchar(out, 1, '}');
    int len = sqlite3_str_length(out);
    char *text = sqlite3_str_finish(out);
    if (!text) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, text, len, sqlite3_free);
    sqlite3_result_subtype(ctx, 'J');
}

void sqlfn_ci_exp(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    double v[3];
    if (any_null(argc, argv))
        return;
    json_t *root = read_ci(ctx, argv, v);
    if (!root)
        return;
    double e[3] = {exp(v[0]), exp(v[1]), exp(v[2])};
    write_ci(ctx, root, e);
    json_decref(root);
}

void sqlfn_ci_recip(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    double v[3];
    if (any_null(argc, argv))
        return;
    json_t *root = read_ci(ctx, argv, v);
    if (!root)
        return;
    if (!(v[1] > 0)) {
        json_decref(root);
        sqlfn_arg_error(ctx, 0, EXPECT_CI_POSITIVE, argv[0]);
        return;
    }
    double r[3] = {1 / v[0], 1 / v[2], 1 / v[1]};
    write_ci(ctx, root, r);
    json_decref(root);
}

void sqlfn_ci_excludes(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    double v[3], value;
    if (any_null(argc, argv))
        return;
    json_t *root = read_ci(ctx, argv, v);
    if (!root)
        return;
    json_decref(root);
    if (sqlfn_number(argv[1], &value) != ARG_OK) {
        sqlfn_arg_error(ctx, 1, EXPECT_NUMBER, argv[1]);
        return;
    }
    sqlite3_result_int(ctx, value < v[1] || value > v[2]);
}
