/* The read-only guard: an authorizer that refuses anything that could change
 * the store or reach outside it, for analysis that only meant to read
 * (benchdb sql without --write, saved queries). It backs up the read-only
 * open and PRAGMA query_only, which alone do not stop ATTACH of another
 * file or a state-changing PRAGMA. */
#include <string.h>

#include "store/store.h"

/* PRAGMAs that only inspect, allowed with an argument (table_info(t)). */
static const char *const inspect_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    "foreign_key_check", "integrity_check", "quick_check", "function_list", "pragma_list", "module_list",
    "collation_list", "database_list", "compile_options", NULL,
};

static int in_list(const char *const *list, const char *s)
{
    for (; s && *list; list++)
        if (strcmp(*list, s) == 0)
            return 1;
    return 0;
}

static int authorize(void *arg, int action, const char *a1, const char *a2, const char *db, const char *trigger)
{
    (void)arg;
    (void)db;
    (void)trigger;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        /* a2 is the function's name. */
        return a2 && (strcmp(a2, "load_extension") == 0 || strcmp(a2, "writefile") == 0 ||
                      strcmp(a2, "edit") == 0 || strcmp(a2, "readfile") == 0)
                   ? SQLITE_DENY
                   : SQLITE_OK;
    case SQLITE_UPDATE:
        /* Declaring a virtual table's columns (json_each, pragma functions)
         * makes SQLite check an update of sqlite_master; a real one is
         * impossible here (read-only open, query_only, DEFENSIVE). */
        return a1 && (strcmp(a1, "sqlite_master") == 0 || strcmp(a1, "sqlite_temp_master") == 0) ? SQLITE_OK
                                                                                                  : SQLITE_DENY;
    case SQLITE_PRAGMA:
        /* a1 is the pragma, a2 its argument or value (NULL for a query). */
        if (in_list(inspect_pragmas, a1))
            return SQLITE_OK;
        return a2 == NULL && a1 && strcmp(a1, "query_only") != 0 ? SQLITE_OK : SQLITE_DENY;
    default:
        /* INSERT, UPDATE, DELETE, CREATE/DROP/ALTER anything, ATTACH, DETACH,
         * REINDEX, ANALYZE, virtual tables: refused. */
        return SQLITE_DENY;
    }
}

void store_guard_readonly(sqlite3 *db, int on)
{
    sqlite3_set_authorizer(db, on ? authorize : NULL, NULL);
}
