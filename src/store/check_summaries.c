/* 'benchdb check': run_cell_data, the per-(run, cell) summaries of the
 * block log ratios kept by triggers (migration 0007), against a fresh
 * aggregate of block_ratio: rows missing, extra or different, compared
 * exactly (the summaries byte for byte, mean and standard deviation to
 * the bit), as block_score_data is checked against its series. */
#include <inttypes.h>
#include <stdint.h>

#include "store/store.h"
#include "util/diag.h"

int store_check_summaries(sqlite3 *db, FILE *out, int *problems)
{
    static const char sql[] =
        "WITH fresh AS (SELECT run_id, benchmark_id, count(*) AS blocks, trimmed_mean(log_ratio, 0) AS mean_log, "
        "stddev(log_ratio) AS sd_log, moments(log_ratio) AS moments FROM block_ratio GROUP BY run_id, benchmark_id), "
        "diff AS (SELECT * FROM (SELECT * FROM run_cell_data EXCEPT SELECT * FROM fresh) "
        "UNION ALL SELECT * FROM (SELECT * FROM fresh EXCEPT SELECT * FROM run_cell_data)) "
        "SELECT (SELECT count(*) FROM diff), (SELECT count(*) FROM run_cell_data), run_id, benchmark_id "
        "FROM (SELECT 1) LEFT JOIN (SELECT * FROM diff LIMIT 1)";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
        bd_error("check: run summaries: %s", sqlite3_errmsg(db));
        sqlite3_finalize(st);
        return -1;
    }
    int64_t bad = sqlite3_column_int64(st, 0), count = sqlite3_column_int64(st, 1);
    if (bad) {
        bd_error("check: run_cell_data: %" PRId64 " row%s differ%s from the block ratios (the first: run %" PRId64
                 ", benchmark %" PRId64 "); docs/schema.md shows how to rebuild it",
                 bad, bad == 1 ? "" : "s", bad == 1 ? "s" : "", (int64_t)sqlite3_column_int64(st, 2),
                 (int64_t)sqlite3_column_int64(st, 3));
        (*problems)++;
    }
    sqlite3_finalize(st);
    fprintf(out, "check: %" PRId64 " run summaries: %s\n", count,
            bad ? "do NOT match their block ratios" : "match their block ratios");
    return 0;
}
