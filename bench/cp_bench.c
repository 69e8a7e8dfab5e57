/* cp_bench: change_points() over many histories, for `make bench`.
 *
 *     cp_bench HISTORIES POINTS REPS
 *
 * Fills an in-memory table h(hist, seq, x) with HISTORIES series of POINTS
 * values each (from a fixed generator: a level that steps by -20%..+20%
 * every 20 to 120 points, with 1-3% Gaussian noise), then REPS times runs
 *   SELECT hist, change_points(seq, x) FROM h GROUP BY hist
 * (Otava's defaults: window 50, p 0.001) and, for reference, the plain C
 * detector on the same series, one right after the other, the order
 * alternating. Prints "sql REP SECONDS CHANGE_POINTS" and
 * "c REP SECONDS CHANGE_POINTS". */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqlfn/benchstats.h"
#include "stats/changepoint.h"

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "cp_bench: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static unsigned long long rng = 88172645463325252ull;

static double uniform(void) /* [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

static double gauss(void)
{
    double u = uniform(), v = uniform();
    return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

static double run_sql(sqlite3 *db, long *found)
{
    sqlite3_stmt *st;
    double t0 = now();
    if (sqlite3_prepare_v2(db, "SELECT hist, change_points(seq, x) FROM h GROUP BY hist", -1, &st, NULL))
        die(db, "prepare");
    *found = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        /* Count the objects without parsing: one "seq" member each. */
        for (const char *p = (const char *)sqlite3_column_text(st, 1); p && (p = strstr(p, "\"seq\"")); p++)
            (*found)++;
    }
    if (sqlite3_finalize(st) != SQLITE_OK)
        die(db, "query");
    return now() - t0;
}

static double run_c(const double *x, int hist, int points, long *found)
{
    void *work = malloc(changepoint_work_size((size_t)points, 50));
    struct changepoint *cp = malloc((size_t)points * sizeof *cp);
    if (!work || !cp)
        die(NULL, "malloc");
    double t0 = now();
    *found = 0;
    for (int h = 0; h < hist; h++)
        *found += (long)changepoint_otava(x + (size_t)h * points, (size_t)points, 50, 0.001, 0.0, work, cp);
    double t = now() - t0;
    free(work);
    free(cp);
    return t;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: cp_bench HISTORIES POINTS REPS\n");
        return 2;
    }
    int hist = atoi(argv[1]), points = atoi(argv[2]), reps = atoi(argv[3]);
    if (hist < 1 || points < 1 || reps < 1) {
        fprintf(stderr, "usage: cp_bench HISTORIES POINTS REPS\n");
        return 2;
    }
    double *x = malloc((size_t)hist * (size_t)points * sizeof *x);
    if (!x)
        die(NULL, "malloc");
    for (int h = 0; h < hist; h++) {
        double level = 1000 * (1 + uniform()), noise = 0.01 + 0.02 * uniform();
        int next = 20 + (int)(100 * uniform());
        for (int i = 0; i < points; i++) {
            if (i == next) {
                level *= 0.8 + 0.4 * uniform();
                next += 20 + (int)(100 * uniform());
            }
            x[(size_t)h * points + i] = level * (1 + noise * gauss());
        }
    }
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || benchstats_register(db) != SQLITE_OK)
        die(db, "open");
    if (sqlite3_exec(db, "CREATE TABLE h(hist INTEGER, seq INTEGER, x REAL, PRIMARY KEY (hist, seq)) WITHOUT ROWID;"
                         "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "create");
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO h VALUES (?, ?, ?)", -1, &ins, NULL) != SQLITE_OK)
        die(db, "prepare");
    for (int h = 0; h < hist; h++)
        for (int i = 0; i < points; i++) {
            sqlite3_bind_int(ins, 1, h);
            sqlite3_bind_int(ins, 2, i);
            sqlite3_bind_double(ins, 3, x[(size_t)h * points + i]);
            if (sqlite3_step(ins) != SQLITE_DONE)
                die(db, "insert");
            sqlite3_reset(ins);
        }
    sqlite3_finalize(ins);
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "commit");
    for (int rep = 0; rep < reps; rep++) {
        long fs, fc;
        double ts, tc;
        if (rep % 2) {
            tc = run_c(x, hist, points, &fc);
            ts = run_sql(db, &fs);
        } else {
            ts = run_sql(db, &fs);
            tc = run_c(x, hist, points, &fc);
        }
        printf("sql %d %.6f %ld\nc %d %.6f %ld\n", rep, ts, fs, rep, tc, fc);
        fflush(stdout);
    }
    sqlite3_close(db);
    free(x);
    return 0;
}
