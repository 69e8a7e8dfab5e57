/* A store on a PostgreSQL server (docs/postgresql.md, "A store on a
 * server"): connecting in a mode as store_open opens a file, and the
 * migrations of migrations/postgresql, each in one transaction that locks
 * schema_migration, checks the version it starts from and records itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db_internal.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/embedded.h"
#include "util/sha256.h"
#include "util/strbuf.h"

int pg_migrations_count(void) { return (int)embedded_pg_migrations_count; }

const char *pg_migration_name(int i)
{
    return i >= 1 && i <= pg_migrations_count() ? embedded_pg_migrations[i - 1].name : NULL;
}

static const char *pg_migration_text(int i) { return embedded_pg_migrations[i - 1].data; }

int store_migrations_known(struct db *db)
{
    return db_engine(db) == DB_POSTGRESQL ? pg_migrations_count() : migrations_count();
}

const char *store_migration_name(struct db *db, int i)
{
    return db_engine(db) == DB_POSTGRESQL ? pg_migration_name(i) : migration_name(i);
}

const char *store_migration_text(struct db *db, int i)
{
    if (db_engine(db) == DB_POSTGRESQL)
        return i >= 1 && i <= pg_migrations_count() ? pg_migration_text(i) : NULL;
    return migration_text(i);
}

int store_version(struct db *db, char **err)
{
    return db_engine(db) == DB_POSTGRESQL ? store_pg_version(db, err) : store_schema_version(db_sqlite(db), err);
}

int store_apply_migrations(struct db *db, int target, char **err)
{
    return db_engine(db) == DB_POSTGRESQL ? store_pg_migrate(db, target, err) : store_migrate(db_sqlite(db), target, err);
}

/* Serialises what changes the schema (the extension, each migration)
 * among benchdb processes on one database: an advisory lock of the
 * transaction, keyed by the database (advisory locks are per database),
 * so that two inits at once do not both create schema_migration. */
#define MIGRATE_LOCK "SELECT pg_advisory_xact_lock(7146405339181958401)"

/* One row's first column as an integer, -1 with *err on failure. */
static long long one_int(struct db *db, const char *sql, char **err)
{
    struct db_stmt *st = NULL;
    long long v = -1;
    int rc = db_prepare(db, sql, &st);
    if (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW)
        v = db_column_int64(st, 0);
    else
        bd_fail(err, "%s", db_errmsg(db));
    db_finalize(st);
    return v;
}

int store_pg_version(struct db *db, char **err)
{
    long long has = one_int(db, "SELECT CAST(count(*) AS BIGINT) FROM pg_tables WHERE schemaname = current_schema() "
                                "AND tablename = 'schema_migration'", err);
    if (has <= 0)
        return (int)has;
    return (int)one_int(db, "SELECT coalesce(max(version), 0) FROM schema_migration", err);
}

/* Applies migration i in one transaction; 0, or -1 with *err. */
static int apply(struct db *db, int i, char **err)
{
    char hex[65];
    const char *text = pg_migration_text(i);
    sha256_hex_of(text, strlen(text), hex);
    char *msg = NULL;
    if (db_exec(db, "BEGIN; " MIGRATE_LOCK "; CREATE TABLE IF NOT EXISTS schema_migration (version BIGINT PRIMARY KEY, "
                    "name TEXT NOT NULL, sha256 TEXT NOT NULL, applied_at TEXT NOT NULL); "
                    "LOCK TABLE schema_migration IN EXCLUSIVE MODE",
                &msg) != SQLITE_OK)
        goto fail;
    char *e2 = NULL;
    int at = store_pg_version(db, &e2);
    if (at != i - 1) {
        db_exec(db, "ROLLBACK", NULL);
        if (at < 0) {
            bd_fail(err, "migration %s failed: %s", pg_migration_name(i), e2);
            free(e2);
            return -1;
        }
        free(e2);
        /* another benchdb applied it meanwhile */
        return at >= i ? 0 : bd_fail(err, "migration %04d cannot apply: the store is at version %d", i, at);
    }
    if (db_exec(db, text, &msg) != SQLITE_OK)
        goto fail;
    struct db_stmt *st = NULL;
    int rc = db_prepare(db,
                        "INSERT INTO schema_migration(version, name, sha256, applied_at) VALUES (?, ?, ?, "
                        "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))",
                        &st);
    if (rc == SQLITE_OK) {
        db_bind_int(st, 1, i);
        db_bind_text(st, 2, pg_migration_name(i), -1);
        db_bind_text(st, 3, hex, -1);
        rc = db_step(st);
    }
    db_finalize(st);
    if ((rc != SQLITE_OK && rc != SQLITE_DONE) || db_exec(db, "COMMIT", &msg) != SQLITE_OK) {
        msg = msg ? msg : strdup(db_errmsg(db));
        goto fail;
    }
    return 0;
fail:
    bd_fail(err, "migration %s failed: %s", pg_migration_name(i), msg ? msg : db_errmsg(db));
    free(msg);
    db_exec(db, "ROLLBACK", NULL);
    return -1;
}

int store_pg_migrate(struct db *db, int target, char **err)
{
    int at = store_pg_version(db, err);
    if (at < 0)
        return -1;
    int to = target < 0 || target > pg_migrations_count() ? pg_migrations_count() : target;
    int n = 0;
    for (int i = at + 1; i <= to; i++, n++)
        if (apply(db, i, err))
            return -1;
    return n;
}

/* The extension benchstats, installed when it is not (which takes a
 * superuser, or a database owner where it is marked trusted). */
static int need_extension(struct db *db, const char *name, char **err)
{
    char *msg = NULL;
    if (db_exec(db, "BEGIN; " MIGRATE_LOCK "; CREATE EXTENSION IF NOT EXISTS benchstats; COMMIT", &msg) == SQLITE_OK)
        return 0;
    db_exec(db, "ROLLBACK", NULL);
    bd_fail(err, "%s: the extension benchstats is not installed in this database and cannot be installed: %s "
                 "(as a superuser: CREATE EXTENSION benchstats; docs/postgresql.md)",
            name, msg);
    free(msg);
    return -1;
}

/* A wait for a lock (another session's row, table or advisory lock) lasts
 * at most the busy timeout, as a writer's wait for SQLite's lock does
 * (lock_timeout; 0 would be no limit there, so at least 1 ms), and a
 * session that writes says when it waits (pg_wait.c). 0, or -1 with *err. */
static int lock_waits(struct db *db, int readonly, char **err)
{
    int ms = store_busy_timeout_ms(err);
    if (ms < 0)
        return -1;
    char sql[64], *msg = NULL;
    snprintf(sql, sizeof sql, "SET lock_timeout = %d", ms > 0 ? ms : 1);
    if (db_exec(db, sql, &msg) != SQLITE_OK) {
        bd_fail(err, "%s", msg ? msg : "out of memory");
        free(msg);
        return -1;
    }
    db->watch_locks = !readonly;
    return 0;
}

int store_connect(const char *name, enum store_mode mode, struct db **out, char **err)
{
    *out = NULL;
    if (!db_is_server_name(name)) {
        sqlite3 *h = NULL;
        if (store_open(name, mode, &h, err))
            return -1;
        if (!(*out = db_from_sqlite(h, 1))) {
            store_close(h);
            return bd_fail(err, "out of memory");
        }
        return 0;
    }
    struct db *db = db_connect_pg(name, err);
    if (!db)
        return -1;
    int readonly = mode == STORE_READ || mode == STORE_INSPECT || mode == STORE_CHECK;
    if (lock_waits(db, readonly, err))
        goto fail;
    int version = store_pg_version(db, err);
    int known = pg_migrations_count();
    if (version < 0) {
        char *why = *err;
        *err = NULL;
        bd_fail(err, "cannot read the store's schema version: %s (the role needs SELECT on the store's tables; "
                     "docs/postgresql.md, \"Read-only analysis\")",
                why ? why : "out of memory");
        free(why);
        goto fail;
    }
    if (version > known) {
        bd_fail(err, "the store's schema is at version %d, newer than this benchdb knows (up to %d): use a newer "
                     "benchdb; the store was left untouched",
                version, known);
        goto fail;
    }
    if (version == 0 && mode != STORE_CREATE && mode != STORE_INSPECT) {
        bd_fail(err, "no store in this database (run 'benchdb --db URI init' to create one)");
        goto fail;
    }
    if (readonly) {
        if (mode != STORE_INSPECT && version < known) {
            bd_fail(err, "the store's schema is at version %d and needs migrations up to %d: run 'benchdb migrate'",
                    version, known);
            goto fail;
        }
        /* Every transaction of this session only reads, and every
         * statement passes the guard (pg_guard.c): only statements that
         * read, so that no SQL ends a read-only transaction to begin
         * another. */
        db->guard_connection = 1;
        char *msg = NULL;
        if (db_exec(db, "SET default_transaction_read_only = on", &msg) != SQLITE_OK) {
            bd_fail(err, "%s", msg);
            free(msg);
            goto fail;
        }
    } else if (mode != STORE_MIGRATE && version < known) {
        if ((mode == STORE_CREATE && need_extension(db, "init", err)) || store_pg_migrate(db, -1, err) < 0)
            goto fail;
    }
    *out = db;
    return 0;
fail:
    db_close(db);
    return -1;
}
