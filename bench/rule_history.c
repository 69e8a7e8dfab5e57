/* rule_history: a saved query evaluated on every plan of a store, one plan
 * after the other, for `make bench` (a user re-judging a year of plans
 * under a new rule).
 *
 *     rule_history STORE QUERY.sql [--explain PLAN]
 *
 * Prepares the query once on a read-only connection with benchdb's SQL
 * functions, binds its parameters' defaults (the "-- param: NAME = VALUE"
 * lines of its header; a value that reads as a number binds as one, as in
 * `benchdb query`) and :plan, steps it to the end for each plan in id
 * order, and prints "INDEX SECONDS ROWS" per plan. With --explain, prints
 * the query plan (EXPLAIN QUERY PLAN) for PLAN instead. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqlfn/benchstats.h"

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "rule_history: %s: %s\n", what, db ? sqlite3_errmsg(db) : "failed");
    exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die(NULL, path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
        die(NULL, path);
    s[n] = 0;
    fclose(f);
    return s;
}

/* Binds the defaults of the header's "-- param: NAME = VALUE" lines. */
static void bind_defaults(sqlite3_stmt *st, const char *text)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "-- param: ", 10) != 0)
            continue;
        char name[64], value[256];
        if (sscanf(l + 10, "%63s = %255s", name, value) != 2)
            continue;
        char key[80];
        snprintf(key, sizeof key, ":%s", name);
        int i = sqlite3_bind_parameter_index(st, key);
        if (!i)
            continue;
        char *end;
        double d = strtod(value, &end);
        if (*end == 0)
            sqlite3_bind_double(st, i, d);
        else
            sqlite3_bind_text(st, i, value, -1, SQLITE_TRANSIENT);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3 && !(argc == 5 && strcmp(argv[3], "--explain") == 0)) {
        fprintf(stderr, "usage: rule_history STORE QUERY.sql [--explain PLAN]\n");
        return 2;
    }
    sqlite3 *db;
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK || benchstats_register(db) != SQLITE_OK)
        die(db, argv[1]);
    char *text = slurp(argv[2]);
    sqlite3_stmt *st;
    if (argc == 5) {
        char *sql = malloc(strlen(text) + 32);
        sprintf(sql, "EXPLAIN QUERY PLAN %s", text);
        if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
            die(db, "prepare");
        bind_defaults(st, text);
        sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":plan"), argv[4], -1, SQLITE_STATIC);
        while (sqlite3_step(st) == SQLITE_ROW)
            printf("%d %d %s\n", sqlite3_column_int(st, 0), sqlite3_column_int(st, 1),
                   (const char *)sqlite3_column_text(st, 3));
        sqlite3_finalize(st);
        free(sql);
    } else {
        sqlite3_stmt *plans;
        if (sqlite3_prepare_v2(db, "SELECT name FROM plan ORDER BY id", -1, &plans, NULL) != SQLITE_OK ||
            sqlite3_prepare_v2(db, text, -1, &st, NULL) != SQLITE_OK)
            die(db, "prepare");
        bind_defaults(st, text);
        int pi = sqlite3_bind_parameter_index(st, ":plan");
        for (int k = 0; sqlite3_step(plans) == SQLITE_ROW; k++) {
            double t0 = now();
            sqlite3_bind_text(st, pi, (const char *)sqlite3_column_text(plans, 0), -1, SQLITE_TRANSIENT);
            int rows = 0, rc;
            while ((rc = sqlite3_step(st)) == SQLITE_ROW)
                rows++;
            if (rc != SQLITE_DONE)
                die(db, "step");
            sqlite3_reset(st);
            printf("%d %.6f %d\n", k, now() - t0, rows);
        }
        sqlite3_finalize(plans);
        sqlite3_finalize(st);
    }
    free(text);
    sqlite3_close(db);
    return ferror(stdout) ? 1 : 0;
}
