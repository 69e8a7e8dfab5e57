/* hl_bench: hodges_lehmann() as a sliding window, for `make bench`.
 *
 *     hl_bench ROWS FRAME REPS
 *
 * Fills an in-memory table r(i, x, g) with ROWS rows (x with two decimals
 * from a fixed generator, g alternating at random), then REPS times runs
 *   SELECT count(h) FROM (SELECT hodges_lehmann(x, g) OVER (ORDER BY i
 *     ROWS BETWEEN FRAME - 1 PRECEDING AND CURRENT ROW) AS h FROM r)
 * and prints "hl FRAME REP SECONDS" (the rows whose frame is still filling
 * count too: use ROWS well above FRAME). Each row's value is computed from
 * its frame in O(n log n) (docs/functions.md, hodges_lehmann). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sqlfn/benchstats.h"

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "hl_bench: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng = 88172645463325252ull;

static unsigned long long next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    if (argc != 4 || atoi(argv[1]) < 1 || atoi(argv[2]) < 1 || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: hl_bench ROWS FRAME REPS\n");
        return 2;
    }
    int rows = atoi(argv[1]), frame = atoi(argv[2]), reps = atoi(argv[3]);
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || benchstats_register(db) != SQLITE_OK)
        die(db, "open");
    if (sqlite3_exec(db, "CREATE TABLE r(i INTEGER PRIMARY KEY, x REAL, g INTEGER); BEGIN", NULL, NULL, NULL))
        die(db, "create");
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO r VALUES (?, ?, ?)", -1, &ins, NULL) != SQLITE_OK)
        die(db, "prepare");
    for (int i = 0; i < rows; i++) {
        sqlite3_bind_int(ins, 1, i);
        sqlite3_bind_double(ins, 2, (double)(next() % 1000000) / 100);
        sqlite3_bind_int(ins, 3, (int)(next() % 2));
        if (sqlite3_step(ins) != SQLITE_DONE)
            die(db, "insert");
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "commit");
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(h) FROM (SELECT hodges_lehmann(x, g) OVER (ORDER BY i ROWS BETWEEN %d PRECEDING AND "
             "CURRENT ROW) AS h FROM r)",
             frame - 1);
    for (int rep = 0; rep < reps; rep++) {
        sqlite3_stmt *st;
        double t0 = now();
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
            die(db, "prepare");
        while (sqlite3_step(st) == SQLITE_ROW)
            ;
        if (sqlite3_finalize(st) != SQLITE_OK)
            die(db, "query");
        printf("hl %d %d %.6f\n", frame, rep, now() - t0);
        fflush(stdout);
    }
    sqlite3_close(db);
    return 0;
}
