/* History points of the runs an archive opens, kept by the sink where
 * the store leaves them to the ingest (store/dialect.h, history_insert;
 * docs/schema.md, history_point_data). The insert trigger they replace
 * added each series to its point as it was stored: n and the series'
 * count summed, the total a double sum, left to right in the order the
 * series were stored, the first series' unit kept. The sink adds them up
 * in the same order as it stores them, with the same double additions,
 * and writes each point once, so the rows are the trigger's to the bit;
 * a statement per point instead of one per series, and no sort (an
 * aggregate in SQL would have to sort a point's series by id: SQLite
 * 3.40 has no sum(... ORDER BY ...), and from 3.43 its sum() compensates,
 * which is not the trigger's sum). */
#include "ingest/sink/statements.h"

#include <stdlib.h>
#include <string.h>

#include "store/dialect.h"

void sink_history_forget(struct sink *s)
{
    idmap_clear(&s->point_ix);
    sb_reset(&s->point_metrics);
    s->n_points = 0;
    s->points_run = 0;
}

int sink_history_add(struct sink *s, const char *field, int64_t bench_id, int64_t variant_id, const char *metric,
                     const char *unit, int64_t n, double total)
{
    /* Series added to a stored run keep the trigger (their archive_id is
     * set, which its WHEN reads). */
    if (s->appending || !db_dialect(s->db)->history_insert)
        return 0;
    if (s->points_run != s->run_id && sink_history_flush(s)) /* sink_run wrote them already */
        return -1;
    s->points_run = s->run_id;
    /* benchmark, variant[, metric NUL]: check_cell_unit's key, whose
     * metric it bounded */
    char k[2 * sizeof(int64_t) + 256];
    int64_t ku[2] = {bench_id, variant_id};
    size_t mlen = metric ? strlen(metric) + 1 : 0;
    if (mlen > 256)
        return ingest_report_fail(s->rep, field, "metric name longer than 255 bytes");
    memcpy(k, ku, sizeof ku);
    if (mlen)
        memcpy(k + sizeof ku, metric, mlen);
    int64_t *ix = idmap_get(&s->point_ix, k, sizeof ku + mlen);
    if (ix) {
        struct sink_point *p = &s->points[*ix];
        /* The trigger's n + excluded.n would have turned into a real. */
        if (__builtin_add_overflow(p->n, n, &p->n))
            return ingest_report_fail(s->rep, field,
                                      "the counts of this benchmark's series in the run add up to more than a "
                                      "64-bit integer holds (their history point's n)");
        p->series++;
        p->total = p->total + total; /* the trigger's total + excluded.total */
        return 0;
    }
    if (sink_grow(s, &s->points, s->n_points, &s->cap_points, sizeof *s->points, 64))
        return -1;
    size_t at = SIZE_MAX;
    if (metric) {
        at = s->point_metrics.len;
        if (sb_append(&s->point_metrics, metric, mlen))
            return ingest_report_oom(s->rep);
    }
    if (idmap_put(&s->point_ix, k, sizeof ku + mlen, (int64_t)s->n_points))
        return ingest_report_oom(s->rep);
    s->points[s->n_points++] = (struct sink_point){bench_id, variant_id, 1, n, total, at, unit};
    return 0;
}

int sink_history_flush(struct sink *s)
{
    if (!s->n_points) {
        sink_history_forget(s);
        return 0;
    }
    struct db_stmt *st = sink_stmt(s, S_HISTORY_INSERT);
    if (!st)
        return -1;
    for (size_t i = 0; i < s->n_points; i++) {
        const struct sink_point *p = &s->points[i];
        db_bind_int64(st, 1, s->points_run);
        db_bind_int64(st, 2, p->benchmark_id);
        db_bind_int64(st, 3, p->variant_id);
        db_bind_text(st, 4, p->metric_at == SIZE_MAX ? sink_primary_metric : s->point_metrics.buf + p->metric_at,
                     -1);
        db_bind_int64(st, 5, p->series);
        db_bind_int64(st, 6, p->n);
        db_bind_double(st, 7, p->total);
        db_bind_text(st, 8, p->unit, -1);
        if (sink_step(s, st))
            return -1;
    }
    sink_history_forget(s);
    return 0;
}
