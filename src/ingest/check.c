#include "ingest/check.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "store/store.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/strbuf.h"

/* Re-reads one archive's chunks; returns 0 when they match its row. */
static int check_archive(struct db *db, struct db_stmt *chunks, int64_t id, const char *name, const char *sha,
                         int64_t size, const char *encoding, int64_t stored_size, ZSTD_DCtx *dctx,
                         unsigned char *out, size_t outsize)
{
    int zstd = strcmp(encoding, "zstd") == 0;
    struct sha256 h;
    sha256_init(&h);
    int64_t seq = 0, stored = 0, data = 0;
    size_t zret = 0;
    int bad = 0, rc;
    if (zstd)
        ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
    db_bind_int64(chunks, 1, id);
    while (!bad && (rc = db_step(chunks)) == SQLITE_ROW) {
        if (db_column_int64(chunks, 0) != seq) {
            bd_error("check: archive %" PRId64 " \"%s\": chunk %" PRId64 " missing", id, name, seq);
            bad = 1;
            break;
        }
        sqlite3_value *cell = db_column_value(chunks, 1);
        const void *p = sqlite3_value_blob(cell);
        size_t n = (size_t)sqlite3_value_bytes(cell);
        stored += (int64_t)n;
        seq++;
        if (!zstd) {
            sha256_update(&h, p, n);
            data += (int64_t)n;
            continue;
        }
        ZSTD_inBuffer ib = {p, n, 0};
        int full = 0;
        while (ib.pos < ib.size || full) {
            ZSTD_outBuffer ob = {out, outsize, 0};
            zret = ZSTD_decompressStream(dctx, &ob, &ib);
            if (ZSTD_isError(zret)) {
                bd_error("check: archive %" PRId64 " \"%s\": stored bytes are not valid zstd: %s", id, name,
                         ZSTD_getErrorName(zret));
                bad = 1;
                break;
            }
            sha256_update(&h, out, ob.pos);
            data += (int64_t)ob.pos;
            full = ob.pos == ob.size && zret != 0;
        }
    }
    db_reset(chunks);
    if (bad)
        return 1;
    if (rc != SQLITE_DONE) {
        bd_error("check: archive %" PRId64 ": %s", id, db_errmsg(db));
        return 1;
    }
    if (zstd && zret != 0) {
        bd_error("check: archive %" PRId64 " \"%s\": stored zstd stream is truncated", id, name);
        return 1;
    }
    if (stored != stored_size) {
        bd_error("check: archive %" PRId64 " \"%s\": chunks hold %" PRId64 " bytes, stored_size says %" PRId64, id,
                 name, stored, stored_size);
        return 1;
    }
    unsigned char d[32];
    char hex[65];
    sha256_final(&h, d);
    sha256_hex(d, hex);
    if (data != size || strcmp(hex, sha) != 0) {
        bd_error("check: archive %" PRId64 " \"%s\": stored bytes (%" PRId64 " bytes, sha256 %s) do not match "
                 "the recorded size %" PRId64 " and sha256 %s",
                 id, name, data, hex, size, sha);
        return 1;
    }
    return 0;
}

static int check_archives(struct db *db, FILE *out, int *problems)
{
    struct db_stmt *list = NULL, *chunks = NULL;
    int rc = -1, count = 0, bad = 0;
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    size_t outsize = ZSTD_DStreamOutSize();
    unsigned char *buf = malloc(outsize);
    if (!dctx || !buf) {
        bd_error("check: out of memory");
        goto out;
    }
    if (db_prepare(db, "SELECT id, name, sha256, size, content_encoding, stored_size FROM archive ORDER BY id",
                   &list) != SQLITE_OK ||
        db_prepare(db, "SELECT seq, data FROM archive_chunk WHERE archive_id = ? ORDER BY seq", &chunks) != SQLITE_OK) {
        bd_error("check: archives: %s", db_errmsg(db));
        goto out;
    }
    int src;
    while ((src = db_step(list)) == SQLITE_ROW) {
        count++;
        bad += check_archive(db, chunks, db_column_int64(list, 0), (const char *)db_column_text(list, 1),
                             (const char *)db_column_text(list, 2), db_column_int64(list, 3),
                             (const char *)db_column_text(list, 4), db_column_int64(list, 5), dctx, buf,
                             outsize);
    }
    if (src != SQLITE_DONE) {
        bd_error("check: archives: %s", db_errmsg(db));
        goto out;
    }
    *problems += bad;
    fprintf(out, "check: %d archive%s re-read and re-hashed: %s\n", count, count == 1 ? "" : "s",
            bad ? "PROBLEMS" : "ok");
    rc = 0;
out:
    db_finalize(list);
    db_finalize(chunks);
    ZSTD_freeDCtx(dctx);
    free(buf);
    return rc;
}

/* Every series' n and total against its measured values, and
 * block_score_data against the series (src/store/check_summaries.c, which
 * history --verify shares). */
static int check_series(struct db *db, FILE *out, int *problems)
{
    return store_check_summary(db, SUMMARY_SERIES, out, problems);
}

static int check_block_scores(struct db *db, FILE *out, int *problems)
{
    return store_check_summary(db, SUMMARY_BLOCK_SCORES, out, problems);
}

static int check_orphans(struct db *db, FILE *out, int *problems)
{
    struct db_stmt *st = NULL;
    if (db_prepare(db, "SELECT count(*), min(series_id) FROM sample WHERE series_id NOT IN (SELECT id FROM series)",
                   &st) != SQLITE_OK ||
        db_step(st) != SQLITE_ROW) {
        bd_error("check: orphan samples: %s", db_errmsg(db));
        db_finalize(st);
        return -1;
    }
    int64_t n = db_column_int64(st, 0), first = db_column_int64(st, 1);
    db_finalize(st);
    if (n) {
        bd_error("check: %" PRId64 " sample row%s belong to no series (the first to series %" PRId64 ")", n,
                 n == 1 ? "" : "s", first);
        (*problems)++;
    }
    fprintf(out, "check: orphan samples: %s\n", n ? "PROBLEMS" : "none");
    return 0;
}

/* The checks in order, on either engine. */
static int run_checks(struct db *db, FILE *out, int *problems)
{
    if (store_check_schema(db, out, problems) || store_check_integrity(db, out, problems))
        return -1;
    return check_archives(db, out, problems) || check_series(db, out, problems) ||
                   check_block_scores(db, out, problems) || store_check_summaries(db, out, problems) ||
                   check_orphans(db, out, problems) || store_check_json(db, out, problems)
               ? -1
               : 0;
}

int store_check(struct db *db, FILE *out)
{
    int problems = 0;
    /* One read-only transaction on PostgreSQL, so that every check sees
     * one snapshot of the store (SQLite's read transaction is the file's). */
    if (store_begin_readonly(db, 0, NULL) != SQLITE_OK) {
        bd_error("check: %s", db_errmsg(db));
        return -1;
    }
    int rc = run_checks(db, out, &problems);
    store_end_readonly(db);
    return rc ? -1 : problems;
}
