/* The command table: one row per command, alphabetical. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

const struct command commands[] = {
    {"check", cmd_check, "Verify the store: integrity, archive hashes, series totals", usage_check},
    {"delete", cmd_delete, "Remove a stored archive, run or plan with everything it stored", usage_delete},
    {"help", cmd_help, "Show help for benchdb or one command", usage_help},
    {"history", cmd_history, "List recorded evaluations, or what changed between two", usage_history},
    {"ingest", cmd_ingest, "Load run archives and harness output files into the store", usage_ingest},
    {"init", cmd_init, "Create the store, or bring it up to the current schema", usage_init},
    {"list", cmd_list, "List the stored plans, runs or archives", usage_list},
    {"migrate", cmd_migrate, "Apply pending schema migrations, or list them", usage_migrate},
    {"queries", cmd_queries, "List the saved queries with their parameters", usage_queries},
    {"query", cmd_query, "Run a saved query (a decision rule) and record its verdict", usage_query},
    {"rule", cmd_rule, "Register a rule before the plan it judges runs", usage_rule},
    {"simulate", cmd_simulate, "Write a simulated plan of run archives (deterministic for a seed)", usage_simulate},
    {"sql", cmd_sql, "Run ad-hoc SQL against the store (read-only unless --write)", usage_sql},
    {NULL, NULL, NULL, NULL},
};

const struct command *command_find(const char *name)
{
    for (const struct command *c = commands; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

void command_print_help(const struct command *c, FILE *out)
{
    fputs(c->usage, out);
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
          "Global options:\n"
          "  --db FILE    the store (default: $BENCHDB, else results.db in the current directory)\n"
          "  --version    print benchdb's version\n"
          "  -h, --help   print this help\n"
          "\n"
          "Exit status: 0 success, 1 runtime failure, 2 usage error.\n",
          out);
}
