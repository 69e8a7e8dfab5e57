/* fn_bench: benchdb's aggregate functions against SQLite's avg() on the
 * same rows, for `make bench`.
 *
 *     fn_bench ROWS REPS
 *
 * Fills an in-memory table r(x REAL, g INTEGER) with ROWS rows (x uniform
 * in [1, 2) from a fixed generator, g = rowid % 2), then REPS times, for each
 * function in turn, times `SELECT avg(x) FROM r` and the function's query
 * one right after the other (so both sides see the same machine state) and
 * prints "NAME REP AVG_SECONDS FN_SECONDS AVG_CPU FN_CPU": wall seconds,
 * then the thread's CPU seconds (CLOCK_THREAD_CPUTIME_ID), which a shared
 * machine's other load disturbs far less. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sqlfn/benchstats.h"

static const char *const queries[][2] = {
    {"geomean", "SELECT geomean(x) FROM r"},
    {"pooled_t_ci", "SELECT pooled_t_ci(x, g) FROM r"},
    {"band_share", "SELECT band_share(x, 1.2, 1.8) FROM r"},
    {"median", "SELECT median(x) FROM r"},
    /* Not a function of benchdb: what reading the second column costs any
     * aggregate of two arguments (SQLite's own sums), beside pooled_t_ci. */
    {"two_columns", "SELECT avg(x + g) FROM r"},
};

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "fn_bench: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall seconds; *cpu the thread's CPU seconds. */
static double run(sqlite3 *db, const char *sql, double *cpu)
{
    sqlite3_stmt *st;
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(db, sql);
    while (sqlite3_step(st) == SQLITE_ROW)
        ;
    if (sqlite3_finalize(st) != SQLITE_OK)
        die(db, sql);
    *cpu = now(CLOCK_THREAD_CPUTIME_ID) - c0;
    return now(CLOCK_MONOTONIC) - t0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fn_bench ROWS REPS\n");
        return 2;
    }
    long long rows = atoll(argv[1]);
    int reps = atoi(argv[2]);
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || benchstats_register(db) != SQLITE_OK)
        die(db, "open");
    if (sqlite3_exec(db, "CREATE TABLE r(x REAL, g INTEGER); BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "create");
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO r(x, g) VALUES (?, ?)", -1, &ins, NULL) != SQLITE_OK)
        die(db, "prepare");
    unsigned long long s = 88172645463325252ull;
    for (long long i = 0; i < rows; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        sqlite3_bind_double(ins, 1, 1.0 + (double)(s >> 11) * 0x1p-53);
        sqlite3_bind_int(ins, 2, (int)(i % 2));
        if (sqlite3_step(ins) != SQLITE_DONE)
            die(db, "insert");
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "commit");
    for (int rep = 0; rep < reps; rep++)
        for (size_t q = 0; q < sizeof queries / sizeof *queries; q++) {
            /* Alternate which side goes first from one repetition to the next. */
            double a, f, ac, fc;
            if (rep % 2) {
                f = run(db, queries[q][1], &fc);
                a = run(db, "SELECT avg(x) FROM r", &ac);
            } else {
                a = run(db, "SELECT avg(x) FROM r", &ac);
                f = run(db, queries[q][1], &fc);
            }
            printf("%s %d %.6f %.6f %.6f %.6f\n", queries[q][0], rep, a, f, ac, fc);
            fflush(stdout);
        }
    sqlite3_close(db);
    return 0;
}
