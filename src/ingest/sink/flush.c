/* The archive's pending series and values sent (COPY, or one call for a
 * small archive: series_call.c) and the end of its transaction: commit,
 * rollback. Apart from statements.c, which prepares and steps what this
 * file and series_call.c send, so that calls go one way. */
#include "ingest/sink/statements.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/dialect.h"
#include "store/store.h"
#include "util/diag.h"

static int exec(struct sink *s, const char *sql)
{
    if (db_exec(s->db, sql, NULL) != SQLITE_OK)
        return sink_fail_sql(s);
    return 0;
}

static void pending_reset(struct sink *s)
{
    sb_reset(&s->copy);
    sb_reset(&s->series_rows);
    sb_reset(&s->sent);
    s->n_pend = 0;
}

/* A flush's steps (db_copy_steps): the ids of the pending series without
 * one, then the COPYs what[0] and what[1] (0: series, 1: sample). */
struct flush {
    struct sink *s;
    size_t need;
    int what[2];
};

/* The ids from series.id's sequence, ascending (the order the series were
 * given), into the pending series without one. */
static int take_ids(void *arg, const int64_t *ids, size_t n)
{
    struct flush *f = arg;
    struct sink *s = f->s;
    if (n != f->need)
        return ingest_report_fail(s->rep, NULL, "cannot store: %zu series ids for %zu series", n, f->need);
    for (size_t i = 0, j = 0; i < s->n_pend; i++)
        if (!s->pend[i].id)
            s->pend[i].id = ids[j++];
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

static int series_text(struct sink *s)
{
    size_t row = 0;
    for (size_t i = 0; i < s->n_pend; i++) {
        if (s->pend[i].row_end > row && prefix_lines(s, s->series_rows.buf, row, s->pend[i].row_end, s->pend[i].id))
            return -1;
        row = s->pend[i].row_end;
    }
    return 0;
}

/* The values in COPY's binary format: the header, then per series its
 * row of sample_values, its field count (4), its id and the fields stored
 * (values.c, copy_series_values), then -1. */
static int samples_binary(struct sink *s)
{
    if (sb_grow(&s->sent, 19 + s->copy.len + s->n_pend * 14 + 2))
        return ingest_report_oom(s->rep);
    sb_append(&s->sent, "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0", 19); /* grown above, as what follows */
    size_t at = 0;
    for (size_t i = 0; i < s->n_pend; i++) {
        unsigned char head[14] = {0, 4};
        copy_int8(head + 2, (uint64_t)s->pend[i].id);
        sb_append(&s->sent, head, sizeof head);
        sb_append(&s->sent, s->copy.buf + at, s->pend[i].copy_end - at);
        at = s->pend[i].copy_end;
    }
    sb_append(&s->sent, "\377\377", 2);
    return 0;
}

static int copy_data(void *arg, int k, const void **buf, size_t *n)
{
    struct flush *f = arg;
    struct sink *s = f->s;
    sb_reset(&s->sent);
    if (k > 1 || (f->what[k] ? samples_binary(s) : series_text(s)))
        return -1;
    *buf = s->sent.buf;
    *n = s->sent.len;
    return 0;
}

/* The pending series and values in one text: the series' ids, COPY
 * series, COPY sample, whose answers and starts share round trips
 * (three instead of five; docs/postgresql.md, "ingest"); a small
 * archive's by one call in the pipeline instead (series_call.c). */
int sink_copy_flush(struct sink *s)
{
    if (!s->n_pend)
        return 0;
    struct flush f = {s, 0, {0, 0}};
    for (size_t i = 0; i < s->n_pend; i++)
        f.need += s->pend[i].id == 0;
    if (sink_series_call_fits(s, f.need)) {
        int rc = sink_series_call(s);
        pending_reset(s);
        return rc;
    }
    struct strbuf sql = {0};
    int copies = 0;
    int bad = f.need && sb_printf(&sql, "SELECT nextval((SELECT CAST(pg_get_serial_sequence('series', 'id') AS regclass))) "
                                        "FROM generate_series(1, %zu) ORDER BY 1; ", f.need);
    if (!bad && s->series_rows.len) {
        f.what[copies++] = 0;
        bad = sb_puts(&sql, "COPY series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total, metric, "
                            "member_id, detail, archive_id) FROM STDIN; ");
    }
    if (!bad && s->copy.len) {
        f.what[copies++] = 1;
        bad = sb_puts(&sql, "COPY sample_values(series_id, value, count, warmup) FROM STDIN (FORMAT binary)");
    }
    int rc = bad ? ingest_report_oom(s->rep) : 0;
    if (!rc && sql.len) {
        struct db_copy_steps cb = {&f, take_ids, copy_data};
        int code = db_copy_steps(s->db, sql.buf, &cb);
        rc = code == SQLITE_OK ? 0 : code == SQLITE_ABORT ? -1 : sink_fail_sql(s);
    }
    sb_free(&sql);
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
    return sink_step_later(s, st);
}

int sink_defer_cells(struct sink *s)
{
    return step_archive(s, S_DEFER_MARK);
}

/* Names kept for the next transaction's look-up again: at most this many
 * (a bound on the statement; beyond, the rest are looked up one by one). */
enum { AGAIN_MAX = 4096 };

/* The ids read in a transaction are forgotten when it ends: between two
 * archives another process may delete a plan (and on SQLite a new one
 * take its id), so an id kept for the next archive could store a run
 * under the wrong plan, or fail on its foreign key. Within the
 * transaction nothing can remove them (SQLite: the write lock;
 * PostgreSQL: FOR KEY SHARE). On a server only the names are kept (in
 * s->again), and looked up again, locked, in the next transaction
 * (names.c): no id outlives the transaction that read it. */
static void forget_ids(struct sink *s)
{
    struct idmap *live[4] = {&s->plans.cache, &s->hosts.cache, &s->variants.cache, &s->benchmarks};
    int keep = db_dialect(s->db)->names_again != NULL;
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        if (keep && live[k]->count) { /* the names of this transaction replace those kept */
            struct idmap t = s->again[k];
            s->again[k] = *live[k];
            *live[k] = t;
        }
        idmap_clear(live[k]);
        n += s->again[k].count;
    }
    s->look_again = keep && n > 0 && n <= AGAIN_MAX;
}

int sink_commit(struct sink *s)
{
    if (sink_copy_flush(s))
        return -1;
    /* What the insert triggers left to the ingest (store/dialect.h), the
     * mark cleared last. */
    const char *const *finish = db_dialect(s->db)->defer_finish;
    for (int i = 0; s->archive_id && !s->finished && finish[i]; i++)
        if (step_archive(s, S_DEFER_FINISH + i))
            return -1;
    int rc = exec(s, "COMMIT");
    forget_ids(s); /* no cached id outlives the transaction that read it */
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
