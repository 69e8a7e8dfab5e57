/* benchdb query / benchdb queries: saved queries as decision rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/saved.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct query_args {
    struct params params;
    struct query_path path;
    struct out_opts out;
    int no_record, record, gate, all_columns;
    struct cli_limits limits;
};

static const struct cli_opt query_opts[] = {
    CLI_OPT_PARAM(struct query_args, params, "set a parameter (repeatable, once per NAME)"),
    CLI_OUTPUT_OPTIONS(struct query_args, out),
    {"all-columns", 0, NULL, "show every column in a table, not only the\nquery's -- show: columns", cli_opt_flag,
     offsetof(struct query_args, all_columns), 0, 0},
    {"gate", 0, NULL, "exit by the query's -- outcome: column: 0 when it\nholds in every row, 3 when not, "
                      "4 without rows", cli_opt_flag, offsetof(struct query_args, gate), 0, 0},
    {"no-record", 0, NULL, "do not record this evaluation (a query with an\n-- outcome: column is recorded otherwise)",
     cli_opt_flag, offsetof(struct query_args, no_record), 0, 0},
    {"record", 0, NULL, "record this evaluation of a query without an\n-- outcome: column (a lookup)", cli_opt_flag,
     offsetof(struct query_args, record), 0, 0},
    CLI_OPT_QUERIES(struct query_args, path),
    CLI_OPT_LIMITS(struct query_args, limits),
    {0},
};

const struct cli_spec spec_query = {
    .name = "query",
    .store = 1,
    .synopsis = (const char *const[]){"query [OPTIONS] NAME|FILE.sql", NULL},
    .about = "Run a saved query: defaults fill the parameters not given; each value is\n"
             "checked against the parameter's declared type (and must name a plan, run,\n"
             "host, attribute, metric, benchmark, a cell's params, source or variant\n"
             "that exists, where the query says so; an unknown one is an error naming\n"
             "the nearest; a source may be a revision's first 7+ hex digits, bound\n"
             "whole) and bound, never pasted into the SQL. 'benchdb queries NAME'\n"
             "lists the parameters. The query only reads the store. A decision (a\n"
             "query with an '-- outcome:' column: a rule's verdict, a gate) is\n"
             "recorded in the verdict history ('benchdb history') unless --no-record\n"
             "is given; a lookup (any other query) only with --record. When recording\n"
             "fails (the store locked by another process past the busy timeout, a\n"
             "full disk) the result is printed all the same, and the error says why\n"
             "(exit 1). The query runs within limits on time, result size, temporary\n"
             "files and memory (options below).\n"
             "\n"
             "Stdout holds the rows only, in the chosen format. What was found in words\n"
             "(the verdict, else the query's headline, as its page opens; once, before\n"
             "the rows: the answer first), a rule's registration (was it fixed before\n"
             "the plan ran?) and the evaluation's id (after them) go to stderr, or into\n"
             "the object of --envelope.\n",
    .opts = query_opts,
    .more = "Exit status: 0 success; 1 failure (a limit above passed; or the result\n"
            "printed but not recorded, saying why); 2 usage error (parameters too);\n"
            "with --gate 3 when the outcome does not hold in every row, 4 when there\n"
            "are no rows (compare's: when no cell has values on both sides, as\n"
            "compare --gate); 4 when the data lacks what the query needs (it says what).\n"
            "\n"
            "Example:\n"
            "  benchdb query placement-rule --param plan=calibration-sim --gate\n",
    .min_args = 1,
    .max_args = 1,
    .missing = "missing the saved query's name (see 'benchdb queries')",
};

int cmd_query(struct cli *cli, int argc, char **argv)
{
    struct query_args a = {0};
    out_opts_init(&a.out);
    struct saved_query *q = NULL;
    int first, rc = EXIT_USAGE;
    /* The strict gate judges what a comparison left unjudged, which is
     * compare's to say (docs/compare.md, "The strict gate"): point there
     * rather than call the flag unknown. */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--gate-strict") == 0)
            return bd_usage_error("query", "query: --gate-strict is compare's: 'benchdb compare --plan PLAN A B "
                                           "--gate-strict' runs the same comparison on the store with it; "
                                           "'query --gate' exits by the query's outcome column");
    if (cli_parse(&spec_query, argc, argv, &a, &first) || cli_output_ready("query", &a.out))
        goto out;
    query_path_add_env(&a.path);
    if (a.record && a.no_record) {
        rc = bd_usage_error("query", "query: --record and --no-record");
        goto out;
    }
    if (!(q = cli_find_query("query", &a.path, argv[first], &rc)))
        goto out;
    /* The history holds decisions, not lookups (docs/queries.md). */
    struct cli_query_run r = {
        .cmd = "query", .q = q, .given = &a.params, .record = a.record || (q->outcome && !a.no_record), .gate = a.gate,
        .all_columns = a.all_columns, .limits = a.limits, .out = a.out,
    };
    rc = cli_query_run(cli, &r);
out:
    saved_query_free(q);
    params_free(&a.params);
    query_path_free(&a.path);
    return rc;
}

/* ---- queries ---- */

struct queries_args {
    struct query_path path;
    struct out_opts out;
};

static const struct cli_opt queries_opts[] = {
    CLI_OUTPUT_OPTIONS(struct queries_args, out),
    CLI_OPT_QUERIES(struct queries_args, path),
    {0},
};

const struct cli_spec spec_queries = {
    .name = "queries",
    .synopsis = (const char *const[]){"queries [OPTIONS] [NAME|FILE.sql]", NULL},
    .about = "List every saved query: its name, summary, parameters (with defaults) and\n"
             "where it comes from (built-in, or a file from --queries / $BENCHDB_QUERIES).\n"
             "With NAME, list that query's parameters: type, default and description;\n"
             "its summary, outcome and needs go to stderr (or into the --envelope).\n"
             "A file on the query path that cannot be used (not a regular file, more\n"
             "than 1 MiB, a bad header) is skipped with a warning; named as FILE.sql,\n"
             "it is an error.\n",
    .opts = queries_opts,
    .max_args = 1,
};

/* The files skipped: warnings (notes), and the envelope's "skipped". */
static void describe_skipped(const struct query_skips *sk, struct out_notes *rep)
{
    struct strbuf js = {0};
    sb_putc(&js, '[');
    for (int i = 0; i < sk->n; i++) {
        out_note(rep, "warning: %s; skipped (the other saved queries still work)", sk->v[i].why);
        sb_puts(&js, i ? ", {\"file\": " : "{\"file\": ");
        json_put_string(&js, sk->v[i].path, strlen(sk->v[i].path));
        sb_puts(&js, ", \"why\": ");
        json_put_string(&js, sk->v[i].why, strlen(sk->v[i].why));
        sb_putc(&js, '}');
    }
    sb_putc(&js, ']');
    out_field_json(rep, "skipped", xsb_text(&js));
    sb_free(&js);
}

static int list_all(const struct queries_args *a, struct rowset *rs, struct out_notes *rep, char **err)
{
    struct saved_query **v;
    struct query_skips sk;
    int n = saved_query_scan(&a->path, &v, &sk, err);
    if (n < 0)
        return -1;
    describe_skipped(&sk, rep);
    /* The answer first: how many, from where, how many decide. */
    int builtin = 0, decisions = 0;
    for (int i = 0; i < n; i++) {
        builtin += v[i]->builtin;
        decisions += v[i]->outcome != NULL;
    }
    char *line = bd_strdupf("%d saved quer%s: %d built-in, %d from files%s; %d decision%s (an -- outcome: column, "
                            "--gate), %d lookup%s",
                            n, n == 1 ? "y" : "ies", builtin, n - builtin, sk.n ? " (more skipped, below)" : "",
                            decisions, decisions == 1 ? "" : "s", n - decisions, n - decisions == 1 ? "" : "s");
    out_answer(rep, &a->out, line);
    free(line);
    query_skips_free(&sk);
    static const char *const names[] = {"name", "summary", "parameters", "source"};
    struct rowset_builder b;
    rowset_builder_start(&b, rs, 4, names);
    for (int i = 0; i < n; i++) {
        char *pl = saved_query_param_list(v[i]);
        rb_text(&b, 0, v[i]->name);
        rb_text(&b, 1, v[i]->summary);
        rb_text(&b, 2, pl);
        rb_text(&b, 3, v[i]->source);
        rb_row(&b);
        free(pl);
    }
    saved_query_list_free(v, n);
    return rowset_builder_finish(&b, err);
}

/* One query: a row per parameter, and what else its header says. */
static int describe_one(const struct saved_query *q, const struct out_opts *o, struct rowset *rs,
                        struct out_notes *rep, char **err)
{
    static const char *const names[] = {"parameter", "type", "default", "description"};
    struct rowset_builder b;
    rowset_builder_start(&b, rs, 4, names);
    for (int i = 0; i < q->nparams; i++) {
        const struct saved_param *p = &q->params[i];
        char *type = param_type_describe(&p->type);
        rb_text(&b, 0, p->name);
        rb_text(&b, 1, type);
        rb_text(&b, 2, p->has_default ? p->def : "(required)");
        rb_text(&b, 3, p->description);
        rb_row(&b);
        free(type);
    }
    /* What the query is, first; the rows are its parameters. */
    int required = 0;
    for (int i = 0; i < q->nparams; i++)
        required += !q->params[i].has_default;
    char *line = bd_strdupf("%s: %s (%s); %d parameter%s, %d required", q->name, q->summary, q->source, q->nparams,
                            q->nparams == 1 ? "" : "s", required);
    if (o->format == OUT_MARKDOWN)
        out_answer(rep, o, line);
    else {
        out_note(rep, "%s", line);
        rep->leading = 1;
    }
    free(line);
    out_field_text(rep, "name", q->name);
    out_field_text(rep, "summary", q->summary);
    out_field_text(rep, "source", q->source);
    if (q->outcome)
        out_note(rep, "outcome: %s (--gate exits 0 when it holds in every row)", q->outcome);
    out_field_text(rep, "outcome", q->outcome);
    if (q->verdict)
        out_note(rep, "verdict: %s", q->verdict);
    out_field_text(rep, "verdict", q->verdict);
    for (int i = 0; i < q->nneeds; i++)
        out_note(rep, "needs: %s", q->needs[i].check);
    return rowset_builder_finish(&b, err);
}

int cmd_queries(struct cli *cli, int argc, char **argv)
{
    (void)cli;
    struct queries_args a = {0};
    out_opts_init(&a.out);
    struct rowset rs = {0};
    struct out_notes rep = {0};
    struct saved_query *q = NULL;
    char *err = NULL;
    int first, rc = EXIT_USAGE;
    /* The strict gate judges what a comparison left unjudged, which is
     * compare's to say (docs/compare.md, "The strict gate"): point there
     * rather than call the flag unknown. */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--gate-strict") == 0)
            return bd_usage_error("query", "query: --gate-strict is compare's: 'benchdb compare --plan PLAN A B "
                                           "--gate-strict' runs the same comparison on the store with it; "
                                           "'query --gate' exits by the query's outcome column");
    if (cli_parse(&spec_queries, argc, argv, &a, &first) || cli_output_ready("queries", &a.out))
        goto out;
    query_path_add_env(&a.path);
    if (first < argc && !(q = cli_find_query("queries", &a.path, argv[first], &rc)))
        goto out;
    rc = EXIT_FAIL;
    if (q ? describe_one(q, &a.out, &rs, &rep, &err) : list_all(&a, &rs, &rep, &err))
        bd_error("queries: %s", err);
    else if (out_notes_print(&rep, &rs, &a.out, stdout, stderr))
        cli_output_failed("queries");
    else
        rc = EXIT_OK;
out:
    rowset_free(&rs);
    out_notes_free(&rep);
    saved_query_free(q);
    query_path_free(&a.path);
    free(err);
    return rc;
}
