/* The sink: statements prepared once per command, id caches, and the one
 * path that writes a series with its values. */
#include "ingest/sink/sink.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/idmap.h"
#include "ingest/core/jsonparse.h"
#include "ingest/core/rfc3339.h"
#include "ingest/core/jsontext.h"
#include "ingest/core/units.h"
#include "stats/sum.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "version.h"

/* A series' values and warmups are inserted together by statements of
 * 64, 32, 16, 8, 4, 2 and 1 rows, the largest that fits first (the binary
 * digits of their count): "VALUES (?1, ?2, ?3, ?4), (?1, ?5, ?6, ?7), ..."
 * with the series id bound once and (warmup, iteration, value[, count])
 * per row, so that SQLite's per-statement work is paid at most seven times
 * per series. Values with counts (JMH's histogram bins) use the same
 * shapes with a count column. */
#define SAMPLE_SHAPES 7

enum stmt_id {
    S_ARCHIVE_BY_SHA, S_ARCHIVE_INSERT, S_ARCHIVE_UPDATE, S_ARCHIVE_FORMAT, S_ARCHIVE_DELETE_EMPTY,
    S_PLAN_GET, S_PLAN_INSERT, S_HOST_GET, S_HOST_INSERT, S_VARIANT_GET, S_VARIANT_INSERT,
    S_BENCH_GET, S_BENCH_INSERT,
    S_RUN_FIND, S_RUN_APPENDED_BY, S_RUN_DELETE, S_RUN_INSERT, S_RUN_ATTRS_SET, S_RUN_START_SET,
    S_SERIES_INSERT, S_SERIES_FIND, S_SERIES_UNIT,
    S_GATE_INSERT, S_EVENT_INSERT, S_CHUNK_INSERT, S_MEMBER_INSERT, S_MEMBER_FORMAT,
    S_UNIT_KIND, S_UNIT_ADD,
    S_SAMPLES, /* SAMPLE_SHAPES statements without counts, then SAMPLE_SHAPES with */
    S_COUNT = S_SAMPLES + 2 * SAMPLE_SHAPES
};

/* The sha256 column of an archive row while its stream is still being
 * read from a pipe; replaced before the commit. */
static const char pending_sha[] = "0000000000000000000000000000000000000000000000000000000000000000";

static const char *const stmt_sql[S_SAMPLES] = {
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

/* A name table with its cache: plan, host, variant. */
struct names {
    enum stmt_id get, insert;
    struct idmap cache;
};

struct sink {
    sqlite3 *db;
    struct ingest_report *rep;
    sqlite3_stmt *st[S_COUNT];
    struct names plans, hosts, variants;
    struct idmap benchmarks; /* name NUL canonical-params -> id */
    int replace;
    const char *conflict_hint;

    /* the archive */
    int64_t archive_id, chunk_seq;
    struct sink_counts here;
    int64_t *replaced; /* archives that lost a run to --replace */
    size_t n_replaced, cap_replaced;
    struct strbuf notices; /* printed after the commit */
    char *xunits[256];     /* units beyond units.h seen in this archive */
    int n_xunits;

    /* the run */
    int64_t run_id;
    int appending;
    json_t *attrs; /* the run's attributes as stored (its own copies: no reference into a parsed line) */
    int start_given;   /* the run record (or the stored run) has started_at */
    double start_best; /* the earliest start a harness file gave (seconds), when start_set */
    int start_set;
    /* The run's series as (id, line) in insert order: a duplicate is caught
     * by the series table's UNIQUE key and named with the line of the first
     * from here: 16 bytes a series. */
    int64_t (*series_lines)[2];
    size_t n_series_lines, cap_series_lines;
    struct idmap cell_unit; /* benchmark, variant[, metric] -> line << 8 | unit index */

    struct strbuf key, text; /* scratch */
};

static const char primary_metric[] = "primary";

/* ---- failing ---- */

static int fail_sql(struct sink *s)
{
    /* SQLITE_FULL: SQLite's "database or disk is full". The store has no
     * page limit (max_page_count is not set, and does not persist), so it
     * is the disk (or a quota); said plainly, SQLite's words kept. */
    int sys = sqlite3_system_errno(s->db);
    if ((sqlite3_errcode(s->db) & 0xff) == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT)
        return report_fail(s->rep, NULL, "cannot store: the disk is full (%s)", sqlite3_errmsg(s->db));
    return report_fail(s->rep, NULL, "cannot store: %s", sqlite3_errmsg(s->db));
}

/* Steps a statement whose row (if any) is not needed, and resets it. */
static int step(struct sink *s, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return fail_sql(s);
    return 0;
}

static int exec(struct sink *s, const char *sql)
{
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return fail_sql(s);
    return 0;
}

static void bind_opt_text(sqlite3_stmt *st, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

/* The archive id column of rows added to a run this archive did not open. */
static void bind_appender(struct sink *s, sqlite3_stmt *st, int i)
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
static sqlite3_stmt *stmt(struct sink *s, int id)
{
    if (s->st[id])
        return s->st[id];
    char *shaped = NULL;
    if (id >= S_SAMPLES) {
        int k = (id - S_SAMPLES) % SAMPLE_SHAPES, counted = id - S_SAMPLES >= SAMPLE_SHAPES;
        shaped = sample_insert_sql(1 << k, counted);
        if (!shaped) {
            report_oom(s->rep);
            return NULL;
        }
    }
    int rc = sqlite3_prepare_v3(s->db, shaped ? shaped : stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT, &s->st[id], NULL);
    free(shaped);
    if (rc != SQLITE_OK) {
        fail_sql(s);
        sqlite3_finalize(s->st[id]);
        s->st[id] = NULL;
    }
    return s->st[id];
}

static void forget_units(struct sink *s)
{
    for (int i = 0; i < s->n_xunits; i++)
        free(s->xunits[i]);
    s->n_xunits = 0;
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
    forget_units(s);
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
        report_before_message(s->rep);
        fputs(s->notices.buf, stderr);
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

static int name_id(struct sink *s, struct names *t, const char *name, int64_t *id)
{
    size_t len = strlen(name);
    int64_t *hit = idmap_get(&t->cache, name, len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    sqlite3_stmt *st = stmt(s, t->get);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            return fail_sql(s);
        st = stmt(s, t->insert);
        if (!st)
            return -1;
        sqlite3_bind_text(st, 1, name, (int)len, SQLITE_STATIC);
        if (step(s, st))
            return -1;
        *id = sqlite3_last_insert_rowid(s->db);
        s->here.rows++;
    }
    if (idmap_put(&t->cache, name, len, *id))
        return report_oom(s->rep);
    return 0;
}

static int benchmark_id(struct sink *s, const char *name, const char *params, int64_t *id)
{
    sb_reset(&s->key);
    if (sb_puts(&s->key, name) || sb_putc(&s->key, 0) || sb_puts(&s->key, params))
        return report_oom(s->rep);
    int64_t *hit = idmap_get(&s->benchmarks, s->key.buf, s->key.len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    sqlite3_stmt *st = stmt(s, S_BENCH_GET);
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
            return fail_sql(s);
        st = stmt(s, S_BENCH_INSERT);
        if (!st)
            return -1;
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, params, -1, SQLITE_STATIC);
        if (step(s, st))
            return -1;
        *id = sqlite3_last_insert_rowid(s->db);
        s->here.rows++;
    }
    if (idmap_put(&s->benchmarks, s->key.buf, s->key.len, *id))
        return report_oom(s->rep);
    return 0;
}

/* ---- archives ---- */

int sink_find_archive(struct sink *s, const char *sha, int64_t *id, char **name)
{
    sqlite3_stmt *st = stmt(s, S_ARCHIVE_BY_SHA);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        const char *t = (const char *)sqlite3_column_text(st, 1); /* NULL when out of memory */
        *name = t ? strdup(t) : NULL;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail_sql(s);
    return rc == SQLITE_ROW;
}

void sink_archive_reset(struct sink *s)
{
    s->archive_id = 0;
    s->chunk_seq = 0;
    s->run_id = 0;
    s->appending = 0;
    s->n_replaced = 0;
    s->n_series_lines = 0;
    idmap_clear(&s->cell_unit);
    forget_units(s);
    sb_reset(&s->notices);
    memset(&s->here, 0, sizeof s->here);
}

int sink_archive_begin(struct sink *s, const char *name, const char *sha, const char *format)
{
    char when[TIME_TEXT_MAX];
    time_now_rfc3339(when, 0);
    sqlite3_stmt *st = stmt(s, S_ARCHIVE_INSERT);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, sha ? sha : pending_sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, format, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, when, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, BENCHDB_VERSION, -1, SQLITE_STATIC);
    if (step(s, st))
        return -1;
    s->archive_id = sqlite3_last_insert_rowid(s->db);
    s->chunk_seq = 0;
    return 0;
}

int sink_archive_format(struct sink *s, const char *format)
{
    sqlite3_stmt *st = stmt(s, S_ARCHIVE_FORMAT);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, format, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, s->archive_id);
    return step(s, st);
}

int sink_chunk(struct sink *s, const unsigned char *p, size_t n)
{
    sqlite3_stmt *st = stmt(s, S_CHUNK_INSERT);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, s->archive_id);
    sqlite3_bind_int64(st, 2, s->chunk_seq++);
    sqlite3_bind_blob(st, 3, p, (int)n, SQLITE_STATIC);
    int rc = step(s, st);
    sqlite3_clear_bindings(st);
    s->here.rows++;
    return rc;
}

int sink_member(struct sink *s, const char *path, const char *sha, uint64_t size, int64_t *id)
{
    sqlite3_stmt *st = stmt(s, S_MEMBER_INSERT);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, s->archive_id);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, sha, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)size);
    if (step(s, st))
        return -1;
    *id = sqlite3_last_insert_rowid(s->db);
    s->here.members++;
    s->here.rows++;
    return 0;
}

int sink_member_format(struct sink *s, int64_t member_id, const char *format)
{
    sqlite3_stmt *st = stmt(s, S_MEMBER_FORMAT);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, format, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, member_id);
    return step(s, st);
}

int sink_archive_end(struct sink *s, const char *sha, uint64_t size, int compressed, uint64_t stored)
{
    if (s->here.runs == 0 && s->here.appended == 0)
        return report_fail(s->rep, NULL,
                           "no run record (an archive holds one or more runs, each opened by a run record)");
    sqlite3_stmt *st = stmt(s, S_ARCHIVE_UPDATE);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)size);
    sqlite3_bind_text(st, 3, compressed ? "zstd" : "identity", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)stored);
    sqlite3_bind_int64(st, 5, s->archive_id);
    if (step(s, st))
        return -1;
    for (size_t i = 0; i < s->n_replaced; i++) {
        sqlite3_stmt *del = stmt(s, S_ARCHIVE_DELETE_EMPTY);
        if (!del)
            return -1;
        sqlite3_bind_int64(del, 1, s->replaced[i]);
        if (step(s, del))
            return -1;
    }
    s->here.rows++;
    return 0;
}

const struct sink_counts *sink_counts(const struct sink *s)
{
    return &s->here;
}

uint64_t sink_rows(const struct sink *s)
{
    return s->here.rows;
}

/* ---- runs ---- */

/* A stored run's field against the one an appending run record gives. */
static int same_field(struct sink *s, const char *field, const char *stored, const char *given)
{
    if (!given || (stored && strcmp(stored, given) == 0))
        return 0;
    return report_fail(s->rep, field, "expected %s%s%s (as the stored run has it), got \"%s\"", stored ? "\"" : "",
                       stored ? stored : "no value", stored ? "\"" : "", given);
}

static char *column_dup(sqlite3_stmt *st, int i)
{
    const char *t = (const char *)sqlite3_column_text(st, i);
    return t ? strdup(t) : NULL;
}

/* An appending run record against the stored run (found by S_RUN_FIND). */
static int check_append(struct sink *s, const struct sink_run *r, sqlite3_stmt *st)
{
    char *stored[6];
    for (int i = 0; i < 6; i++)
        stored[i] = column_dup(st, i + 3); /* host, position, source, started_at, ended_at, treatment */
    char *baseline = column_dup(st, 9), *attrs = column_dup(st, 10);
    char pos[32] = "";
    if (r->position)
        snprintf(pos, sizeof pos, "%lld", r->position);
    int rc = same_field(s, "run.host", stored[0], r->host) || same_field(s, "run.position", stored[1], r->position ? pos : NULL) ||
             same_field(s, "run.source", stored[2], r->source) ||
             same_field(s, "run.started_at", stored[3], r->started_at) ||
             same_field(s, "run.ended_at", stored[4], r->ended_at) ||
             same_field(s, "run.treatment", stored[5], r->treatment) ||
             same_field(s, "run.baseline", baseline, r->baseline);
    if (rc == 0 && r->attributes && json_object_size(r->attributes)) {
        /* every attribute given must be stored with the same value */
        struct json_doc doc;
        struct json_parse_error je;
        json_t *have = NULL;
        if (json_parse(attrs ? attrs : "{}", attrs ? strlen(attrs) : 2, &doc, &je) != JSON_PARSED)
            rc = report_oom(s->rep);
        else
            have = doc.root;
        const char *k;
        json_t *v;
        json_object_foreach(rc ? NULL : r->attributes, k, v) {
            if (rc)
                break;
            json_t *h = json_object_get(have, k);
            if (!h || !json_equal(h, v)) {
                char got[96];
                json_describe(v, got, sizeof got);
                rc = report_fail(s->rep, "run.attributes", "%s: expected %s (as the stored run has it), got %s", k,
                                 h ? "the stored value" : "no value", got);
            }
        }
        if (have)
            json_doc_free(&doc);
    }
    s->start_given = stored[3] != NULL;
    for (int i = 0; i < 6; i++)
        free(stored[i]);
    free(baseline);
    free(attrs);
    return rc ? -1 : 0;
}

/* --replace: deletes the stored run (found by S_RUN_FIND) unless other
 * archives added to it. */
static int replace_run(struct sink *s, const struct sink_run *r, int64_t old_run, int64_t old_archive,
                       const char *old_name)
{
    sqlite3_stmt *q = stmt(s, S_RUN_APPENDED_BY);
    if (!q)
        return -1;
    sqlite3_bind_int64(q, 1, old_run);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        long long other = sqlite3_column_int64(q, 0);
        char *other_name = column_dup(q, 1);
        sqlite3_reset(q);
        report_fail(s->rep, "run.run",
                    "run \"%s\" of plan \"%s\" holds values archive %lld \"%s\" added to it besides those of archive "
                    "%lld \"%s\": --replace replaces one archive's run, not what others added",
                    r->name, r->plan, other, other_name ? other_name : "?", (long long)old_archive,
                    old_name ? old_name : "?");
        free(other_name);
        return -1;
    }
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return fail_sql(s);
    sqlite3_stmt *del = stmt(s, S_RUN_DELETE);
    if (!del)
        return -1;
    sqlite3_bind_int64(del, 1, old_run);
    if (step(s, del))
        return -1;
    if (s->n_replaced == s->cap_replaced) {
        size_t ncap = s->cap_replaced ? 2 * s->cap_replaced : 8;
        int64_t *nr = realloc(s->replaced, ncap * sizeof *nr);
        if (!nr)
            return report_oom(s->rep);
        s->replaced = nr;
        s->cap_replaced = ncap;
    }
    s->replaced[s->n_replaced++] = old_archive;
    char where[1024];
    snprintf(where, sizeof where, "%s%s%s%s", s->rep->file ? s->rep->file : "", s->rep->member ? "[" : "",
             s->rep->member ? s->rep->member : "", s->rep->member ? "]" : "");
    size_t k = strlen(where);
    if (s->rep->line && k < sizeof where)
        snprintf(where + k, sizeof where - k, ":%llu", (unsigned long long)s->rep->line);
    sb_printf(&s->notices, "%s: replaced run \"%s\" of plan \"%s\" stored from archive \"%s\"\n", where, r->name,
              r->plan, old_name ? old_name : "?");
    return 0;
}

/* Adds key: v to the run's attributes: a scalar copied, an array or object
 * as its canonical text. -1 when memory ran out. */
static int add_attribute(struct sink *s, const char *key, json_t *v)
{
    json_t *val = NULL;
    switch (json_typeof(v)) {
    case JSON_STRING: val = json_stringn(json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: val = json_integer(json_integer_value(v)); break;
    case JSON_REAL: val = json_real(json_real_value(v)); break;
    case JSON_TRUE: val = json_true(); break;
    case JSON_FALSE: val = json_false(); break;
    case JSON_NULL: val = json_null(); break;
    case JSON_ARRAY:
    case JSON_OBJECT:
        sb_reset(&s->key);
        val = json_canonical(v, &s->key) ? NULL : json_stringn(s->key.buf, s->key.len);
        break;
    }
    return !val || json_object_set_new(s->attrs, key, val) ? -1 : 0;
}

int sink_run(struct sink *s, const struct sink_run *r)
{
    int64_t plan_id = 0, host_id = 0, t_id = 0, b_id = 0;
    s->run_id = 0;
    s->appending = 0;
    s->start_given = r->started_at != NULL;
    s->start_set = 0;
    s->n_series_lines = 0;
    idmap_clear(&s->cell_unit);
    if (name_id(s, &s->plans, r->plan, &plan_id) || name_id(s, &s->hosts, r->host, &host_id))
        return -1;
    if (r->treatment && (name_id(s, &s->variants, r->treatment, &t_id) || name_id(s, &s->variants, r->baseline, &b_id)))
        return -1;

    sqlite3_stmt *st = stmt(s, S_RUN_FIND);

    if (!st)

        return -1;
    sqlite3_bind_int64(st, 1, plan_id);
    sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        sqlite3_reset(st);
        if (rc != SQLITE_DONE)
            return fail_sql(s);
        if (r->append)
            return report_fail(s->rep, "run.append",
                               "run \"%s\" of plan \"%s\" is not stored (an appending run adds to a stored run)",
                               r->name, r->plan);
    } else {
        int64_t old_run = sqlite3_column_int64(st, 0), old_archive = sqlite3_column_int64(st, 1);
        char *old_name = column_dup(st, 2);
        if (r->append) {
            rc = check_append(s, r, st);
            sqlite3_reset(st);
            free(old_name);
            if (rc)
                return -1;
            if (old_archive == s->archive_id)
                return report_fail(s->rep, "run.append", "run \"%s\" of plan \"%s\" is opened by this archive",
                                   r->name, r->plan);
            s->run_id = old_run;
            s->appending = 1;
            s->here.appended++;
            s->here.rows++;
            return 0;
        }
        sqlite3_reset(st);
        if (!s->replace) {
            report_fail(s->rep, "run.run", "run \"%s\" of plan \"%s\" is already stored (archive %lld \"%s\")%s",
                        r->name, r->plan, (long long)old_archive, old_name ? old_name : "?",
                        s->conflict_hint ? s->conflict_hint : "");
            free(old_name);
            return -1;
        }
        rc = replace_run(s, r, old_run, old_archive, old_name);
        free(old_name);
        if (rc)
            return -1;
    }

    st = stmt(s, S_RUN_INSERT);

    if (!st)

        return -1;
    sqlite3_bind_int64(st, 1, plan_id);
    sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, host_id);
    if (r->position)
        sqlite3_bind_int64(st, 4, r->position);
    else
        sqlite3_bind_null(st, 4);
    bind_opt_text(st, 5, r->source);
    bind_opt_text(st, 6, r->started_at);
    bind_opt_text(st, 7, r->ended_at);
    if (r->treatment) {
        sqlite3_bind_int64(st, 8, t_id);
        sqlite3_bind_int64(st, 9, b_id);
    } else {
        sqlite3_bind_null(st, 8);
        sqlite3_bind_null(st, 9);
    }
    json_decref(s->attrs);
    s->attrs = json_object();
    const char *key;
    json_t *v;
    int bad = !s->attrs;
    json_object_foreach(bad ? NULL : r->attributes, key, v) {
        if ((bad = add_attribute(s, key, v)) != 0)
            break;
    }
    sb_reset(&s->text);
    if (bad || json_canonical(s->attrs, &s->text))
        return report_oom(s->rep);
    sqlite3_bind_text(st, 10, s->text.buf, (int)s->text.len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 11, s->archive_id);
    if (step(s, st))
        return -1;
    s->run_id = sqlite3_last_insert_rowid(s->db);
    s->here.runs++;
    s->here.rows++;
    return 0;
}

int sink_appending(const struct sink *s)
{
    return s->appending;
}

int sink_run_has_start(const struct sink *s)
{
    return s->start_given;
}

int sink_run_attributes(struct sink *s, json_t *attrs)
{
    if (s->appending)
        return 0; /* the run keeps what it was first stored with */
    const char *key;
    json_t *v;
    json_object_foreach(attrs, key, v) {
        if (json_object_get(s->attrs, key) || json_is_null(v))
            continue;
        if (add_attribute(s, key, v))
            return report_oom(s->rep);
    }
    sb_reset(&s->text);
    if (json_canonical(s->attrs, &s->text))
        return report_oom(s->rep);
    sqlite3_stmt *st = stmt(s, S_RUN_ATTRS_SET);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, s->text.buf, (int)s->text.len, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, s->run_id);
    return step(s, st);
}

int sink_run_started_at(struct sink *s, const char *t)
{
    double secs;
    if (s->appending || s->start_given || !rfc3339_parse(t, &secs))
        return 0;
    if (s->start_set && secs >= s->start_best)
        return 0;
    sqlite3_stmt *st = stmt(s, S_RUN_START_SET);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, s->run_id);
    if (step(s, st))
        return -1;
    s->start_set = 1;
    s->start_best = secs;
    return 0;
}

/* ---- series ---- */

static const char *unit_name(const struct sink *s, int ix)
{
    return ix < unit_count ? unit_names[ix] : s->xunits[ix - unit_count];
}

/* The index of a unit: a built-in one, or one added to the unit table
 * (kind 'other') the first time an archive uses it. */
static int unit_ix(struct sink *s, const char *unit, int *ix)
{
    *ix = unit_index(unit);
    if (*ix >= 0)
        return 0;
    for (int k = 0; k < s->n_xunits; k++)
        if (strcmp(s->xunits[k], unit) == 0) {
            *ix = unit_count + k;
            return 0;
        }
    if (unit_count + s->n_xunits >= 256)
        return report_fail(s->rep, NULL, "more than %d distinct units in one archive", 256 - unit_count);
    sqlite3_stmt *st = stmt(s, S_UNIT_KIND);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, unit, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return fail_sql(s);
    if (rc == SQLITE_DONE) {
        sqlite3_stmt *add = stmt(s, S_UNIT_ADD);
        if (!add)
            return -1;
        sqlite3_bind_text(add, 1, unit, -1, SQLITE_STATIC);
        if (step(s, add))
            return -1;
    }
    char *copy = strdup(unit);
    if (!copy)
        return report_oom(s->rep);
    s->xunits[s->n_xunits] = copy;
    *ix = unit_count + s->n_xunits++;
    return 0;
}

/* A cell's unit is the same for a variant and metric within a run: against
 * this archive's earlier series and, in a run appended to, the stored ones. */
static int check_cell_unit(struct sink *s, const struct sink_series *x, int64_t bench_id, int64_t variant_id,
                           const char *metric, int ix)
{
    char k[2 * sizeof(int64_t) + 256];
    size_t mlen = metric ? strlen(metric) + 1 : 0;
    if (mlen > 256)
        return report_fail(s->rep, x->field, "metric name longer than 255 bytes");
    int64_t ku[2] = {bench_id, variant_id};
    memcpy(k, ku, sizeof ku);
    if (mlen)
        memcpy(k + sizeof ku, metric, mlen);
    int64_t *prev = idmap_get(&s->cell_unit, k, sizeof ku + mlen);
    char f[96];
    snprintf(f, sizeof f, "%s%s", x->field, strcmp(x->field, "samples") == 0 ? ".unit" : "");
    if (prev && (*prev & 0xff) != ix)
        return report_fail(s->rep, f, "expected \"%s\" (the unit of this cell and variant at line %lld), got \"%s\"",
                           unit_name(s, (int)(*prev & 0xff)), (long long)(*prev >> 8), unit_name(s, ix));
    if (prev)
        return 0;
    if (s->appending) {
        sqlite3_stmt *st = stmt(s, S_SERIES_UNIT);
        if (!st)
            return -1;
        sqlite3_bind_int64(st, 1, s->run_id);
        sqlite3_bind_int64(st, 2, bench_id);
        sqlite3_bind_int64(st, 3, variant_id);
        sqlite3_bind_text(st, 4, metric ? metric : primary_metric, -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        char *stored = rc == SQLITE_ROW ? column_dup(st, 0) : NULL;
        sqlite3_reset(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return fail_sql(s);
        if (stored && strcmp(stored, unit_name(s, ix)) != 0) {
            report_fail(s->rep, f, "expected \"%s\" (the unit this cell and variant have in the stored run), got \"%s\"",
                        stored, unit_name(s, ix));
            free(stored);
            return -1;
        }
        free(stored);
    }
    if (idmap_put(&s->cell_unit, k, sizeof ku + mlen, (int64_t)s->rep->line << 8 | ix))
        return report_oom(s->rep);
    return 0;
}

/* The series key is taken: by a series of this archive (named by the line
 * it came from) or one stored before (named by its archive). */
static int duplicate(struct sink *s, const struct sink_series *x, int64_t bench_id, int64_t variant_id,
                     const char *metric)
{
    char said[256];
    snprintf(said, sizeof said, "%s", sqlite3_errmsg(s->db));
    sqlite3_stmt *q = stmt(s, S_SERIES_FIND);
    if (!q)
        return -1;
    sqlite3_bind_int64(q, 1, s->run_id);
    sqlite3_bind_int64(q, 2, bench_id);
    sqlite3_bind_int64(q, 3, x->block);
    sqlite3_bind_int64(q, 4, variant_id);
    sqlite3_bind_int64(q, 5, x->fork);
    sqlite3_bind_text(q, 6, metric ? metric : primary_metric, -1, SQLITE_STATIC);
    int found = sqlite3_step(q) == SQLITE_ROW;
    int64_t id = found ? sqlite3_column_int64(q, 0) : 0, archive = found ? sqlite3_column_int64(q, 1) : 0;
    char *archive_name = found ? column_dup(q, 2) : NULL;
    sqlite3_reset(q);
    if (!found) /* another constraint: say what SQLite said */
        return report_fail(s->rep, NULL, "cannot store: %s", said);
    char where[300] = " in this run";
    if (archive != s->archive_id) {
        snprintf(where, sizeof where, " already stored in this run by archive %lld \"%s\"", (long long)archive,
                 archive_name ? archive_name : "?");
    } else {
        for (size_t i = 0; i < s->n_series_lines; i++) {
            if (s->series_lines[i][0] != id)
                continue;
            if (s->series_lines[i][1]) /* 0: from a harness file */
                snprintf(where, sizeof where, " in this run (first at line %lld)", (long long)s->series_lines[i][1]);
            break;
        }
    }
    free(archive_name);
    return report_fail(s->rep, x->field, "benchmark \"%s\" params %s block %lld variant \"%s\" fork %lld%s%s%s %s%s",
                       x->benchmark, x->params, x->block, x->variant, x->fork, metric ? " metric \"" : "",
                       metric ? metric : "", metric ? "\"" : "", archive != s->archive_id ? "is" : "appears twice",
                       where);
}

static int insert_values(struct sink *s, int64_t series_id, const double *v, const int64_t *count, size_t n,
                         const double *warmup, size_t nw)
{
    /* Measured values first, then warmups: the primary key's order. */
    size_t total = n + nw, at = 0;
    int counted = count != NULL, per = counted ? 4 : 3;
    for (int k = SAMPLE_SHAPES - 1; k >= 0; k--) {
        size_t rows = (size_t)1 << k;
        sqlite3_stmt *st = stmt(s, S_SAMPLES + (counted ? SAMPLE_SHAPES : 0) + k);
        if (!st)
            return -1;
        for (; total - at >= rows; at += rows) {
            sqlite3_bind_int64(st, 1, series_id);
            for (size_t j = 0; j < rows; j++) {
                size_t q = at + j;
                int w = q >= n;
                int p = per * (int)j + 2;
                sqlite3_bind_int(st, p, w);
                sqlite3_bind_int64(st, p + 1, (sqlite3_int64)(w ? q - n : q) + 1);
                sqlite3_bind_double(st, p + 2, w ? warmup[q - n] : v[q]);
                if (counted)
                    sqlite3_bind_int64(st, p + 3, w ? 1 : count[q]);
            }
            if (sqlite3_step(st) != SQLITE_DONE) {
                sqlite3_reset(st);
                return fail_sql(s);
            }
            sqlite3_reset(st);
        }
    }
    s->here.samples += total;
    s->here.rows += total;
    return 0;
}

int sink_series(struct sink *s, const struct sink_series *x, const double *v, const int64_t *count, size_t n,
                const double *warmup, size_t n_warmup)
{
    const char *metric = x->metric && strcmp(x->metric, primary_metric) != 0 ? x->metric : NULL;
    int64_t bench_id = 0, variant_id = 0;
    int ix;
    if (unit_ix(s, x->unit, &ix) || benchmark_id(s, x->benchmark, x->params, &bench_id) ||
        name_id(s, &s->variants, x->variant, &variant_id) || check_cell_unit(s, x, bench_id, variant_id, metric, ix))
        return -1;
    /* n and the compensated sum of count x value, which must be a double */
    struct ksum sum = {0, 0};
    int64_t total_n = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t c = count ? count[i] : 1;
        ksum_add(&sum, v[i] * (double)c);
        total_n += c;
    }
    double total = ksum_value(&sum);
    if (!isfinite(total))
        return report_fail(s->rep, strcmp(x->field, "samples") == 0 ? "samples.values" : x->field, "the values add up to more than a double holds (about 1.8e308): a "
                                             "series' total, from which its block scores come, cannot be stored");
    if (s->n_series_lines == s->cap_series_lines) {
        size_t cap = s->cap_series_lines ? 2 * s->cap_series_lines : 256;
        void *p = realloc(s->series_lines, cap * sizeof *s->series_lines);
        if (!p)
            return report_oom(s->rep);
        s->series_lines = p;
        s->cap_series_lines = cap;
    }
    sqlite3_stmt *st = stmt(s, S_SERIES_INSERT);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, s->run_id);
    sqlite3_bind_int64(st, 2, bench_id);
    sqlite3_bind_int64(st, 3, x->block);
    sqlite3_bind_int64(st, 4, variant_id);
    sqlite3_bind_int64(st, 5, x->fork);
    sqlite3_bind_text(st, 6, unit_name(s, ix), -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, total_n);
    sqlite3_bind_double(st, 8, total);
    sqlite3_bind_text(st, 9, metric ? metric : primary_metric, -1, SQLITE_STATIC);
    if (x->member_id)
        sqlite3_bind_int64(st, 10, x->member_id);
    else
        sqlite3_bind_null(st, 10);
    bind_opt_text(st, 11, x->detail);
    bind_appender(s, st, 12);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return duplicate(s, x, bench_id, variant_id, metric);
    if (rc != SQLITE_DONE)
        return fail_sql(s);
    int64_t series_id = sqlite3_last_insert_rowid(s->db);
    s->series_lines[s->n_series_lines][0] = series_id;
    s->series_lines[s->n_series_lines][1] = strcmp(x->field, "samples") == 0 ? (int64_t)s->rep->line : 0;
    s->n_series_lines++;
    s->here.series++;
    s->here.rows++;
    return insert_values(s, series_id, v, count, n, warmup, n_warmup);
}

/* ---- gates and events ---- */

int sink_gate(struct sink *s, const char *name, int passed, const char *at, const char *detail)
{
    sqlite3_stmt *st = stmt(s, S_GATE_INSERT);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, s->run_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, passed);
    bind_opt_text(st, 4, at);
    bind_opt_text(st, 5, detail);
    bind_appender(s, st, 6);
    if (step(s, st))
        return -1;
    s->here.gates++;
    s->here.rows++;
    return 0;
}

int sink_event(struct sink *s, const char *name, const struct sink_value *value, const char *at, const char *detail)
{
    sqlite3_stmt *st = stmt(s, S_EVENT_INSERT);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, s->run_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    switch (value ? value->type : SV_NULL) {
    case SV_NULL: sqlite3_bind_null(st, 3); break;
    case SV_TEXT: sqlite3_bind_text(st, 3, value->text, (int)value->len, SQLITE_STATIC); break;
    case SV_INT: sqlite3_bind_int64(st, 3, value->i); break;
    case SV_REAL: sqlite3_bind_double(st, 3, value->d); break;
    }
    bind_opt_text(st, 4, at);
    bind_opt_text(st, 5, detail);
    bind_appender(s, st, 6);
    if (step(s, st))
        return -1;
    s->here.events++;
    s->here.rows++;
    return 0;
}
