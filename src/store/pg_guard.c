/* The read-only guard on PostgreSQL (docs/postgresql.md, "Read-only
 * analysis", which says which layer stops which attack). SQLite's guard is
 * an authorizer (guard.c); PostgreSQL has none a client can install, so
 * the guard is built from what a client can do:
 *
 *  1. One statement per protocol message: db_pg_prepare cuts the SQL where
 *     PostgreSQL's scanner ends a statement (pg_lex.h) and sends each by
 *     the extended protocol, which refuses a string of several.
 *  2. Only statements that read: a statement's first word must be SELECT,
 *     WITH, VALUES, TABLE, EXPLAIN or SHOW, so no transaction control
 *     (COMMIT, BEGIN READ WRITE, SAVEPOINT, PREPARE TRANSACTION), SET,
 *     CALL, DO, COPY, LOCK or DDL ever reaches the server; and no name of
 *     a function that changes the session's settings or role (set_config)
 *     or runs SQL given as text (query_to_xml..., ts_stat, ts_rewrite,
 *     dblink...) may appear, for that SQL would pass by this check.
 *  3. One read-only transaction around the work (db_pg_begin_readonly),
 *     which the SQL cannot end (2), rolled back at its end: nothing it did
 *     stays, settings included.
 *  4. As the role benchdb_reader, for SQL from outside benchdb (sql, saved
 *     queries), where the session may become it: the server then refuses
 *     what the grants do not allow (writes, large objects and advisory
 *     locks where init could revoke them, reading server files). */
#include <stdio.h>
#include <string.h>

#include "store/db_internal.h"
#include "store/pg_lex.h"
#include "store/pq.h"
#include "store/store.h"

/* The first words of statements that only read. */
static const char *const reading[] = {"select", "with", "values", "table", "explain", "show", NULL};
/* First words of transaction control, named as SQLite's guard names them. */
static const char *const transaction[] = {"begin", "start", "commit", "end", "rollback", "abort",
                                          "savepoint", "release", NULL};

static int in(const char *const *list, const char *w, size_t n)
{
    for (int i = 0; list[i]; i++)
        if (pg_lex_word_is(w, n, list[i]))
            return 1;
    return 0;
}

/* Whether name (n bytes, a word or a quoted name's text) is a function
 * the guard keeps out: one that changes the session (set_config: its role,
 * its settings) or runs SQL it is given as text, which layer 2 never sees. */
static int forbidden_function(const char *name, size_t n)
{
    static const char *const exact[] = {"set_config", "ts_stat", "ts_rewrite", NULL};
    static const char *const prefix[] = {"query_to_xml", "dblink", NULL};
    if (in(exact, name, n))
        return 1;
    for (int i = 0; prefix[i]; i++)
        if (n >= strlen(prefix[i]) && pg_lex_word_is(name, strlen(prefix[i]), prefix[i]))
            return 1;
    return 0;
}

/* Records the refusal fmt (one %s: the word, upper-cased when upper). */
static int refuse(struct db *db, const char *fmt, const char *w, size_t n, int upper)
{
    char word[48], msg[256];
    n = n < sizeof word - 1 ? n : sizeof word - 1;
    for (size_t i = 0; i < n; i++)
        word[i] = upper && w[i] >= 'a' && w[i] <= 'z' ? (char)(w[i] - 'a' + 'A') : w[i];
    word[n] = '\0';
    snprintf(msg, sizeof msg, fmt, word);
    store_guard_set_refusal(msg);
    db_pg_set_error(db, SQLITE_AUTH, "", msg);
    return SQLITE_AUTH;
}

int db_pg_guard_check(struct db *db, const char *sql)
{
    const char *s = sql;
    struct pg_token t;
    while ((t = pg_lex(s)).kind == PG_TOK_SPACE || t.kind == PG_TOK_COMMENT)
        s += t.len;
    if (t.kind != PG_TOK_WORD)
        return refuse(db, "a statement beginning with '%s' is not one that only reads (SELECT, WITH, VALUES, "
                          "TABLE, EXPLAIN, SHOW)", t.at, t.len ? 1 : 0, 0);
    if (in(transaction, t.at, t.len))
        return refuse(db, "transaction control (%s) is refused", t.at, t.len, 1);
    if (!in(reading, t.at, t.len))
        return refuse(db, "%s is not a statement that only reads (SELECT, WITH, VALUES, TABLE, EXPLAIN, SHOW)",
                      t.at, t.len, 1);
    for (; t.kind != PG_TOK_END; s += t.len, t = pg_lex(s)) {
        if (t.kind == PG_TOK_UQNAME)
            return refuse(db, "a name written with Unicode escapes (%s...) is refused: it could spell any "
                              "function's name",
                          t.at, 3, 0);
        const char *name = t.kind == PG_TOK_QNAME ? t.at + 1 : t.at;
        size_t n = t.kind == PG_TOK_QNAME ? (t.len >= 2 ? t.len - 2 : 0) : t.len;
        if ((t.kind == PG_TOK_WORD || t.kind == PG_TOK_QNAME) && forbidden_function(name, n))
            return refuse(db, "%s() is refused: it changes the session or runs SQL given as text", name, n, 0);
    }
    return SQLITE_OK;
}

/* Whether the session may read as benchdb_reader: the role exists, the
 * session's user may become it (a member, or a superuser), and it may read
 * every table and view of the store and use its schemas (a store whose
 * init could not grant it is read as the session's own role). Asked once
 * per connection. */
static int may_read_as_reader(struct db *db)
{
    if (!db->reader) {
        PGresult *r = PQexec(db->pg,
                             "SELECT count(*) FROM pg_roles r WHERE r.rolname = 'benchdb_reader' "
                             "AND pg_has_role(session_user, r.oid, 'MEMBER') "
                             "AND NOT EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = "
                             "CAST(CAST(current_schema() AS regnamespace) AS oid) AND c.relkind IN ('r', 'v', 'm', 'p') "
                             "AND NOT has_table_privilege(r.oid, c.oid, 'SELECT')) "
                             "AND NOT EXISTS (SELECT 1 FROM pg_namespace n WHERE n.nspname IN (current_schema(), "
                             "'benchstats') AND NOT has_schema_privilege(r.oid, n.oid, 'USAGE'))");
        db->reader = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "1") == 0
                         ? 1
                         : 2;
        PQclear(r);
    }
    return db->reader == 1;
}

int db_pg_begin_readonly(struct db *db, unsigned flags)
{
    int synced = db_pg_sync(db);
    if (synced != SQLITE_OK)
        return synced;
    if (db->guard || PQtransactionStatus(db->pg) != PQTRANS_IDLE) {
        db_pg_set_error(db, SQLITE_MISUSE, "", "a transaction is already open on the store");
        return SQLITE_MISUSE;
    }
    int reader = (flags & STORE_RO_UNTRUSTED) && may_read_as_reader(db);
    int rc = db_pg_exec(db,
                        reader ? "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY; "
                                 "SET LOCAL ROLE benchdb_reader"
                               : "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
                        NULL);
    if (rc != SQLITE_OK) {
        if (!db_pg_autocommit(db))
            PQclear(PQexec(db->pg, "ROLLBACK"));
        return rc;
    }
    db->guard = 1;
    return SQLITE_OK;
}

int db_pg_end_readonly(struct db *db)
{
    db->guard = 0;
    /* ROLLBACK, not COMMIT: nothing of the transaction stays, not even a
     * setting the SQL changed for the session with set_config. */
    return db_pg_autocommit(db) ? SQLITE_OK : db_pg_exec(db, "ROLLBACK", NULL);
}
