#include "ingest/sink/remove.h"

#include <stdlib.h>
#include <string.h>

#include "ingest/sink/statements.h"
#include "util/diag.h"

static int run_sql(sqlite3 *db, const char *sql, char **err)
{
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    if ((sqlite3_errcode(db) & 0xff) != SQLITE_BUSY)
        return bd_fail(err, "%s", sqlite3_errmsg(db));
    if (err) {
        free(*err);
        *err = sink_busy_text();
    }
    return -1;
}

static int count(sqlite3 *db, const char *sql, long long *out, char **err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return bd_fail(err, "%s", sqlite3_errmsg(db));
    int rc = sqlite3_step(st);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : bd_fail(err, "%s", sqlite3_errmsg(db));
}

/* Fills rm_run and rm_archive with the target: 0, 1 when it does not exist. */
static int choose(sqlite3 *db, const struct removal_target *t, char **err)
{
    static const char *const sql[] = {
        [REMOVE_ARCHIVE] = "INSERT INTO temp.rm_archive SELECT id FROM archive WHERE id = ?1",
        [REMOVE_RUN] = "INSERT INTO temp.rm_run SELECT r.id FROM run r JOIN plan p ON p.id = r.plan_id "
                       "WHERE p.name = ?2 AND r.name = ?3",
        [REMOVE_PLAN] = "INSERT INTO temp.rm_run SELECT r.id FROM run r JOIN plan p ON p.id = r.plan_id "
                        "WHERE p.name = ?2",
    };
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql[t->kind], -1, &st, NULL) != SQLITE_OK)
        return bd_fail(err, "%s", sqlite3_errmsg(db));
    if (t->kind == REMOVE_ARCHIVE)
        sqlite3_bind_int64(st, 1, t->archive);
    else
        sqlite3_bind_text(st, 2, t->plan, -1, SQLITE_STATIC);
    if (t->kind == REMOVE_RUN)
        sqlite3_bind_text(st, 3, t->run, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return bd_fail(err, "%s", sqlite3_errmsg(db));
    if (sqlite3_changes(db) > 0)
        return 0;
    if (t->kind == REMOVE_ARCHIVE) {
        bd_fail(err, "no archive %lld in the store", t->archive);
        return 1;
    }
    if (t->kind == REMOVE_RUN) {
        bd_fail(err, "no run \"%s\" of plan \"%s\" in the store", t->run, t->plan);
        return 1;
    }
    long long plans;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM plan WHERE name = ?", -1, &q, NULL) != SQLITE_OK)
        return bd_fail(err, "%s", sqlite3_errmsg(db));
    sqlite3_bind_text(q, 1, t->plan, -1, SQLITE_STATIC);
    plans = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    if (plans == 0) {
        bd_fail(err, "no plan \"%s\" in the store", t->plan);
        return 1;
    }
    return 0; /* a plan without runs: the plan row alone goes */
}

int remove_stored(sqlite3 *db, const struct removal_target *t, int dry_run, struct removal *out, char **err)
{
    memset(out, 0, sizeof *out);
    if (run_sql(db, "BEGIN IMMEDIATE", err))
        return -1;
    int rc = run_sql(db,
                     "CREATE TEMP TABLE IF NOT EXISTS rm_run(id INTEGER PRIMARY KEY);"
                     "CREATE TEMP TABLE IF NOT EXISTS rm_archive(id INTEGER PRIMARY KEY);"
                     "CREATE TEMP TABLE IF NOT EXISTS rm_plan(id INTEGER PRIMARY KEY);"
                     "DELETE FROM temp.rm_run; DELETE FROM temp.rm_archive; DELETE FROM temp.rm_plan;",
                     err);
    if (rc == 0)
        rc = choose(db, t, err);
    if (rc == 0) {
        if (t->kind == REMOVE_ARCHIVE)
            rc = run_sql(db, "INSERT INTO temp.rm_run SELECT id FROM run WHERE archive_id IN temp.rm_archive", err);
        /* Archives that wrote into these runs and are left with nothing. */
        if (rc == 0)
            rc = run_sql(db,
                         "INSERT OR IGNORE INTO temp.rm_archive SELECT a.id FROM archive a WHERE a.id IN ("
                         "  SELECT archive_id FROM run WHERE id IN temp.rm_run"
                         "  UNION SELECT archive_id FROM series WHERE run_id IN temp.rm_run AND archive_id IS NOT NULL"
                         "  UNION SELECT archive_id FROM event WHERE run_id IN temp.rm_run AND archive_id IS NOT NULL"
                         "  UNION SELECT archive_id FROM gate WHERE run_id IN temp.rm_run AND archive_id IS NOT NULL)"
                         " AND NOT EXISTS (SELECT 1 FROM run WHERE archive_id = a.id AND id NOT IN temp.rm_run)"
                         " AND NOT EXISTS (SELECT 1 FROM series WHERE archive_id = a.id AND run_id NOT IN temp.rm_run)"
                         " AND NOT EXISTS (SELECT 1 FROM event WHERE archive_id = a.id AND run_id NOT IN temp.rm_run)"
                         " AND NOT EXISTS (SELECT 1 FROM gate WHERE archive_id = a.id AND run_id NOT IN temp.rm_run)",
                         err);
    }
    if (rc == 0) { /* plans left without runs */
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db,
                               "INSERT INTO temp.rm_plan SELECT p.id FROM plan p WHERE (p.id IN (SELECT plan_id FROM "
                               "run WHERE id IN temp.rm_run) OR (?1 AND p.name = ?2)) AND NOT EXISTS (SELECT 1 FROM "
                               "run WHERE plan_id = p.id AND id NOT IN temp.rm_run)",
                               -1, &st, NULL) != SQLITE_OK) {
            rc = bd_fail(err, "%s", sqlite3_errmsg(db));
        } else {
            sqlite3_bind_int(st, 1, t->kind == REMOVE_PLAN);
            sqlite3_bind_text(st, 2, t->plan ? t->plan : "", -1, SQLITE_STATIC);
            if (sqlite3_step(st) != SQLITE_DONE)
                rc = bd_fail(err, "%s", sqlite3_errmsg(db));
            sqlite3_finalize(st);
        }
    }
#define SERIES_GONE "(SELECT id FROM series WHERE run_id IN temp.rm_run OR archive_id IN temp.rm_archive)"
    if (rc == 0)
        rc = count(db, "SELECT count(*) FROM temp.rm_archive", &out->archives, err) ||
             count(db, "SELECT count(*) FROM temp.rm_run", &out->runs, err) ||
             count(db, "SELECT count(*) FROM " SERIES_GONE, &out->series, err) ||
             count(db, "SELECT count(*) FROM sample WHERE series_id IN " SERIES_GONE, &out->samples, err) ||
             count(db, "SELECT count(*) FROM gate WHERE run_id IN temp.rm_run OR archive_id IN temp.rm_archive",
                   &out->gates, err) ||
             count(db, "SELECT count(*) FROM event WHERE run_id IN temp.rm_run OR archive_id IN temp.rm_archive",
                   &out->events, err) ||
             count(db, "SELECT count(*) FROM archive_member WHERE archive_id IN temp.rm_archive", &out->members, err) ||
             count(db, "SELECT count(*) FROM archive_chunk WHERE archive_id IN temp.rm_archive", &out->chunks, err) ||
             count(db, "SELECT count(*) FROM temp.rm_plan", &out->plans, err)
                 ? -1
                 : 0;
    if (rc == 0 && !dry_run)
        rc = run_sql(db,
                     "DELETE FROM run WHERE id IN temp.rm_run;"
                     "DELETE FROM archive WHERE id IN temp.rm_archive;"
                     "DELETE FROM plan WHERE id IN temp.rm_plan;",
                     err);
    if (rc == 0 && !dry_run)
        rc = run_sql(db, "COMMIT", err);
    else
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}
