/* Registration table and the loadable-extension entry point. The same file
 * is compiled into the benchdb program (SQLITE_CORE defined) and into the
 * benchstats extension, loaded with: .load build/benchstats
 *
 * Every function of docs/functions.md is one row of the table below; every
 * aggregate is also a window function. Pure functions are deterministic and
 * innocuous; benchdb_version() is constant for a given build, so it is too. */
#include <gsl/gsl_errno.h>
#include <stddef.h>
#include <string.h>

#include "sqlfn/benchstats.h"

#ifndef SQLITE_CORE
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#endif

#include "sqlfn/fn_summary.h"
#include "sqlfn/sqlfn.h"
#include "version.h"

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, BENCHDB_VERSION, -1, SQLITE_STATIC);
}

/* A scalar; an aggregate whose callbacks are sqlfn_PRE_step, _inverse,
 * _final and _value (every aggregate is a window function); either of them
 * registered only where the library lacks it (PORTABLE_...: the functions
 * PostgreSQL has and SQLite 3.40 does not, fn_portable.c), which the probe
 * tells by failing with "no such function". */
#define SCALAR(name, n, fn) {name, n, fn, NULL, NULL, NULL, NULL, 0, NULL}
#define WINDOW(name, n, pre, kind) \
    {name, n, NULL, sqlfn_##pre##_step, sqlfn_##pre##_inverse, sqlfn_##pre##_final, sqlfn_##pre##_value, kind, NULL}
#define PORTABLE_SCALAR(name, n, fn, kind, probe) {name, n, fn, NULL, NULL, NULL, NULL, kind, probe}
#define PORTABLE_WINDOW(name, n, pre, probe) \
    {name, n, NULL, sqlfn_##pre##_step, sqlfn_##pre##_inverse, sqlfn_##pre##_final, sqlfn_##pre##_value, 0, probe}

static const struct sqlfn_def functions[] = {
    SCALAR("benchdb_version", 0, fn_version),
    WINDOW("geomean", 1, geomean, 0),
    WINDOW("mean", 1, summary, KIND_SUMMARY_MEAN),
    WINDOW("fsum", 1, summary, KIND_SUMMARY_SUM),
    WINDOW("variance", 1, moments, KIND_VARIANCE),
    WINDOW("stddev", 1, moments, KIND_STDDEV),
    WINDOW("t_ci", 1, moments, KIND_T_CI),
    WINDOW("t_ci", 2, moments, KIND_T_CI),
    WINDOW("band_share", 3, band, 0),
    WINDOW("pooled_t_ci", 2, two, KIND_POOLED),
    WINDOW("pooled_t_ci", 3, two, KIND_POOLED),
    WINDOW("pooled_t_ci", 4, two, KIND_POOLED),
    WINDOW("welch_t_ci", 2, two, KIND_WELCH),
    WINDOW("welch_t_ci", 3, two, KIND_WELCH),
    WINDOW("welch_t_ci", 4, two, KIND_WELCH),
    WINDOW("median", 1, values, KIND_MEDIAN),
    WINDOW("percentile", 2, values, KIND_PERCENTILE),
    WINDOW("trimmed_mean", 2, values, KIND_TRIMMED),
    WINDOW("spread", 1, values, KIND_SPREAD),
    WINDOW("mann_whitney", 2, mw, 0),
    WINDOW("mann_whitney", 3, mw, 0),
    WINDOW("hodges_lehmann", 2, hl, 0),
    WINDOW("hodges_lehmann", 3, hl, 0),
    WINDOW("median_ci", 1, mci, KIND_MEDIAN_CI),
    WINDOW("median_ci", 2, mci, KIND_MEDIAN_CI),
    SCALAR("t_quantile", 2, sqlfn_t_quantile),
    SCALAR("t_cdf", 2, sqlfn_t_cdf),
    SCALAR("normal_quantile", 1, sqlfn_normal_quantile),
    SCALAR("ci_exp", 1, sqlfn_ci_exp),
    SCALAR("ci_recip", 1, sqlfn_ci_recip),
    SCALAR("ci_excludes", 2, sqlfn_ci_excludes),
    WINDOW("change_points", 2, cp, 0),
    WINDOW("change_points", 3, cp, 0),
    WINDOW("change_points", 4, cp, 0),
    WINDOW("change_points", 5, cp, 0),
    PORTABLE_WINDOW("string_agg", 2, string_agg, "SELECT string_agg('a', ',')"),
    PORTABLE_SCALAR("least", -1, sqlfn_least_greatest, KIND_LEAST, "SELECT least(1, 2)"),
    PORTABLE_SCALAR("greatest", -1, sqlfn_least_greatest, KIND_GREATEST, "SELECT greatest(1, 2)"),
    WINDOW("lookback_baseline", 2, lookback, 0),
    WINDOW("moments", 1, summary, 0),
    SCALAR("pooled_t_ci_of", 2, sqlfn_pooled_t_ci_of),
    SCALAR("pooled_t_ci_of", 3, sqlfn_pooled_t_ci_of),
    SCALAR("pooled_t_ci_of", 4, sqlfn_pooled_t_ci_of),
    SCALAR("t_ci_of", 1, sqlfn_t_ci_of),
    SCALAR("t_ci_of", 2, sqlfn_t_ci_of),
};

/* Whether db already has the function that probe calls: SQLITE_OK when it
 * does not (register ours), SQLITE_DONE when it does or when the probe
 * fails otherwise (leave whatever is there alone), SQLITE_NOMEM. */
static int missing(sqlite3 *db, const char *probe)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, probe, -1, &st, NULL);
    sqlite3_finalize(st);
    if (rc == SQLITE_OK)
        return SQLITE_DONE;
    if ((rc & 0xff) == SQLITE_NOMEM)
        return SQLITE_NOMEM;
    return strncmp(sqlite3_errmsg(db), "no such function", 16) == 0 ? SQLITE_OK : SQLITE_DONE;
}

int benchstats_register(sqlite3 *db)
{
    static const int pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    /* GSL's default error handler aborts the process; its functions return
     * NaN or infinities instead, which the callers handle. */
    gsl_set_error_handler_off();
    int rc = SQLITE_OK;
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof functions / sizeof functions[0]; i++) {
        const struct sqlfn_def *f = &functions[i];
        if (f->probe && (rc = missing(db, f->probe)) != SQLITE_OK) {
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            continue;
        }
        /* The JSON results carry subtype 'J'; newer SQLite wants to be told. */
        int flags = pure;
#ifdef SQLITE_RESULT_SUBTYPE
        flags |= SQLITE_RESULT_SUBTYPE;
#endif
        if (f->func)
            rc = sqlite3_create_function(db, f->name, f->nargs, flags, (void *)f, f->func, NULL, NULL);
        else
            rc = sqlite3_create_window_function(db, f->name, f->nargs, flags, (void *)f, f->step, f->final,
                                                f->value, f->inverse, NULL);
    }
    return rc;
}

#ifndef SQLITE_CORE
/* The only exported symbol: the module is built with hidden visibility so
 * that its internals cannot clash with the host's. */
#ifdef _WIN32
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
int sqlite3_benchstats_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi)
{
    SQLITE_EXTENSION_INIT2(pApi);
    (void)pzErrMsg;
    return benchstats_register(db);
}
#endif
