/* The loader: one archive = one transaction. A producer thread (pipeline.c)
 * reads, hashes and parses the archive; this side validates each record
 * (records.c) and inserts it with statements prepared once per command,
 * stores the archive's bytes, and decides loaded, skipped or failed. Id
 * caches are forgotten on a rollback, which may have removed rows they
 * name. */
#include "ingest/loader.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ingest/format.h"
#include "ingest/pipeline.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "version.h"

/* The sha256 column of an archive row while its stream is still being
 * read from a pipe; replaced before the commit. */
static const char pending_sha[] = "0000000000000000000000000000000000000000000000000000000000000000";

static const char *const stmt_sql[S_COUNT] = {
    [S_ARCHIVE_BY_SHA] = "SELECT id, name FROM archive WHERE sha256 = ?",
    [S_ARCHIVE_INSERT] = "INSERT INTO archive(sha256, name, size, format, content_encoding, stored_size, "
                         "ingested_at, tool_version) VALUES (?, ?, 0, '" ARCHIVE_FORMAT "', 'zstd', 0, ?, ?)",
    [S_ARCHIVE_UPDATE] = "UPDATE archive SET sha256 = ?, size = ?, content_encoding = ?, stored_size = ? WHERE id = ?",
    [S_ARCHIVE_DELETE_EMPTY] = "DELETE FROM archive WHERE id = ?1 AND NOT EXISTS "
                               "(SELECT 1 FROM run WHERE archive_id = ?1)",
    [S_PLAN_GET] = "SELECT id FROM plan WHERE name = ?",
    [S_PLAN_INSERT] = "INSERT INTO plan(name) VALUES (?)",
    [S_HOST_GET] = "SELECT id FROM host WHERE name = ?",
    [S_HOST_INSERT] = "INSERT INTO host(name) VALUES (?)",
    [S_VARIANT_GET] = "SELECT id FROM variant WHERE name = ?",
    [S_VARIANT_INSERT] = "INSERT INTO variant(name) VALUES (?)",
    [S_BENCH_GET] = "SELECT id FROM benchmark WHERE name = ? AND params = ?",
    [S_BENCH_INSERT] = "INSERT INTO benchmark(name, params) VALUES (?, ?)",
    [S_RUN_FIND] = "SELECT r.id, a.id, a.name FROM run r JOIN archive a ON a.id = r.archive_id "
                   "WHERE r.plan_id = ? AND r.name = ?",
    [S_RUN_DELETE] = "DELETE FROM run WHERE id = ?",
    [S_RUN_INSERT] = "INSERT INTO run(plan_id, name, host_id, position, source, started_at, ended_at, "
                     "treatment_id, baseline_id, attributes, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [S_SERIES_INSERT] = "INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total, "
                        "metric, member_id, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [S_SERIES_FIND] = "SELECT id FROM series WHERE run_id = ? AND benchmark_id = ? AND block = ? AND variant_id = ? "
                      "AND fork = ? AND metric = ?",
    [S_GATE_INSERT] = "INSERT INTO gate(run_id, name, passed, at, detail) VALUES (?, ?, ?, ?, ?)",
    [S_EVENT_INSERT] = "INSERT INTO event(run_id, name, value, at, detail) VALUES (?, ?, ?, ?, ?)",
    [S_CHUNK_INSERT] = "INSERT INTO archive_chunk(archive_id, seq, data) VALUES (?, ?, ?)",
    [S_UNIT_KIND] = "SELECT kind FROM unit WHERE name = ?",
    [S_UNIT_ADD] = "INSERT INTO unit(name, kind, factor, direction) VALUES (?, 'other', 1, NULL)",
    [S_SAMPLE_INSERT_COUNT] = "INSERT INTO sample(series_id, warmup, iteration, value, count) VALUES (?, ?, ?, ?, ?)",
    [S_MEMBER_INSERT] = "INSERT INTO archive_member(archive_id, path, sha256, size) VALUES (?, ?, ?, ?)",
    [S_RUN_ATTRS_GET] = "SELECT attributes FROM run WHERE id = ?",
    [S_RUN_ATTRS_SET] = "UPDATE run SET attributes = ? WHERE id = ?",
    [S_ARCHIVE_SET_FORMAT] = "UPDATE archive SET format = ? WHERE id = ?",
};

/* INSERT INTO sample ... VALUES for rows values of one series, each with
 * its warmup, iteration and value (see SAMPLE_SHAPES); malloc'd, NULL when
 * out of memory. */
static char *sample_insert_sql(int rows)
{
    struct strbuf b = {0};
    int bad = sb_puts(&b, "INSERT INTO sample(series_id, warmup, iteration, value) VALUES ");
    for (int j = 0; j < rows && !bad; j++)
        bad = sb_printf(&b, "%s(?1, ?%d, ?%d, ?%d)", j ? ", " : "", 3 * j + 2, 3 * j + 3, 3 * j + 4);
    if (bad) {
        sb_free(&b);
        return NULL;
    }
    return sb_detach(&b);
}

int ingest_fail(struct ingester *g, const char *field, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = bd_vstrdupf(fmt, ap);
    va_end(ap);
    free(g->err);
    g->err = field && *field ? bd_strdupf("%s: %s", field, what) : bd_strdupf("%s", what);
    free(what);
    g->err_line = g->line;
    return -1;
}

int ingest_fail_sql(struct ingester *g)
{
    /* SQLITE_FULL: SQLite's "database or disk is full". The store has no
     * page limit (max_page_count is not set, and does not persist), so it
     * is the disk (or a quota); said plainly, SQLite's words kept. */
    int sys = sqlite3_system_errno(g->db);
    if ((sqlite3_errcode(g->db) & 0xff) == SQLITE_FULL || sys == ENOSPC || sys == EDQUOT)
        return ingest_fail(g, NULL, "cannot store: the disk is full (%s)", sqlite3_errmsg(g->db));
    return ingest_fail(g, NULL, "cannot store: %s", sqlite3_errmsg(g->db));
}

void ingest_before_message(struct ingester *g)
{
    if (g->hooks.before_message)
        g->hooks.before_message(g->hooks.arg);
}

/* Steps a statement that returns no row (or whose row is not needed). */
int ingest_step(struct ingester *g, sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return ingest_fail_sql(g);
    return 0;
}

static int exec(struct ingester *g, const char *sql)
{
    if (sqlite3_exec(g->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return ingest_fail_sql(g);
    return 0;
}

/* ---- one archive ---- */

static int insert_chunk(struct ingester *g, const unsigned char *buf, size_t len)
{
    sqlite3_stmt *st = g->st[S_CHUNK_INSERT];
    sqlite3_bind_int64(st, 1, g->archive_id);
    sqlite3_bind_int64(st, 2, g->chunk_seq++);
    sqlite3_bind_blob(st, 3, buf, (int)len, SQLITE_STATIC);
    int rc = ingest_step(g, st);
    sqlite3_clear_bindings(st);
    return rc;
}

/* Looks an archive up by its hash: 1 (with its id and name) when stored. */
static int find_archive(struct ingester *g, const char *sha, int64_t *id, char **name)
{
    sqlite3_stmt *st = g->st[S_ARCHIVE_BY_SHA];
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *id = sqlite3_column_int64(st, 0);
        const char *t = (const char *)sqlite3_column_text(st, 1); /* NULL when out of memory */
        *name = t ? strdup(t) : NULL;
    }
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return ingest_fail_sql(g);
    return rc == SQLITE_ROW;
}

static void notice_skip(struct ingester *g, const char *sha, int64_t id, const char *name)
{
    if (g->opt.quiet)
        return;
    ingest_before_message(g);
    bd_notice("%s: skipped: already stored as archive %lld \"%s\" (sha256 %.12s...)", g->shown, (long long)id,
              name ? name : "?", sha);
}

/* After an error in a stream read once (a pipe): reads the rest to learn
 * its hash; an archive already stored is skipped, not refused, whatever
 * its content would say now (e.g. its runs conflict with themselves). */
static int stored_anyway(struct ingester *g)
{
    char *derr = NULL;
    if (!g->pipe_started || !g->pipe->rd.in)
        return 0;
    pipeline_stop(g->pipe); /* the reader is ours again */
    char sha[65];
    if (g->pipe->sha[0]) { /* the producer had read it all */
        memcpy(sha, g->pipe->sha, sizeof sha);
    } else {
        if (reader_drain(&g->pipe->rd, &derr)) {
            free(derr);
            return 0;
        }
        reader_digest(&g->pipe->rd, sha);
    }
    int64_t id = 0;
    char *name = NULL;
    char *saved = g->err; /* find_archive may fail: keep the first error */
    uint64_t saved_line = g->err_line;
    g->err = NULL;
    int found = find_archive(g, sha, &id, &name);
    free(g->err);
    g->err = saved;
    g->err_line = saved_line;
    if (found > 0)
        notice_skip(g, sha, id, name);
    free(name);
    return found > 0;
}

static void now_rfc3339(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- for the other kinds of archive (results.c, container.c) ---- */

int ingest_chunk(struct ingester *g, const unsigned char *buf, size_t len)
{
    return insert_chunk(g, buf, len);
}

int ingest_archive_row(struct ingester *g, const char *path, const char *sha, const char *format)
{
    char when[32];
    now_rfc3339(when);
    sqlite3_stmt *st = g->st[S_ARCHIVE_INSERT];
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, when, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, BENCHDB_VERSION, -1, SQLITE_STATIC);
    if (ingest_step(g, st))
        return -1;
    g->archive_id = sqlite3_last_insert_rowid(g->db);
    g->chunk_seq = 0;
    st = g->st[S_ARCHIVE_SET_FORMAT];
    sqlite3_bind_text(st, 1, format, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, g->archive_id);
    return ingest_step(g, st);
}

int ingest_archive_done(struct ingester *g, const char *sha, uint64_t size, int compressed, uint64_t stored)
{
    g->line = 0;
    if (g->here.runs == 0)
        return ingest_fail(g, NULL, "no run record (an archive holds one or more runs, each opened by a run record)");
    sqlite3_stmt *st = g->st[S_ARCHIVE_UPDATE];
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)size);
    sqlite3_bind_text(st, 3, compressed ? "zstd" : "identity", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)stored);
    sqlite3_bind_int64(st, 5, g->archive_id);
    if (ingest_step(g, st))
        return -1;
    for (size_t i = 0; i < g->n_replaced; i++) {
        sqlite3_bind_int64(g->st[S_ARCHIVE_DELETE_EMPTY], 1, g->replaced[i]);
        if (ingest_step(g, g->st[S_ARCHIVE_DELETE_EMPTY]))
            return -1;
    }
    g->here.rows += 1 + (uint64_t)g->chunk_seq;
    return 0;
}

/* ---- reading ahead: the next archive of the list ---- */

void ingester_next(struct ingester *g, const char *path)
{
    free(g->next_path);
    g->next_path = path ? strdup(path) : NULL; /* out of memory: no reading ahead, nothing else */
}

static void prefetch_cancel(struct ingester *g)
{
    if (!g->next_started)
        return;
    struct pipeline *other = g->pipe == &g->pipes[0] ? &g->pipes[1] : &g->pipes[0];
    pipeline_free(other);
    close(g->next_fd);
    g->next_fd = -1;
    g->next_started = 0;
}

/* A harness file (--format) is read by load_foreign, not by the producer. */
static int foreign_file(int fd)
{
    (void)fd;
    return 1;
}

/* Starts hashing and reading the next archive on the other pipeline, if it
 * is a regular file (anything else is opened in its turn, as ever). */
static void prefetch(struct ingester *g)
{
    if (g->next_started || !g->next_path || strcmp(g->next_path, "-") == 0)
        return;
    int fd = open(g->next_path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0)
        return;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return;
    }
    struct pipeline *other = g->pipe == &g->pipes[0] ? &g->pipes[1] : &g->pipes[0];
    char *perr = NULL;
    other->sniff = container_sniff;
    if (pipeline_start(other, fd, g->opt.max_line_bytes, g->opt.max_bytes, 1, &perr)) {
        free(perr);
        pipeline_free(other);
        close(fd);
        return;
    }
    g->next_fd = fd;
    g->next_started = 1;
}

/* The body of ingester_archive inside the transaction: returns 0 loaded,
 * 1 skipped (stdin whose hash is stored), -1 failed. */
static int load(struct ingester *g, int fd, const char *path, const char *first_sha, uint64_t first_size)
{
    char when[32];
    now_rfc3339(when);
    sqlite3_stmt *st = g->st[S_ARCHIVE_INSERT];
    sqlite3_bind_text(st, 1, first_sha ? first_sha : pending_sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, when, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, BENCHDB_VERSION, -1, SQLITE_STATIC);
    if (ingest_step(g, st))
        return -1;
    g->archive_id = sqlite3_last_insert_rowid(g->db);
    g->chunk_seq = 0;

    if (g->pipe_started) { /* a regular file, hashed first: read on */
        pipeline_go(g->pipe);
    } else {
        char *perr = NULL;
        int started = pipeline_start(g->pipe, fd, g->opt.max_line_bytes, g->opt.max_bytes, 0, &perr);
        g->pipe_started = 1;
        if (started) {
            ingest_fail(g, NULL, "%s", perr);
            free(perr);
            return -1;
        }
    }
    prefetch(g);
    for (;;) {
        struct pipe_item it;
        pipeline_next(g->pipe, &it);
        int rc = 0;
        if (it.kind == PIPE_RECORD) {
            g->line = it.line;
            pipeline_hold(&it);
            rc = ingest_record(g, it.rec);
        } else if (it.kind == PIPE_CHUNK) {
            rc = insert_chunk(g, it.buf, it.size);
        } else if (it.kind == PIPE_ERROR) {
            g->line = it.line;
            g->reader_failed = it.reader_failed;
            rc = ingest_fail(g, NULL, "%s", it.err);
        }
        enum pipe_kind kind = it.kind;
        pipeline_release(&it);
        if (rc)
            return -1;
        if (kind == PIPE_END)
            break;
        if (g->hooks.progress)
            g->hooks.progress(g->hooks.arg);
    }
    g->line = 0;
    if (g->run_id == 0)
        return ingest_fail(g, NULL, "no run record (an archive holds one or more runs, each opened by a run record)");
    const char *sha = g->pipe->sha;
    uint64_t raw = atomic_load(&g->pipe->raw_bytes);
    if (first_sha && (strcmp(sha, first_sha) != 0 || raw != first_size))
        return ingest_fail(g, NULL, "changed while being read (its SHA-256 differs between two reads)");
    if (!first_sha) {
        int64_t id = 0;
        char *name = NULL;
        int found = find_archive(g, sha, &id, &name);
        if (found < 0)
            return -1;
        if (found) {
            notice_skip(g, sha, id, name);
            free(name);
            return 1;
        }
    }
    /* The same closing as a container member's stream (ingest_archive_done). */
    return ingest_archive_done(g, sha, raw, g->pipe->chunks.compress, g->pipe->chunks.stored);
}

static void reset_archive_state(struct ingester *g)
{
    free(g->err);
    g->err = NULL;
    g->err_line = 0;
    g->line = 0;
    g->run_id = 0;
    g->archive_id = 0;
    g->n_replaced = 0;
    g->reader_failed = 0;
    idmap_clear(&g->warned);
    idmap_clear(&g->runs_seen);
    g->n_series_lines = 0;
    idmap_clear(&g->cell_unit);
    ingest_forget_units(g);
    idmap_clear(&g->members);
    g->member_id = 0;
    free(g->err_member);
    g->err_member = NULL;
    g->member_get = NULL;
    g->stream_dir = NULL;
    sb_reset(&g->notices);
    memset(&g->here, 0, sizeof g->here);
}

enum ingest_result ingester_archive(struct ingester *g, const char *path)
{
    int is_stdin = strcmp(path, "-") == 0;
    g->shown = is_stdin ? "<stdin>" : path;
    reset_archive_state(g);

    /* The next archive, if its reading began while the last was stored. */
    int ahead = g->next_started && strcmp(g->next_path, path) == 0;
    if (!ahead)
        prefetch_cancel(g);
    int fd;
    if (ahead) {
        g->pipe = g->pipe == &g->pipes[0] ? &g->pipes[1] : &g->pipes[0];
        g->pipe_started = 1;
        fd = g->next_fd;
        g->next_fd = -1;
        g->next_started = 0;
    } else {
        fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    }
    free(g->next_path);
    g->next_path = NULL;
    if (fd < 0) {
        ingest_before_message(g);
        bd_error("%s: cannot open: %s", path, strerror(errno));
        g->totals.failed++;
        return INGEST_FAILED;
    }
    /* A regular file is hashed first (by the producer, which also tells a
     * container): a stored archive is skipped unread. */
    struct stat sb;
    char first_sha[65];
    uint64_t first_size = 0;
    int have_stat = !is_stdin && fstat(fd, &sb) == 0;
    int seekable = have_stat && S_ISREG(sb.st_mode);
    int rc = 0, began = 0, container = 0;
    if (have_stat && S_ISDIR(sb.st_mode)) {
        rc = ingest_fail(g, NULL, "is a directory");
    } else if (seekable) {
        char *perr = NULL;
        if (!ahead) {
            g->pipe->sniff = g->foreign ? foreign_file : container_sniff;
            int started = pipeline_start(g->pipe, fd, g->opt.max_line_bytes, g->opt.max_bytes, 1, &perr);
            g->pipe_started = 1;
            if (started) {
                rc = ingest_fail(g, NULL, "%s", perr);
                free(perr);
            }
        }
        if (rc == 0) {
            struct pipe_item it;
            pipeline_next(g->pipe, &it); /* PIPE_HASHED, the producer's first */
            if (it.kind != PIPE_HASHED || g->pipe->pre_err) {
                rc = ingest_fail(g, NULL, "%s", g->pipe->pre_err ? g->pipe->pre_err : it.err ? it.err : "read error");
            } else {
                memcpy(first_sha, g->pipe->pre_sha, sizeof first_sha);
                first_size = g->pipe->pre_size;
                container = g->pipe->container;
            }
            pipeline_release(&it);
        }
    }
    if (rc == 0 && seekable) {
        int64_t id = 0;
        char *name = NULL;
        int found = find_archive(g, first_sha, &id, &name);
        if (found > 0) {
            notice_skip(g, first_sha, id, name);
            free(name);
            rc = 1;
        } else if (found < 0) {
            rc = -1;
        }
    }
    if (rc == 0) {
        rc = exec(g, "BEGIN IMMEDIATE");
        began = rc == 0;
    }
    if (rc == 0 && seekable) {
        /* Another process may have stored it since the look-up above. */
        int64_t id = 0;
        char *name = NULL;
        int found = find_archive(g, first_sha, &id, &name);
        if (found > 0) {
            notice_skip(g, first_sha, id, name);
            rc = 1;
        } else if (found < 0) {
            rc = -1;
        }
        free(name);
    }
    if (rc == 0 && (g->foreign || container)) {
        if (g->pipe_started) { /* the producer stopped after hashing: the file is read by load_* */
            pipeline_free(g->pipe);
            g->pipe_started = 0;
            if (lseek(fd, 0, SEEK_SET) != 0)
                rc = ingest_fail(g, NULL, "%s", strerror(errno));
        }
        if (rc == 0)
            rc = g->foreign ? load_foreign(g, fd, path, first_sha, first_size)
                            : load_container(g, fd, path, first_sha, first_size);
    } else if (rc == 0) {
        rc = load(g, fd, path, seekable ? first_sha : NULL, first_size);
        if (rc < 0 && !seekable && !g->reader_failed && stored_anyway(g))
            rc = 1;
    }
    if (rc == 0 && exec(g, "COMMIT"))
        rc = -1;
    if (rc != 0 && began) {
        sqlite3_exec(g->db, "ROLLBACK", NULL, NULL, NULL);
        ingest_forget_ids(g);
    }
    if (g->pipe_started)
        pipeline_free(g->pipe);
    g->pipe_started = 0; /* ingester_live: nothing in progress */
    if (!is_stdin)
        close(fd);

    if (rc != 0)
        memset(&g->here, 0, sizeof g->here); /* counted in totals only when loaded */
    if (rc < 0) {
        ingest_before_message(g);
        if (g->err_member && g->err_line)
            bd_error("%s[%s]:%llu: %s", g->shown, g->err_member, (unsigned long long)g->err_line,
                     g->err ? g->err : "failed");
        else if (g->err_member)
            bd_error("%s[%s]: %s", g->shown, g->err_member, g->err ? g->err : "failed");
        else if (g->err_line)
            bd_error("%s:%llu: %s", g->shown, (unsigned long long)g->err_line, g->err ? g->err : "failed");
        else
            bd_error("%s: %s", g->shown, g->err ? g->err : "failed");
        bd_notice("note: %s: archive not stored (nothing from it was written)", g->shown);
        g->totals.failed++;
        return INGEST_FAILED;
    }
    if (rc > 0) {
        g->totals.skipped++;
        return INGEST_SKIPPED;
    }
    if (g->notices.len && !g->opt.quiet) {
        ingest_before_message(g);
        fputs(g->notices.buf, stderr);
    }
    g->totals.loaded++;
    g->totals.runs += g->here.runs;
    g->totals.series += g->here.series;
    g->totals.samples += g->here.samples;
    g->totals.gates += g->here.gates;
    g->totals.events += g->here.events;
    g->totals.rows += g->here.rows;
    memset(&g->here, 0, sizeof g->here);
    return INGEST_LOADED;
}

/* ---- the command's ingester ---- */

struct ingester *ingester_open(sqlite3 *db, const struct ingest_options *opt, const struct ingest_hooks *hooks,
                               char **err)
{
    struct ingester *g = calloc(1, sizeof *g);
    if (!g) {
        bd_fail(err, "out of memory");
        return NULL;
    }
    g->pipe = &g->pipes[0];
    g->next_fd = -1;
    g->db = db;
    g->opt = *opt;
    if (hooks)
        g->hooks = *hooks;
    g->plans = (struct names){S_PLAN_GET, S_PLAN_INSERT, {0}};
    g->hosts = (struct names){S_HOST_GET, S_HOST_INSERT, {0}};
    g->variants = (struct names){S_VARIANT_GET, S_VARIANT_INSERT, {0}};
    /* WAL with synchronous=NORMAL keeps every commit atomic and the store
     * consistent; a power cut may lose the last commits, never half of one. */
    if (sqlite3_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -8192", NULL, NULL, NULL) != SQLITE_OK) {
        bd_fail(err, "%s", sqlite3_errmsg(db));
        ingester_close(g);
        return NULL;
    }
    for (int i = 0; i < S_COUNT; i++) {
        int rows = i >= S_SAMPLE_ROWS_1 && i <= S_SAMPLE_ROWS_64 ? 1 << (i - S_SAMPLE_ROWS_1) : 0;
        char *multi = rows ? sample_insert_sql(rows) : NULL;
        if (rows && !multi) {
            bd_fail(err, "out of memory");
            ingester_close(g);
            return NULL;
        }
        int rc = sqlite3_prepare_v3(db, multi ? multi : stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &g->st[i], NULL);
        free(multi);
        if (rc != SQLITE_OK) {
            bd_fail(err, "%s", sqlite3_errmsg(db));
            ingester_close(g);
            return NULL;
        }
    }
    json_object_seed(0); /* once, before the producer threads parse objects */
    pipeline_json_checked();
    return g;
}

const struct ingest_totals *ingester_totals(const struct ingester *g)
{
    return &g->totals;
}

void ingester_live(const struct ingester *g, uint64_t *bytes, uint64_t *rows)
{
    *bytes = g->pipe_started ? atomic_load(&g->pipe->raw_bytes) : 0;
    *rows = g->totals.rows + g->here.rows;
}

void ingester_close(struct ingester *g)
{
    if (!g)
        return;
    prefetch_cancel(g);
    free(g->next_path);
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(g->st[i]);
    idmap_free(&g->plans.cache);
    idmap_free(&g->hosts.cache);
    idmap_free(&g->variants.cache);
    idmap_free(&g->benchmarks);
    idmap_free(&g->warned);
    idmap_free(&g->runs_seen);
    free(g->series_lines);
    idmap_free(&g->cell_unit);
    idmap_free(&g->members);
    free(g->err_member);
    sb_free(&g->notices);
    sb_free(&g->key);
    sb_free(&g->text);
    ingest_forget_units(g);
    free(g->replaced);
    free(g->err);
    free(g);
}
