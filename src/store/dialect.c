/* What differs between the engines (store/dialect.h), in one place. */
#include "store/dialect.h"

#include "store/db_internal.h"

/* run_cell_data of the runs an archive opened or added series to, as the
 * insert trigger would have kept it (PostgreSQL's benchdb_ingest_finish()
 * runs the same two statements). */
#define CELLS_DELETE                                                                                           \
    "DELETE FROM run_cell_data WHERE run_id IN "                                                               \
    "(SELECT id FROM run WHERE archive_id = ?1 UNION SELECT run_id FROM series WHERE archive_id = ?1)"
#define CELLS_INSERT                                                                                           \
    "INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments) "                      \
    "SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), "                   \
    "moments(log_ratio) FROM block_ratio "                                                                     \
    "WHERE run_id IN (SELECT id FROM run WHERE archive_id = ?1 "                                               \
    "UNION SELECT run_id FROM series WHERE archive_id = ?1) GROUP BY run_id, benchmark_id"

/* SQLite: the mark is a row of ingest_defer, which the insert triggers of
 * run_cell_data (migration 0007), and of block_score_data (migration 0008)
 * and history_point_data (migration 0012, history_insert below) for the
 * series of the runs the archive opened (archive_id NULL), read. The
 * block scores are the trigger's SELECT over those runs: the series'
 * unique index, read by run in key order, gives each block's series in
 * fork order, the order the trigger sums them in (no sorter; benchdb check
 * compares the rows with a fresh aggregate, to the bit). */
#define SCORES_INSERT                                                                                          \
    "INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit) "                    \
    "SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit) FROM series "      \
    "WHERE run_id IN (SELECT id FROM run WHERE archive_id = ?1) AND archive_id IS NULL AND metric = 'primary' " \
    "GROUP BY run_id, benchmark_id, block, variant_id"
/* A history point of a run the archive opened, as the insert trigger
 * series_insert_history (schema/schema.sql) would have left it after the
 * point's last series: the same SELECT from run (its start time read by
 * the same expression), the point's series count, n, total (the series'
 * totals added left to right in the order they were stored, as the
 * trigger added them; src/ingest/sink/history.c) and first unit bound.
 * Nothing can have stored the point before (its run is this archive's),
 * so a plain INSERT: a row already there would be an error, not a sum. */
#define SQLITE_HISTORY_STARTED                                                                                 \
    "strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(r.started_at, 18, 2) = '60' THEN "                          \
    "upper(substr(r.started_at, 1, 17) || '59' || substr(r.started_at, 20)) ELSE upper(r.started_at) END)"
#define HISTORY_INSERT                                                                                         \
    "INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, "     \
    "series, n, total, unit) "                                                                                 \
    "SELECT r.id, ?2, ?3, ?4, r.host_id, " SQLITE_HISTORY_STARTED ", r.position, ?5, ?6, ?7, ?8 "              \
    "FROM run AS r WHERE r.id = ?1"
static const char *const sqlite_defer_finish[] = {SCORES_INSERT, CELLS_DELETE, CELLS_INSERT,
                                                  "DELETE FROM ingest_defer WHERE archive_id = ?1", NULL};

/* PostgreSQL: the mark is the transaction's own setting, which the insert
 * triggers' WHEN clauses read without a function call per row; the series
 * of the runs the archive opened (archive_id NULL) skip the triggers of
 * block_score_data and history_point_data too. What they left is computed
 * by the schema's benchdb_ingest_finish() in one round trip (the same
 * statements as above and the triggers' SELECTs; schema/benchdb.schema
 * says which plans it keeps), which clears the mark. Nothing is named on
 * the server (PL/pgSQL keeps the function's plans for the session), so
 * an ingest works through a pooler that does not keep prepared
 * statements. */
static const char *const pg_defer_finish[] = {"SELECT benchdb_ingest_finish(CAST(?1 AS BIGINT))", NULL};

static const struct db_dialect sqlite_dialect = {
    .time_valid = "SELECT julianday(?1) IS NOT NULL",
    .time_precedes = "SELECT julianday(?1) < julianday(?2)",
    .in_fork_order = "",
    .name_lock = "",
    .defer_mark = "INSERT INTO ingest_defer(archive_id) VALUES (?1)",
    .defer_finish = sqlite_defer_finish,
    .history_insert = HISTORY_INSERT,
    .history_started = SQLITE_HISTORY_STARTED,
    .names_again = NULL,
    .archive_open = NULL,
    .archive_close = NULL,
    .look_up_before_begin = 1,
    .returning_id = "",
    .has_roles = 0,
};

/* Times through benchdb_started() (schema/postgresql.sql): SQLite's
 * reading of a date and time, its milliseconds, NULL where SQLite's
 * julianday() is NULL, so that the same texts are times, in the same
 * order, on both engines (a cast to timestamptz would refuse some with an
 * error and read others SQLite does not). */
static const struct db_dialect pg_dialect = {
    .time_valid = "SELECT CAST(benchdb_started(?1) IS NOT NULL AS INTEGER)",
    .time_precedes = "SELECT CAST(benchdb_started(?1) < benchdb_started(?2) AS INTEGER)",
    .in_fork_order = " ORDER BY fork",
    .name_lock = " FOR KEY SHARE",
    .defer_mark = "SELECT set_config('benchdb.ingest_defer', CAST(CAST(?1 AS BIGINT) AS TEXT), true)",
    .defer_finish = pg_defer_finish,
    .history_insert = NULL,
    .history_started = "history_started(r.started_at)",
    /* Arrays, not JSON (parsed in a third of the time); the schema's
     * function keeps its plans for the session (planning this as one
     * statement took 0.1 ms an archive). */
    .names_again = "SELECT kind, row_id, row_name, row_params FROM benchdb_names_again(CAST(?1 AS TEXT[]), "
                   "CAST(?2 AS TEXT[]), CAST(?3 AS TEXT[]), CAST(?4 AS TEXT[]))",
    /* Six statements of an archive as two calls (migration 0011_ingest_calls). */
    .archive_open = "SELECT kind, row_id, row_name, row_params FROM benchdb_archive_open(CAST(?1 AS BIGINT), "
                    "CAST(?2 AS TEXT), CAST(?3 AS TEXT), CAST(?4 AS TEXT), CAST(?5 AS TEXT), CAST(?6 AS TEXT), "
                    "CAST(?7 AS TEXT[]), CAST(?8 AS TEXT[]), CAST(?9 AS TEXT[]), CAST(?10 AS TEXT[]))",
    .archive_close = "SELECT benchdb_archive_close(CAST(?1 AS BIGINT), CAST(?2 AS TEXT), CAST(?3 AS BIGINT), "
                     "CAST(?4 AS TEXT), CAST(?5 AS BIGINT))",
    .look_up_before_begin = 0,
    .returning_id = " RETURNING id",
    .has_roles = 1,
};

const struct db_dialect *db_dialect(const struct db *db)
{
    return db->engine == DB_POSTGRESQL ? &pg_dialect : &sqlite_dialect;
}

int db_begin_write(struct db *db) { return db_exec(db, db->engine == DB_POSTGRESQL ? "BEGIN" : "BEGIN IMMEDIATE", NULL); }

int db_begin_write_later(struct db *db)
{
    return db->engine == DB_POSTGRESQL ? db_exec_later(db, "BEGIN") : db_begin_write(db);
}

int db_lock_key(struct db *db, long long key)
{
    if (db->engine == DB_SQLITE)
        return SQLITE_OK;
    struct db_stmt *st = NULL;
    int rc = db_prepare(db, "SELECT pg_advisory_xact_lock(?)", &st);
    if (rc == SQLITE_OK && (rc = db_bind_int64(st, 1, key)) == SQLITE_OK)
        rc = db_step_later(st);
    db_finalize(st);
    return rc;
}

int db_tune_for_writing(struct db *db)
{
    if (db->engine == DB_POSTGRESQL)
        return SQLITE_OK;
    return db_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8192", NULL);
}

int db_step_insert_id(struct db_stmt *st, sqlite3_int64 *id)
{
    *id = 0;
    if (st->db->engine == DB_POSTGRESQL) {
        int rc = db_step(st);
        if (rc == SQLITE_ROW)
            *id = db_column_int64(st, 0);
        return rc;
    }
    int rc = sqlite3_step(st->lite);
    if (rc == SQLITE_ROW) { /* written with RETURNING after all: its row, as on a server */
        *id = sqlite3_column_int64(st->lite, 0);
    } else if (rc == SQLITE_DONE && sqlite3_changes(st->db->lite) > 0) {
        *id = sqlite3_last_insert_rowid(st->db->lite);
        rc = SQLITE_ROW;
    }
    return rc;
}

int db_can_copy(const struct db *db) { return db->engine == DB_POSTGRESQL; }

const char *db_filename(const struct db *db)
{
    const char *f = db->engine == DB_SQLITE ? sqlite3_db_filename(db->lite, "main") : NULL;
    return f && *f ? f : NULL;
}

int db_system_errno(const struct db *db) { return db->engine == DB_SQLITE ? sqlite3_system_errno(db->lite) : 0; }

size_t db_max_value_bytes(const struct db *db)
{
    /* PostgreSQL keeps up to 1 GB in a text value. */
    if (db->engine == DB_POSTGRESQL)
        return ((size_t)1 << 30) - 1;
    return (size_t)sqlite3_limit(db->lite, SQLITE_LIMIT_LENGTH, -1);
}
