/* The summaries benchdb keeps beside what they summarise, each compared
 * with a fresh computation from it (store.h, "summaries"): a series' n and
 * total against its measured values, block_score_data against the series,
 * run_cell_data against the block ratios, history_point_data against the
 * series. 'benchdb check' prints each; 'history --verify' asks for those an
 * evaluation read. The same SQL on both engines but where noted. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fnshared/numfmt.h"
#include "stats/sum.h"
#include "store/dialect.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/strbuf.h"

static const struct {
    const char *table, *count_what, *of, *source;
} summary_info[SUMMARY_COUNT] = {
    [SUMMARY_SERIES] = {"series", "series", "n and total", "their values"},
    [SUMMARY_BLOCK_SCORES] = {"block_score_data", "block scores", NULL, "their series"},
    [SUMMARY_RUN_CELLS] = {"run_cell_data", "run summaries", NULL, "their block ratios"},
    [SUMMARY_HISTORY_POINTS] = {"history_point_data", "history points", NULL, "their series"},
};

const char *store_summary_table(enum store_summary s) { return summary_info[s].table; }
const char *store_summary_source(enum store_summary s) { return summary_info[s].source; }

/* One series' measured values as the check adds them up: their rows, the
 * values they stand for (the counts summed), whether their iterations
 * are numbered 1..rows in order, and the values times their counts,
 * summed with compensation in iteration order. */
struct measured {
    int64_t rows, m;
    int gaps;
    struct ksum sum;
};

/* SQLite: sample's rows of one series in key order. Counts past 2^63 - 1
 * in all (each may be that large) stop there, never wrap. */
static void add_row(struct measured *v, int64_t iteration, double value, int64_t count)
{
    v->rows++;
    if (__builtin_add_overflow(v->m, count, &v->m))
        v->m = INT64_MAX;
    v->gaps |= iteration != v->rows;
    ksum_add(&v->sum, value * (double)count);
}

/* PostgreSQL keeps a series' values as one row of sample_values, the
 * values and their counts as arrays whose positions are the iterations
 * (sample is a view unnesting them: docs/schema.md). Adds up the arrays
 * in their text form ({1.5,2,...}; counts NULL: every count 1) as
 * add_row adds the view's rows, without the server making, sorting and
 * sending a row per value (on the tutorial's store 0.5 s of the server's
 * CPU a check, 0.05 as arrays: docs/postgresql.md, "check"). -1 when the
 * text is not such an array (its CHECK constraints were dropped). */
static int add_arrays(struct measured *v, const char *values, const char *counts)
{
    if (!values || *values++ != '{' || (counts && *counts++ != '{'))
        return -1;
    if (*values == '}')
        return values[1] || (counts && strcmp(counts, "}")) ? -1 : 0;
    for (;;) {
        char *end;
        double x = strtod(values, &end);
        int64_t c = 1;
        if (end == values || isspace((unsigned char)*values))
            return -1;
        values = end;
        if (counts) {
            errno = 0;
            long long n = strtoll(counts, &end, 10);
            if (end == counts || errno || n < 1)
                return -1;
            c = n;
            counts = end;
        }
        add_row(v, v->rows + 1, x, c);
        if (*values == '}')
            return values[1] || (counts && strcmp(counts, "}")) ? -1 : 0;
        if (*values++ != ',' || (counts && *counts++ != ','))
            return -1;
    }
}

static const char sample_rows_sql[] =
    "SELECT series_id, iteration, value, count FROM sample WHERE warmup = 0 ORDER BY series_id, warmup, iteration";
static const char sample_arrays_sql[] = "SELECT series_id, value, count FROM sample_values ORDER BY series_id";

/* n and total of every series against its measured values: one ordered
 * pass over series and one over their values (sample's rows, or on
 * PostgreSQL sample_values' arrays), merged; each value with count c
 * stands for c values, summed with compensation, equal within a relative
 * 1e-12. */
static int compare_series(struct db *db, struct summary_state *out, summary_each each, void *arg, char **err)
{
    struct db_stmt *ser = NULL, *smp = NULL;
    int rc = -1, arrays = db_engine(db) == DB_POSTGRESQL;
    if (db_prepare(db, "SELECT id, n, total FROM series ORDER BY id", &ser) != SQLITE_OK ||
        db_prepare(db, arrays ? sample_arrays_sql : sample_rows_sql, &smp) != SQLITE_OK) {
        bd_fail(err, "series: %s", db_errmsg(db));
        goto out;
    }
    int mrc = db_step(smp), src;
    while ((src = db_step(ser)) == SQLITE_ROW) {
        int64_t id = db_column_int64(ser, 0), n = db_column_int64(ser, 1);
        double total = db_column_double(ser, 2);
        out->rows++;
        while (mrc == SQLITE_ROW && db_column_int64(smp, 0) < id)
            mrc = db_step(smp); /* orphans: 'check' counts them apart */
        struct measured v = {0, 0, 0, {0, 0}};
        while (mrc == SQLITE_ROW && db_column_int64(smp, 0) == id) {
            if (!arrays)
                add_row(&v, db_column_int64(smp, 1), db_column_double(smp, 2), db_column_int64(smp, 3));
            else if (add_arrays(&v, (const char *)db_column_text(smp, 1), (const char *)db_column_text(smp, 2))) {
                bd_fail(err, "series %" PRId64 ": sample_values holds arrays check cannot read", id);
                goto out;
            }
            mrc = db_step(smp);
        }
        int64_t m = v.m;
        double sum = ksum_value(&v.sum);
        struct strbuf why = {0};
        if (m != n || v.gaps)
            sb_printf(&why, "series %" PRId64 ": n is %" PRId64 " but it has %" PRId64 " measured value%s%s", id, n, m,
                      m == 1 ? "" : "s", v.gaps ? " (iterations not numbered 1..n)" : "");
        else if (!(fabs(sum - total) <= 1e-12 * fmax(fabs(sum), fabs(total)))) {
            char a[32], b[32];
            numfmt_real(a, total);
            numfmt_real(b, sum);
            sb_printf(&why, "series %" PRId64 ": total is %s but its values add up to %s", id, a, b);
        }
        if (why.len) {
            if (!out->bad++)
                snprintf(out->first, sizeof out->first, "%s", why.buf);
            if (each)
                each(arg, why.buf);
        }
        sb_free(&why);
    }
    if (src != SQLITE_DONE || (mrc != SQLITE_ROW && mrc != SQLITE_DONE)) {
        bd_fail(err, "series: %s", db_errmsg(db));
        goto out;
    }
    rc = 0;
out:
    db_finalize(ser);
    db_finalize(smp);
    return rc;
}

/* The rows of a derived table against a fresh aggregate, exactly (EXCEPT
 * both ways, or a full join on the key that counts a row on both sides that
 * differs twice, as EXCEPT does), or, for history points, within rounding
 * (a deleted series is subtracted from its point's total): n - 1 additions
 * in any order differ from each other by at most about 2(n - 1) eps times
 * the sum of the terms' magnitudes, not of the result's (1e16 + 1 - 1e16 is
 * 0 in one order and 1 in another), so the bound is 1e-12 per series times
 * the larger of the stored total and the series' totals' magnitudes. Each
 * statement's first columns: the rows that differ, the table's rows; then
 * the first's key. Block scores by the join, where EXCEPT sorted and hashed
 * 220,000 rows of the tutorial's store on PostgreSQL (0.57 s of the
 * server's CPU a check, 0.35 by the join: docs/postgresql.md, "check"); the
 * fresh rows first, so that SQLite looks each one up by the table's primary
 * key (the other way round it scanned the fresh rows once per stored row: 8
 * s instead of 0.04 for 15,603 block scores). */
static const char block_scores_sql[] =
    "WITH fresh AS (SELECT run_id, benchmark_id, block, variant_id, sum(total%s) / sum(n) AS score, "
    "sum(n) AS n, min(unit) AS unit FROM series WHERE metric = 'primary' GROUP BY run_id, benchmark_id, block, "
    "variant_id), "
    "diff AS (SELECT coalesce(b.run_id, f.run_id) AS run_id, coalesce(b.benchmark_id, f.benchmark_id) AS benchmark_id, "
    "coalesce(b.block, f.block) AS block, coalesce(b.variant_id, f.variant_id) AS variant_id, "
    "CASE WHEN b.run_id IS NULL OR f.run_id IS NULL THEN 1 ELSE 2 END AS rows "
    "FROM fresh AS f FULL JOIN block_score_data AS b ON b.run_id = f.run_id AND b.benchmark_id = f.benchmark_id "
    "AND b.block = f.block AND b.variant_id = f.variant_id "
    "WHERE b.run_id IS NULL OR f.run_id IS NULL OR b.score IS DISTINCT FROM f.score OR b.n IS DISTINCT FROM f.n "
    "OR b.unit IS DISTINCT FROM f.unit) "
    "SELECT (SELECT coalesce(sum(rows), 0) FROM diff), (SELECT count(*) FROM block_score_data), "
    "run_id, benchmark_id, block, variant_id FROM (SELECT 1) AS one LEFT JOIN (SELECT * FROM diff LIMIT 1) AS d "
    "ON 1 = 1";
static const char run_cells_sql[] =
    "WITH fresh AS (SELECT run_id, benchmark_id, count(*) AS blocks, trimmed_mean(log_ratio, 0) AS mean_log, "
    "stddev(log_ratio) AS sd_log, moments(log_ratio) AS moments FROM block_ratio GROUP BY run_id, benchmark_id), "
    "diff AS (SELECT * FROM (SELECT * FROM run_cell_data EXCEPT SELECT * FROM fresh) AS gone "
    "UNION ALL SELECT * FROM (SELECT * FROM fresh EXCEPT SELECT * FROM run_cell_data) AS missing) "
    "SELECT (SELECT count(*) FROM diff), (SELECT count(*) FROM run_cell_data), run_id, benchmark_id "
    "FROM (SELECT 1) AS one LEFT JOIN (SELECT * FROM diff LIMIT 1) AS d ON 1 = 1";
/* A point: its series counted, their n and totals summed, its unit that
 * of its first series (the one that made it), its run's host, position
 * and start time (%s: the start time as the triggers write it), computed
 * once a run, not once a point (on PostgreSQL a regular expression's
 * match each: 25,767 points of 1,368 runs in the tutorial's store). */
static const char history_sql[] =
    "WITH fresh AS (SELECT run_id, benchmark_id, variant_id, metric, count(*) AS series, sum(n) AS n, "
    "sum(total) AS total, sum(abs(total)) AS magnitude, min(id) AS first FROM series "
    "GROUP BY run_id, benchmark_id, variant_id, metric), "
    "runs AS MATERIALIZED (SELECT r.id, r.host_id, r.position, %s AS started FROM run AS r), "
    "want AS (SELECT f.run_id, f.benchmark_id, f.variant_id, f.metric, r.host_id, r.started, r.position, "
    "f.series, f.n, f.total, f.magnitude, u.unit FROM fresh AS f JOIN runs AS r ON r.id = f.run_id "
    "JOIN series AS u ON u.id = f.first), "
    "diff AS (SELECT w.run_id, w.benchmark_id, w.variant_id, w.metric FROM want AS w LEFT JOIN history_point_data AS h "
    "ON h.run_id = w.run_id AND h.benchmark_id = w.benchmark_id AND h.variant_id = w.variant_id AND h.metric = w.metric "
    "WHERE h.run_id IS NULL OR h.host_id <> w.host_id OR h.started IS DISTINCT FROM w.started "
    "OR h.position IS DISTINCT FROM w.position OR h.series <> w.series OR h.n <> w.n OR h.unit <> w.unit "
    "OR NOT abs(h.total - w.total) <= 1e-12 * w.series * (CASE WHEN abs(h.total) > w.magnitude THEN abs(h.total) "
    "ELSE w.magnitude END) "
    "UNION ALL SELECT h.run_id, h.benchmark_id, h.variant_id, h.metric FROM history_point_data AS h "
    "LEFT JOIN fresh AS f ON f.run_id = h.run_id AND f.benchmark_id = h.benchmark_id AND f.variant_id = h.variant_id "
    "AND f.metric = h.metric WHERE f.run_id IS NULL) "
    "SELECT (SELECT count(*) FROM diff), (SELECT count(*) FROM history_point_data), run_id, benchmark_id, variant_id, "
    "metric FROM (SELECT 1) AS one LEFT JOIN (SELECT * FROM diff LIMIT 1) AS d ON 1 = 1";

static int compare_derived(struct db *db, enum store_summary s, struct summary_state *out, char **err)
{
    int pg = db_engine(db) == DB_POSTGRESQL;
    struct strbuf sql = {0};
    if (s == SUMMARY_BLOCK_SCORES) /* PostgreSQL's triggers sum in fork order, as SQLite's unique index gives them */
        sb_printf(&sql, block_scores_sql, pg ? " ORDER BY fork" : "");
    else if (s == SUMMARY_RUN_CELLS)
        sb_puts(&sql, run_cells_sql);
    else
        sb_printf(&sql, history_sql, db_dialect(db)->history_started);
    struct db_stmt *st = NULL;
    int rc = 0;
    if (!sql.buf || db_prepare(db, sql.buf, &st) != SQLITE_OK || db_step(st) != SQLITE_ROW)
        rc = bd_fail(err, "%s: %s", summary_info[s].count_what, sql.buf ? db_errmsg(db) : "out of memory");
    else {
        out->bad = db_column_int64(st, 0);
        out->rows = db_column_int64(st, 1);
        if (out->bad && s == SUMMARY_BLOCK_SCORES)
            snprintf(out->first, sizeof out->first, "run %lld, benchmark %lld, block %lld, variant %lld",
                     db_column_int64(st, 2), db_column_int64(st, 3), db_column_int64(st, 4), db_column_int64(st, 5));
        else if (out->bad && s == SUMMARY_RUN_CELLS)
            snprintf(out->first, sizeof out->first, "run %lld, benchmark %lld", db_column_int64(st, 2),
                     db_column_int64(st, 3));
        else if (out->bad)
            snprintf(out->first, sizeof out->first, "run %lld, benchmark %lld, variant %lld, metric %s",
                     db_column_int64(st, 2), db_column_int64(st, 3), db_column_int64(st, 4),
                     (const char *)db_column_text(st, 5));
    }
    db_finalize(st);
    sb_free(&sql);
    return rc;
}

int store_summary_compare(struct db *db, enum store_summary s, struct summary_state *out, summary_each each, void *arg,
                          char **err)
{
    memset(out, 0, sizeof *out);
    return s == SUMMARY_SERIES ? compare_series(db, out, each, arg, err) : compare_derived(db, s, out, err);
}

static void say_series(void *arg, const char *what)
{
    (void)arg;
    bd_error("check: %s", what);
}

int store_check_summary(struct db *db, enum store_summary s, FILE *out, int *problems)
{
    struct summary_state st;
    char *err = NULL;
    if (store_summary_compare(db, s, &st, s == SUMMARY_SERIES ? say_series : NULL, NULL, &err)) {
        bd_error("check: %s", err);
        free(err);
        return -1;
    }
    if (s == SUMMARY_SERIES) {
        *problems += (int)st.bad;
        fprintf(out, "check: %lld series: n and total %s\n", st.rows, st.bad ? "do NOT match their values" : "match their values");
        return 0;
    }
    if (st.bad) {
        const char *from = s == SUMMARY_RUN_CELLS ? "the block ratios" : "its series";
        bd_error("check: %s: %lld row%s differ%s from %s (the first: %s); docs/schema.md shows how to rebuild it",
                 summary_info[s].table, st.bad, st.bad == 1 ? "" : "s", st.bad == 1 ? "s" : "", from, st.first);
        (*problems)++;
    }
    fprintf(out, "check: %lld %s: %s %s\n", st.rows, summary_info[s].count_what, st.bad ? "do NOT match" : "match",
            summary_info[s].source);
    return 0;
}

int store_check_summaries(struct db *db, FILE *out, int *problems)
{
    return store_check_summary(db, SUMMARY_RUN_CELLS, out, problems) ||
                   store_check_summary(db, SUMMARY_HISTORY_POINTS, out, problems)
               ? -1
               : 0;
}
