/* pg_query_sql [--typed] NAME [NAME=VALUE]...: prints the built-in saved
 * query NAME as PostgreSQL runs it (src/query/pg_sql.c), with the
 * parameters given (others at their defaults) written in as typed
 * literals, or with --typed as CAST(:name AS TYPE), as benchdb sends it
 * (the connection layer binds each by name as $N). For the tests of
 * tests/pg (psql sends no parameters). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/pg_sql.h"
#include "util/params.h"

int main(int argc, char **argv)
{
    int typed = argc > 1 && strcmp(argv[1], "--typed") == 0;
    int first = 1 + typed;
    if (argc <= first) {
        fprintf(stderr, "usage: pg_query_sql [--typed] NAME [NAME=VALUE]...\n");
        return 2;
    }
    struct query_path qp = {0};
    int unknown;
    char *err = NULL;
    struct saved_query *q = saved_query_find(&qp, argv[first], &unknown, &err);
    if (!q) {
        fprintf(stderr, "pg_query_sql: %s\n", err);
        return 1;
    }
    struct params given = {0};
    for (int i = first + 1; i < argc; i++)
        if (params_add(&given, argv[i])) {
            fprintf(stderr, "pg_query_sql: bad parameter %s\n", argv[i]);
            return 2;
        }
    struct strbuf sb = {0};
    struct resolved_params rp = {0};
    int rc = typed ? pg_sql_typed(q, &sb, &err)
                        : evaluation_resolve(q, &given, &rp, &err) ? -1 : pg_sql_literal(q, &rp, &sb, &err);
    if (rc) {
        fprintf(stderr, "pg_query_sql: %s\n", err);
        return 1;
    }
    fputs(sb.buf ? sb.buf : "", stdout);
    putchar('\n');
    sb_free(&sb);
    resolved_params_free(&rp);
    params_free(&given);
    saved_query_free(q);
    return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
