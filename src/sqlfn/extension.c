/* Registration table and the loadable-extension entry point. The same file
 * is compiled into the benchdb program (SQLITE_CORE defined) and into the
 * benchstats extension, loaded with: .load build/benchstats */
#include <stddef.h>

#include "sqlfn/benchstats.h"

#ifndef SQLITE_CORE
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#endif

#include "version.h"

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_text(ctx, BENCHDB_VERSION, -1, SQLITE_STATIC);
}

int benchstats_register(sqlite3 *db)
{
    static const int pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = sqlite3_create_function(db, "benchdb_version", 0, pure, NULL, fn_version, NULL, NULL);
    return rc;
}

#ifndef SQLITE_CORE
#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_benchstats_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi)
{
    SQLITE_EXTENSION_INIT2(pApi);
    (void)pzErrMsg;
    return benchstats_register(db);
}
#endif
