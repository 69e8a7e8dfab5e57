/* benchdb backtest: a gate evaluated as of each past run, scored against a
 * reference (src/query/backtest.c composes and scores; this file is
 * options and output). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/backtest.h"
#include "query/evaluate.h"
#include "query/saved.h"

const char usage_backtest[] =
    "usage: benchdb [--db FILE] backtest GATE [--param NAME=VALUE]... [--plan P] [--host H]\n"
    "                                   [--since TIME] [--reference QUERY] [--within N]\n"
    "                                   [--format FORMAT] [--no-record] [--queries DIR|FILE]...\n"
    "\n"
    "Had GATE (gate-zscore, gate-ttest, gate-percent, or any saved query with a\n"
    "'scope' parameter offering 'every') been in CI, what would it have flagged?\n"
    "GATE judges every past run of every history against the runs before it\n"
    "only; its regression alerts are scored against a reference: the steps\n"
    "'benchdb simulate --history' injected (injected-steps, the default when\n"
    "the store holds any) or the change points of 'regressions'. Prints the\n"
    "total and each history's recall, precision, false alarms per 100 runs and\n"
    "detection delay, then every alert (run, revision, statistic, limit) and\n"
    "every missed regression. Recorded as an evaluation of the composed query\n"
    "backtest-GATE (see 'benchdb history'), which can be re-run like any other.\n"
    "\n"
    "  -p, --param NAME=VALUE   a parameter of the gate or the reference (repeatable)\n"
    "      --plan P             only runs of plan P form the histories\n"
    "      --host H             only host H's histories\n"
    "      --since TIME         judge only runs started at or after TIME (a date or an\n"
    "                           RFC 3339 time); earlier runs still form the baselines\n"
    "      --reference QUERY    injected-steps or regressions (or a saved query with\n"
    "                           host, benchmark, params, metric, variant, seq and kind)\n"
    "      --within N           an alert up to N runs after a reference regression\n"
    "                           (counting its run) detects it (default 5)\n"
    "  -f, --format FORMAT      table (default), csv, json or markdown\n"
    "      --no-record          do not record this evaluation\n"
    "  -q, --queries DIR|FILE   also look for saved queries here (repeatable)\n"
    "\n"
    "Example:\n"
    "  benchdb backtest gate-zscore --since 2026-01-01\n";

static int set_param(struct params *ps, const char *name, const char *value)
{
    char *kv = bd_strdupf("%s=%s", name, value);
    int rc = params_add(ps, kv);
    free(kv);
    return rc;
}

int cmd_backtest(struct cli *cli, int argc, char **argv)
{
    enum { O_PLAN = 256, O_HOST, O_SINCE, O_REFERENCE, O_WITHIN, O_NO_RECORD };
    static const struct option opts[] = {
        {"param", required_argument, 0, 'p'},       {"format", required_argument, 0, 'f'},
        {"queries", required_argument, 0, 'q'},     {"plan", required_argument, 0, O_PLAN},
        {"host", required_argument, 0, O_HOST},     {"since", required_argument, 0, O_SINCE},
        {"reference", required_argument, 0, O_REFERENCE}, {"within", required_argument, 0, O_WITHIN},
        {"no-record", no_argument, 0, O_NO_RECORD}, {0, 0, 0, 0},
    };
    struct params ps = {0};
    struct query_path qp = {0};
    enum out_format fmt = OUT_TABLE;
    const char *plan = NULL, *host = NULL, *since = NULL, *reference = NULL, *within = NULL;
    int record = 1, c, rc = EXIT_USAGE;
    struct saved_query *q = NULL;
    sqlite3 *db = NULL;
    char *err = NULL, *since_utc = NULL, *sentence = NULL;
    struct evaluation ev = {0};
    cli_getopt_reset();
    while ((c = cli_getopt("backtest", argc, argv, "p:f:q:", opts)) != -1) {
        switch (c) {
        case 'p':
            if (params_add(&ps, optarg)) {
                bd_usage_error("backtest", "backtest: --param '%s': expected NAME=VALUE", optarg);
                goto out;
            }
            break;
        case 'f':
            if (out_format_parse(optarg, &fmt)) {
                bd_usage_error("backtest", "backtest: --format '%s': expected one of %s", optarg, OUT_FORMAT_NAMES);
                goto out;
            }
            break;
        case 'q': query_path_add(&qp, optarg); break;
        case O_PLAN: plan = optarg; break;
        case O_HOST: host = optarg; break;
        case O_SINCE: since = optarg; break;
        case O_REFERENCE: reference = optarg; break;
        case O_WITHIN: {
            char *end;
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (!*optarg || *end || errno || v < 1 || v > 1000000) {
                bd_usage_error("backtest", "backtest: --within '%s': expected a number of runs from 1 to 1000000",
                               optarg);
                goto out;
            }
            within = optarg;
            break;
        }
        case O_NO_RECORD: record = 0; break;
        default: goto out;
        }
    }
    if (optind >= argc) {
        bd_usage_error("backtest", "backtest: missing the gate (gate-zscore, gate-ttest, gate-percent, ...)");
        goto out;
    }
    if (optind + 1 < argc) {
        bd_usage_error("backtest", "backtest: unexpected argument '%s'", argv[optind + 1]);
        goto out;
    }
    rc = EXIT_FAIL;
    if (cli_open_store(cli, record ? STORE_WRITE : STORE_READ, &db))
        goto out;
    if (since) {
        since_utc = backtest_normalize_time(db, since);
        if (!since_utc) {
            rc = bd_usage_error("backtest", "backtest: --since '%s': expected a date (2026-01-31) or an RFC 3339 time",
                                since);
            goto out;
        }
    }
    query_path_add_env(&qp);
    if (!reference)
        reference = backtest_default_reference(db);
    q = backtest_compose(&qp, argv[optind], reference, &err);
    if (!q) {
        bd_error("%s", err);
        goto out;
    }
    /* The options are parameters of the composed query. */
    const char *named[][2] = {{"plan", plan}, {"host", host}, {"since", since_utc}, {"within", within}};
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        if (!named[k][1])
            continue;
        if (!saved_query_param(q, named[k][0])) {
            rc = bd_usage_error("backtest", "backtest: --%s: %s has no parameter '%s'", named[k][0], argv[optind],
                                named[k][0]);
            goto out;
        }
        if (set_param(&ps, named[k][0], named[k][1])) {
            bd_error("backtest: out of memory");
            goto out;
        }
    }
    if (evaluation_check_params(q, &ps, &err)) {
        char *list = saved_query_param_list(q);
        rc = bd_usage_error("backtest", "backtest: %s (parameters: %s)", err, list);
        free(list);
        goto out;
    }
    if (evaluation_run(db, q, &ps, record, &ev, &err)) {
        bd_error("%s", err);
        if (strstr(err, "no such column"))
            bd_error("backtest: a gate returns host, benchmark, params, metric, variant, seq, run, revision, "
                     "statistic, limit and alert; a reference host, benchmark, params, metric, variant, seq and kind");
        goto out;
    }
    if (backtest_print(&ev.rows, fmt, stdout)) {
        bd_error("backtest: cannot write the output");
        goto out;
    }
    if (fmt == OUT_TABLE || fmt == OUT_MARKDOWN) {
        sentence = backtest_sentence(&ev.rows, argv[optind]);
        printf("\n%s (reference: %s, within %s runs)\n", sentence, reference, within ? within : "5");
        if (ev.id)
            printf("recorded as evaluation %lld (see 'benchdb history %s')\n", ev.id, q->name);
    }
    fflush(stdout);
    rc = ferror(stdout) ? EXIT_FAIL : EXIT_OK;
out:
    evaluation_free(&ev);
    saved_query_free(q);
    store_close(db);
    params_free(&ps);
    query_path_free(&qp);
    free(err);
    free(since_utc);
    free(sentence);
    return rc;
}
