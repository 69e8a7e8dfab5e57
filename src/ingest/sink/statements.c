/* The sink's state: statements prepared once per command (on first use),
 * transactions, the id caches of names and cells. */
#include "ingest/sink/statements.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "util/diag.h"

const char sink_primary_metric[] = "primary";

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
    [S_SERIES_INSERT] = "INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total, "
                        "metric, member_id, detail, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    [S_UNIT_KIND] = "SELECT kind FROM unit WHERE name = ?",
    [S_UNIT_ADD] = "INSERT INTO unit(name, kind, factor, direction) VALUES (?, 'other', 1, NULL)",
};

/* ---- failing ---- */

int sink_fail_sql(struct sink *s)
{
    /* SQLITE_FULL: SQLite's "database or disk is full". The store has no
     * page limit (max_page_count is not set, and does not persist), so it
     * is the disk (or a quota); said plainly, SQLite's words kept. */
    int sys = sqlite3_system_errno(s->db), code = sqlite3_errcode(s->db) & 0xff;
    if (code == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT)
        return ingest_report_fail(s->rep, NULL, "cannot store: the disk is full (%s)", sqlite3_errmsg(s->db));
    if (code == SQLITE_BUSY) { /* SQLite's "database is locked", after the busy timeout */
        char *busy = sink_busy_text();
        ingest_report_fail(s->rep, NULL, "%s", busy);
        free(busy);
        return -1;
    }
    return ingest_report_fail(s->rep, NULL, "cannot store: %s", sqlite3_errmsg(s->db));
}

char *sink_busy_text(void)
{
    int ms = store_busy_timeout_ms(NULL);
    return bd_strdupf("the store is busy: another process holds its write lock (waited %g s; $BENCHDB_BUSY_TIMEOUT "
                      "raises it)",
                      (ms < 0 ? STORE_BUSY_TIMEOUT_MS : ms) / 1000.0);
}

/* Steps a statement whose row (if any) is not needed, and resets it. */
int sink_step(struct sink *s, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return sink_fail_sql(s);
    return 0;
}

static int exec(struct sink *s, const char *sql)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return sink_fail_sql(s);
    return 0;
}

void sink_bind_opt_text(sqlite3_stmt *st, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

/* The archive id column of rows added to a run this archive did not open. */
void sink_bind_appender(struct sink *s, sqlite3_stmt *st, int i)
{
    if (s->appending)
        sqlite3_bind_int64(st, i, s->archive_id);
    else
        sqlite3_bind_null(st, i);
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

struct sink *sink_open(sqlite3 *db, struct ingest_report *rep, char **err)
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
    if (sqlite3_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8192", NULL, NULL, NULL) != SQLITE_OK) {
        *err = strdup(sqlite3_errmsg(db));
        sink_close(s);
        return NULL;
    }
    return s;
}

/* A statement, prepared the first time it is needed (and kept for the
 * command); NULL with the error set. */
sqlite3_stmt *sink_stmt(struct sink *s, int id)
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
    int rc = sqlite3_prepare_v3(s->db, shaped ? shaped : sink_stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &s->st[id], NULL);
    free(shaped);
    if (rc != SQLITE_OK) {
        sink_fail_sql(s);
        sqlite3_finalize(s->st[id]);
        s->st[id] = NULL;
    }
    return s->st[id];
}

void sink_close(struct sink *s)
{
    if (!s)
        return;
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(s->st[i]);
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
    free(s);
}

/* ---- transactions ---- */

int sink_begin(struct sink *s)
{
    return exec(s, "BEGIN IMMEDIATE");
}

int sink_commit(struct sink *s)
{
    if (exec(s, "COMMIT"))
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
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    idmap_clear(&s->plans.cache);
    idmap_clear(&s->hosts.cache);
    idmap_clear(&s->variants.cache);
    idmap_clear(&s->benchmarks);
}

void sink_set_replace(struct sink *s, int replace)
{
    s->replace = replace;
}

void sink_set_conflict_hint(struct sink *s, const char *hint)
{
    s->conflict_hint = hint;
}

/* ---- ids ---- */

int sink_name_id(struct sink *s, struct names *t, const char *name, int64_t *id)
{
    size_t len = strlen(name);
    int64_t *hit = idmap_get(&t->cache, name, len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    sqlite3_stmt *st = sink_stmt(s, t->get);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            return sink_fail_sql(s);
        st = sink_stmt(s, t->insert);
        if (!st)
            return -1;
        sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
        if (sink_step(s, st))
            return -1;
        *id = sqlite3_last_insert_rowid(s->db);
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
    sqlite3_stmt *st = sink_stmt(s, S_BENCH_GET);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            return sink_fail_sql(s);
        st = sink_stmt(s, S_BENCH_INSERT);
        if (!st)
            return -1;
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
        if (sink_step(s, st))
            return -1;
        *id = sqlite3_last_insert_rowid(s->db);
        s->here.rows++;
    }
    if (idmap_put(&s->benchmarks, s->key.buf, s->key.len, *id))
        return ingest_report_oom(s->rep);
    return 0;
}

char *sink_column_dup(sqlite3_stmt *st, int i)
{
    const char *t = (const char *)sqlite3_column_text(st, i);
    return t ? strdup(t) : NULL;
}

