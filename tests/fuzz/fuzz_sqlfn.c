/* libFuzzer target: the argument handling of every benchdb SQL function.
 * The input chooses a function and a table of argument rows (NULL,
 * integers, reals including NaN and infinities, text, blobs), which is
 * then run through the function as a scalar or an aggregate, and as a
 * window function over a sliding frame (so that inverse steps run too).
 * Errors are expected answers; a crash, a leak or undefined behaviour is
 * a finding.
 *
 * Input layout: byte 0 picks the function, byte 1 the window frame width;
 * then values, each a tag byte (low 3 bits: type; the rest: a length for
 * text and blobs) followed by its bytes. Values fill rows of the
 * function's argument count, at most 64 rows. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfn/benchstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
    const char *name;
    int nargs, aggregate;
} fns[] = {
    {"benchdb_version", 0, 0}, {"geomean", 1, 1},     {"variance", 1, 1},      {"stddev", 1, 1},
    {"t_ci", 1, 1},            {"t_ci", 2, 1},        {"band_share", 3, 1},    {"pooled_t_ci", 2, 1},
    {"pooled_t_ci", 3, 1},     {"welch_t_ci", 2, 1},  {"welch_t_ci", 3, 1},    {"median", 1, 1},
    {"percentile", 2, 1},      {"trimmed_mean", 2, 1}, {"spread", 1, 1},       {"mann_whitney", 2, 1},
    {"t_quantile", 2, 0},      {"t_cdf", 2, 0},       {"ci_exp", 1, 0},        {"ci_recip", 1, 0},
    {"ci_excludes", 2, 0},     {"mann_whitney", 3, 1}, {"hodges_lehmann", 2, 1}, {"hodges_lehmann", 3, 1},
    {"median_ci", 1, 1},       {"median_ci", 2, 1},   {"string_agg", 2, 1},    {"least", 3, 0},
    {"greatest", 2, 0},
};
#define NFNS (sizeof fns / sizeof fns[0])

static sqlite3 *db;

static void run(const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        abort(); /* the statements below are all valid */
    while (sqlite3_step(st) == SQLITE_ROW)
        for (int i = 0; i < sqlite3_column_count(st); i++)
            (void)sqlite3_column_text(st, i); /* materialise every result */
    sqlite3_finalize(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!db) {
        if (sqlite3_open(":memory:", &db) != SQLITE_OK || benchstats_register(db) != SQLITE_OK ||
            sqlite3_exec(db, "CREATE TABLE t(a, b, c)", NULL, NULL, NULL) != SQLITE_OK)
            abort();
    }
    if (size < 2)
        return 0;
    unsigned f = data[0] % NFNS;
    int width = data[1] % 8;
    size_t pos = 2;
    int nargs = fns[f].nargs;

    sqlite3_exec(db, "DELETE FROM t", NULL, NULL, NULL);
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?, ?, ?)", -1, &ins, NULL) != SQLITE_OK)
        abort();
    for (int row = 0; row < 64 && pos < size; row++) {
        for (int a = 1; a <= 3 && pos < size; a++) {
            if (a > nargs && nargs > 0)
                break;
            uint8_t tag = data[pos++];
            size_t len = tag >> 3;
            if (len > size - pos)
                len = size - pos;
            switch (tag & 7) {
            case 0:
                sqlite3_bind_null(ins, a);
                break;
            case 1: { /* small integer */
                sqlite3_bind_int64(ins, a, (int8_t)(tag >> 3) - 8);
                break;
            }
            case 2: { /* any 64-bit integer */
                int64_t v = 0;
                size_t n = size - pos < 8 ? size - pos : 8;
                memcpy(&v, data + pos, n);
                pos += n;
                sqlite3_bind_int64(ins, a, v);
                break;
            }
            case 3: { /* any double: NaN, infinities, subnormals */
                double v = 0;
                size_t n = size - pos < 8 ? size - pos : 8;
                memcpy(&v, data + pos, n);
                pos += n;
                sqlite3_bind_double(ins, a, v);
                break;
            }
            case 4: /* a "nice" double */
                sqlite3_bind_double(ins, a, ((int)(tag >> 3) - 4) * 0.25);
                break;
            case 5:
                sqlite3_bind_text(ins, a, (const char *)data + pos, (int)len, SQLITE_TRANSIENT);
                pos += len;
                break;
            case 6:
                sqlite3_bind_blob(ins, a, data + pos, (int)len, SQLITE_TRANSIENT);
                pos += len;
                break;
            default:
                sqlite3_bind_double(ins, a, (tag >> 3) / 32.0);
                break;
            }
        }
        sqlite3_step(ins);
        sqlite3_reset(ins);
        sqlite3_clear_bindings(ins);
    }
    sqlite3_finalize(ins);

    static const char *const argl[] = {"", "a", "a, b", "a, b, c"};
    char sql[256];
    const char *name = fns[f].name;
    if (!fns[f].aggregate) {
        snprintf(sql, sizeof sql, "SELECT %s(%s) FROM t", name, argl[nargs]);
        run(sql);
        return 0;
    }
    snprintf(sql, sizeof sql, "SELECT %s(%s) FROM t", name, argl[nargs]);
    run(sql);
    snprintf(sql, sizeof sql,
             "SELECT %s(%s) OVER (ORDER BY rowid ROWS BETWEEN %d PRECEDING AND CURRENT ROW) FROM t", name,
             argl[nargs], width);
    run(sql);
    snprintf(sql, sizeof sql,
             "SELECT %s(%s) OVER (ORDER BY rowid ROWS BETWEEN 1 PRECEDING AND %d FOLLOWING "
             "EXCLUDE CURRENT ROW) FROM t",
             name, argl[nargs], width);
    run(sql);
    return 0;
}
