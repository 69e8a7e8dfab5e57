/* pg_query: a built-in saved query run on PostgreSQL over libpq, as a
 * client would run it, for `make bench` (figure 11, bench/README.md),
 * until benchdb itself opens a server.
 *
 *     pg_query CONNINFO WARM NAME [NAME=VALUE]...
 *     pg_query --explain CONNINFO NAME [NAME=VALUE]...
 *
 * Connects, checks the query's "-- needs:" lines (each one statement
 * SELECT (CHECK)), then runs the query with its parameters bound: the
 * statement is src/query/pg_sql.c's (parameters as $k in a cast to the
 * declared type), the values those of `benchdb query` (given, else the
 * header's defaults), sent as text with PQexecParams; every value of
 * every row is read. Then the checks and the query run WARM more times
 * on the same connection. Nothing is recorded. Prints
 *     connect SECONDS
 *     first SECONDS ROWS       (the checks and the query, a fresh session)
 *     warm SECONDS ROWS        (WARM lines)
 *     backend SECONDS          (when WARM > 0 and the server runs on this
 *                               machine: its backend's CPU over the WARM
 *                               runs, from /proc/PID/schedstat in ns,
 *                               where /proc/PID/stat's ticks are 10 ms)
 * and exits 1 on any error (a check that is false is one). With --explain,
 * prints the query's EXPLAIN (ANALYZE, SUMMARY) instead, its parameters
 * bound the same way. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fnshared/numfmt.h"
#include "query/evaluate.h"
#include "query/pg_sql.h"
#include "util/strbuf.h"
#include "util/params.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what, const char *why)
{
    fprintf(stderr, "pg_query: %s: %s\n", what, why);
    exit(1);
}

/* PostgreSQL's type oid for the type pg_sql.c casts a parameter to. */
static Oid param_oid(const struct saved_param *p)
{
    const char *t = pg_param_type(&p->type);
    return strcmp(t, "BIGINT") == 0 ? 20 : strcmp(t, "DOUBLE PRECISION") == 0 ? 701 : 25;
}

struct bound {
    int n;
    Oid *types;
    char **values; /* text, or NULL for SQL NULL */
};

static void bind_values(const struct saved_query *q, const struct resolved_params *rp, struct bound *b)
{
    b->n = q->nparams;
    b->types = calloc((size_t)b->n + 1, sizeof *b->types);
    b->values = calloc((size_t)b->n + 1, sizeof *b->values);
    if (!b->types || !b->values)
        die("bind", "out of memory");
    for (int k = 0; k < b->n; k++) {
        const struct param_value *v = &rp->v[k];
        char num[40];
        b->types[k] = param_oid(&q->params[k]);
        switch (v->sqlite_type) {
        case SQLITE_NULL:
            continue;
        case SQLITE_INTEGER:
            snprintf(num, sizeof num, "%lld", v->i);
            break;
        case SQLITE_FLOAT:
            numfmt_real(num, v->d);
            break;
        default:
            b->values[k] = strdup(v->s);
            continue;
        }
        b->values[k] = strdup(num);
    }
}

/* Nanoseconds the process pid has run on a CPU (the first field of
 * /proc/PID/schedstat), or -1 when it cannot be read (a remote server). */
static long long cpu_ns(int pid)
{
    char path[64];
    long long ns = -1;
    snprintf(path, sizeof path, "/proc/%d/schedstat", pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%lld", &ns) != 1)
            ns = -1;
        fclose(f);
    }
    return ns;
}

static volatile size_t sink; /* the bytes read, so that reading them is not optimised away */

/* Runs one statement with every parameter bound; reads every value.
 * Returns the number of rows; with check, requires one true value. */
static long exec(PGconn *c, const char *sql, const struct bound *b, const char *what, int check)
{
    PGresult *r = PQexecParams(c, sql, b->n, b->types, (const char *const *)b->values, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        die(what, PQresultErrorMessage(r));
    long rows = PQntuples(r), cols = PQnfields(r);
    size_t bytes = 0;
    for (long i = 0; i < rows; i++)
        for (long j = 0; j < cols; j++)
            bytes += strlen(PQgetvalue(r, (int)i, (int)j));
    if (check && (rows != 1 || strcmp(PQgetvalue(r, 0, 0), "t") != 0))
        die(what, "the query's needs are not met in this database");
    PQclear(r);
    sink += bytes;
    return rows;
}

int main(int argc, char **argv)
{
    int explain = argc > 1 && strcmp(argv[1], "--explain") == 0;
    if (argc < 4) {
        fprintf(stderr, "usage: pg_query CONNINFO WARM NAME [NAME=VALUE]...\n"
                        "       pg_query --explain CONNINFO NAME [NAME=VALUE]...\n");
        return 2;
    }
    int warm = explain ? 0 : atoi(argv[2]);
    struct query_path qp = {0};
    int unknown;
    char *err = NULL;
    struct saved_query *q = saved_query_find(&qp, argv[3], &unknown, &err);
    if (!q)
        die(argv[3], err);
    struct params given = {0};
    for (int i = 4; i < argc; i++)
        if (params_add(&given, argv[i]))
            die(argv[i], "not NAME=VALUE");
    struct resolved_params rp = {0};
    if (evaluation_resolve(q, &given, &rp, &err))
        die(argv[3], err);
    struct bound b;
    bind_values(q, &rp, &b);

    /* The statement and each check, written for PostgreSQL. */
    int nsql = q->nneeds + 1;
    char **sql = calloc((size_t)nsql, sizeof *sql);
    for (int k = 0; sql && k < nsql; k++) {
        struct strbuf text = {0}, out = {0};
        struct saved_query one = *q;
        if (k < q->nneeds || explain) {
            if (k < q->nneeds ? sb_printf(&text, "SELECT (%s)", q->needs[k].check)
                              : sb_printf(&text, "EXPLAIN (ANALYZE, SUMMARY) %s", q->sql))
                die("sql", "out of memory");
            one.sql = text.buf;
        }
        if (pg_sql_positional(&one, &out, &err))
            die(argv[3], err);
        sql[k] = out.buf;
        sb_free(&text);
    }
    if (!sql)
        die("sql", "out of memory");

    double t = now();
    PGconn *c = PQconnectdb(argv[1 + explain]);
    if (PQstatus(c) != CONNECTION_OK)
        die("connect", PQerrorMessage(c));
    if (explain) {
        PGresult *r = PQexecParams(c, sql[nsql - 1], b.n, b.types, (const char *const *)b.values, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK)
            die("explain", PQresultErrorMessage(r));
        for (int i = 0; i < PQntuples(r); i++)
            puts(PQgetvalue(r, i, 0));
        PQclear(r);
        warm = -1;
    } else
        printf("connect %.6f\n", now() - t);
    long long ns0 = -1;
    for (int rep = 0; rep <= warm; rep++) {
        if (rep == 1)
            ns0 = cpu_ns(PQbackendPID(c));
        t = now();
        long rows = 0;
        for (int k = 0; k < nsql; k++)
            rows = exec(c, sql[k], &b, k < q->nneeds ? "needs" : argv[3], k < q->nneeds);
        printf("%s %.6f %ld\n", rep ? "warm" : "first", now() - t, rows);
    }
    long long ns1 = warm > 0 && ns0 >= 0 ? cpu_ns(PQbackendPID(c)) : -1;
    if (ns1 >= 0)
        printf("backend %.6f\n", 1e-9 * (double)(ns1 - ns0));
    PQfinish(c);
    for (int k = 0; k < nsql; k++)
        free(sql[k]);
    free(sql);
    for (int k = 0; k < b.n; k++)
        free(b.values[k]);
    free(b.values);
    free(b.types);
    resolved_params_free(&rp);
    params_free(&given);
    saved_query_free(q);
    query_path_free(&qp);
    return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
