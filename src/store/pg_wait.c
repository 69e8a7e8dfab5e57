/* Saying that a statement waits for a lock (docs/postgresql.md, "Waiting
 * for locks"). A writer's session has lock_timeout set to the busy
 * timeout (store_connect), so a wait is bounded and ends in an error that
 * names it; this makes the wait visible while it lasts: when a statement
 * of a session that writes has not answered after a second, a second
 * connection to the same database asks the server whether the session
 * waits for a lock, which one, and which processes hold it, and the answer
 * is printed once. A statement that is merely slow says nothing. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/db_internal.h"
#include "store/pq.h"
#include "store/store.h"
#include "util/diag.h"

enum { LOCK_NOTICE_MS = 1000 };

/* The lock the session (pid $1) waits for, and who holds it. */
static const char what_sql[] =
    "SELECT CASE l.locktype "
    "WHEN 'advisory' THEN 'an advisory lock (key ' || lpad(to_hex(CAST(l.classid AS BIGINT)), 8, '0') || "
    "lpad(to_hex(CAST(l.objid AS BIGINT)), 8, '0') || ')' "
    "WHEN 'transactionid' THEN 'a row that another transaction is writing or has locked' "
    "WHEN 'tuple' THEN 'a row of table ' || coalesce(CAST(CAST(l.relation AS regclass) AS TEXT), '?') "
    "WHEN 'relation' THEN 'a lock on table ' || coalesce(CAST(CAST(l.relation AS regclass) AS TEXT), '?') "
    "|| ' (' || l.mode || ')' "
    "ELSE 'a lock (' || l.locktype || ')' END, "
    "(SELECT string_agg('process ' || a.pid || ' (role ' || coalesce(a.usename, '?') || "
    "CASE WHEN a.application_name <> '' THEN ', ' || a.application_name ELSE '' END || ', ' || "
    "coalesce(a.state, '?') || ')', ', ' ORDER BY a.pid) "
    "FROM pg_stat_activity a WHERE a.pid = ANY (pg_blocking_pids(CAST($1 AS INTEGER)))) "
    "FROM pg_locks l WHERE l.pid = CAST($1 AS INTEGER) AND NOT l.granted LIMIT 1";

static void quiet(void *arg, const PGresult *res)
{
    (void)arg;
    (void)res;
}

void db_pg_wait_close(struct db *db)
{
    if (db->monitor)
        PQfinish(db->monitor);
    db->monitor = NULL;
}

/* Asks the second connection what db's session waits for; prints it when
 * it is a lock. */
static void say_what_it_waits_for(struct db *db)
{
    if (!db->monitor && db->conninfo) {
        db->monitor = PQconnectdb(db->conninfo);
        if (db->monitor && PQstatus(db->monitor) != CONNECTION_OK)
            db_pg_wait_close(db);
        if (db->monitor)
            PQsetNoticeReceiver(db->monitor, quiet, NULL);
    }
    if (!db->monitor) /* the wait still ends, with lock_timeout's error */
        return;
    int ms = store_busy_timeout_ms(NULL);
    double limit = (ms < 0 ? STORE_BUSY_TIMEOUT_MS : ms) / 1000.0;
    char pid[24];
    snprintf(pid, sizeof pid, "%d", PQbackendPID(db->pg));
    const char *values[] = {pid};
    PGresult *r = PQexecParams(db->monitor, what_sql, 1, NULL, values, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        bd_notice("note: waiting for %s, held by %s; giving up after %g s ($BENCHDB_BUSY_TIMEOUT)", PQgetvalue(r, 0, 0),
                  PQgetisnull(r, 0, 1) ? "another session" : PQgetvalue(r, 0, 1), limit);
    PQclear(r);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void db_pg_await(struct db *db)
{
    if (!db->watch_locks)
        return;
    PGconn *c = db->pg;
    double start = now_ms();
    int asked = 0;
    while (PQisBusy(c)) {
        int wait = asked ? -1 : (int)(LOCK_NOTICE_MS - (now_ms() - start));
        if (!asked && wait <= 0) {
            asked = 1;
            say_what_it_waits_for(db);
            continue;
        }
        struct pollfd p = {PQsocket(c), POLLIN, 0};
        int n = poll(&p, 1, wait);
        if (n < 0 && errno != EINTR)
            return; /* PQgetResult reads on, blocking */
        if (n > 0 && !PQconsumeInput(c))
            return;
    }
}
