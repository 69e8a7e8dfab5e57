/* The sink's state: statements prepared once per command (on first use),
 * transactions, the id caches of names and cells (each for one
 * transaction). */
#include "ingest/sink/statements.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/dialect.h"
#include "store/store.h"
#include "util/diag.h"

const char sink_primary_metric[] = "primary";

/* The statements of the sink, the same on both engines (those whose new
 * row's id is wanted get the dialect's returning_id, and are stepped by
 * db_step_insert_id: is_returning below). Where several
 * ingests write at once (PostgreSQL), a name, unit or series another one
 * is inserting is waited for and then found (ON CONFLICT DO NOTHING,
 * then a look-up): a refused insert would end the transaction there. The
 * schema's ingest deferral differs per engine (store/dialect.h). */
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
    [S_PLAN_INSERT] = "INSERT INTO plan(name) VALUES (?) ON CONFLICT (name) DO NOTHING",
    [S_HOST_GET] = "SELECT id FROM host WHERE name = ?",
    [S_HOST_INSERT] = "INSERT INTO host(name) VALUES (?) ON CONFLICT (name) DO NOTHING",
    [S_VARIANT_GET] = "SELECT id FROM variant WHERE name = ?",
    [S_VARIANT_INSERT] = "INSERT INTO variant(name) VALUES (?) ON CONFLICT (name) DO NOTHING",
    [S_BENCH_GET] = "SELECT id FROM benchmark WHERE name = ? AND params = ?",
    [S_BENCH_INSERT] = "INSERT INTO benchmark(name, params) VALUES (?, ?) ON CONFLICT (name, params) DO NOTHING",
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
    /* A run that neither appends nor may replace: inserted unless one of
     * its plan and name is stored (no row back), which S_RUN_FIND then
     * reads for the refusal; a new run, the common case, costs one
     * statement. */
    [S_RUN_INSERT_NEW] = "INSERT INTO run(plan_id, name, host_id, position, source, started_at, ended_at, "
                         "treatment_id, baseline_id, attributes, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                         "ON CONFLICT DO NOTHING",
    [S_RUN_ATTRS_SET] = "UPDATE run SET attributes = ? WHERE id = ?",
    [S_RUN_START_SET] = "UPDATE run SET started_at = ? WHERE id = ?",
    [S_RUN_SOURCE_SET] = "UPDATE run SET source = ? WHERE id = ? AND source IS NULL",
    /* No row back: the series is a duplicate (sink_series). */
    [S_SERIES_INSERT] = "INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total, metric, "
                        "member_id, detail, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        "ON CONFLICT DO NOTHING",
    [S_SERIES_FIND] = "SELECT s.id, a.id, a.name FROM series s JOIN run r ON r.id = s.run_id "
                      "JOIN archive a ON a.id = coalesce(s.archive_id, r.archive_id) WHERE s.run_id = ? "
                      "AND s.benchmark_id = ? AND s.block = ? AND s.variant_id = ? AND s.fork = ? AND s.metric = ?",
    [S_SERIES_UNIT] = "SELECT unit FROM series WHERE run_id = ? AND benchmark_id = ? AND variant_id = ? "
                      "AND metric = ? LIMIT 1",
    /* PostgreSQL only (sink_copy_flush, series_call.c): a small archive's
     * pending series and their values by one call that waits in the
     * pipeline (schema/benchdb.schema, benchdb_series_values()) instead
     * of the series' ids and two COPYs (three round trips). */
    [S_SERIES_VALUES] = "SELECT benchdb_series_values(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [S_GATE_INSERT] = "INSERT INTO gate(run_id, name, passed, at, detail, archive_id) VALUES (?, ?, ?, ?, ?, ?)",
    [S_EVENT_INSERT] = "INSERT INTO event(run_id, name, value, at, detail, archive_id) VALUES (?, ?, ?, ?, ?, ?)",
    [S_CHUNK_INSERT] = "INSERT INTO archive_chunk(archive_id, seq, data) VALUES (?, ?, ?)",
    [S_MEMBER_INSERT] = "INSERT INTO archive_member(archive_id, path, sha256, size) VALUES (?, ?, ?, ?)",
    [S_MEMBER_FORMAT] = "UPDATE archive_member SET format = ? WHERE id = ?",
    [S_UNIT_KIND] = "SELECT kind FROM unit WHERE name = ?",
    [S_UNIT_ADD] = "INSERT INTO unit(name, kind, factor, direction) VALUES (?, 'other', 1, NULL) "
                   "ON CONFLICT (name) DO NOTHING",
};

/* The statements written with the dialect's returning_id. */
static int is_returning(int id)
{
    return id == S_ARCHIVE_INSERT || id == S_RUN_INSERT || id == S_RUN_INSERT_NEW || id == S_SERIES_INSERT ||
           id == S_MEMBER_INSERT;
}

/* ---- failing ---- */

int sink_fail_sql(struct sink *s)
{
    /* SQLITE_FULL: SQLite's "database or disk is full". The store has no
     * page limit (max_page_count is not set, and does not persist), so it
     * is the disk (or a quota); said plainly, SQLite's words kept. */
    int sys = db_system_errno(s->db), code = db_errcode(s->db);
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

int sink_step_later(struct sink *s, struct db_stmt *st)
{
    int rc = db_step_later(st);
    db_reset(st);
    return rc == SQLITE_OK ? 0 : sink_fail_sql(s);
}

/* Steps an INSERT written with returning_id, giving the new row's id (on
 * a server in the statement's own answer: no second round trip for it). */
int sink_step_id(struct sink *s, struct db_stmt *st, int64_t *id)
{
    sqlite3_int64 got = 0;
    int rc = db_step_insert_id(st, &got);
    *id = got;
    db_reset(st);
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? ingest_report_fail(s->rep, NULL, "cannot store: no id for the new row")
                                 : sink_fail_sql(s);
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
    /* Engine branch: the one choice of how values are sent (values.c):
     * by COPY where a statement per row costs a round trip to a server,
     * else by the multi-row inserts below. */
    s->by_copy = db_can_copy(db);
    /* For tests only, $BENCHDB_TEST_PIPE_SERIES=N sets the most series
     * sent by one call in the pipeline (0: every archive by COPY), so
     * that either path can carry the same archives. */
    const char *env = getenv("BENCHDB_TEST_PIPE_SERIES");
    char *env_end = NULL;
    unsigned long long pipe_n = env && *env ? strtoull(env, &env_end, 10) : SINK_PIPE_SERIES;
    s->pipe_series = env && *env && *env_end ? SINK_PIPE_SERIES : (size_t)pipe_n;
    if (db_tune_for_writing(db) != SQLITE_OK) {
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
    const struct db_dialect *d = db_dialect(s->db);
    int name_get = id == S_PLAN_GET || id == S_HOST_GET || id == S_VARIANT_GET || id == S_BENCH_GET;
    const char *suffix = name_get ? d->name_lock : is_returning(id) ? d->returning_id : "";
    if (*suffix && !(shaped = bd_strdupf("%s%s", sink_stmt_sql[id], suffix))) {
        ingest_report_oom(s->rep);
        return NULL;
    }
    const char *sql = shaped                        ? shaped
                      : id == S_DEFER_MARK          ? d->defer_mark
                      : id >= S_DEFER_FINISH        ? d->defer_finish[id - S_DEFER_FINISH]
                      : id == S_NAMES_AGAIN         ? d->names_again
                      : id == S_ARCHIVE_OPEN        ? d->archive_open
                      : id == S_ARCHIVE_CLOSE       ? d->archive_close
                      : id == S_HISTORY_INSERT      ? d->history_insert
                                                    : sink_stmt_sql[id];
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
    for (int k = 0; k < 4; k++)
        idmap_free(&s->again[k]);
    idmap_free(&s->cell_unit);
    idmap_free(&s->point_ix);
    free(s->points);
    sb_free(&s->point_metrics);
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
    for (int k = 0; k < SINK_PIPE_COLS; k++)
        sb_free(&s->cols[k]);
    free(s);
}

/* ---- transactions ---- */

int sink_begin(struct sink *s)
{
    return db_begin_write_later(s->db) == SQLITE_OK ? 0 : sink_fail_sql(s);
}

/* The first 64 bits of the archive's SHA-256 name its lock, held until
 * the transaction ends (on SQLite the write transaction is the store's
 * one lock already). */
long long sink_archive_key(const char *sha)
{
    char hex[17];
    snprintf(hex, sizeof hex, "%.16s", sha);
    return (long long)strtoull(hex, NULL, 16);
}

int sink_lock_archive(struct sink *s, const char *sha)
{
    return db_lock_key(s->db, sink_archive_key(sha)) == SQLITE_OK ? 0 : sink_fail_sql(s);
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

