/* The read-only guard: an authorizer that refuses anything that could change
 * the store or reach outside it, for analysis that only meant to read
 * (benchdb sql without --write, saved queries). It backs up the read-only
 * open and PRAGMA query_only, which alone do not stop ATTACH of another
 * file or a state-changing PRAGMA. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "stats/stop.h"
#include "store/store.h"

/* The PRAGMAs the guard lets through, by name, compared without regard to
 * case (SQLite's own lookup ignores case) and whatever schema qualifies them
 * (main.table_info(t)): an allow-list, so that a PRAGMA not named here (a
 * new one, a debugging one, wal_checkpoint, optimize, shrink_memory,
 * incremental_vacuum...) is refused.
 *
 * Inspecting PRAGMAs, allowed with an argument (table_info(t),
 * integrity_check(10)): each reads the schema or the data and changes
 * nothing whatever its argument. */
static const char *const inspect_pragmas[] = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo", "foreign_key_list",
    "foreign_key_check", "integrity_check", "quick_check", "function_list", "pragma_list", "module_list",
    "collation_list", "database_list", "compile_options", NULL,
};

/* Setting PRAGMAs, allowed only without an argument: then each reports its
 * value and does nothing else (with an argument each sets it). */
static const char *const query_pragmas[] = {
    "application_id", "auto_vacuum", "automatic_index", "busy_timeout", "cache_size", "cell_size_check",
    "data_version", "defer_foreign_keys", "encoding", "foreign_keys", "freelist_count", "journal_mode",
    "journal_size_limit", "locking_mode", "max_page_count", "page_count", "page_size", "query_only",
    "recursive_triggers", "schema_version", "secure_delete", "synchronous", "temp_store", "trusted_schema",
    "user_version", "wal_autocheckpoint", NULL,
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
        if (strcasecmp(*list, s) == 0)
            return 1;
    return 0;
}

/* Why the guard last refused something on this thread (connections are
 * used by the thread that opened them), for the caller's message; empty
 * when SQLite's own message ("not authorized to use function: X") says
 * it. Only a denial writes it, so after an SQLITE_AUTH error it explains
 * that statement. */
static _Thread_local char refusal[256];

static int refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int refuse(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(refusal, sizeof refusal, fmt, ap);
    va_end(ap);
    return SQLITE_DENY;
}

void store_guard_set_refusal(const char *msg) { snprintf(refusal, sizeof refusal, "%s", msg ? msg : ""); }

const char *store_guard_refusal(void)
{
    return refusal[0] ? refusal : NULL;
}

/* The statement a transaction-control action comes from: SQLITE_TRANSACTION
 * gives BEGIN, COMMIT or ROLLBACK; SQLITE_SAVEPOINT gives BEGIN, RELEASE or
 * ROLLBACK with the savepoint's name. */
static int refuse_transaction(int action, const char *op, const char *name)
{
    if (action == SQLITE_TRANSACTION)
        return refuse("transaction control (%s) is refused", op ? op : "?");
    const char *verb = op && strcmp(op, "ROLLBACK") == 0 ? "ROLLBACK TO" : op && strcmp(op, "RELEASE") == 0 ? "RELEASE"
                                                                                                        : "SAVEPOINT";
    return refuse("transaction control (%s %s) is refused", verb, name ? name : "?");
}

static int authorize(void *arg, int action, const char *a1, const char *a2, const char *db, const char *trigger)
{
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
        if (trigger == NULL && a1 && (strcmp(a1, "sqlite_master") == 0 || strcmp(a1, "sqlite_temp_master") == 0))
            return SQLITE_OK;
        refusal[0] = 0;
        return SQLITE_DENY;
    case SQLITE_READ:
        /* a1: a table or view read (for a view, also each table under it). */
        if (arg && a1) {
            const struct store_guard_reads *r = arg;
            r->read(r->arg, a1);
        }
        return SQLITE_OK;
    case SQLITE_SELECT:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
        /* A BEGIN that nothing ends would hold back whatever benchdb
         * writes next on the connection (the evaluation's record) until
         * the close rolls it back. */
        return refuse_transaction(action, a1, a2);
    case SQLITE_FUNCTION:
        /* a2 is the function's name; SQLite's message names it. */
        if (!in_list(refused_functions, a2))
            return SQLITE_OK;
        refusal[0] = 0;
        return SQLITE_DENY;
    case SQLITE_PRAGMA:
        /* a1 is the pragma (without its schema), a2 its argument or value
         * (NULL for a query). */
        if (in_list(inspect_pragmas, a1) || (a2 == NULL && in_list(query_pragmas, a1)))
            return SQLITE_OK;
        if (in_list(query_pragmas, a1))
            return refuse("PRAGMA %s with a value (%s) would set it", a1, a2);
        return refuse("PRAGMA %s is not one of the PRAGMAs that only read", a1 ? a1 : "?");
    default:
        /* INSERT, UPDATE, DELETE, CREATE/DROP/ALTER anything, ATTACH, DETACH,
         * REINDEX, ANALYZE, virtual tables: refused. */
        refusal[0] = 0;
        return SQLITE_DENY;
    }
}

void store_guard_readonly(sqlite3 *db, int on)
{
    sqlite3_set_authorizer(db, on ? authorize : NULL, NULL);
}

void store_guard_readonly_reporting(sqlite3 *db, const struct store_guard_reads *reads)
{
    sqlite3_set_authorizer(db, authorize, (void *)reads);
}

/* The connection whose deadline the statistics' stop hook holds (one per
 * thread: connections are used by the thread that opened them). */
static _Thread_local sqlite3 *stop_owner;

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
    /* Within (0, a week], so that converting to time_t cannot overflow
     * (1e19 did: undefined, and in practice a deadline in the past). */
    if (!(seconds > 0))
        seconds = 1e-3;
    if (seconds > STORE_TIMEOUT_MAX)
        seconds = STORE_TIMEOUT_MAX;
    d->seconds = seconds;
    clock_gettime(CLOCK_MONOTONIC, &d->end);
    long long whole = (long long)seconds;
    d->end.tv_sec += (time_t)whole;
    d->end.tv_nsec += (long)((seconds - (double)whole) * 1e9);
    if (d->end.tv_nsec >= 1000000000L) {
        d->end.tv_sec++;
        d->end.tv_nsec -= 1000000000L;
    }
    /* Checked every 1000 virtual machine instructions: often enough to
     * stop within milliseconds, rarely enough to cost nothing. */
    sqlite3_progress_handler(db, 1000, past_deadline, d);
    /* and inside a statistics function whose one call may outlast it
     * (change_points of a large window: stats/stop.h), on this thread. */
    stats_set_stop(past_deadline, d);
    stop_owner = db;
}

void store_clear_timeout(sqlite3 *db)
{
    sqlite3_progress_handler(db, 0, NULL, NULL);
    if (stop_owner == db) {
        stats_set_stop(NULL, NULL);
        stop_owner = NULL;
    }
}
