/* Registration and the loadable-extension entry point. The same file is
 * compiled into the benchdb program (SQLITE_CORE defined) and into the
 * benchstats extension, loaded with: .load build/benchstats
 *
 * Every function of docs/functions.md is a row of the registration table,
 * catalogue.c, made from the one catalogue src/fnshared/functions.json;
 * every aggregate is also a window function. Deterministic functions are
 * innocuous too; benchdb_version() is constant for a given build, so it is
 * deterministic. A function SQLite may have itself (a probe: the functions
 * PostgreSQL has and SQLite 3.40 does not, fn_portable.c) is registered
 * only where the library lacks it, which the probe tells by failing with
 * "no such function". */
#include <gsl/gsl_errno.h>
#include <stddef.h>
#include <string.h>

#include "sqlfn/benchstats.h"

#ifndef SQLITE_CORE
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#endif

#include "sqlfn/sqlfn.h"
#include "version.h"

void sqlfn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, BENCHDB_VERSION, -1, SQLITE_STATIC);
}

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
    /* GSL's default error handler aborts the process; its functions return
     * NaN or infinities instead, which the callers handle. */
    gsl_set_error_handler_off();
    int rc = SQLITE_OK;
    for (size_t i = 0; rc == SQLITE_OK && i < sqlfn_catalogue_count; i++) {
        const struct sqlfn_def *f = &sqlfn_catalogue[i];
        if (f->probe && (rc = missing(db, f->probe)) != SQLITE_OK) {
            rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
            continue;
        }
        /* The JSON results carry subtype 'J'; newer SQLite wants to be told. */
        int flags = SQLITE_UTF8 | (f->deterministic ? SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS : 0);
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
