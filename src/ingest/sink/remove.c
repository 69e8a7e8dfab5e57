#include "ingest/sink/remove.h"

#include <stdlib.h>
#include <string.h>

#include "ingest/sink/statements.h"
#include "store/dialect.h"
#include "util/diag.h"

/* The connection's last error as *err (a busy store said so); -1. */
static int sql_failed(struct db *db, char **err)
{
    if (db_errcode(db) != SQLITE_BUSY)
        return bd_fail(err, "%s", db_errmsg(db));
    if (err) {
        free(*err);
        *err = sink_busy_text();
    }
    return -1;
}

static int run_sql(struct db *db, const char *sql, char **err)
{
    return db_exec(db, sql, NULL) == SQLITE_OK ? 0 : sql_failed(db, err);
}

static int count(struct db *db, const char *sql, long long *out, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "%s", db_errmsg(db));
    int rc = db_step(st);
    *out = rc == SQLITE_ROW ? db_column_int64(st, 0) : 0;
    db_finalize(st);
    return rc == SQLITE_ROW ? 0 : bd_fail(err, "%s", db_errmsg(db));
}

/* Fills rm_run and rm_archive with the target: 0, 1 when it does not exist. */
static int choose(struct db *db, const struct removal_target *t, char **err)
{
    static const char *const sql[] = {
        [REMOVE_ARCHIVE] = "INSERT INTO rm_archive SELECT id FROM archive WHERE id = ?1",
        [REMOVE_RUN] = "INSERT INTO rm_run SELECT r.id FROM run r JOIN plan p ON p.id = r.plan_id "
                       "WHERE p.name = ?2 AND r.name = ?3",
        [REMOVE_PLAN] = "INSERT INTO rm_run SELECT r.id FROM run r JOIN plan p ON p.id = r.plan_id "
                        "WHERE p.name = ?2",
    };
    struct db_stmt *st;
    if (db_prepare(db, sql[t->kind], &st) != SQLITE_OK)
        return bd_fail(err, "%s", db_errmsg(db));
    if (t->kind == REMOVE_ARCHIVE)
        db_bind_int64(st, 1, t->archive);
    else
        db_bind_text(st, 2, t->plan, -1);
    if (t->kind == REMOVE_RUN)
        db_bind_text(st, 3, t->run, -1);
    int rc = db_step(st);
    db_finalize(st);
    if (rc != SQLITE_DONE)
        return bd_fail(err, "%s", db_errmsg(db));
    long long chosen = 0;
    if (count(db, t->kind == REMOVE_ARCHIVE ? "SELECT count(*) FROM rm_archive" : "SELECT count(*) FROM rm_run", &chosen,
              err))
        return -1;
    if (chosen > 0)
        return 0;
    if (t->kind == REMOVE_ARCHIVE) {
        /* what the store holds, as a plan or run not there is said with
         * the names that are */
        long long n = 0, lo = 0, hi = 0;
        if (count(db, "SELECT count(*) FROM archive", &n, err) ||
            (n > 0 && (count(db, "SELECT min(id) FROM archive", &lo, err) ||
                       count(db, "SELECT max(id) FROM archive", &hi, err))))
            return -1;
        if (n == 0)
            bd_fail(err, "no archive %lld in the store (it holds none)", t->archive);
        else if (n == 1)
            bd_fail(err, "no archive %lld in the store (it holds one, archive %lld: 'benchdb list archives')",
                    t->archive, lo);
        else
            bd_fail(err, "no archive %lld in the store (its %lld archives have ids from %lld to %lld: 'benchdb list "
                         "archives')",
                    t->archive, n, lo, hi);
        return 1;
    }
    if (t->kind == REMOVE_RUN) {
        bd_fail(err, "no run \"%s\" of plan \"%s\" in the store", t->run, t->plan);
        return 1;
    }
    long long plans;
    struct db_stmt *q;
    if (db_prepare(db, "SELECT count(*) FROM plan WHERE name = ?", &q) != SQLITE_OK)
        return bd_fail(err, "%s", db_errmsg(db));
    db_bind_text(q, 1, t->plan, -1);
    plans = db_step(q) == SQLITE_ROW ? db_column_int64(q, 0) : 0;
    db_finalize(q);
    if (plans == 0) {
        bd_fail(err, "no plan \"%s\" in the store", t->plan);
        return 1;
    }
    return 0; /* a plan without runs: the plan row alone goes */
}

/* PostgreSQL: the plans the removal may delete, locked first. An ingest
 * reads a plan's id FOR KEY SHARE (sink/statements.c), so that either it
 * waits and then finds the plan gone (and makes it anew), or this waits
 * for its commit and then sees its run: the plan is never deleted under
 * a run being stored, nor the delete failed by one. SQLite: BEGIN
 * IMMEDIATE holds the one write lock. */
static int lock_plans(struct db *db, const struct removal_target *t, char **err)
{
    if (db_sqlite(db))
        return 0;
    struct db_stmt *st;
    const char *sql = t->kind == REMOVE_ARCHIVE
                          ? "SELECT id FROM plan WHERE id IN (SELECT plan_id FROM run WHERE archive_id = ?) "
                            "ORDER BY id FOR UPDATE"
                          : "SELECT id FROM plan WHERE name = ? FOR UPDATE";
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "%s", db_errmsg(db));
    if (t->kind == REMOVE_ARCHIVE)
        db_bind_int64(st, 1, t->archive);
    else
        db_bind_text(st, 1, t->plan, -1);
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW)
        ;
    db_finalize(st);
    if (rc == SQLITE_DONE)
        return 0;
    if (db_errcode(db) != SQLITE_BUSY)
        return bd_fail(err, "%s", db_errmsg(db));
    free(*err);
    *err = sink_busy_text();
    return -1;
}

int remove_stored(struct db *db, const struct removal_target *t, int dry_run, struct removal *out, char **err)
{
    memset(out, 0, sizeof *out);
    if (db_begin_write(db) != SQLITE_OK)
        return sql_failed(db, err);
    int rc = run_sql(db,
                     "CREATE TEMP TABLE IF NOT EXISTS rm_run(id BIGINT PRIMARY KEY);"
                     "CREATE TEMP TABLE IF NOT EXISTS rm_archive(id BIGINT PRIMARY KEY);"
                     "CREATE TEMP TABLE IF NOT EXISTS rm_plan(id BIGINT PRIMARY KEY);"
                     "DELETE FROM rm_run; DELETE FROM rm_archive; DELETE FROM rm_plan;",
                     err);
    if (rc == 0)
        rc = lock_plans(db, t, err);
    if (rc == 0)
        rc = choose(db, t, err);
    if (rc == 0) {
        if (t->kind == REMOVE_ARCHIVE)
            rc = run_sql(db, "INSERT INTO rm_run SELECT id FROM run WHERE archive_id IN (SELECT id FROM rm_archive)", err);
        /* Archives that wrote into these runs and are left with nothing. */
        if (rc == 0)
            rc = run_sql(db,
                         "INSERT INTO rm_archive SELECT a.id FROM archive a WHERE a.id IN ("
                         "  SELECT archive_id FROM run WHERE id IN (SELECT id FROM rm_run)"
                         "  UNION SELECT archive_id FROM series WHERE run_id IN (SELECT id FROM rm_run) AND archive_id IS NOT NULL"
                         "  UNION SELECT archive_id FROM event WHERE run_id IN (SELECT id FROM rm_run) AND archive_id IS NOT NULL"
                         "  UNION SELECT archive_id FROM gate WHERE run_id IN (SELECT id FROM rm_run) AND archive_id IS NOT NULL)"
                         " AND NOT EXISTS (SELECT 1 FROM run WHERE archive_id = a.id AND id NOT IN (SELECT id FROM rm_run))"
                         " AND NOT EXISTS (SELECT 1 FROM series WHERE archive_id = a.id AND run_id NOT IN (SELECT id FROM rm_run))"
                         " AND NOT EXISTS (SELECT 1 FROM event WHERE archive_id = a.id AND run_id NOT IN (SELECT id FROM rm_run))"
                         " AND NOT EXISTS (SELECT 1 FROM gate WHERE archive_id = a.id AND run_id NOT IN (SELECT id FROM rm_run))"
                         " ON CONFLICT DO NOTHING",
                         err);
    }
    if (rc == 0) { /* plans left without runs */
        struct db_stmt *st;
        if (db_prepare(db,
                               "INSERT INTO rm_plan SELECT p.id FROM plan p WHERE (p.id IN (SELECT plan_id FROM "
                               "run WHERE id IN (SELECT id FROM rm_run)) OR (?1 = 1 AND p.name = ?2)) AND NOT EXISTS (SELECT 1 FROM "
                               "run WHERE plan_id = p.id AND id NOT IN (SELECT id FROM rm_run))", &st) != SQLITE_OK) {
            rc = bd_fail(err, "%s", db_errmsg(db));
        } else {
            db_bind_int(st, 1, t->kind == REMOVE_PLAN);
            db_bind_text(st, 2, t->plan ? t->plan : "", -1);
            if (db_step(st) != SQLITE_DONE)
                rc = bd_fail(err, "%s", db_errmsg(db));
            db_finalize(st);
        }
    }
#define SERIES_GONE "(SELECT id FROM series WHERE run_id IN (SELECT id FROM rm_run) OR archive_id IN (SELECT id FROM rm_archive))"
    if (rc == 0)
        rc = count(db, "SELECT count(*) FROM rm_archive", &out->archives, err) ||
             count(db, "SELECT count(*) FROM rm_run", &out->runs, err) ||
             count(db, "SELECT count(*) FROM " SERIES_GONE " AS g", &out->series, err) ||
             count(db, "SELECT count(*) FROM sample WHERE series_id IN " SERIES_GONE, &out->samples, err) ||
             count(db, "SELECT count(*) FROM gate WHERE run_id IN (SELECT id FROM rm_run) OR archive_id IN (SELECT id FROM rm_archive)",
                   &out->gates, err) ||
             count(db, "SELECT count(*) FROM event WHERE run_id IN (SELECT id FROM rm_run) OR archive_id IN (SELECT id FROM rm_archive)",
                   &out->events, err) ||
             count(db, "SELECT count(*) FROM archive_member WHERE archive_id IN (SELECT id FROM rm_archive)", &out->members, err) ||
             count(db, "SELECT count(*) FROM archive_chunk WHERE archive_id IN (SELECT id FROM rm_archive)", &out->chunks, err) ||
             count(db, "SELECT count(*) FROM rm_plan", &out->plans, err)
                 ? -1
                 : 0;
    if (rc == 0 && !dry_run)
        rc = run_sql(db,
                     "DELETE FROM run WHERE id IN (SELECT id FROM rm_run);"
                     "DELETE FROM archive WHERE id IN (SELECT id FROM rm_archive);"
                     "DELETE FROM plan WHERE id IN (SELECT id FROM rm_plan);",
                     err);
    if (rc == 0 && !dry_run)
        rc = run_sql(db, "COMMIT", err);
    else
        db_exec(db, "ROLLBACK", NULL);
    return rc;
}
