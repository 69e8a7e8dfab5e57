#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/text.h"

const char usage_sql[] =
    "usage: benchdb [--db FILE] sql SQL [--param NAME=VALUE]... [--format FORMAT] [--write]\n"
    "                              [--timeout SECONDS]\n"
    "       benchdb [--db FILE] sql --file FILE [...]\n"
    "\n"
    "Run ad-hoc SQL against the store. Several statements run in order and the\n"
    "last one's rows are printed. The store is opened read-only unless --write\n"
    "is given; with --write each statement commits on its own, or the SQL's own\n"
    "BEGIN ... COMMIT stores its statements together (a transaction left open is\n"
    "rolled back and the command fails). Parameters are bound as SQLite named\n"
    "parameters (:name, @name, $name), never pasted into the text: a value that\n"
    "reads as an integer or a finite number binds as a number, anything else as\n"
    "text.\n"
    "\n"
    "  -p, --param NAME=VALUE   bind VALUE to :NAME (repeatable)\n"
    "  -f, --format FORMAT      table (default), csv, json or markdown\n"
    "      --file FILE          read the SQL from FILE ('-' for standard input)\n"
    "  -w, --write              open the store read-write\n"
    "      --timeout SECONDS    stop a statement still running after SECONDS (exit 1)\n"
    "\n"
    "Example:\n"
    "  benchdb sql \"SELECT name FROM plan WHERE name LIKE :p\" --param p=calib% --format csv\n";

/* Reports an SQL error the way a user can act on it. */
static void report_sql_error(sqlite3 *db, int rc, int write, const struct store_deadline *dl)
{
    int primary = rc & 0xff;
    if (dl->fired && primary == SQLITE_INTERRUPT)
        bd_error("sql: stopped after %g s (--timeout)", dl->seconds);
    else if (primary == SQLITE_CORRUPT)
        bd_error("sql: the store is damaged (%s): " STORE_DAMAGED_ADVICE, sqlite3_errmsg(db));
    else if (!write && (primary == SQLITE_READONLY || primary == SQLITE_AUTH))
        bd_error("sql: the store is opened read-only: %s (pass --write to change it)",
                 primary == SQLITE_AUTH && store_guard_refusal() ? store_guard_refusal() : sqlite3_errmsg(db));
    else
        bd_error("sql: %s", sqlite3_errmsg(db));
}

int cmd_sql(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"param", required_argument, 0, 'p'}, {"format", required_argument, 0, 'f'},
        {"file", required_argument, 0, 'F'},  {"write", no_argument, 0, 'w'},
        {"timeout", required_argument, 0, 'T'}, {0, 0, 0, 0},
    };
    struct params ps = {0};
    enum out_format fmt = OUT_TABLE;
    const char *file = NULL;
    int write = 0, c, rc = EXIT_USAGE;
    double timeout = 0;
    struct store_deadline dl = {0};
    char *sql = NULL, *err = NULL;
    sqlite3 *db = NULL;
    cli_getopt_reset();
    while ((c = cli_getopt("sql", argc, argv, "p:f:w", opts)) != -1) {
        switch (c) {
        case 'p':
            if (params_add(&ps, optarg)) {
                bd_usage_error("sql", "sql: --param '%s': expected NAME=VALUE", optarg);
                goto out;
            }
            break;
        case 'f':
            if (out_format_parse(optarg, &fmt)) {
                bd_usage_error("sql", "sql: --format '%s': expected one of %s", optarg, OUT_FORMAT_NAMES);
                goto out;
            }
            break;
        case 'F': file = optarg; break;
        case 'w': write = 1; break;
        case 'T':
            if (cli_parse_seconds(optarg, &timeout)) {
                bd_usage_error("sql", "sql: --timeout '%s': expected a number of seconds > 0", optarg);
                goto out;
            }
            break;
        default: goto out;
        }
    }
    if (file) {
        if (optind < argc) {
            bd_usage_error("sql", "sql: unexpected argument '%s' with --file", argv[optind]);
            goto out;
        }
        if (!(sql = file_read_all(file, NULL, &err))) {
            bd_error("%s", err);
            rc = EXIT_FAIL;
            goto out;
        }
    } else {
        if (optind >= argc) {
            bd_usage_error("sql", "sql: missing the SQL text");
            goto out;
        }
        if (optind + 1 < argc) {
            bd_usage_error("sql", "sql: unexpected argument '%s' (quote the SQL as one argument)", argv[optind + 1]);
            goto out;
        }
        sql = strdup(argv[optind]);
    }
    if (sql_is_blank(sql)) {
        bd_usage_error("sql", "sql: the SQL text holds no statement");
        goto out;
    }

    rc = EXIT_FAIL;
    if (cli_open_store(cli, write ? STORE_WRITE : STORE_READ, &db))
        goto out;
    if (timeout > 0)
        store_set_timeout(db, &dl, timeout);

    int *used = calloc((size_t)ps.n + 1, sizeof *used);
    const char *pos = sql;
    struct rowset rs = {0};
    int ok = 1;
    while (ok && !sql_is_blank(pos)) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        int prc = sqlite3_prepare_v2(db, pos, -1, &st, &tail);
        if (prc != SQLITE_OK) {
            report_sql_error(db, prc, write, &dl);
            ok = 0;
            break;
        }
        pos = tail;
        if (!st)
            continue;
        for (int i = 1; i <= sqlite3_bind_parameter_count(st); i++) {
            const char *name = sqlite3_bind_parameter_name(st, i);
            if (!name) {
                bd_usage_error("sql", "sql: positional parameter '?' has no value: use named parameters (:name)");
                rc = EXIT_USAGE;
                ok = 0;
                break;
            }
            const char *value = NULL;
            for (int k = 0; k < ps.n; k++)
                if (strcmp(ps.v[k].name, name + 1) == 0) {
                    value = ps.v[k].value;
                    used[k] = 1;
                }
            if (!value) {
                bd_usage_error("sql", "sql: parameter %s has no value (pass --param %s=VALUE)", name, name + 1);
                rc = EXIT_USAGE;
                ok = 0;
                break;
            }
            bind_param_value(st, i, value);
        }
        if (ok) {
            rowset_free(&rs);
            int src = rowset_collect(&rs, st);
            if (src != SQLITE_DONE) {
                report_sql_error(db, src, write, &dl);
                ok = 0;
            }
        }
        sqlite3_finalize(st);
    }
    for (int k = 0; ok && k < ps.n; k++)
        if (!used[k]) {
            bd_usage_error("sql", "sql: --param %s: the SQL has no parameter :%s", ps.v[k].name, ps.v[k].name);
            rc = EXIT_USAGE;
            ok = 0;
        }
    free(used);
    /* With --write, statements between the SQL's own BEGIN and COMMIT are
     * stored together or not at all; one left open is rolled back when the
     * store closes, so it must not end in success. */
    if (write && !sqlite3_get_autocommit(db)) {
        if (ok)
            bd_error("sql: the SQL leaves a transaction open (BEGIN or SAVEPOINT without COMMIT or RELEASE): "
                     "rolled back, nothing of it was stored");
        else
            bd_error("sql: the transaction the SQL opened was rolled back: nothing of it was stored");
        ok = 0;
    }
    if (ok) {
        if (rowset_print(&rs, fmt, stdout))
            bd_error("sql: cannot write the output");
        else
            rc = EXIT_OK;
    }
    rowset_free(&rs);
out:
    store_close(db);
    params_free(&ps);
    free(sql);
    free(err);
    return rc;
}
