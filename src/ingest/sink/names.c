/* The ids of plan, host, variant and benchmark names (sink_name_id,
 * sink_benchmark_id): looked up, or inserted when new, once per
 * transaction each, and forgotten when it ends (statements.c, which on a
 * server keeps their names in s->again). On a server the names the
 * last archive used are looked up again in the next one's transaction by
 * one statement (S_NAMES_AGAIN) before its first look-up, instead of one
 * statement and round trip each (docs/postgresql.md, "ingest"). */
#include "ingest/sink/statements.h"

#include <stdlib.h>
#include <string.h>

#include "store/dialect.h"

/* The names of map m's keys (a benchmark's key: "name NUL params") as
 * an array in PostgreSQL's text form, each element quoted, into out. */
static int keys_array(const struct idmap *m, int pairs, struct strbuf *out)
{
    sb_reset(out);
    int bad = sb_putc(out, '{');
    for (size_t i = 0; !bad && i < m->cap; i++) {
        const struct idmap_slot *e = &m->slots[i];
        if (!e->hash)
            continue;
        const char *k = m->arena + e->key_off;
        size_t n = pairs ? strnlen(k, e->key_len) : e->key_len;
        bad = (out->len > 1 && sb_putc(out, ',')) || sb_putc(out, '"');
        for (size_t j = 0; !bad && j < n; j++)
            bad = ((k[j] == '"' || k[j] == '\\') && sb_putc(out, '\\')) || sb_putc(out, k[j]);
        bad = bad || sb_putc(out, '"');
    }
    return bad || sb_putc(out, '}') || sb_putc(out, 0) ? -1 : 0;
}

int sink_names_again_bind(struct sink *s, struct db_stmt *st, int first)
{
    struct strbuf names = {0};
    int again = s->look_again;
    s->look_again = 0; /* done, or failed: not tried again */
    for (int k = 0; k < 4; k++) {
        if (!again) {
            db_bind_null(st, first + k);
        } else if (keys_array(&s->again[k], k == 3, &names) ||
                   db_bind_text(st, first + k, names.buf, -1) != SQLITE_OK) {
            sb_free(&names);
            db_reset(st);
            return ingest_report_oom(s->rep);
        }
    }
    sb_free(&names); /* the server's copy is bound */
    return 0;
}

int sink_names_again_row(struct sink *s, struct db_stmt *st)
{
    struct idmap *live[4] = {&s->plans.cache, &s->hosts.cache, &s->variants.cache, &s->benchmarks};
    int k = db_column_int(st, 0);
    const char *name = (const char *)db_column_text(st, 2);
    if (k < 0 || k > 3 || !name)
        return 0;
    sb_reset(&s->key);
    int bad = sb_puts(&s->key, name);
    if (k == 3) {
        const char *params = (const char *)db_column_text(st, 3);
        bad = bad || !params || sb_putc(&s->key, 0) || sb_puts(&s->key, params);
    }
    if (!bad && idmap_put(live[k], s->key.buf, s->key.len, db_column_int64(st, 1)))
        return ingest_report_oom(s->rep);
    return 0;
}

/* Before the transaction's first look-up: the names kept from the last
 * one, found in one statement with each row locked FOR KEY SHARE as a
 * look-up locks it, into the caches (a benchmark's every params: each
 * row is one read and locked here). A name not found (deleted since) is
 * looked up, or inserted, alone later. 0 or -1. */
static int names_again(struct sink *s)
{
    struct db_stmt *st = sink_stmt(s, S_NAMES_AGAIN);
    if (!st) {
        s->look_again = 0;
        return -1;
    }
    if (sink_names_again_bind(s, st, 1))
        return -1;
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW)
        if (sink_names_again_row(s, st)) {
            db_reset(st);
            return -1;
        }
    db_reset(st);
    return rc == SQLITE_DONE ? 0 : sink_fail_sql(s);
}


/* The id of the row the statement get (its parameters bound) finds,
 * after INSERT ... ON CONFLICT DO NOTHING: the row may be another
 * ingest's (on PostgreSQL, where several write at once). */
static int found_id(struct sink *s, struct db_stmt *get, int64_t *id)
{
    if (!get)
        return -1;
    int rc = db_step(get);
    if (rc == SQLITE_ROW)
        *id = db_column_int64(get, 0);
    db_reset(get);
    return rc == SQLITE_ROW ? 0 : sink_fail_sql(s);
}

/* Steps get, its parameters bound: 1 with *id the row's, 0 when it holds
 * no row, or -1 (an error, reported). */
static int look_up(struct sink *s, struct db_stmt *get, int64_t *id)
{
    int rc = db_step(get);
    if (rc == SQLITE_ROW)
        *id = db_column_int64(get, 0);
    db_reset(get);
    if (rc == SQLITE_ROW)
        return 1;
    return rc == SQLITE_DONE ? 0 : sink_fail_sql(s);
}

int sink_name_id(struct sink *s, struct names *t, const char *name, int64_t *id)
{
    size_t len = strlen(name);
    if (s->look_again && names_again(s))
        return -1;
    int64_t *hit = idmap_get(&t->cache, name, len);
    if (hit) {
        *id = *hit;
        return 0;
    }
    struct db_stmt *st = sink_stmt(s, t->get);
    if (!st)
        return -1;
    db_bind_text(st, 1, name, (int)len);
    int found = look_up(s, st, id);
    if (found < 0)
        return -1;
    if (!found) {
        st = sink_stmt(s, t->insert);
        if (!st)
            return -1;
        db_bind_text(st, 1, name, (int)len);
        if (sink_step_later(s, st) || found_id(s, sink_stmt(s, t->get), id))
            return -1;
        s->here.rows++;
    }
    if (idmap_put(&t->cache, name, len, *id))
        return ingest_report_oom(s->rep);
    return 0;
}

int sink_benchmark_id(struct sink *s, const char *name, const char *params, int64_t *id)
{
    if (s->look_again && names_again(s))
        return -1;
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
    int found = look_up(s, st, id);
    if (found < 0)
        return -1;
    if (!found) {
        st = sink_stmt(s, S_BENCH_INSERT);
        if (!st)
            return -1;
        db_bind_text(st, 1, name, -1);
        db_bind_text(st, 2, params, -1);
        if (sink_step_later(s, st) || found_id(s, sink_stmt(s, S_BENCH_GET), id))
            return -1;
        s->here.rows++;
    }
    if (idmap_put(&s->benchmarks, s->key.buf, s->key.len, *id))
        return ingest_report_oom(s->rep);
    return 0;
}
