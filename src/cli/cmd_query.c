/* benchdb query / benchdb queries: saved queries as decision rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/evaluate.h"
#include "query/saved.h"

const char usage_query[] =
    "usage: benchdb [--db FILE] query NAME|FILE.sql [--param NAME=VALUE]... [--format FORMAT]\n"
    "                                [--no-record] [--queries DIR|FILE]... [--timeout SECONDS]\n"
    "\n"
    "Run a saved query: defaults fill the parameters not given, values are bound\n"
    "(never pasted into the SQL), and a value that reads as a number binds as one.\n"
    "The query only reads the store. Every run is recorded in the verdict history\n"
    "(see 'benchdb history') unless --no-record is given. A query that judges a\n"
    "plan also says whether its rule was registered before the plan ran.\n"
    "\n"
    "  -p, --param NAME=VALUE   set a parameter (repeatable)\n"
    "  -f, --format FORMAT      table (default), csv, json or markdown\n"
    "      --no-record          do not record this evaluation\n"
    "  -q, --queries DIR|FILE   also look for saved queries here (repeatable;\n"
    "                           $BENCHDB_QUERIES adds ':'-separated entries)\n"
    "      --timeout SECONDS    stop the query if still running after SECONDS (exit 1)\n"
    "\n"
    "Example:\n"
    "  benchdb query placement-rule --param plan=calibration-sim\n";

const char usage_queries[] =
    "usage: benchdb queries [--format FORMAT] [--queries DIR|FILE]...\n"
    "\n"
    "List every saved query: its name, summary, parameters (with defaults) and\n"
    "where it comes from (built-in, or a file from --queries / $BENCHDB_QUERIES).\n"
    "\n"
    "  -f, --format FORMAT      table (default), csv, json or markdown\n"
    "  -q, --queries DIR|FILE   also look for saved queries here (repeatable)\n";

static void print_params_help(const struct saved_query *q)
{
    fprintf(stderr, "parameters of %s:\n", q->name);
    for (int i = 0; i < q->nparams; i++) {
        char head[160];
        if (q->params[i].has_default)
            snprintf(head, sizeof head, "%s = %s", q->params[i].name, q->params[i].def);
        else
            snprintf(head, sizeof head, "%s (required)", q->params[i].name);
        fprintf(stderr, "  %-28s %s\n", head, q->params[i].description);
    }
    if (!q->nparams)
        fputs("  (none)\n", stderr);
}

int cmd_query(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"param", required_argument, 0, 'p'},   {"format", required_argument, 0, 'f'},
        {"no-record", no_argument, 0, 'n'},     {"queries", required_argument, 0, 'q'},
        {"timeout", required_argument, 0, 'T'}, {0, 0, 0, 0},
    };
    double timeout = 0;
    struct store_deadline dl = {0};
    struct params ps = {0};
    struct query_path qp = {0};
    enum out_format fmt = OUT_TABLE;
    int record = 1, c, rc = EXIT_USAGE;
    struct saved_query *q = NULL;
    sqlite3 *db = NULL;
    char *err = NULL;
    struct evaluation ev = {0};
    cli_getopt_reset();
    while ((c = cli_getopt("query", argc, argv, "p:f:q:", opts)) != -1) {
        switch (c) {
        case 'p':
            if (params_add(&ps, optarg)) {
                bd_usage_error("query", "query: --param '%s': expected NAME=VALUE", optarg);
                goto out;
            }
            break;
        case 'f':
            if (out_format_parse(optarg, &fmt)) {
                bd_usage_error("query", "query: --format '%s': expected one of %s", optarg, OUT_FORMAT_NAMES);
                goto out;
            }
            break;
        case 'n': record = 0; break;
        case 'q': query_path_add(&qp, optarg); break;
        case 'T':
            if (cli_parse_seconds(optarg, &timeout)) {
                bd_usage_error("query", "query: --timeout '%s': expected a number of seconds > 0", optarg);
                goto out;
            }
            break;
        default: goto out;
        }
    }
    if (optind >= argc) {
        bd_usage_error("query", "query: missing the saved query's name (see 'benchdb queries')");
        goto out;
    }
    if (optind + 1 < argc) {
        bd_usage_error("query", "query: unexpected argument '%s'", argv[optind + 1]);
        goto out;
    }
    query_path_add_env(&qp);
    q = saved_query_find(&qp, argv[optind], &err);
    if (!q) {
        bd_error("query: %s", err);
        rc = EXIT_FAIL;
        goto out;
    }
    if (evaluation_check_params(q, &ps, &err)) {
        bd_error("query: %s", err);
        print_params_help(q);
        rc = EXIT_USAGE;
        goto out;
    }
    rc = EXIT_FAIL;
    if (cli_open_store(cli, record ? STORE_WRITE : STORE_READ, &db))
        goto out;
    if (timeout > 0)
        store_set_timeout(db, &dl, timeout);
    if (evaluation_run(db, q, &ps, record, &ev, &err)) {
        if (dl.fired)
            bd_error("query %s: stopped after %g s (--timeout)", q->name, dl.seconds);
        else
            bd_error("%s", err);
        goto out;
    }
    if (rowset_print(&ev.rows, fmt, stdout)) {
        bd_error("query: cannot write the output");
        goto out;
    }
    if (fmt == OUT_TABLE || fmt == OUT_MARKDOWN) {
        /* The verdict in words, for a reader; csv and json stay data only. */
        printf("\n%s%s\n", q->outcome ? "" : "result: ", ev.outcome);
        if (ev.registration_note)
            printf("%s\n", ev.registration_note);
        if (ev.id)
            printf("recorded as evaluation %lld (see 'benchdb history %s')\n", ev.id, q->name);
    }
    rc = EXIT_OK;
out:
    evaluation_free(&ev);
    saved_query_free(q);
    store_close(db);
    params_free(&ps);
    query_path_free(&qp);
    free(err);
    return rc;
}

int cmd_queries(struct cli *cli, int argc, char **argv)
{
    (void)cli;
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'}, {"queries", required_argument, 0, 'q'}, {0, 0, 0, 0},
    };
    struct query_path qp = {0};
    enum out_format fmt = OUT_TABLE;
    int c, rc = EXIT_USAGE;
    char *err = NULL;
    cli_getopt_reset();
    while ((c = cli_getopt("queries", argc, argv, "f:q:", opts)) != -1) {
        switch (c) {
        case 'f':
            if (out_format_parse(optarg, &fmt)) {
                bd_usage_error("queries", "queries: --format '%s': expected one of %s", optarg, OUT_FORMAT_NAMES);
                goto out;
            }
            break;
        case 'q': query_path_add(&qp, optarg); break;
        default: goto out;
        }
    }
    if (optind < argc) {
        bd_usage_error("queries", "queries: unexpected argument '%s'", argv[optind]);
        goto out;
    }
    query_path_add_env(&qp);
    struct saved_query **v;
    int n = saved_query_list(&qp, &v, &err);
    if (n < 0) {
        bd_error("queries: %s", err);
        rc = EXIT_FAIL;
        goto out;
    }
    /* Tabulate through an in-memory database so every output format works. */
    sqlite3 *mem;
    sqlite3_open(":memory:", &mem);
    sqlite3_exec(mem, "CREATE TABLE q(name, summary, parameters, source)", NULL, NULL, NULL);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(mem, "INSERT INTO q VALUES (?,?,?,?)", -1, &st, NULL);
    for (int i = 0; i < n; i++) {
        char *pl = saved_query_param_list(v[i]);
        sqlite3_bind_text(st, 1, v[i]->name, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, v[i]->summary, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, pl, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 4, v[i]->source, -1, SQLITE_STATIC);
        sqlite3_step(st);
        sqlite3_reset(st);
        free(pl);
    }
    sqlite3_finalize(st);
    saved_query_list_free(v, n);
    struct rowset rs = {0};
    sqlite3_prepare_v2(mem, "SELECT * FROM q", -1, &st, NULL);
    rowset_collect(&rs, st);
    sqlite3_finalize(st);
    rc = rowset_print(&rs, fmt, stdout) ? EXIT_FAIL : EXIT_OK;
    rowset_free(&rs);
    sqlite3_close(mem);
out:
    query_path_free(&qp);
    free(err);
    return rc;
}
