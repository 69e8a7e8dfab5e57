/* The command table: one row per command, alphabetical. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/suggest.h"

const struct command commands[] = {
    {"backtest", cmd_backtest, "Back-test a gate: what would it have flagged, how well", &spec_backtest},
    {"backup", cmd_backup, "Copy a SQLite store into a new file while it is in use", &spec_backup},
    {"check", cmd_check, "Verify the store: integrity, archive hashes, series totals", &spec_check},
    {"compare", cmd_compare, "Compare two builds' result files, or runs, as benchstat does", &spec_compare},
    {"copy", cmd_copy, "Copy the whole store into another, on either engine", &spec_copy},
    {"delete", cmd_delete, "Remove a stored archive, run or plan with everything it stored", &spec_delete},
    {"export", cmd_export, "Write stored archives' original bytes back out as files", &spec_export},
    {"help", cmd_help, "Show help for benchdb or one command", &spec_help},
    {"history", cmd_history, "List recorded evaluations, or what changed between two", &spec_history},
    {"ingest", cmd_ingest, "Load run archives and harness output files into the store", &spec_ingest},
    {"init", cmd_init, "Create the store, or bring it up to the current schema", &spec_init},
    {"list", cmd_list, "List the stored plans, runs or archives", &spec_list},
    {"migrate", cmd_migrate, "Apply pending schema migrations, or list them", &spec_migrate},
    {"queries", cmd_queries, "List the saved queries, or one query's parameters", &spec_queries},
    {"query", cmd_query, "Run a saved query (a decision rule), record its verdict", &spec_query},
    {"report", cmd_report, "Draw an evaluation as an HTML page with SVG charts", &spec_report},
    {"rule", cmd_rule, "Register a rule before the plan it judges runs", &spec_rule},
    {"simulate", cmd_simulate, "Write a simulated plan of run archives", &spec_simulate},
    {"site", cmd_site, "Write a static site of the whole store: histories, verdicts", &spec_site},
    {"sql", cmd_sql, "Run ad-hoc SQL against the store (read-only by default)", &spec_sql},
    {NULL, NULL, NULL, NULL},
};

const struct command *command_find(const char *name)
{
    for (const struct command *c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

int command_unknown(const char *name)
{
    const char *names[sizeof commands / sizeof commands[0]];
    size_t n = 0;
    for (const struct command *c = commands; c->name; c++)
        names[n++] = c->name;
    const char *near = suggest_closest(name, names, n);
    if (near)
        return bd_usage_error(NULL, "'%s' is not a benchdb command; did you mean '%s'?", name, near);
    return bd_usage_error(NULL, "'%s' is not a benchdb command", name);
}

void command_print_help(const struct command *c, FILE *out)
{
    cli_print_help(c->spec, out);
}

void commands_print_overview(FILE *out)
{
    fputs("usage: benchdb [--db FILE] COMMAND [ARGS]\n"
          "       benchdb help [COMMAND] | benchdb COMMAND --help | benchdb --version\n"
          "\n"
          "An embedded results database for benchmark runs.\n"
          "\n"
          "Commands:\n",
          out);
    for (const struct command *c = commands; c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fputs("\n"
          "Global options (before or after the command's name):\n"
          "  --db FILE    the store (default: $BENCHDB, else results.db here), or a\n"
          "               postgresql:// URI naming a store on a server (docs/postgresql.md)\n"
          "  --version    print benchdb's version\n"
          "  -h, --help   print this help\n"
          "\n"
          "Exit status:\n"
          "  0  success\n"
          "  1  runtime failure (bad input, I/O, SQL error)\n"
          "  2  usage error (options, arguments, query parameters)\n"
          "  3  query --gate: the outcome does not hold in every row; compare --gate:\n"
          "     a cell regressed\n"
          "  4  query --gate: no rows; compare --gate: nothing compared; any query:\n"
          "     what it needs is missing\n"
          "  5  compare --gate-strict: no cell regressed, but not all of the baseline\n"
          "     was judged (a benchmark missing or failed, or no cell judged)\n",
          out);
}
