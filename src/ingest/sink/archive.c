/* The archive's own rows: archive, archive_chunk, archive_member. */
#include "ingest/sink/statements.h"

#include <stdlib.h>
#include <string.h>

#include "store/dialect.h"
#include "util/text.h"
#include "version.h"

/* The sha256 column of an archive row while its stream is still being
 * read from a pipe; replaced before the commit. */
static const char pending_sha[] = "0000000000000000000000000000000000000000000000000000000000000000";

/* ---- archives ---- */

int sink_find_archive(struct sink *s, const char *sha, int64_t *id, char **name)
{
    struct db_stmt *st = sink_stmt(s, S_ARCHIVE_BY_SHA);
    if (!st)
        return -1;
    db_bind_text(st, 1, sha, -1);
    int rc = db_step(st);
    if (rc == SQLITE_ROW) {
        *id = db_column_int64(st, 0);
        const char *t = (const char *)db_column_text(st, 1); /* NULL when out of memory */
        *name = t ? strdup(t) : NULL;
    }
    db_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sink_fail_sql(s);
    return rc == SQLITE_ROW;
}

void sink_archive_reset(struct sink *s)
{
    s->archive_id = 0;
    s->chunk_seq = 0;
    s->finished = 0;
    s->run_id = 0;
    s->appending = 0;
    s->n_replaced = 0;
    s->n_series_lines = 0;
    idmap_clear(&s->cell_unit);
    idmap_clear(&s->series_keys);
    sink_history_forget(s);
    sink_forget_units(s);
    sb_reset(&s->notices);
    memset(&s->here, 0, sizeof s->here);
}

int sink_archive_open(struct sink *s, const char *sha, const char *name, const char *format, int64_t *id,
                      char **stored_name)
{
    if (!db_dialect(s->db)->archive_open)
        return 2;
    char when[TIME_TEXT_MAX];
    time_now_rfc3339(when, 0);
    struct db_stmt *st = sink_stmt(s, S_ARCHIVE_OPEN);
    if (!st)
        return -1;
    db_bind_int64(st, 1, sink_archive_key(sha));
    db_bind_text(st, 2, sha, -1);
    db_bind_text(st, 3, name, -1);
    db_bind_text(st, 4, format, -1);
    db_bind_text(st, 5, when, -1);
    db_bind_text(st, 6, BENCHDB_VERSION, -1);
    if (sink_names_again_bind(s, st, 7))
        return -1;
    int rc, stored = -1; /* until the archive's row (kind -1) is read */
    while ((rc = db_step(st)) == SQLITE_ROW) {
        if (db_column_int(st, 0) != -1) {
            if (sink_names_again_row(s, st))
                break;
            continue;
        }
        stored = db_column_type(st, 3) != SQLITE_NULL;
        *id = db_column_int64(st, 1);
        *stored_name = stored ? sink_column_dup(st, 2) : NULL;
        if (!stored) {
            s->archive_id = *id;
            s->chunk_seq = 0;
        }
    }
    db_reset(st);
    if (rc == SQLITE_ROW) /* out of memory, reported */
        return -1;
    if (rc != SQLITE_DONE)
        return sink_fail_sql(s);
    return stored >= 0 ? stored : ingest_report_fail(s->rep, NULL, "cannot store: no id for the new row");
}

int sink_archive_begin(struct sink *s, const char *name, const char *sha, const char *format)
{
    if (s->archive_id) /* opened with its look-up (sink_archive_open) */
        return 0;
    char when[TIME_TEXT_MAX];
    time_now_rfc3339(when, 0);
    struct db_stmt *st = sink_stmt(s, S_ARCHIVE_INSERT);
    if (!st)
        return -1;
    db_bind_text(st, 1, sha ? sha : pending_sha, -1);
    db_bind_text(st, 2, name, -1);
    db_bind_text(st, 3, format, -1);
    db_bind_text(st, 4, when, -1);
    db_bind_text(st, 5, BENCHDB_VERSION, -1);
    if (sink_step_id(s, st, &s->archive_id))
        return -1;
    s->chunk_seq = 0;
    return sink_defer_cells(s);
}

int sink_archive_format(struct sink *s, const char *format)
{
    struct db_stmt *st = sink_stmt(s, S_ARCHIVE_FORMAT);
    if (!st)
        return -1;
    db_bind_text(st, 1, format, -1);
    db_bind_int64(st, 2, s->archive_id);
    return sink_step_later(s, st);
}

/* On a server the values pending for COPY go before the archive's bytes
 * and row (sink_copy_flush, as the commit would send them): the statements
 * after them then wait in the pipeline with the commit, instead of being
 * read alone before the COPY (one round trip fewer a small archive). */
int sink_chunk(struct sink *s, const unsigned char *p, size_t n)
{
    if (sink_copy_flush(s))
        return -1;
    struct db_stmt *st = sink_stmt(s, S_CHUNK_INSERT);
    if (!st)
        return -1;
    db_bind_int64(st, 1, s->archive_id);
    db_bind_int64(st, 2, s->chunk_seq++);
    db_bind_blob(st, 3, p, (int)n);
    int rc = sink_step_later(s, st);
    db_clear_bindings(st);
    s->here.rows++;
    return rc;
}

int sink_member(struct sink *s, const char *path, const char *sha, uint64_t size, int64_t *id)
{
    struct db_stmt *st = sink_stmt(s, S_MEMBER_INSERT);
    if (!st)
        return -1;
    db_bind_int64(st, 1, s->archive_id);
    db_bind_text(st, 2, path, -1);
    db_bind_text(st, 3, sha, -1);
    db_bind_int64(st, 4, (sqlite3_int64)size);
    if (sink_step_id(s, st, id))
        return -1;
    s->here.members++;
    s->here.rows++;
    return 0;
}

int sink_member_format(struct sink *s, int64_t member_id, const char *format)
{
    struct db_stmt *st = sink_stmt(s, S_MEMBER_FORMAT);
    if (!st)
        return -1;
    db_bind_text(st, 1, format, -1);
    db_bind_int64(st, 2, member_id);
    return sink_step_later(s, st);
}

int sink_archive_end(struct sink *s, const char *sha, uint64_t size, int compressed, uint64_t stored)
{
    if (s->here.runs == 0 && s->here.appended == 0)
        return ingest_report_fail(s->rep, NULL,
                           "no run record (an archive holds one or more runs, each opened by a run record)");
    /* The last run's history points (history.c), before the derived rows. */
    if (sink_copy_flush(s) || sink_history_flush(s))
        return -1;
    /* Where the store closes an archive by one call (store/dialect.h,
     * archive_close), its row's update goes with the derived rows after
     * the archives emptied by --replace are removed, and waits in the
     * pipeline with the commit. */
    int one_call = db_dialect(s->db)->archive_close != NULL;
    struct db_stmt *st = sink_stmt(s, one_call ? S_ARCHIVE_CLOSE : S_ARCHIVE_UPDATE);
    if (!st)
        return -1;
    int id_at = one_call ? 1 : 5;
    db_bind_text(st, 1 + one_call, sha, -1);
    db_bind_int64(st, 2 + one_call, (sqlite3_int64)size);
    db_bind_text(st, 3 + one_call, compressed ? "zstd" : "identity", -1);
    db_bind_int64(st, 4 + one_call, (sqlite3_int64)stored);
    db_bind_int64(st, id_at, s->archive_id);
    if (!one_call && sink_step_later(s, st))
        return -1;
    for (size_t i = 0; i < s->n_replaced; i++) {
        struct db_stmt *del = sink_stmt(s, S_ARCHIVE_DELETE_EMPTY);
        if (!del)
            return -1;
        db_bind_int64(del, 1, s->replaced[i]);
        if (sink_step(s, del))
            return -1;
    }
    if (one_call && sink_step_later(s, st))
        return -1;
    s->finished = one_call;
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

