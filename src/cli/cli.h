#ifndef BENCHDB_CLI_H
#define BENCHDB_CLI_H
#include <getopt.h>
#include <sqlite3.h>

#include "output/output.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/params.h"

/* What every command gets: the global options. */
struct cli {
    const char *db_path; /* --db, else $BENCHDB, else results.db */
};

/* One row of the command table (commands.c). run gets argv with argv[0]
 * the command's name; it returns an exit code (enum exit_code). */
struct command {
    const char *name;
    int (*run)(struct cli *cli, int argc, char **argv);
    const char *summary;
    const char *usage; /* full help text, printed by --help */
};

extern const struct command commands[];
const struct command *command_find(const char *name);
void command_print_help(const struct command *c, FILE *out);
void commands_print_overview(FILE *out);

/* getopt_long for a command, with benchdb's messages: returns the option
 * character, -1 at the end, or '?' after printing a usage error (the
 * caller returns EXIT_USAGE). */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *longopts);
/* Resets option parsing before a command parses its arguments. */
void cli_getopt_reset(void);

/* Opens the store for a command, printing the error on failure. */
int cli_open_store(struct cli *cli, enum store_mode mode, sqlite3 **db);
/* --timeout SECONDS: a finite number > 0 (e.g. 2 or 0.5); 0 or -1. */
int cli_parse_seconds(const char *s, double *out);

/* Each command's entry point and usage text (its --help). */
int cmd_check(struct cli *, int, char **);
extern const char usage_check[];
int cmd_delete(struct cli *, int, char **);
extern const char usage_delete[];
int cmd_help(struct cli *, int, char **);
extern const char usage_help[];
int cmd_history(struct cli *, int, char **);
extern const char usage_history[];
int cmd_ingest(struct cli *, int, char **);
extern const char usage_ingest[];
int cmd_init(struct cli *, int, char **);
extern const char usage_init[];
int cmd_list(struct cli *, int, char **);
extern const char usage_list[];
int cmd_migrate(struct cli *, int, char **);
extern const char usage_migrate[];
int cmd_queries(struct cli *, int, char **);
extern const char usage_queries[];
int cmd_query(struct cli *, int, char **);
extern const char usage_query[];
int cmd_rule(struct cli *, int, char **);
extern const char usage_rule[];
int cmd_simulate(struct cli *, int, char **);
extern const char usage_simulate[];
int cmd_sql(struct cli *, int, char **);
extern const char usage_sql[];

#endif
