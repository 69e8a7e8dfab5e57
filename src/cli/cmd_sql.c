/* benchdb sql: ad-hoc SQL against the store. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/sql_dot.h"
#include "util/text.h"
#include "util/xalloc.h"

struct sql_args {
    struct params params;
    struct out_opts out;
    const char *file;
    int write;
    struct cli_limits limits;
};

static const struct cli_opt sql_opts[] = {
    CLI_OPT_PARAM(struct sql_args, params, "bind VALUE to :NAME (repeatable, once per NAME)"),
    CLI_OUTPUT_OPTIONS(struct sql_args, out),
    {"file", 0, "FILE", "read the SQL from FILE ('-' for standard input; a\nregular file of at most 16 MiB)", cli_opt_string,
     offsetof(struct sql_args, file), 0, 0},
    {"write", 'w', NULL, "open the store read-write", cli_opt_flag, offsetof(struct sql_args, write), 0, 0},
    CLI_OPT_LIMITS(struct sql_args, limits),
    {0},
};

const struct cli_spec spec_sql = {
    .name = "sql",
    .store = 1,
    .synopsis = (const char *const[]){"sql [OPTIONS] SQL", "sql [OPTIONS] --file FILE", NULL},
    .about = "Run ad-hoc SQL against the store. Several statements run in order and the\n"
             "last one's rows are printed. The store is opened read-only unless --write\n"
             "is given; with --write each statement commits on its own, or the SQL's own\n"
             "BEGIN ... COMMIT stores its statements together (a transaction left open is\n"
             "rolled back and the command fails). Parameters are bound as SQLite named\n"
             "parameters (:name, @name, $name), never pasted into the text. A value binds\n"
             "as a number when it is written as a plain number (42, -3, 2.5, 1e-09);\n"
             "anything else binds as text, so that 007, 1.10 or +3 keep their text.\n"
             "\n"
             "As in the sqlite3 shell, \".tables [PATTERN]\" lists the tables and views,\n"
             "\".schema [TABLE]\" prints their definitions, and \".functions\" lists the\n"
             "statistics functions benchdb adds; on PostgreSQL too. An error naming a\n"
             "table, column or function that does not exist names the nearest ones.\n"
             "\n"
             "The SQL runs within limits on time, on the size of the result (which is\n"
             "held whole), on the disk its temporary files take (sorts, temporary\n"
             "tables) and on the memory it needs; passing one stops the command (exit\n"
             "1) with a message naming the option that raises it.\n",
    .opts = sql_opts,
    .more = "Example:\n"
            "  benchdb sql \"SELECT name FROM plan WHERE name LIKE :p\" -p p=calib% -f csv\n",
    .max_args = -1,
};

/* How a statement run stopped, for report_sql_error. */
struct sql_run {
    const struct sql_args *a;
    const struct store_deadline *dl;
    double timeout;
    struct rowset_limits lim;
};

/* Reports an SQL error the way a user can act on it: rc is what failed
 * (sqlite3_errmsg may be stale: a failure of ours, or after a row). */
static void report_sql_error(struct db *db, int rc, const struct sql_run *run)
{
    int primary = rc & 0xff;
    if ((primary == SQLITE_INTERRUPT || primary == SQLITE_FULL || primary == SQLITE_NOMEM) &&
        cli_deadline_passed(db, run->dl))
        cli_limit_error("sql", &run->a->limits, run->timeout, &run->lim, 0);
    else if (rc == ROWSET_OVER_ROWS || rc == ROWSET_OVER_BYTES)
        cli_limit_error("sql", &run->a->limits, run->timeout, &run->lim, rc);
    else if (primary == SQLITE_NOMEM)
        bd_error("sql: out of memory");
    else if (primary == SQLITE_CORRUPT)
        bd_error("sql: the store is damaged (%s): " STORE_DAMAGED_ADVICE, db_errmsg(db));
    else if (!run->a->write && (primary == SQLITE_READONLY || primary == SQLITE_AUTH))
        bd_error("sql: the store is opened read-only: %s (pass --write to change it)",
                 primary == SQLITE_AUTH && store_guard_refusal() ? store_guard_refusal() : db_errmsg(db));
    else if (primary == SQLITE_READONLY) /* PostgreSQL: a role without the grant */
        bd_error("sql: the store refuses this change: %s (connect as a role that may write)", db_errmsg(db));
    else if (primary == SQLITE_BUSY) {
        char *why = store_busy_text();
        bd_error("sql: %s; nothing of this statement was stored", why);
        free(why);
    } else {
        /* An unknown table, column or function: the nearest that exist. */
        struct strbuf hint = {0};
        char *msg = xstrdup(db_errmsg(db));
        /* The failed statement may have aborted the read-only
         * transaction (PostgreSQL); the catalogues are read after it (the
         * command fails anyway, and nothing of it could be kept). */
        if (msg && !run->a->write)
            store_end_readonly(db);
        if (msg)
            sql_error_hint(db, msg, &hint);
        bd_error("sql: %s%s", msg ? msg : db_errmsg(db), hint.len ? xsb_text(&hint) : "");
        sb_free(&hint);
        free(msg);
    }
}

/* The most --file reads: far more SQL than a person writes, far less
 * memory than a device or an endless stream would take. */
#define SQL_FILE_MAX_BYTES ((size_t)16 << 20)

/* The SQL text: --file's, else the one argument. */
static char *sql_text(const struct sql_args *a, int nargs, char **args, int *rc)
{
    char *err = NULL, *sql = NULL;
    *rc = EXIT_USAGE;
    if (a->file && nargs)
        bd_usage_error("sql", "sql: unexpected argument '%s' with --file", args[0]);
    else if (!a->file && !nargs)
        bd_usage_error("sql", "sql: missing the SQL text");
    else if (nargs > 1)
        bd_usage_error("sql", "sql: unexpected argument '%s' (quote the SQL as one argument)", args[1]);
    else if (a->file && !(sql = file_read_text(a->file, SQL_FILE_MAX_BYTES, "an SQL file (--file)", NULL, &err))) {
        bd_error("%s", err);
        *rc = EXIT_FAIL;
    } else if (!a->file)
        sql = xstrdup(args[0]);
    free(err);
    if (sql && sql_is_blank(sql)) {
        bd_usage_error("sql", "sql: the SQL text holds no statement");
        free(sql);
        sql = NULL;
    }
    return sql;
}

/* Binds every parameter of st from --param values, marking those used. */
static int bind_params(struct db_stmt *st, const struct params *ps, int *used)
{
    for (int i = 1; i <= db_bind_parameter_count(st); i++) {
        const char *name = db_bind_parameter_name(st, i);
        if (!name)
            return bd_usage_error("sql", "sql: positional parameter '?' has no value: use named parameters (:name)");
        int k;
        for (k = 0; k < ps->n; k++)
            if (strcmp(ps->v[k].name, name + 1) == 0)
                break;
        if (k == ps->n)
            return bd_usage_error("sql", "sql: parameter %s has no value (pass --param %s=VALUE)", name, name + 1);
        used[k] = 1;
        long long iv = 0;
        double d = 0;
        int type = plain_number_parse(ps->v[k].value, &iv, &d);
        int rc = type == SQLITE_INTEGER ? db_bind_int64(st, i, iv)
                 : type == SQLITE_FLOAT ? db_bind_double(st, i, d)
                                        : db_bind_text(st, i, ps->v[k].value, -1);
        if (rc != SQLITE_OK) {
            bd_error("sql: cannot bind %s: %s", name, db_errmsg(db_stmt_db(st)));
            return EXIT_FAIL;
        }
    }
    return EXIT_OK;
}

/* Runs the statements of sql in order, keeping the last one's rows. */
static int run_all(struct db *db, const char *sql, const struct sql_run *run, struct rowset *rs)
{
    const struct sql_args *a = run->a;
    int *used = xcalloc((size_t)a->params.n + 1, sizeof *used);
    int rc = used ? EXIT_OK : EXIT_FAIL;
    for (const char *pos = sql; rc == EXIT_OK && !sql_is_blank(pos);) {
        struct db_stmt *st = NULL;
        int prc = db_prepare_tail(db, pos, &st, &pos);
        if (prc != SQLITE_OK) {
            report_sql_error(db, prc, run);
            rc = EXIT_FAIL;
            break;
        }
        if (!st)
            continue;
        rc = bind_params(st, &a->params, used);
        if (rc == EXIT_OK) {
            rowset_free(rs);
            int src = rowset_collect_db_limited(rs, st, &run->lim);
            if (src != SQLITE_DONE) {
                report_sql_error(db, src, run);
                rc = EXIT_FAIL;
            }
        }
        db_finalize(st);
    }
    for (int k = 0; rc == EXIT_OK && k < a->params.n; k++)
        if (!used[k])
            rc = bd_usage_error("sql", "sql: --param %s: the SQL has no parameter :%s", a->params.v[k].name,
                                a->params.v[k].name);
    free(used);
    /* With --write, statements between the SQL's own BEGIN and COMMIT are
     * stored together or not at all; one left open is rolled back when the
     * store closes, so it must not end in success. */
    if (a->write && !db_autocommit(db)) {
        if (rc == EXIT_OK)
            bd_error("sql: the SQL leaves a transaction open (BEGIN or SAVEPOINT without COMMIT or RELEASE): "
                     "rolled back, nothing of it was stored");
        else
            bd_error("sql: the transaction the SQL opened was rolled back: nothing of it was stored");
        rc = EXIT_FAIL;
    }
    return rc;
}

int cmd_sql(struct cli *cli, int argc, char **argv)
{
    struct sql_args a = {0};
    out_opts_init(&a.out);
    struct store_deadline dl = {0};
    struct db *db = NULL;
    char *sql = NULL;
    int first, rc = EXIT_USAGE;
    if (cli_parse(&spec_sql, argc, argv, &a, &first) || cli_output_ready("sql", &a.out))
        goto out;
    if (!(sql = sql_text(&a, argc - first, argv + first, &rc)))
        goto out;
    if (a.params.n && sql[strspn(sql, " \t\n")] == '.') {
        /* A dot command binds nothing: the value would go unused, unsaid. */
        rc = bd_usage_error("sql", "sql: --param binds :NAME in SQL; a dot command (%.20s) takes none",
                            sql + strspn(sql, " \t\n"));
        goto out;
    }
    struct sql_run run = {.a = &a, .dl = &dl};
    if ((rc = cli_limits_resolve("sql", &a.limits, &run.timeout, &run.lim)) != EXIT_OK)
        goto out;
    rc = EXIT_FAIL;
    if (cli_connect_limited(cli, a.write ? STORE_WRITE : STORE_READ, "sql", &a.limits, run.timeout, &dl, &db))
        goto out;
    char *cannot = NULL;
    if (a.write && store_may_change(db, NULL, NULL, &cannot)) { /* said once, before any statement runs */
        bd_error("sql: %s; nothing was run (without --write, sql reads)", cannot ? cannot : "out of memory");
        free(cannot);
        goto out;
    }
    /* Read-only: the store's read-only work (store.h): on PostgreSQL one
     * read-only transaction (one snapshot) that the SQL cannot end, read
     * as benchdb_reader where the session may. */
    if (!a.write && store_begin_readonly(db, STORE_RO_UNTRUSTED, NULL) != SQLITE_OK) {
        bd_error("sql: cannot begin reading: %s", db_errmsg(db));
        goto out;
    }
    struct rowset rs = {0};
    if (sql_dot_command(db, sql, &a.out, &rc))
        ;
    else if ((rc = run_all(db, sql, &run, &rs)) == EXIT_OK) {
        struct out_notes rep = {0};
        if (out_notes_print(&rep, &rs, &a.out, stdout, stderr)) {
            cli_output_failed("sql");
            rc = EXIT_FAIL;
        }
    }
    rowset_free(&rs);
    if (!a.write)
        store_end_readonly(db);
out:
    db_close(db);
    params_free(&a.params);
    free(sql);
    return rc;
}
