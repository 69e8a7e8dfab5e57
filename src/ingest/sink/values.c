/* Series and their values (the one path every value takes), units,
 * gates and events. */
#include "fnshared/numfmt.h"
#include "ingest/sink/statements.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/unit_rows.h"
#include "stats/sum.h"
#include "store/dialect.h"

void sink_forget_units(struct sink *s)
{
    for (int i = 0; i < s->n_xunits; i++)
        free(s->xunits[i]);
    s->n_xunits = 0;
}

/* ---- series ---- */

static const char *unit_name(const struct sink *s, int ix)
{
    return ix < store_unit_count ? store_units[ix].name : s->xunits[ix - store_unit_count];
}

/* The index of a unit: a built-in one, or one added to the unit table
 * (kind 'other') the first time an archive uses it. */
static int unit_ix(struct sink *s, const char *unit, int *ix)
{
    *ix = store_unit_find(unit);
    if (*ix >= 0)
        return 0;
    for (int k = 0; k < s->n_xunits; k++)
        if (strcmp(s->xunits[k], unit) == 0) {
            *ix = store_unit_count + k;
            return 0;
        }
    if (store_unit_count + s->n_xunits >= 256)
        return ingest_report_fail(s->rep, NULL, "more than %d distinct units in one archive", 256 - store_unit_count);
    struct db_stmt *st = sink_stmt(s, S_UNIT_KIND);
    if (!st)
        return -1;
    db_bind_text(st, 1, unit, -1);
    int rc = db_step(st);
    db_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sink_fail_sql(s);
    if (rc == SQLITE_DONE) {
        struct db_stmt *add = sink_stmt(s, S_UNIT_ADD);
        if (!add)
            return -1;
        db_bind_text(add, 1, unit, -1);
        if (sink_step_later(s, add))
            return -1;
    }
    char *copy = strdup(unit);
    if (!copy)
        return ingest_report_oom(s->rep);
    s->xunits[s->n_xunits] = copy;
    *ix = store_unit_count + s->n_xunits++;
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
        return ingest_report_fail(s->rep, x->field, "metric name longer than 255 bytes");
    int64_t ku[2] = {bench_id, variant_id};
    memcpy(k, ku, sizeof ku);
    if (mlen)
        memcpy(k + sizeof ku, metric, mlen);
    int64_t *prev = idmap_get(&s->cell_unit, k, sizeof ku + mlen);
    char f[96];
    snprintf(f, sizeof f, "%s%s", x->field, strcmp(x->field, "samples") == 0 ? ".unit" : "");
    if (prev && (*prev & 0xff) != ix)
        return ingest_report_fail(s->rep, f, "expected \"%s\" (the unit of this cell and variant at line %lld), got \"%s\"",
                           unit_name(s, (int)(*prev & 0xff)), (long long)(*prev >> 8), unit_name(s, ix));
    if (prev)
        return 0;
    if (s->appending) {
        struct db_stmt *st = sink_stmt(s, S_SERIES_UNIT);
        if (!st)
            return -1;
        db_bind_int64(st, 1, s->run_id);
        db_bind_int64(st, 2, bench_id);
        db_bind_int64(st, 3, variant_id);
        db_bind_text(st, 4, metric ? metric : sink_primary_metric, -1);
        int rc = db_step(st);
        char *stored = rc == SQLITE_ROW ? sink_column_dup(st, 0) : NULL;
        db_reset(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return sink_fail_sql(s);
        if (stored && strcmp(stored, unit_name(s, ix)) != 0) {
            ingest_report_fail(s->rep, f, "expected \"%s\" (the unit this cell and variant have in the stored run), got \"%s\"",
                        stored, unit_name(s, ix));
            free(stored);
            return -1;
        }
        free(stored);
    }
    if (idmap_put(&s->cell_unit, k, sizeof ku + mlen, (int64_t)s->rep->line << 8 | ix))
        return ingest_report_oom(s->rep);
    return 0;
}

/* The message for a series whose key is taken: stored before (where
 * names the archive) or twice in this archive. */
static int duplicate_fail(struct sink *s, const struct sink_series *x, const char *metric, int stored,
                          const char *where)
{
    return ingest_report_fail(s->rep, x->field, "benchmark \"%s\" params %s block %lld variant \"%s\" fork %lld%s%s%s %s%s",
                              x->benchmark, x->params, x->block, x->variant, x->fork, metric ? " metric \"" : "",
                              metric ? metric : "", metric ? "\"" : "", stored ? "is" : "appears twice", where);
}

/* A COPY text field: backslash, tab, newline and carriage return escaped;
 * NULL as \N. */
static int copy_field(struct strbuf *b, const char *t, char after)
{
    int bad = 0;
    if (!t)
        bad = sb_puts(b, "\\N");
    for (; t && *t && !bad; t++) {
        char c = *t;
        bad = c == '\\' ? sb_puts(b, "\\\\")
            : c == '\t'  ? sb_puts(b, "\\t")
            : c == '\n'  ? sb_puts(b, "\\n")
            : c == '\r'  ? sb_puts(b, "\\r")
                         : sb_putc(b, c);
    }
    return bad || sb_putc(b, after);
}

/* PostgreSQL, a run this archive opens: the series as a pending COPY row
 * (its id given when sent, sink_copy_flush); a key given twice is found
 * here, since nothing else can add to the run before the commit. */
static int pend_series(struct sink *s, const struct sink_series *x, int64_t bench_id, int64_t variant_id,
                       const char *metric, const char *unit, int64_t n, double total)
{
    char k[5 * sizeof(int64_t) + 256];
    size_t mlen = metric ? strlen(metric) + 1 : 0;
    int64_t ku[5] = {s->run_id, bench_id, x->block, variant_id, x->fork};
    if (mlen > 256)
        return ingest_report_fail(s->rep, x->field, "metric name longer than 255 bytes");
    memcpy(k, ku, sizeof ku);
    if (mlen)
        memcpy(k + sizeof ku, metric, mlen);
    int64_t *first = idmap_get(&s->series_keys, k, sizeof ku + mlen);
    if (first) {
        char where[64] = " in this run";
        if (*first) /* 0: from a harness file */
            snprintf(where, sizeof where, " in this run (first at line %lld)", (long long)*first);
        return duplicate_fail(s, x, metric, 0, where);
    }
    if (idmap_put(&s->series_keys, k, sizeof ku + mlen,
                  strcmp(x->field, "samples") == 0 ? (int64_t)s->rep->line : 0))
        return ingest_report_oom(s->rep);
    char num[40];
    numfmt_real(num, total);
    struct strbuf *b = &s->series_rows;
    int bad = sb_printf(b, "%lld\t%lld\t%lld\t%lld\t%lld\t", (long long)s->run_id, (long long)bench_id,
                        x->block, (long long)variant_id, x->fork) ||
              copy_field(b, unit, '\t') || sb_printf(b, "%lld\t%s\t", (long long)n, num) ||
              copy_field(b, metric ? metric : sink_primary_metric, '\t');
    bad = bad || (x->member_id ? sb_printf(b, "%lld\t", (long long)x->member_id) : sb_puts(b, "\\N\t"));
    bad = bad || copy_field(b, x->detail, '\t') || sb_puts(b, "\\N\n");
    return bad ? ingest_report_oom(s->rep) : 0;
}

/* by_copy: a pending entry for the series (id 0: given when sent). */
static int pend_push(struct sink *s, int64_t id)
{
    if (sink_grow(s, &s->pend, s->n_pend, &s->cap_pend, sizeof *s->pend, 256))
        return -1;
    s->pend[s->n_pend++] = (struct sink_pending){id, s->series_rows.len, s->copy.len};
    return 0;
}

/* The series key is taken: by a series of this archive (named by the line
 * it came from) or one stored before (named by its archive). */
static int duplicate(struct sink *s, const struct sink_series *x, int64_t bench_id, int64_t variant_id,
                     const char *metric)
{
    char said[256];
    snprintf(said, sizeof said, "%s", db_errmsg(s->db));
    struct db_stmt *q = sink_stmt(s, S_SERIES_FIND);
    if (!q)
        return -1;
    db_bind_int64(q, 1, s->run_id);
    db_bind_int64(q, 2, bench_id);
    db_bind_int64(q, 3, x->block);
    db_bind_int64(q, 4, variant_id);
    db_bind_int64(q, 5, x->fork);
    db_bind_text(q, 6, metric ? metric : sink_primary_metric, -1);
    int found = db_step(q) == SQLITE_ROW;
    int64_t id = found ? db_column_int64(q, 0) : 0, archive = found ? db_column_int64(q, 1) : 0;
    char *archive_name = found ? sink_column_dup(q, 2) : NULL;
    db_reset(q);
    if (!found) /* another constraint: say what SQLite said */
        return ingest_report_fail(s->rep, NULL, "cannot store: %s", said);
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
    return duplicate_fail(s, x, metric, archive != s->archive_id, where);
}

/* A value as stored: -0.0 as 0.0 (docs/archive-format.md, "How an archive is stored"). SQLite keeps
 * a real that is a whole number as an integer in the file, so it reads
 * -0.0 back as 0.0, while PostgreSQL keeps the sign: the same bits on both
 * engines means the one SQLite can keep. */
static double stored_value(double d) { return d == 0 ? 0.0 : d; }

/* Writes v as 4 bytes in network order at p. */
static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (24 - 8 * i));
}

/* The bytes of copy_array's field for n elements. */
static size_t array_size(size_t n) { return n ? 24 + 12 * n : 16; }

/* A one-dimensional array of n 8-byte elements in COPY's binary format,
 * its field length first: float8 (oid 701) from d, or int8 (oid 20) from
 * c; n 0: the empty array (no dimension). Returns the end. */
static unsigned char *copy_array(unsigned char *r, size_t n, const double *d, const int64_t *c)
{
    put_u32(r, (uint32_t)(array_size(n) - 4));
    put_u32(r + 4, n ? 1 : 0); /* dimensions */
    put_u32(r + 8, 0);         /* no NULL */
    put_u32(r + 12, d ? 701 : 20);
    if (!n)
        return r + 16;
    put_u32(r + 16, (uint32_t)n);
    put_u32(r + 20, 1); /* lower bound */
    r += 24;
    for (size_t q = 0; q < n; q++, r += 12) {
        uint64_t bits = (uint64_t)(c ? c[q] : 0);
        if (d) {
            double x = stored_value(d[q]);
            memcpy(&bits, &x, sizeof bits);
        }
        copy_int8(r, bits);
    }
    return r;
}

/* At most 80 M values a series: COPY reads a field whole into one buffer
 * of less than 1 GB (PostgreSQL's MaxAllocSize), and the array's field is
 * 24 + 12 n bytes (960 MB at 80 M; 100 M would be 1.2 GB, refused by the
 * server with its own message). */
#define SERIES_VALUES_MAX 80000000u

/* PostgreSQL: the series' row of sample_values as COPY's binary fields
 * after its id (SINK_COPY_FIELDS): its values, their counts (NULL when
 * every count is 1) and its warmups (NULL when none), each an array
 * whose positions are the iterations (docs/schema.md, "sample"). */
static int copy_series_values(struct sink *s, const double *v, const int64_t *count, size_t n, const double *w,
                              size_t nw)
{
    if (n > SERIES_VALUES_MAX || nw > SERIES_VALUES_MAX)
        return ingest_report_fail(s->rep, NULL, "a series of %zu values: PostgreSQL keeps a series' values as one array "
                                                "of at most %u", n > nw ? n : nw, SERIES_VALUES_MAX);
    int counted = 0;
    for (size_t q = 0; count && q < n && !counted; q++)
        counted = count[q] != 1;
    if (sb_grow(&s->copy, array_size(n) + (counted ? array_size(n) : 4) + (nw ? array_size(nw) : 4)))
        return ingest_report_oom(s->rep);
    unsigned char *r = (unsigned char *)s->copy.buf + s->copy.len, *start = r;
    r = copy_array(r, n, v, NULL);
    if (counted)
        r = copy_array(r, n, NULL, count);
    else
        put_u32(r, 0xffffffffu), r += 4; /* NULL */
    if (nw)
        r = copy_array(r, nw, w, NULL);
    else
        put_u32(r, 0xffffffffu), r += 4;
    s->copy.len += (size_t)(r - start);
    return 0;
}

static int insert_values(struct sink *s, int64_t series_id, const double *v, const int64_t *count, size_t n,
                         const double *warmup, size_t nw)
{
    /* Measured values first, then warmups: the primary key's order. */
    size_t total = n + nw, at = 0;
    /* By COPY (sink_open says why): the series' pending entry takes them
     * (series_id 0: the series itself is pending, sink_series). */
    if (s->by_copy) {
        if (series_id && pend_push(s, series_id))
            return -1;
        if (copy_series_values(s, v, count, n, warmup, nw))
            return -1;
        s->pend[s->n_pend - 1].copy_end = s->copy.len;
        s->here.samples += total;
        s->here.warmups += nw;
        s->here.rows += total;
        return s->copy.len + s->series_rows.len > SINK_COPY_BYTES ? sink_copy_flush(s) : 0;
    }
    int counted = count != NULL, per = counted ? 4 : 3;
    for (int k = SAMPLE_SHAPES - 1; k >= 0; k--) {
        size_t rows = (size_t)1 << k;
        struct db_stmt *st = sink_stmt(s, S_SAMPLES + (counted ? SAMPLE_SHAPES : 0) + k);
        if (!st)
            return -1;
        for (; total - at >= rows; at += rows) {
            db_bind_int64(st, 1, series_id);
            for (size_t j = 0; j < rows; j++) {
                size_t q = at + j;
                int w = q >= n;
                int p = per * (int)j + 2;
                db_bind_int(st, p, w);
                db_bind_int64(st, p + 1, (sqlite3_int64)(w ? q - n : q) + 1);
                db_bind_double(st, p + 2, stored_value(w ? warmup[q - n] : v[q]));
                if (counted)
                    db_bind_int64(st, p + 3, w ? 1 : count[q]);
            }
            if (db_step(st) != SQLITE_DONE) {
                db_reset(st);
                return sink_fail_sql(s);
            }
            db_reset(st);
        }
    }
    s->here.samples += total;
    s->here.warmups += nw;
    s->here.rows += total;
    return 0;
}

int sink_series(struct sink *s, const struct sink_series *x, const double *v, const int64_t *count, size_t n,
                const double *warmup, size_t n_warmup)
{
    const char *metric = x->metric && strcmp(x->metric, sink_primary_metric) != 0 ? x->metric : NULL;
    int64_t bench_id = 0, variant_id = 0;
    int ix;
    /* The bookkeeping of an archive's series (ids and lines, their keys on
     * PostgreSQL) grows with them: bounded (docs/reliability.md). */
    if (s->max_series && s->here.series >= s->max_series)
        return ingest_report_fail(s->rep, strcmp(x->field, "samples") == 0 ? "samples" : x->field,
                                  "more than %llu series in one archive (the limit; raise it with --max-series)",
                                  (unsigned long long)s->max_series);
    if (unit_ix(s, x->unit, &ix) || sink_benchmark_id(s, x->benchmark, x->params, &bench_id) ||
        sink_name_id(s, &s->variants, x->variant, &variant_id) || check_cell_unit(s, x, bench_id, variant_id, metric, ix))
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
        return ingest_report_fail(s->rep, strcmp(x->field, "samples") == 0 ? "samples.values" : x->field, "the values add up to more than a double holds (about 1.8e308): a "
                                             "series' total, from which its block scores come, cannot be stored");
    if (sink_grow(s, &s->series_lines, s->n_series_lines, &s->cap_series_lines, sizeof *s->series_lines, 256))
        return -1;
    if (s->by_copy && !s->appending) { /* by COPY (sink_open), a run this archive opens: the series too */
        if (pend_series(s, x, bench_id, variant_id, metric, unit_name(s, ix), total_n, total) || pend_push(s, 0))
            return -1;
        s->here.series++;
        s->here.rows++;
        return insert_values(s, 0, v, count, n, warmup, n_warmup);
    }
    struct db_stmt *st = sink_stmt(s, S_SERIES_INSERT);
    if (!st)
        return -1;
    db_bind_int64(st, 1, s->run_id);
    db_bind_int64(st, 2, bench_id);
    db_bind_int64(st, 3, x->block);
    db_bind_int64(st, 4, variant_id);
    db_bind_int64(st, 5, x->fork);
    db_bind_text(st, 6, unit_name(s, ix), -1);
    db_bind_int64(st, 7, total_n);
    db_bind_double(st, 8, total);
    db_bind_text(st, 9, metric ? metric : sink_primary_metric, -1);
    if (x->member_id)
        db_bind_int64(st, 10, x->member_id);
    else
        db_bind_null(st, 10);
    sink_bind_opt_text(st, 11, x->detail);
    sink_bind_appender(s, st, 12);
    /* ON CONFLICT DO NOTHING (on PostgreSQL a refused statement would end
     * the transaction): no row is the duplicate; another constraint's
     * refusal is said as the engine says it. */
    sqlite3_int64 got = 0;
    int rc = db_step_insert_id(st, &got);
    int64_t series_id = got;
    db_reset(st);
    if ((rc & 0xff) == SQLITE_CONSTRAINT || rc == SQLITE_DONE)
        return duplicate(s, x, bench_id, variant_id, metric);
    if (rc != SQLITE_ROW)
        return sink_fail_sql(s);
    if (sink_history_add(s, x->field, bench_id, variant_id, metric, unit_name(s, ix), total_n, total))
        return -1;
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
    struct db_stmt *st = sink_stmt(s, S_GATE_INSERT);
    if (!st)
        return -1;
    db_bind_int64(st, 1, s->run_id);
    db_bind_text(st, 2, name, -1);
    db_bind_int(st, 3, passed);
    sink_bind_opt_text(st, 4, at);
    sink_bind_opt_text(st, 5, detail);
    sink_bind_appender(s, st, 6);
    if (sink_step(s, st))
        return -1;
    s->here.gates++;
    s->here.rows++;
    return 0;
}

int sink_event(struct sink *s, const char *name, const struct sink_value *value, const char *at, const char *detail)
{
    struct db_stmt *st = sink_stmt(s, S_EVENT_INSERT);
    if (!st)
        return -1;
    db_bind_int64(st, 1, s->run_id);
    db_bind_text(st, 2, name, -1);
    switch (value ? value->type : SV_NULL) {
    case SV_NULL: db_bind_null(st, 3); break;
    case SV_TEXT: db_bind_text(st, 3, value->text, (int)value->len); break;
    case SV_INT: db_bind_int64(st, 3, value->i); break;
    case SV_REAL: db_bind_double(st, 3, value->d); break;
    }
    sink_bind_opt_text(st, 4, at);
    sink_bind_opt_text(st, 5, detail);
    sink_bind_appender(s, st, 6);
    if (sink_step(s, st))
        return -1;
    s->here.events++;
    s->here.rows++;
    return 0;
}

