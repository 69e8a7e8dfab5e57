/* The role benchdb_reader on a server store: made (or granted in this
 * database) by init and by copy into a server (docs/postgresql.md,
 * "Read-only analysis"). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "store/dialect.h"
#include "util/xalloc.h"

/* The role for read-only analysis: reads every table and view of the
 * store and writes nothing. Roles belong to the cluster, so it is made
 * once and granted in each store. It cannot log in: PostgreSQL lets a role
 * that logs in change its own password and settings (ALTER ROLE ...
 * PASSWORD, ALTER ROLE ... SET statement_timeout = 0), which every user
 * sharing one login would share; each analyst logs in as a role of their
 * own, a member of it (docs/postgresql.md, "Read-only analysis"). */
/* Making the role, or taking its login, takes CREATEROLE; an existing
 * role without a login is left alone, so that the store's owner without
 * CREATEROLE grants its tables to a role a superuser made. The tables'
 * later ones (a migration's) are granted by default as their owner makes
 * them: the default privileges are those of the owner of the store's
 * tables, also when a superuser runs this on a store another role made
 * (before, they were the superuser's own, which covered no table). */
static const char reader_role_sql[] =
    "DO $$ BEGIN\n"
    "  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'benchdb_reader') THEN\n"
    "    CREATE ROLE benchdb_reader NOLOGIN;\n"
    "  ELSIF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'benchdb_reader' AND rolcanlogin) THEN\n"
    "    ALTER ROLE benchdb_reader NOLOGIN;\n"
    "  END IF;\n"
    "END $$;\n"
    "GRANT USAGE ON SCHEMA public, benchstats TO benchdb_reader;\n"
    "GRANT SELECT ON ALL TABLES IN SCHEMA public TO benchdb_reader;\n"
    "DO $$ DECLARE o name; BEGIN\n"
    "  SELECT tableowner INTO o FROM pg_tables WHERE schemaname = 'public' AND tablename = 'schema_migration';\n"
    "  IF o IS NULL OR NOT pg_has_role(o, 'MEMBER') THEN o := current_user; END IF;\n"
    "  EXECUTE format('ALTER DEFAULT PRIVILEGES FOR ROLE %I IN SCHEMA public GRANT SELECT ON TABLES TO benchdb_reader', o);\n"
    "END $$;\n"
    "REVOKE CREATE ON SCHEMA public FROM PUBLIC;\n";

/* What the role still lacks in this database after the grants: a GRANT
 * of what the granting role holds without the grant option succeeds
 * granting nothing (PostgreSQL warns, and benchdb's sessions drop
 * notices), so a database owner's init left the role without the schema
 * benchstats (a superuser's) and said all was well, while every saved
 * query a member ran failed with "function lookback_baseline(...) does
 * not exist". */
static const char reader_lacks_sql[] =
    "SELECT concat_ws(', ', "
    "CASE WHEN NOT has_schema_privilege('benchdb_reader', 'benchstats', 'USAGE') "
    "THEN 'the use of the schema benchstats (the functions)' END, "
    "(SELECT 'SELECT on ' || string_agg(c.relname, ', ' ORDER BY c.relname) FROM pg_class AS c "
    "WHERE c.relnamespace = CAST('public' AS regnamespace) AND c.relkind IN ('r', 'v') "
    "AND NOT has_table_privilege('benchdb_reader', c.oid, 'SELECT')))";

/* What every role may do by default and a reader must not, in this
 * database: create large objects (lo_from_bytea...: storage beside the
 * store, allowed even in a read-only transaction) and take advisory locks
 * (one held on an archive's key makes its ingest wait). benchdb uses no
 * large object; its writers take pg_advisory_xact_lock(bigint) (ingest's
 * lock on an archive, migrations' lock), granted here to every role that
 * may insert into archive (superusers need no grant). The functions
 * belong to the bootstrap superuser: only a superuser may do this. */
static const char reader_limits_sql[] =
    "REVOKE EXECUTE ON FUNCTION lo_open(oid, integer), lo_close(integer), loread(integer, integer), "
    "lowrite(integer, bytea), lo_lseek(integer, integer, integer), lo_lseek64(integer, bigint, integer), "
    "lo_tell(integer), lo_tell64(integer), lo_truncate(integer, integer), lo_truncate64(integer, bigint), "
    "lo_creat(integer), lo_create(oid), lo_unlink(oid), lo_import(text), lo_import(text, oid), lo_export(oid, text), "
    "lo_get(oid), lo_get(oid, bigint, integer), lo_put(oid, bigint, bytea), lo_from_bytea(oid, bytea) FROM PUBLIC;\n"
    "REVOKE EXECUTE ON FUNCTION pg_advisory_lock(bigint), pg_advisory_lock(integer, integer), "
    "pg_advisory_lock_shared(bigint), pg_advisory_lock_shared(integer, integer), pg_advisory_unlock(bigint), "
    "pg_advisory_unlock(integer, integer), pg_advisory_unlock_shared(bigint), pg_advisory_unlock_shared(integer, "
    "integer), pg_advisory_unlock_all(), pg_advisory_xact_lock(bigint), pg_advisory_xact_lock(integer, integer), "
    "pg_advisory_xact_lock_shared(bigint), pg_advisory_xact_lock_shared(integer, integer), "
    "pg_try_advisory_lock(bigint), pg_try_advisory_lock(integer, integer), pg_try_advisory_lock_shared(bigint), "
    "pg_try_advisory_lock_shared(integer, integer), pg_try_advisory_xact_lock(bigint), "
    "pg_try_advisory_xact_lock(integer, integer), pg_try_advisory_xact_lock_shared(bigint), "
    "pg_try_advisory_xact_lock_shared(integer, integer) FROM PUBLIC;\n"
    "DO $$ DECLARE r record; BEGIN\n"
    "  FOR r IN SELECT rolname FROM pg_roles WHERE NOT rolsuper AND rolname <> 'benchdb_reader'\n"
    "      AND has_table_privilege(oid, 'archive', 'INSERT') LOOP\n"
    "    EXECUTE format('GRANT EXECUTE ON FUNCTION pg_advisory_xact_lock(bigint) TO %I', r.rolname);\n"
    "  END LOOP;\n"
    "END $$;\n";

/* Runs sql (one transaction). The role belongs to the cluster: another
 * init (of another database) may be making or granting it at the same
 * moment, which PostgreSQL reports as a conflict; the SQL is then run
 * again. SQLITE_OK, or an error code with *msg. */
static int run_retrying(struct db *db, const char *sql, char **msg)
{
    int rc = SQLITE_ERROR;
    for (int attempt = 0; attempt < 10; attempt++) {
        free(*msg);
        *msg = NULL;
        rc = db_exec(db, sql, msg);
        const char *state = db_sqlstate(db);
        if (rc == SQLITE_OK || !(strcmp(state, "XX000") == 0 || strcmp(state, "42710") == 0 ||
                                 strcmp(state, "23505") == 0 || rc == SQLITE_BUSY))
            break;
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    return rc;
}

/* Whether the role benchdb_reader exists and may log in. */
static int reader_logs_in(struct db *db)
{
    struct db_stmt *st = NULL;
    int yes = db_prepare(db, "SELECT 1 FROM pg_roles WHERE rolname = 'benchdb_reader' AND rolcanlogin", &st) ==
                  SQLITE_OK &&
              db_step(st) == SQLITE_ROW;
    db_finalize(st);
    return yes;
}

/* What reader_lacks_sql finds, malloc'd; "" when nothing; NULL when it
 * cannot be read. */
static char *reader_lacks(struct db *db)
{
    struct db_stmt *st = NULL;
    char *lacks = NULL;
    if (db_prepare(db, reader_lacks_sql, &st) == SQLITE_OK && db_step(st) == SQLITE_ROW)
        lacks = xstrdup(db_column_text(st, 0) ? (const char *)db_column_text(st, 0) : "");
    db_finalize(st);
    return lacks;
}

void cli_reader_role(struct db *db, int say)
{
    if (!db_dialect(db)->has_roles) /* a store file: no roles */
        return;
    char *msg = NULL, *lacks = NULL;
    int logged_in = reader_logs_in(db);
    if (run_retrying(db, reader_role_sql, &msg) != SQLITE_OK)
        bd_warning("the role benchdb_reader was not made or not granted the store here (%s): as a superuser, run "
                   "'benchdb init' on this store, which makes the role and its grants, or the SQL of "
                   "docs/postgresql.md, \"Read-only analysis\"",
                   msg);
    else {
        if ((lacks = reader_lacks(db)) && *lacks)
            bd_warning("the role benchdb_reader still lacks %s in this database, which this role may not grant: its "
                       "members' saved queries would fail; as a superuser, run 'benchdb init' on this store, or "
                       "GRANT what it lacks (docs/postgresql.md, \"Read-only analysis\")",
                       lacks);
        else if (say)
            cli_say("read-only analysis: log in as a member of benchdb_reader (SELECT only; docs/postgresql.md)");
        if (logged_in)
            bd_warning("the role benchdb_reader could log in, and no longer can: a role that logs in may change its "
                       "own password and settings for everyone sharing it; give each analyst a login of their own in "
                       "it (CREATE ROLE NAME LOGIN IN ROLE benchdb_reader)");
    }
    if (run_retrying(db, reader_limits_sql, &msg) != SQLITE_OK)
        bd_warning("benchdb_reader may still create large objects and take advisory locks in this database: taking "
                   "those from PUBLIC takes a superuser (%s); as one, run 'benchdb init' on this store, or the SQL "
                   "of docs/postgresql.md, \"Read-only analysis\"",
                   msg);
    free(msg);
    free(lacks);
}

