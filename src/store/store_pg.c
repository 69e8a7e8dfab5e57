/* A store on a PostgreSQL server (docs/postgresql.md, "A store on a
 * server"): connecting in a mode as store_open opens a file (its
 * migrations applied by migrations.c, the runner of both engines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db_internal.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/strbuf.h"

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

/* The extension's schema, usable by the connecting role: a superuser's
 * CREATE EXTENSION leaves it to its owner, and a database owner who then
 * makes the store met "migration 0007_baseline.sql failed: permission
 * denied for schema benchstats", which said neither who lacks what nor
 * the grant that gives it. */
static int usable_extension(struct db *db, char **err)
{
    struct db_stmt *st = NULL;
    int ok = db_prepare(db, "SELECT has_schema_privilege('benchstats', 'USAGE'), current_user, quote_ident(current_user)", &st) == SQLITE_OK &&
             db_step(st) == SQLITE_ROW;
    if (ok && db_column_int(st, 0) != 1) {
        bd_fail(err, "the role %s may not use the schema benchstats, which holds the extension's functions "
                     "(as a superuser: GRANT USAGE ON SCHEMA benchstats TO %s; docs/postgresql.md)",
                (const char *)db_column_text(st, 1), (const char *)db_column_text(st, 2));
        ok = -1;
    } else if (!ok)
        bd_fail(err, "%s", db_errmsg(db));
    db_finalize(st);
    return ok == 1 ? 0 : -1;
}

/* A new store's tables go into the current schema (public), where
 * PostgreSQL 15 lets only the database's owner create: a database made by
 * a superuser for a role that then ran init or copy met "migration
 * 0007_baseline.sql failed: permission denied for schema public", which
 * said neither who lacks what nor how to give it. */
static int creatable_schema(struct db *db, char **err)
{
    struct db_stmt *st = NULL;
    int ok = db_prepare(db, "SELECT has_schema_privilege(current_schema(), 'CREATE'), current_user, "
                            "quote_ident(current_user), current_schema(), current_database(), "
                            "quote_ident(current_database())",
                        &st) == SQLITE_OK &&
             db_step(st) == SQLITE_ROW;
    if (ok && db_column_type(st, 3) != SQLITE_NULL && db_column_int(st, 0) != 1) {
        bd_fail(err, "the role %s may not create tables in the schema %s of the database %s, where the store's "
                     "tables go (PostgreSQL 15 lets only the database's owner create there; as a superuser: ALTER "
                     "DATABASE %s OWNER TO %s, or make it with createdb -O %s; docs/postgresql.md)",
                (const char *)db_column_text(st, 1), (const char *)db_column_text(st, 3),
                (const char *)db_column_text(st, 4), (const char *)db_column_text(st, 5),
                (const char *)db_column_text(st, 2), (const char *)db_column_text(st, 2));
        ok = -1;
    } else if (!ok)
        bd_fail(err, "%s", db_errmsg(db));
    db_finalize(st);
    return ok == 1 ? 0 : -1;
}

/* The extension benchstats, installed when it is not (which takes a
 * superuser, or a database owner where it is marked trusted). */
static int need_extension(struct db *db, char **err)
{
    char *msg = NULL;
    if (db_exec(db, "BEGIN; " STORE_PG_SCHEMA_LOCK "; CREATE EXTENSION IF NOT EXISTS benchstats; COMMIT", &msg) == SQLITE_OK)
        return usable_extension(db, err);
    db_exec(db, "ROLLBACK", NULL);
    bd_fail(err, "the extension benchstats is not installed in this database and cannot be installed: %s "
                 "(as a superuser: CREATE EXTENSION benchstats; docs/postgresql.md)",
            msg);
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

static int connect_server(const char *name, enum store_mode mode, struct db **out, char **err);

/* A hot standby (docs/scale-out.md, "Readers on streaming replicas")
 * refuses every write with PostgreSQL's "cannot execute INSERT in a
 * read-only transaction", after the work that led to it; a command that
 * writes is refused as it connects instead, saying what to do. */
int store_is_standby(struct db *db)
{
    if (db->engine != DB_POSTGRESQL)
        return 0;
    struct db_stmt *st = NULL;
    int standby = db_prepare(db, "SELECT pg_is_in_recovery()", &st) == SQLITE_OK && db_step(st) == SQLITE_ROW &&
                  db_column_int(st, 0) == 1;
    db_finalize(st);
    return standby;
}

static int refuse_standby(struct db *db, char **err)
{
    if (!store_is_standby(db))
        return 0;
    return bd_fail(err, "the server is a hot standby (a read-only replica in recovery), where nothing can be "
                        "written or recorded: run saved queries there with --no-record, or run this command against "
                        "the primary");
}

int store_connect(const char *name, enum store_mode mode, struct db **out, char **err)
{
    *out = NULL;
    if (db_is_server_name(name)) {
        if (connect_server(name, mode, out, err) == 0)
            return 0;
        /* SQLite's messages name the file; a server's is named here, its
         * password masked. */
        char *masked = store_name_masked(name), *why = *err;
        *err = NULL;
        bd_fail(err, "%s: %s", masked ? masked : "(the store)", why ? why : "out of memory");
        free(masked);
        free(why);
        return -1;
    }
    sqlite3 *h = NULL;
    if (store_open(name, mode, &h, err))
        return -1;
    if (!(*out = db_from_sqlite(h, 1))) {
        store_close(h);
        return bd_fail(err, "out of memory");
    }
    return 0;
}

static int connect_server(const char *name, enum store_mode mode, struct db **out, char **err)
{
    struct db *db = db_connect_pg(name, err);
    if (!db)
        return -1;
    int readonly = mode == STORE_READ || mode == STORE_INSPECT || mode == STORE_CHECK;
    if (lock_waits(db, readonly, err))
        goto fail;
    int version = store_pg_version(db, err);
    int known = store_migrations_known(db);
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
        if (mode != STORE_INSPECT && version < known && store_may_migrate(db, version, known, err))
            goto fail;
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
    } else if (refuse_standby(db, err)) {
        goto fail;
    } else if (mode != STORE_MIGRATE && version < known) {
        if ((mode == STORE_CREATE && (need_extension(db, err) || (version == 0 && creatable_schema(db, err)))) ||
            store_apply_migrations(db, -1, err) < 0)
            goto fail;
        if (mode == STORE_WRITE && version > 0) { /* init and copy say what they made */
            char *shown = store_name_masked(name);
            store_note_migrated(shown ? shown : "the store", version, known);
            free(shown);
        }
    }
    *out = db;
    return 0;
fail:
    db_close(db);
    return -1;
}

int store_refresh_statistics(struct db *db, char **err)
{
    if (db_engine(db) != DB_POSTGRESQL)
        return 0;
    /* A session's own counts of changed rows reach pg_stat_user_tables
     * when it next waits for a statement, at most once a second unless
     * asked: asked here, and read by the next statement. */
    char *msg = NULL;
    if (db_exec(db, "SELECT pg_stat_force_next_flush()", &msg) != SQLITE_OK) {
        bd_fail(err, "%s", msg ? msg : "out of memory");
        free(msg);
        return -1;
    }
    /* Each table by its own size: rows changed since its last analysis
     * more than autovacuum_analyze_scale_factor (a tenth) of the rows it
     * had then (reltuples -1: never analyzed, counted as none, so any row
     * counts). Autovacuum's rule adds autovacuum_analyze_threshold (50
     * rows), which no small table ever reaches: a fresh store's one-row
     * plan kept no statistics and the planner guessed ten pages of rows
     * for it (bench/pg-ingest.md, "Query plans after an ingest"). The
     * small tables' ANALYZE did not change the ingest's CPU measurably;
     * for the large ones the 50 rows change nothing.
     * Only tables this role owns (through a role it is a member of), which
     * ANALYZE would otherwise skip with a warning. */
    struct db_stmt *st = NULL;
    int n = -1;
    struct strbuf sql = {0};
    if (db_prepare(db,
                   "SELECT CAST(count(*) AS INTEGER), string_agg(quote_ident(s.relname), ', ' ORDER BY s.relname) "
                   "FROM pg_stat_user_tables AS s JOIN pg_class AS c ON c.oid = s.relid "
                   "WHERE s.schemaname = current_schema() AND pg_has_role(c.relowner, 'USAGE') "
                   "AND s.n_mod_since_analyze > "
                   "CAST(current_setting('autovacuum_analyze_scale_factor') AS DOUBLE PRECISION) * "
                   "greatest(c.reltuples, 0)",
                   &st) != SQLITE_OK ||
        db_step(st) != SQLITE_ROW) {
        bd_fail(err, "%s", db_errmsg(db));
    } else if ((n = db_column_int(st, 0)) > 0) {
        sb_printf(&sql, "ANALYZE (SKIP_LOCKED) %s", (const char *)db_column_text(st, 1));
        if (sb_failed(&sql))
            n = bd_fail(err, "out of memory");
        else if (db_exec(db, sql.buf, &msg) != SQLITE_OK)
            n = bd_fail(err, "ANALYZE: %s", msg ? msg : "out of memory");
    }
    free(msg);
    sb_free(&sql);
    db_finalize(st);
    return n;
}
