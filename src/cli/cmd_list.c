/* benchdb list: what the store holds, plan by plan, run by run, archive by
 * archive, through the rowset printer (table, CSV, JSON, Markdown). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/param_check.h"
#include "util/diag.h"

struct list_args {
    const char *plan;
    struct out_opts out;
};

static const struct cli_opt list_opts[] = {
    {"plan", 0, "PLAN", "runs and archives of this plan only", cli_opt_string, offsetof(struct list_args, plan), 0, 0},
    CLI_OUTPUT_OPTIONS(struct list_args, out),
    {0},
};

const struct cli_spec spec_list = {
    .name = "list",
    .store = 1,
    .synopsis = (const char *const[]){"list [plans | runs | archives] [OPTIONS]", NULL},
    .about = "List what the store holds (default: plans):\n"
             "  plans     each plan: its runs, hosts, cells, measured values, first and\n"
             "            last start time\n"
             "  runs      each run: plan, run, host, position, source, start time, the\n"
             "            variants it measured, cells, measured values, its blocks\n"
             "            (1, or 1-3), its archive's id\n"
             "  archives  each archive: id, name, SHA-256, size, format, members (with\n"
             "            what each was read as and the blocks its values went to),\n"
             "            runs, when it was loaded\n"
             "A value counts once per measured value of every metric (warmups not).\n",
    .opts = list_opts,
    .more = "Examples:\n"
            "  benchdb list runs --plan pr-42\n"
            "  benchdb list archives --format csv\n",
    .max_args = 1,
};

static const char sql_plans[] =
    "SELECT p.name AS plan, count(DISTINCT r.id) AS runs, count(DISTINCT r.host_id) AS hosts,\n"
    "       (SELECT count(DISTINCT s.benchmark_id) FROM series s JOIN run x ON x.id = s.run_id WHERE x.plan_id = p.id) AS cells,\n"
    "       (SELECT coalesce(sum(s.n), 0) FROM series s JOIN run x ON x.id = s.run_id WHERE x.plan_id = p.id) AS \"values\",\n"
    "       min(r.started_at) AS first_started_at, max(r.started_at) AS last_started_at\n"
    "FROM plan p LEFT JOIN run r ON r.plan_id = p.id\n"
    "WHERE CAST(?1 AS TEXT) IS NULL OR p.name = ?1\n"
    "GROUP BY p.id ORDER BY p.name";

static const char sql_runs[] =
    "SELECT p.name AS plan, r.name AS run, h.name AS host, r.position, r.source, r.started_at,\n"
    "       (SELECT string_agg(name, ',') FROM (SELECT DISTINCT v.name FROM series s JOIN variant v ON v.id = s.variant_id\n"
    "        WHERE s.run_id = r.id ORDER BY v.name) AS d) AS variants,\n"
    "       (SELECT count(DISTINCT s.benchmark_id) FROM series s WHERE s.run_id = r.id) AS cells,\n"
    "       (SELECT coalesce(sum(s.n), 0) FROM series s WHERE s.run_id = r.id) AS \"values\",\n"
    "       (SELECT CASE WHEN min(s.block) = max(s.block) THEN CAST(min(s.block) AS TEXT)\n"
    "                    ELSE CAST(min(s.block) AS TEXT) || '-' || CAST(max(s.block) AS TEXT) END\n"
    "        FROM series s WHERE s.run_id = r.id) AS blocks,\n"
    "       r.archive_id AS archive\n"
    "FROM run r JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id\n"
    "WHERE CAST(?1 AS TEXT) IS NULL OR p.name = ?1\n"
    "ORDER BY p.name, r.position, r.name";

static const char sql_archives[] =
    "SELECT a.id, a.name, a.sha256, a.size, a.format,\n"
    "       (SELECT string_agg(path || coalesce(' (' || format || coalesce(', ' || blk, '') || ')', ''), ', ') FROM\n"
    "        (SELECT m.path, m.format,\n"
    "                (SELECT CASE WHEN min(s.block) = max(s.block) THEN 'block ' || CAST(min(s.block) AS TEXT)\n"
    "                             ELSE 'blocks ' || CAST(min(s.block) AS TEXT) || '-' || CAST(max(s.block) AS TEXT) END\n"
    "                 FROM series s WHERE s.member_id = m.id) AS blk\n"
    "         FROM archive_member m WHERE m.archive_id = a.id ORDER BY m.path) AS d) AS members,\n"
    "       (SELECT count(*) FROM run WHERE archive_id = a.id) AS runs, a.ingested_at AS loaded_at\n"
    "FROM archive a\n"
    "WHERE CAST(?1 AS TEXT) IS NULL OR a.id IN (SELECT r.archive_id FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = ?1\n"
    "                             UNION SELECT s.archive_id FROM series s JOIN run r ON r.id = s.run_id\n"
    "                             JOIN plan p ON p.id = r.plan_id WHERE p.name = ?1)\n"
    "ORDER BY a.id";

/* Plans (and runs within a plan, by position) in natural order: null-2
 * before null-10. Archives stay in the order they were loaded. */
static int sort_names(struct rowset *rs, int runs)
{
    int by[3] = {rowset_column(rs, "plan"), rowset_column(rs, "position"), rowset_column(rs, "run")};
    if (by[0] < 0 || (runs && (by[1] < 0 || by[2] < 0)))
        return 0;
    return rowset_sort_natural(rs, by, runs ? 3 : 1);
}

/* The column's values: their sum, the number of distinct texts, the least
 * and greatest text (NULLs left out). */
struct col_sum {
    double sum;
    size_t distinct;
    const char *lo, *hi;
};

static int col_sum(const struct rowset *rs, const char *name, struct col_sum *c)
{
    memset(c, 0, sizeof *c);
    int col = rowset_column(rs, name);
    if (col < 0)
        return -1;
    for (size_t r = 0; r < rs->nrow; r++) {
        sqlite3_value *v = rowset_cell(rs, r, col);
        if (sqlite3_value_type(v) == SQLITE_NULL)
            continue;
        const char *t = (const char *)sqlite3_value_text(v);
        c->sum += sqlite3_value_double(v);
        size_t k = 0;
        while (k < r && !(sqlite3_value_type(rowset_cell(rs, k, col)) != SQLITE_NULL &&
                          strcmp((const char *)sqlite3_value_text(rowset_cell(rs, k, col)), t) == 0))
            k++;
        c->distinct += k == r;
        if (!c->lo || strcmp(t, c->lo) < 0)
            c->lo = t;
        if (!c->hi || strcmp(t, c->hi) > 0)
            c->hi = t;
    }
    return 0;
}

static const char *plural(double n, const char *one, const char *many) { return n == 1 ? one : many; }

/* ", started 2025-10-22 to 2025-12-20", or "on" one day. */
static void started(char *buf, size_t size, const char *lo, const char *hi)
{
    if (strncmp(lo, hi, 10) == 0)
        snprintf(buf, size, ", started on %.10s", lo);
    else
        snprintf(buf, size, ", started %.10s to %.10s", lo, hi);
}

/* What the rows hold, in words, for the first line: "2 plans: 13 runs,
 * 76830 values, started 2025-10-22 to 2025-12-20". */
static char *headline(const struct rowset *rs, const char *what)
{
    struct col_sum runs, values, first, last, plans, hosts, size;
    double n = (double)rs->nrow;
    char span[64] = "";
    if (strcmp(what, "plans") == 0) {
        if (col_sum(rs, "runs", &runs) || col_sum(rs, "values", &values) || col_sum(rs, "first_started_at", &first) ||
            col_sum(rs, "last_started_at", &last))
            return NULL;
        if (first.lo && last.hi)
            started(span, sizeof span, first.lo, last.hi);
        return bd_strdupf("%.0f %s: %.0f %s, %.0f %s%s", n, plural(n, "plan", "plans"), runs.sum,
                          plural(runs.sum, "run", "runs"), values.sum, plural(values.sum, "value", "values"), span);
    }
    if (strcmp(what, "runs") == 0) {
        if (col_sum(rs, "plan", &plans) || col_sum(rs, "host", &hosts) || col_sum(rs, "values", &values) ||
            col_sum(rs, "started_at", &first))
            return NULL;
        if (first.lo)
            started(span, sizeof span, first.lo, first.hi);
        return bd_strdupf("%.0f %s of %zu %s on %zu %s: %.0f %s%s", n, plural(n, "run", "runs"), plans.distinct,
                          plural((double)plans.distinct, "plan", "plans"), hosts.distinct,
                          plural((double)hosts.distinct, "host", "hosts"), values.sum,
                          plural(values.sum, "value", "values"), span);
    }
    if (col_sum(rs, "runs", &runs) || col_sum(rs, "size", &size))
        return NULL;
    return bd_strdupf("%.0f %s, %.0f bytes, holding %.0f %s", n, plural(n, "archive", "archives"), size.sum,
                      runs.sum, plural(runs.sum, "run", "runs"));
}

int cmd_list(struct cli *cli, int argc, char **argv)
{
    struct list_args a = {0};
    out_opts_init(&a.out);
    int first;
    if (cli_parse(&spec_list, argc, argv, &a, &first) || cli_output_ready("list", &a.out))
        return EXIT_USAGE;
    const char *what = first < argc ? argv[first] : "plans", *plan = a.plan;
    const char *sql = strcmp(what, "plans") == 0      ? sql_plans
                      : strcmp(what, "runs") == 0     ? sql_runs
                      : strcmp(what, "archives") == 0 ? sql_archives
                                                      : NULL;
    if (!sql)
        return bd_usage_error("list", "list: '%s': expected plans, runs or archives", what);
    struct db *db = NULL;
    if (cli_connect_store(cli, STORE_READ, &db))
        return EXIT_FAIL;
    struct db_stmt *st = NULL;
    int rc = EXIT_OK;
    struct rowset rs = {0};
    char *err = NULL;
    if (plan && (rc = param_check_name(db, NAMES_PLAN, plan, NULL, &err)) != EXIT_OK) {
        if (rc == EXIT_USAGE)
            bd_usage_error("list", "list: --plan: %s", err);
        else
            bd_error("list: %s", err);
        free(err);
        db_close(db);
        return rc;
    }
    if (db_prepare(db, sql, &st) != SQLITE_OK) {
        bd_error("list: %s", db_errmsg(db));
        rc = EXIT_FAIL;
    } else {
        if (plan)
            db_bind_text(st, 1, plan, -1);
        if (rowset_collect_db(&rs, st) != SQLITE_DONE) {
            bd_error("list: %s", db_errmsg(db));
            rc = EXIT_FAIL;
        } else if (sort_names(&rs, sql == sql_runs)) {
            bd_error("list: out of memory");
            rc = EXIT_FAIL;
        } else {
            char *line = rs.nrow ? headline(&rs, what) : NULL;
            struct out_notes rep = {0};
            if (rs.nrow == 0 && a.out.format == OUT_TABLE && !plan) /* the answer, before the bare header */
                bd_notice("the store holds no %s yet: 'benchdb ingest FILE' loads some", what);
            else if (line)
                out_answer(&rep, &a.out, line);
            free(line);
            int prc = out_notes_print(&rep, &rs, &a.out, stdout, stderr);
            out_notes_free(&rep);
            if (prc) {
                cli_output_failed("list");
                rc = EXIT_FAIL;
            }
        }
    }
    rowset_free(&rs);
    db_finalize(st);
    db_close(db);
    return rc;
}
