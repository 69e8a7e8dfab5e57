/* The read-only guard: an authorizer that refuses anything that could change
 * the store or reach outside it, for analysis that only meant to read
 * (benchdb sql without --write, saved queries). It backs up the read-only
 * open and PRAGMA query_only, which alone do not stop ATTACH of another
 * file or a state-changing PRAGMA. */
#include <string.h>
#include <time.h>

#include "store/store.h"

/* PRAGMAs that only inspect, allowed with an argument (table_info(t)). */
static const char *const inspect_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    "foreign_key_check", "integrity_check", "quick_check", "function_list", "pragma_list", "module_list",
    "collation_list", "database_list", "compile_options", NULL,
};

/* PRAGMAs that act even without an argument: a checkpoint or a vacuum
 * writes the file, optimize may run ANALYZE, shrink_memory changes the
 * connection. */
static const char *const acting_pragmas[] = {
    "wal_checkpoint", "incremental_vacuum", "optimize", "shrink_memory", NULL,
};

/* Functions refused: file access (the CLI shell's), extension loading, and
 * fts3_tokenizer, whose one-argument form returns a pointer (an address in
 * the process) and whose two-argument form installs one. */
static const char *const refused_functions[] = {
    "load_extension", "writefile", "readfile", "edit", "fts3_tokenizer", NULL,
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
    switch (action) {
    case SQLITE_UPDATE:
        /* Connecting a table-valued function (json_each, json_tree,
         * pragma_table_info...) asks for SQLITE_UPDATE on the columns of
         * the schema table while it declares the table; refusing that
         * refused every table-valued function. A real update of the schema
         * table stays impossible: SQLite refuses it without writable_schema,
         * which the guard does not let anyone set, DEFENSIVE forbids it even
         * then, and the connection is read-only or the statement must be. */
        return trigger == NULL && a1 && (strcmp(a1, "sqlite_master") == 0 || strcmp(a1, "sqlite_temp_master") == 0)
                   ? SQLITE_OK
                   : SQLITE_DENY;
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        /* a2 is the function's name. */
        return in_list(refused_functions, a2) ? SQLITE_DENY : SQLITE_OK;
    case SQLITE_PRAGMA:
        /* a1 is the pragma, a2 its argument or value (NULL for a query). */
        if (in_list(inspect_pragmas, a1))
            return SQLITE_OK;
        if (in_list(acting_pragmas, a1))
            return SQLITE_DENY;
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

static int past_deadline(void *arg)
{
    struct store_deadline *d = arg;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > d->end.tv_sec || (now.tv_sec == d->end.tv_sec && now.tv_nsec >= d->end.tv_nsec))
        d->fired = 1;
    return d->fired;
}

void store_set_timeout(sqlite3 *db, struct store_deadline *d, double seconds)
{
    memset(d, 0, sizeof *d);
    d->seconds = seconds;
    clock_gettime(CLOCK_MONOTONIC, &d->end);
    double whole = (double)(time_t)seconds;
    d->end.tv_sec += (time_t)seconds;
    d->end.tv_nsec += (long)((seconds - whole) * 1e9);
    if (d->end.tv_nsec >= 1000000000L) {
        d->end.tv_sec++;
        d->end.tv_nsec -= 1000000000L;
    }
    /* Checked every 1000 virtual machine instructions: often enough to
     * stop within milliseconds, rarely enough to cost nothing. */
    sqlite3_progress_handler(db, 1000, past_deadline, d);
}
