/* Whether this session's role may change a store on a server, asked
 * before a command that exists to write reads anything, and said one way
 * by every such command (docs/postgresql.md, "Read-only analysis"): who
 * the role is, and who writes the store. */
#include <stdlib.h>
#include <string.h>

#include "store/db_internal.h"
#include "store/store.h"
#include "util/diag.h"

/* Who the session is (me), whether it is a member of benchdb_reader,
 * the owner of the store's tables and whether the session acts as it (a
 * member of it, or a superuser), and whether it may take the lock an
 * ingest takes. pg_has_role fails on a role that does not exist: asked
 * only of one that does. */
struct who {
    char *me, *owner;
    int reader, owns, lock;
};

static const char who_sql[] =
    "SELECT CAST(current_user AS TEXT), "
    "CASE WHEN (SELECT pg_has_role(current_user, r.oid, 'MEMBER') FROM pg_roles AS r "
    "WHERE r.rolname = 'benchdb_reader') THEN 1 ELSE 0 END, "
    "(SELECT CAST(tableowner AS TEXT) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'archive'), "
    "CASE WHEN (SELECT pg_has_role(current_user, c.relowner, 'MEMBER') FROM pg_class AS c "
    "WHERE c.oid = to_regclass('archive')) THEN 1 ELSE 0 END, "
    "CASE WHEN has_function_privilege('pg_advisory_xact_lock(bigint)', 'EXECUTE') THEN 1 ELSE 0 END";

static char *column_dup(struct db_stmt *st, int i)
{
    const char *t = (const char *)db_column_text(st, i);
    return t ? strdup(t) : NULL;
}

static void who_free(struct who *w)
{
    free(w->me);
    free(w->owner);
}

static int who_is(struct db *db, struct who *w, char **err)
{
    *w = (struct who){0};
    struct db_stmt *st = NULL;
    int rc = db_prepare(db, who_sql, &st) != SQLITE_OK || db_step(st) != SQLITE_ROW
                 ? bd_fail(err, "cannot tell whether this role may write the store: %s", db_errmsg(db))
                 : 0;
    if (rc == 0) {
        w->me = column_dup(st, 0);
        w->reader = db_column_int(st, 1);
        w->owner = column_dup(st, 2);
        w->owns = db_column_int(st, 3);
        w->lock = db_column_int(st, 4);
        if (!w->me)
            rc = bd_fail(err, "out of memory");
    }
    db_finalize(st);
    return rc;
}

/* Whether the session holds privilege on table (NULL: INSERT, UPDATE or
 * DELETE on any table of the store): 1, 0, or -1 with *err. */
static int holds(struct db *db, const char *privilege, const char *table, char **err)
{
    struct db_stmt *st = NULL;
    int rc = table ? db_prepare(db,
                                "SELECT CASE WHEN has_table_privilege(CAST(?1 AS TEXT), CAST(?2 AS TEXT)) "
                                "THEN 1 ELSE 0 END",
                                &st)
                   : db_prepare(db,
                                "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_class AS c WHERE c.relnamespace = "
                                "CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'p') AND "
                                "has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE')) THEN 1 ELSE 0 END",
                                &st);
    if (rc == SQLITE_OK && table)
        rc = db_bind_text(st, 1, table, -1) == SQLITE_OK ? db_bind_text(st, 2, privilege, -1) : SQLITE_ERROR;
    int yes = rc == SQLITE_OK && db_step(st) == SQLITE_ROW
                  ? db_column_int(st, 0)
                  : bd_fail(err, "cannot tell whether this role may write the store: %s", db_errmsg(db));
    db_finalize(st);
    return yes;
}

/* "the role ana may only read this store (a member of benchdb_reader); it
 * is written by the role ci, which owns its tables: connect as ci or a
 * member of it", or, for a role that is no reader but lacks what it needs,
 * "the role ana may not write this store (it has no LACKS)" and the same
 * end. -1 with *err. */
static int refuse(const struct who *w, const char *lacks, char **err)
{
    char *who = w->owner ? bd_strdupf("; it is written by the role %s, which owns its tables: connect as %s or a "
                                      "member of it",
                                      w->owner, w->owner)
                         : NULL;
    if (w->reader)
        bd_fail(err, "the role %s may only read this store (a member of benchdb_reader)%s", w->me, who ? who : "");
    else
        bd_fail(err, "the role %s may not write this store (it has no %s)%s", w->me, lacks, who ? who : "");
    free(who);
    return -1;
}

int store_may_change(struct db *db, const char *privilege, const char *table, char **err)
{
    if (db_engine(db) != DB_POSTGRESQL)
        return 0;
    int yes = holds(db, privilege, table, err);
    if (yes != 0)
        return yes < 0 ? -1 : 0;
    struct who w;
    if (who_is(db, &w, err))
        return -1;
    char *lacks = table ? bd_strdupf("%s on its table %s", privilege, table)
                        : strdup("INSERT, UPDATE or DELETE on any of its tables");
    int rc = refuse(&w, lacks ? lacks : "privilege", err);
    free(lacks);
    who_free(&w);
    return rc;
}

int store_may_write(struct db *db, char **err)
{
    if (store_may_change(db, "INSERT", "archive", err))
        return -1;
    if (db_engine(db) != DB_POSTGRESQL)
        return 0;
    struct who w;
    if (who_is(db, &w, err))
        return -1;
    int rc = 0;
    /* init grants the lock to each role that may insert archives then;
     * one made later lacks it (docs/postgresql.md) */
    if (!w.lock)
        rc = bd_fail(err, "the role %s may add archives but not take the lock an ingest takes on each "
                          "(pg_advisory_xact_lock): a role granted its writes after 'benchdb init' gets it from "
                          "'benchdb init' run again on this store as a superuser",
                     w.me);
    who_free(&w);
    return rc;
}

int store_may_own(struct db *db, const char *needing, char **err)
{
    if (db_engine(db) != DB_POSTGRESQL)
        return 0;
    struct who w;
    if (who_is(db, &w, err))
        return -1;
    int rc = 0;
    if (!w.owns && w.reader)
        rc = refuse(&w, NULL, err);
    else if (!w.owns)
        rc = bd_fail(err, "the role %s does not own this store's tables, which %s takes; the role %s owns them: "
                          "connect as %s or a member of it",
                     w.me, needing, w.owner ? w.owner : "?", w.owner ? w.owner : "?");
    who_free(&w);
    return rc;
}

int store_may_migrate(struct db *db, int from, int to, char **err)
{
    if (db_engine(db) != DB_POSTGRESQL || from == 0)
        return 0;
    struct who w;
    if (who_is(db, &w, err))
        return -1;
    int rc = 0;
    if (!w.owns && w.reader)
        rc = bd_fail(err, "the store's schema is at version %d and needs migrations up to %d, which the role %s may "
                          "not apply: it may only read this store (a member of benchdb_reader); the role %s owns its "
                          "tables: connect as %s or a member of it and run 'benchdb migrate'",
                     from, to, w.me, w.owner ? w.owner : "?", w.owner ? w.owner : "?");
    else if (!w.owns)
        rc = bd_fail(err, "the store's schema is at version %d and needs migrations up to %d, which only the owner "
                          "of its tables applies (or a superuser), the role %s, not %s: connect as %s or a member of "
                          "it and run 'benchdb migrate'",
                     from, to, w.owner ? w.owner : "?", w.me, w.owner ? w.owner : "?");
    who_free(&w);
    return rc;
}
