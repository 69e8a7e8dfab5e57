/* The sink's state: statements prepared once per command (on first use),
 * transactions, the id caches of names and cells (each for one
 * transaction). */
#include "ingest/sink/statements.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "util/diag.h"

const char sink_primary_metric[] = "primary";

#define SERIES_INSERT                                                                                          \
    "INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total, metric, member_id, detail, " \
    "archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

const char *const sink_stmt_sql[S_SAMPLES] = {
    [S_ARCHIVE_BY_SHA] = "SELECT id, name FROM archive WHERE sha256 = ?",
    [S_ARCHIVE_INSERT] = "INSERT INTO archive(sha256, name, size, format, content_encoding, stored_size, "
                         "ingested_at, tool_version) VALUES (?, ?, 0, ?, 'zstd', 0, ?, ?)",
    [S_ARCHIVE_UPDATE] = "UPDATE archive SET sha256 = ?, size = ?, content_encoding = ?, stored_size = ? WHERE id = ?",
    [S_ARCHIVE_FORMAT] = "UPDATE archive SET format = ? WHERE id = ?",
    [S_ARCHIVE_DELETE_EMPTY] = "DELETE FROM archive WHERE id = ?1 AND NOT EXISTS "
                               "(SELECT 1 FROM run WHERE archive_id = ?1) AND NOT EXISTS "
                               "(SELECT 1 FROM series WHERE archive_id = ?1) AND NOT EXISTS "
                               "(SELECT 1 FROM event WHERE archive_id = ?1) AND NOT EXISTS "
                               "(SELECT 1 FROM gate WHERE archive_id = ?1)",
    [S_PLAN_GET] = "SELECT id FROM plan WHERE name = ?",
    [S_PLAN_INSERT] = "INSERT INTO plan(name) VALUES (?)",
    [S_HOST_GET] = "SELECT id FROM host WHERE name = ?",
    [S_HOST_INSERT] = "INSERT INTO host(name) VALUES (?)",
    [S_VARIANT_GET] = "SELECT id FROM variant WHERE name = ?",
    [S_VARIANT_INSERT] = "INSERT INTO variant(name) VALUES (?)",
    [S_BENCH_GET] = "SELECT id FROM benchmark WHERE name = ? AND params = ?",
    [S_BENCH_INSERT] = "INSERT INTO benchmark(name, params) VALUES (?, ?)",
    [S_RUN_FIND] = "SELECT r.id, a.id, a.name, h.name, r.position, r.source, r.started_at, r.ended_at, "
                   "t.name, b.name, r.attributes FROM run r JOIN archive a ON a.id = r.archive_id "
                   "JOIN host h ON h.id = r.host_id LEFT JOIN variant t ON t.id = r.treatment_id "
                   "LEFT JOIN variant b ON b.id = r.baseline_id WHERE r.plan_id = ? AND r.name = ?",
    [S_RUN_APPENDED_BY] = "SELECT a.id, a.name FROM archive a WHERE a.id IN "
                          "(SELECT archive_id FROM series WHERE run_id = ?1 AND archive_id IS NOT NULL "
                          "UNION SELECT archive_id FROM event WHERE run_id = ?1 AND archive_id IS NOT NULL "
                          "UNION SELECT archive_id FROM gate WHERE run_id = ?1 AND archive_id IS NOT NULL) "
                          "ORDER BY a.id LIMIT 1",
    [S_RUN_DELETE] = "DELETE FROM run WHERE id = ?",
    [S_RUN_INSERT] = "INSERT INTO run(plan_id, name, host_id, position, source, started_at, ended_at, "
                     "treatment_id, baseline_id, attributes, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [S_RUN_ATTRS_SET] = "UPDATE run SET attributes = ? WHERE id = ?",
    [S_RUN_START_SET] = "UPDATE run SET started_at = ? WHERE id = ?",
    [S_RUN_SOURCE_SET] = "UPDATE run SET source = ? WHERE id = ? AND source IS NULL",
    [S_SERIES_INSERT] = SERIES_INSERT,
    [S_SERIES_FIND] = "SELECT s.id, a.id, a.name FROM series s JOIN run r ON r.id = s.run_id "
                      "JOIN archive a ON a.id = coalesce(s.archive_id, r.archive_id) WHERE s.run_id = ? "
                      "AND s.benchmark_id = ? AND s.block = ? AND s.variant_id = ? AND s.fork = ? AND s.metric = ?",
    [S_SERIES_UNIT] = "SELECT unit FROM series WHERE run_id = ? AND benchmark_id = ? AND variant_id = ? "
                      "AND metric = ? LIMIT 1",
    [S_GATE_INSERT] = "INSERT INTO gate(run_id, name, passed, at, detail, archive_id) VALUES (?, ?, ?, ?, ?, ?)",
    [S_EVENT_INSERT] = "INSERT INTO event(run_id, name, value, at, detail, archive_id) VALUES (?, ?, ?, ?, ?, ?)",
    [S_CHUNK_INSERT] = "INSERT INTO archive_chunk(archive_id, seq, data) VALUES (?, ?, ?)",
    [S_MEMBER_INSERT] = "INSERT INTO archive_member(archive_id, path, sha256, size) VALUES (?, ?, ?, ?)",
    [S_MEMBER_FORMAT] = "UPDATE archive_member SET format = ? WHERE id = ?",
    /* run_cell_data once per archive (migration 0007, table ingest_defer):
     * the per-row trigger stands aside while the row is there; the rows of
     * every run this archive opened or gave series are computed before the
     * commit. */
    [S_DEFER_BEGIN] = "INSERT INTO ingest_defer(archive_id) VALUES (?)",
    [S_CELLS_DELETE] = "DELETE FROM run_cell_data WHERE run_id IN "
                       "(SELECT id FROM run WHERE archive_id = ?1 UNION SELECT run_id FROM series WHERE archive_id = ?1)",
    [S_CELLS_INSERT] = "INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments) "
                       "SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), "
                       "moments(log_ratio) FROM block_ratio "
                       "WHERE run_id IN (SELECT id FROM run WHERE archive_id = ?1 "
                       "UNION SELECT run_id FROM series WHERE archive_id = ?1) GROUP BY run_id, benchmark_id",
    [S_DEFER_END] = "DELETE FROM ingest_defer WHERE archive_id = ?",
    [S_UNIT_KIND] = "SELECT kind FROM unit WHERE name = ?",
    [S_UNIT_ADD] = "INSERT INTO unit(name, kind, factor, direction) VALUES (?, 'other', 1, NULL)",
};

/* What differs on PostgreSQL, where several ingests write at once: a
 * name or unit another ingest is inserting is waited for, then read (the
 * UNIQUE key would refuse it otherwise). */
const char *const sink_stmt_sql_pg[S_SAMPLES] = {
    /* A name's row, once read, stays until the commit: another process's
     * delete (benchdb delete removes a plan left without runs) waits for
     * the transaction instead of removing the row under it (the run's or
     * series' foreign key would then fail, or a new row reuse nothing:
     * PostgreSQL's ids are not reused, but what was read must still be
     * there). Ingests only share the lock. */
    [S_PLAN_GET] = "SELECT id FROM plan WHERE name = ? FOR KEY SHARE",
    [S_HOST_GET] = "SELECT id FROM host WHERE name = ? FOR KEY SHARE",
    [S_VARIANT_GET] = "SELECT id FROM variant WHERE name = ? FOR KEY SHARE",
    [S_BENCH_GET] = "SELECT id FROM benchmark WHERE name = ? AND params = ? FOR KEY SHARE",
    [S_PLAN_INSERT] = "INSERT INTO plan(name) VALUES (?) ON CONFLICT (name) DO NOTHING",
    [S_HOST_INSERT] = "INSERT INTO host(name) VALUES (?) ON CONFLICT (name) DO NOTHING",
    [S_VARIANT_INSERT] = "INSERT INTO variant(name) VALUES (?) ON CONFLICT (name) DO NOTHING",
    [S_BENCH_INSERT] = "INSERT INTO benchmark(name, params) VALUES (?, ?) ON CONFLICT (name, params) DO NOTHING",
    [S_UNIT_ADD] = "INSERT INTO unit(name, kind, factor, direction) VALUES (?, 'other', 1, NULL) "
                   "ON CONFLICT (name) DO NOTHING",
    [S_SERIES_INSERT] = SERIES_INSERT " ON CONFLICT DO NOTHING RETURNING id",
    /* The archive's deferral is the transaction's own setting, which the
     * insert triggers' WHEN clauses read without a function call per row
     * (migrations/postgresql/0007): block_score_data and
     * history_point_data of the series of the runs it opened (archive_id
     * NULL) are computed before the commit too, from the same SELECTs as
     * the triggers' (the scores' totals summed in fork order, a point's in
     * the order its series were stored: their ids), each run's start time
     * parsed once. */
    [S_DEFER_BEGIN] = "SELECT set_config('benchdb.ingest_defer', CAST(CAST(? AS BIGINT) AS TEXT), true)",
    [S_DEFER_END] = "SELECT set_config('benchdb.ingest_defer', '', true), CAST(? AS BIGINT)",
    [S_SERIES_IDS] = "SELECT nextval((SELECT CAST(pg_get_serial_sequence('series', 'id') AS regclass))) "
                     "FROM generate_series(1, CAST(? AS BIGINT)) ORDER BY 1",
    [S_SCORES_INSERT] = "INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit) "
                        "SELECT s.run_id, s.benchmark_id, s.block, s.variant_id, sum(s.total ORDER BY s.fork) / sum(s.n), "
                        "sum(s.n), min(s.unit) FROM series AS s JOIN run AS r ON r.id = s.run_id "
                        "WHERE r.archive_id = ? AND s.archive_id IS NULL AND s.metric = 'primary' "
                        "GROUP BY s.run_id, s.benchmark_id, s.block, s.variant_id",
    [S_POINTS_INSERT] = "WITH r AS MATERIALIZED (SELECT id, host_id, position, history_started(started_at) AS started "
                        "FROM run WHERE archive_id = ?) "
                        "INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, "
                        "position, series, n, total, unit) "
                        "SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, min(r.host_id), min(r.started), "
                        "min(r.position), count(*), sum(s.n), sum(s.total ORDER BY s.id), "
                        "(array_agg(s.unit ORDER BY s.id))[1] FROM series AS s JOIN r ON r.id = s.run_id "
                        "WHERE s.archive_id IS NULL GROUP BY s.run_id, s.benchmark_id, s.variant_id, s.metric",
};

/* ---- failing ---- */

int sink_fail_sql(struct sink *s)
{
    /* SQLITE_FULL: SQLite's "database or disk is full". The store has no
     * page limit (max_page_count is not set, and does not persist), so it
     * is the disk (or a quota); said plainly, SQLite's words kept. */
    int sys = db_sqlite(s->db) ? sqlite3_system_errno(db_sqlite(s->db)) : 0, code = db_errcode(s->db);
    if (code == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT)
        return ingest_report_fail(s->rep, NULL, "cannot store: the disk is full (%s)", db_errmsg(s->db));
    if (code == SQLITE_BUSY) { /* SQLite's "database is locked", after the busy timeout */
        char *busy = sink_busy_text();
        ingest_report_fail(s->rep, NULL, "%s", busy);
        free(busy);
        return -1;
    }
    return ingest_report_fail(s->rep, NULL, "cannot store: %s", db_errmsg(s->db));
}

char *sink_busy_text(void)
{
    int ms = store_busy_timeout_ms(NULL);
    return bd_strdupf("the store is busy: another process holds its write lock (waited %g s; $BENCHDB_BUSY_TIMEOUT "
                      "raises it)",
                      (ms < 0 ? STORE_BUSY_TIMEOUT_MS : ms) / 1000.0);
}

/* Steps a statement whose row (if any) is not needed, and resets it. */
int sink_step(struct sink *s, struct db_stmt *st)
{
    int rc = db_step(st);
    db_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return sink_fail_sql(s);
    return 0;
}

static int exec(struct sink *s, const char *sql)
{
    if (db_exec(s->db, sql, NULL) != SQLITE_OK)
        return sink_fail_sql(s);
    return 0;
}

void sink_bind_opt_text(struct db_stmt *st, int i, const char *t)
{
    if (t)
        db_bind_text(st, i, t, -1);
    else
        db_bind_null(st, i);
}

/* The archive id column of rows added to a run this archive did not open. */
void sink_bind_appender(struct sink *s, struct db_stmt *st, int i)
{
    if (s->appending)
        db_bind_int64(st, i, s->archive_id);
    else
        db_bind_null(st, i);
}

/* ---- opening ---- */

/* INSERT INTO sample ... VALUES for rows values of one series (see
 * SAMPLE_SHAPES); malloc'd, NULL when out of memory. */
static char *sample_insert_sql(int rows, int counted)
{
    struct strbuf b = {0};
    int per = counted ? 4 : 3;
    int bad = sb_printf(&b, "INSERT INTO sample(series_id, warmup, iteration, value%s) VALUES ", counted ? ", count" : "");
    for (int j = 0; j < rows && !bad; j++) {
        int p = per * j + 2;
        bad = counted ? sb_printf(&b, "%s(?1, ?%d, ?%d, ?%d, ?%d)", j ? ", " : "", p, p + 1, p + 2, p + 3)
                      : sb_printf(&b, "%s(?1, ?%d, ?%d, ?%d)", j ? ", " : "", p, p + 1, p + 2);
    }
    if (bad) {
        sb_free(&b);
        return NULL;
    }
    return sb_detach(&b);
}

struct sink *sink_open(struct db *db, struct ingest_report *rep, char **err)
{
    struct sink *s = calloc(1, sizeof *s);
    if (!s) {
        *err = strdup("out of memory");
        return NULL;
    }
    s->db = db;
    s->rep = rep;
    s->plans = (struct names){S_PLAN_GET, S_PLAN_INSERT, {0}};
    s->hosts = (struct names){S_HOST_GET, S_HOST_INSERT, {0}};
    s->variants = (struct names){S_VARIANT_GET, S_VARIANT_INSERT, {0}};
    /* WAL with synchronous=NORMAL keeps every commit atomic and the store
     * consistent; a power cut may lose the last commits, never half of one. */
    if (db_sqlite(db) && db_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8192", NULL) != SQLITE_OK) {
        *err = strdup(db_errmsg(db));
        sink_close(s);
        return NULL;
    }
    return s;
}

/* A statement, prepared the first time it is needed (and kept for the
 * command); NULL with the error set. */
struct db_stmt *sink_stmt(struct sink *s, int id)
{
    if (s->st[id])
        return s->st[id];
    char *shaped = NULL;
    if (id >= S_SAMPLES) {
        int k = (id - S_SAMPLES) % SAMPLE_SHAPES, counted = id - S_SAMPLES >= SAMPLE_SHAPES;
        shaped = sample_insert_sql(1 << k, counted);
        if (!shaped) {
            ingest_report_oom(s->rep);
            return NULL;
        }
    }
    const char *sql = shaped ? shaped : sink_stmt_sql[id]; /* NULL: PostgreSQL's only (never used on SQLite) */
    if (!db_sqlite(s->db) && id < S_SAMPLES && sink_stmt_sql_pg[id]) /* PostgreSQL: concurrent ingests */
        sql = sink_stmt_sql_pg[id];
    int rc = db_prepare(s->db, sql, &s->st[id]);
    free(shaped);
    if (rc != SQLITE_OK) {
        sink_fail_sql(s);
        db_finalize(s->st[id]);
        s->st[id] = NULL;
    }
    return s->st[id];
}

void sink_close(struct sink *s)
{
    if (!s)
        return;
    for (int i = 0; i < S_COUNT; i++)
        db_finalize(s->st[i]);
    idmap_free(&s->plans.cache);
    idmap_free(&s->hosts.cache);
    idmap_free(&s->variants.cache);
    idmap_free(&s->benchmarks);
    idmap_free(&s->cell_unit);
    json_decref(s->attrs);
    free(s->series_lines);
    free(s->replaced);
    for (int i = 0; i < s->n_xunits; i++)
        free(s->xunits[i]);
    sb_free(&s->notices);
    sb_free(&s->key);
    sb_free(&s->text);
    sb_free(&s->copy);
    sb_free(&s->series_rows);
    sb_free(&s->sent);
    free(s->pend);
    idmap_free(&s->series_keys);
    free(s);
}

/* ---- transactions ---- */

int sink_begin(struct sink *s)
{
    /* PostgreSQL: READ COMMITTED, so that what another ingest committed
     * while this one waited for a lock is seen by the next statement. */
    return exec(s, db_sqlite(s->db) ? "BEGIN IMMEDIATE" : "BEGIN");
}

int sink_lock_archive(struct sink *s, const char *sha)
{
    if (db_sqlite(s->db)) /* SQLite: BEGIN IMMEDIATE has the store's one write lock */
        return 0;
    /* The first 64 bits of the archive's SHA-256 name its lock, held until
     * the transaction ends. */
    char hex[17];
    snprintf(hex, sizeof hex, "%.16s", sha);
    long long key = (long long)strtoull(hex, NULL, 16);
    struct db_stmt *st = NULL;
    int rc = db_prepare(s->db, "SELECT pg_advisory_xact_lock(?)", &st);
    if (rc == SQLITE_OK) {
        db_bind_int64(st, 1, key);
        rc = db_step(st);
    }
    db_finalize(st);
    return rc == SQLITE_ROW ? 0 : sink_fail_sql(s);
}

static void pending_reset(struct sink *s)
{
    sb_reset(&s->copy);
    sb_reset(&s->series_rows);
    sb_reset(&s->sent);
    s->n_pend = 0;
}

/* The ids of the pending series without one, from series.id's sequence
 * in one statement, in ascending order (the order they were given). */
static int pending_ids(struct sink *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->n_pend; i++)
        k += s->pend[i].id == 0;
    if (!k)
        return 0;
    struct db_stmt *st = sink_stmt(s, S_SERIES_IDS);
    if (!st)
        return -1;
    db_bind_int64(st, 1, (sqlite3_int64)k);
    size_t i = 0;
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        while (i < s->n_pend && s->pend[i].id)
            i++;
        if (i < s->n_pend)
            s->pend[i++].id = db_column_int64(st, 0);
    }
    db_reset(st);
    while (i < s->n_pend && s->pend[i].id)
        i++;
    if (rc != SQLITE_DONE || i != s->n_pend)
        return rc != SQLITE_DONE ? sink_fail_sql(s) : ingest_report_fail(s->rep, NULL, "cannot store: %zu series ids for %zu series", i, s->n_pend);
    return 0;
}

/* Each line of text[from, to) with "id\t" before it, into s->sent. */
static int prefix_lines(struct sink *s, const char *text, size_t from, size_t to, int64_t id)
{
    while (from < to) {
        const char *nl = memchr(text + from, '\n', to - from);
        size_t end = nl ? (size_t)(nl - text) + 1 : to;
        if (sb_printf(&s->sent, "%lld\t", (long long)id) || sb_append(&s->sent, text + from, end - from))
            return ingest_report_oom(s->rep);
        from = end;
    }
    return 0;
}

static int copy_sent(struct sink *s, const char *sql)
{
    int rc = s->sent.len ? db_copy_in(s->db, sql, s->sent.buf, s->sent.len) : SQLITE_OK;
    sb_reset(&s->sent);
    return rc == SQLITE_OK ? 0 : sink_fail_sql(s);
}

int sink_copy_flush(struct sink *s)
{
    if (!s->n_pend)
        return 0;
    int rc = pending_ids(s);
    size_t row = 0, val = 0;
    for (size_t i = 0; i < s->n_pend && !rc; i++) {
        if (s->pend[i].row_end > row)
            rc = prefix_lines(s, s->series_rows.buf, row, s->pend[i].row_end, s->pend[i].id);
        row = s->pend[i].row_end;
    }
    rc = rc ? rc
            : copy_sent(s, "COPY series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total, metric, "
                           "member_id, detail, archive_id) FROM STDIN");
    /* The values in COPY's binary format: the header, then per value its
     * field count (5), its series id and the fields stored, then -1. */
    size_t values = s->copy.len / SINK_COPY_ROW;
    if (!rc && values && sb_grow(&s->sent, 19 + values * (SINK_COPY_ROW + 14) + 2))
        rc = ingest_report_oom(s->rep);
    if (!rc && values)
        rc = sb_append(&s->sent, "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19);
    for (size_t i = 0; i < s->n_pend && values && !rc; i++) {
        unsigned char head[14] = {0, 5};
        copy_int8(head + 2, (uint64_t)s->pend[i].id);
        for (; val < s->pend[i].copy_end; val += SINK_COPY_ROW) {
            sb_append(&s->sent, head, sizeof head); /* grown above */
            sb_append(&s->sent, s->copy.buf + val, SINK_COPY_ROW);
        }
    }
    if (!rc && values)
        rc = sb_append(&s->sent, "\377\377", 2);
    rc = rc ? rc : copy_sent(s, "COPY sample(series_id, warmup, iteration, value, count) FROM STDIN (FORMAT binary)");
    pending_reset(s);
    return rc;
}

/* Step statement id with the archive's id bound. */
static int step_archive(struct sink *s, int id)
{
    struct db_stmt *st = sink_stmt(s, id);
    if (!st)
        return -1;
    db_bind_int64(st, 1, s->archive_id);
    return sink_step(s, st);
}

int sink_defer_cells(struct sink *s)
{
    return step_archive(s, S_DEFER_BEGIN);
}

/* The ids read in a transaction are forgotten when it ends: between two
 * archives another process may delete a plan (and on SQLite a new one
 * take its id), so an id kept for the next archive could store a run
 * under the wrong plan, or fail on its foreign key. Within the
 * transaction nothing can remove them (SQLite: the write lock;
 * PostgreSQL: FOR KEY SHARE). */
static void forget_ids(struct sink *s)
{
    idmap_clear(&s->plans.cache);
    idmap_clear(&s->hosts.cache);
    idmap_clear(&s->variants.cache);
    idmap_clear(&s->benchmarks);
}

int sink_commit(struct sink *s)
{
    if (sink_copy_flush(s))
        return -1;
    /* PostgreSQL: the block scores and history points of the archive's
     * own runs first (run_cell_data reads the scores); on SQLite the
     * triggers kept them. */
    if (s->archive_id && !db_sqlite(s->db) && (step_archive(s, S_SCORES_INSERT) || step_archive(s, S_POINTS_INSERT)))
        return -1;
    if (s->archive_id && (step_archive(s, S_CELLS_DELETE) || step_archive(s, S_CELLS_INSERT) ||
                          step_archive(s, S_DEFER_END)))
        return -1;
    int rc = exec(s, "COMMIT");
    forget_ids(s);
    if (rc)
        return -1;
    if (s->notices.len && !s->rep->quiet) {
        ingest_report_before_message(s->rep);
        for (size_t at = 0; at < s->notices.len; at += strlen(s->notices.buf + at) + 1)
            bd_notice("%s", s->notices.buf + at); /* control characters escaped */
    }
    return 0;
}

void sink_rollback(struct sink *s)
{
    db_exec(s->db, "ROLLBACK", NULL);
    pending_reset(s);
    forget_ids(s);
}

void sink_set_replace(struct sink *s, int replace)
{
    s->replace = replace;
}

void sink_set_max_series(struct sink *s, uint64_t max)
{
    s->max_series = max;
}

void sink_set_conflict_hint(struct sink *s, const char *hint)
{
    s->conflict_hint = hint;
}

/* ---- ids ---- */

/* The id of the row the statement get (its parameters bound) finds: on
 * PostgreSQL after INSERT ... ON CONFLICT DO NOTHING, where the row may
 * be another ingest's (and lastval() a number the sequence gave away). */
static int found_id(struct sink *s, struct db_stmt *get, int64_t *id)
{
    int rc = db_step(get);
    if (rc == SQLITE_ROW)
        *id = db_column_int64(get, 0);
    db_reset(get);
    return rc == SQLITE_ROW ? 0 : sink_fail_sql(s);
}

int sink_name_id(struct sink *s, struct names *t, const char *name, int64_t *id)
{
    size_t len = strlen(name);
    int64_t *hit = idmap_get(&t->cache, name, len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    struct db_stmt *st = sink_stmt(s, t->get);
    if (!st)
        return -1;
    db_bind_text(st, 1, name, (int)len);
    int rc = db_step(st);
    if (rc == SQLITE_ROW)
        *id = db_column_int64(st, 0);
    db_reset(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            return sink_fail_sql(s);
        st = sink_stmt(s, t->insert);
        if (!st)
            return -1;
        db_bind_text(st, 1, name, (int)len);
        if (sink_step(s, st))
            return -1;
        if (db_sqlite(s->db))
            *id = db_last_insert_id(s->db);
        else if (found_id(s, sink_stmt(s, t->get), id))
            return -1;
        s->here.rows++;
    }
    if (idmap_put(&t->cache, name, len, *id))
        return ingest_report_oom(s->rep);
    return 0;
}

int sink_benchmark_id(struct sink *s, const char *name, const char *params, int64_t *id)
{
    sb_reset(&s->key);
    if (sb_puts(&s->key, name) || sb_putc(&s->key, 0) || sb_puts(&s->key, params))
        return ingest_report_oom(s->rep);
    int64_t *hit = idmap_get(&s->benchmarks, s->key.buf, s->key.len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    struct db_stmt *st = sink_stmt(s, S_BENCH_GET);
    if (!st)
        return -1;
    db_bind_text(st, 1, name, -1);
    db_bind_text(st, 2, params, -1);
    int rc = db_step(st);
    if (rc == SQLITE_ROW)
        *id = db_column_int64(st, 0);
    db_reset(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            return sink_fail_sql(s);
        st = sink_stmt(s, S_BENCH_INSERT);
        if (!st)
            return -1;
        db_bind_text(st, 1, name, -1);
        db_bind_text(st, 2, params, -1);
        if (sink_step(s, st))
            return -1;
        if (db_sqlite(s->db))
            *id = db_last_insert_id(s->db);
        else if (found_id(s, sink_stmt(s, S_BENCH_GET), id))
            return -1;
        s->here.rows++;
    }
    if (idmap_put(&s->benchmarks, s->key.buf, s->key.len, *id))
        return ingest_report_oom(s->rep);
    return 0;
}

int sink_grow(struct sink *s, void *arr, size_t n, size_t *cap, size_t elem, size_t first)
{
    if (n < *cap)
        return 0;
    size_t ncap = *cap ? 2 * *cap : first;
    void *p = realloc(*(void **)arr, ncap * elem);
    if (!p)
        return ingest_report_oom(s->rep);
    *(void **)arr = p;
    *cap = ncap;
    return 0;
}

char *sink_column_dup(struct db_stmt *st, int i)
{
    const char *t = (const char *)db_column_text(st, i);
    return t ? strdup(t) : NULL;
}

