/* 'benchdb check': run_cell_data, the per-(run, cell) summaries of the
 * block log ratios kept by triggers (migration 0007), against a fresh
 * aggregate of block_ratio: rows missing, extra or different, compared
 * exactly (the summaries byte for byte, mean and standard deviation to
 * the bit), as block_score_data is checked against its series. The same
 * SQL on both engines (benchstats' aggregates are exact, free of row
 * order). */
#include <inttypes.h>
#include <stdint.h>

#include "store/store.h"
#include "util/diag.h"

int store_check_summaries(struct db *db, FILE *out, int *problems)
{
    static const char sql[] =
        "WITH fresh AS (SELECT run_id, benchmark_id, count(*) AS blocks, trimmed_mean(log_ratio, 0) AS mean_log, "
        "stddev(log_ratio) AS sd_log, moments(log_ratio) AS moments FROM block_ratio GROUP BY run_id, benchmark_id), "
        "diff AS (SELECT * FROM (SELECT * FROM run_cell_data EXCEPT SELECT * FROM fresh) AS gone "
        "UNION ALL SELECT * FROM (SELECT * FROM fresh EXCEPT SELECT * FROM run_cell_data) AS missing) "
        "SELECT (SELECT count(*) FROM diff), (SELECT count(*) FROM run_cell_data), run_id, benchmark_id "
        "FROM (SELECT 1) AS one LEFT JOIN (SELECT * FROM diff LIMIT 1) AS d ON 1 = 1";
    struct db_stmt *st = NULL;
    if (db_prepare(db, sql, &st) != SQLITE_OK || db_step(st) != SQLITE_ROW) {
        bd_error("check: run summaries: %s", db_errmsg(db));
        db_finalize(st);
        return -1;
    }
    int64_t bad = db_column_int64(st, 0), count = db_column_int64(st, 1);
    if (bad) {
        bd_error("check: run_cell_data: %" PRId64 " row%s differ%s from the block ratios (the first: run %" PRId64
                 ", benchmark %" PRId64 "); docs/schema.md shows how to rebuild it",
                 bad, bad == 1 ? "" : "s", bad == 1 ? "s" : "", (int64_t)db_column_int64(st, 2),
                 (int64_t)db_column_int64(st, 3));
        (*problems)++;
    }
    db_finalize(st);
    fprintf(out, "check: %" PRId64 " run summaries: %s\n", count,
            bad ? "do NOT match their block ratios" : "match their block ratios");
    return 0;
}
