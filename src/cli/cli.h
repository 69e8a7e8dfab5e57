#ifndef BENCHDB_CLI_H
#define BENCHDB_CLI_H
#include <stddef.h>
#include <sqlite3.h>

#include "output/output.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/params.h"

/* What every command gets: the global options. */
struct cli {
    const char *db_path; /* --db, else $BENCHDB, else results.db */
    int db_named;        /* by --db or $BENCHDB, not the default */
};

/* ==== The option table ====
 *
 * A command describes its command line once, in a struct cli_spec: its
 * synopsis, what it does, and a table of options. The table drives
 * everything: cli_parse builds getopt_long's arguments from it, --help is
 * printed from it (cli_print_help; every line within 80 columns, checked
 * by the test cli/frame), and a mistyped option gets "did you mean". Each
 * option stores what it parses into the command's own argument struct, at
 * `offset`, through a parser: the shared ones below or the command's own.
 *
 *   struct history_args { struct out_opts out; int diff, limit; };
 *   static const struct cli_opt history_opts[] = {
 *       {"diff", 0, NULL, "compare two evaluations", cli_opt_flag, offsetof(struct history_args, diff)},
 *       {"limit", 'n', "N", "only the last N evaluations", cli_opt_int,
 *        offsetof(struct history_args, limit), 1, INT_MAX},
 *       CLI_OUTPUT_OPTIONS(struct history_args, out),
 *       {0},
 *   };
 *   const struct cli_spec spec_history = {
 *       .name = "history", .store = 1, .opts = history_opts, .max_args = 1,
 *       .synopsis = (const char *const[]){"history [OPTIONS] [NAME]", NULL},
 *       .about = "List recorded evaluations ...\n",
 *   };
 *   int cmd_history(struct cli *cli, int argc, char **argv) {
 *       struct history_args a = {.limit = -1};
 *       out_opts_init(&a.out);
 *       int first;
 *       if (cli_parse(&spec_history, argc, argv, &a, &first))
 *           return EXIT_USAGE;                 // the message is printed
 *       ... argv[first .. argc) are the positional arguments ...
 *   }
 *
 * Short options have one meaning across all commands: -f --format,
 * -h --help, -n --limit, -o --output, -p --param, -q --quiet, -r --replace,
 * -w --write
 * (the test unit/cli_options checks every table against this list). */

struct cli_opt;
/* Parses arg (NULL for a flag) into dst; returns 0, or -1 with *err set to
 * what was expected ("expected a positive integer"; printed as
 * "CMD: --NAME 'ARG': ERR"), or -2 with *err a whole message naming the
 * option itself (printed as "CMD: ERR"). */
typedef int (*cli_opt_parser)(const struct cli_opt *o, const char *arg, void *dst, char **err);

struct cli_opt {
    const char *name;      /* long name, without "--"; NULL with help set: a heading; {0} ends the table */
    char short_name;       /* 0: none */
    const char *metavar;   /* the value's name in help (FORMAT); NULL: a flag */
    const char *help;      /* '\n' continues the help on another line */
    cli_opt_parser parse;
    size_t offset;         /* of the destination in the command's argument struct */
    long long lo, hi;      /* cli_opt_int's range (when lo < hi) */
};

/* The shared parsers; each names what its destination is. */
int cli_opt_flag(const struct cli_opt *o, const char *arg, void *dst, char **err);    /* int = 1 */
int cli_opt_string(const struct cli_opt *o, const char *arg, void *dst, char **err);  /* const char * */
int cli_opt_int(const struct cli_opt *o, const char *arg, void *dst, char **err);     /* int in [lo, hi] */
int cli_opt_real(const struct cli_opt *o, const char *arg, void *dst, char **err);    /* finite double */
int cli_opt_seconds(const struct cli_opt *o, const char *arg, void *dst, char **err); /* double in (0, a week] */
int cli_opt_bytes(const struct cli_opt *o, const char *arg, void *dst, char **err);   /* size_t >= 1, N[KMGT] */
int cli_opt_format(const struct cli_opt *o, const char *arg, void *dst, char **err);  /* enum out_format */
int cli_opt_param(const struct cli_opt *o, const char *arg, void *dst, char **err);   /* struct params; no repeats */
int cli_opt_queries(const struct cli_opt *o, const char *arg, void *dst, char **err); /* struct query_path */

/* The options of every command that prints rows (a struct out_opts member). */
#define CLI_OUTPUT_OPTIONS(type, m)                                                                                   \
    {"format", 'f', "FORMAT", "table (default), vertical, csv, json or markdown", cli_opt_format,                    \
     offsetof(type, m.format), 0, 0},                                                                                 \
    {"digits", 0, "N", "significant digits of reals in table, vertical and\nmarkdown output (1-17, default 4)",      \
     cli_opt_int, offsetof(type, m.digits), 1, OUT_DIGITS_MAX},                                                       \
    {"wide", 0, NULL, "keep a table wider than the terminal as a table\n(it prints as vertical otherwise)",          \
     cli_opt_flag, offsetof(type, m.wide), 0, 0},                                                                     \
    {"envelope", 0, NULL, "with --format json: one object with the rows and the\nnotes (which go to stderr otherwise)", \
     cli_opt_flag, offsetof(type, m.envelope), 0, 0}
#define CLI_OPT_PARAM(type, m, what)                                                                                  \
    {"param", 'p', "NAME=VALUE", what, cli_opt_param, offsetof(type, m), 0, 0}
#define CLI_OPT_TIMEOUT(type, m)                                                                                      \
    {"timeout", 0, "SECONDS", "stop after SECONDS (default 60, or $BENCHDB_TIMEOUT;\nat most 604800: a week); exit 1", \
     cli_opt_seconds, offsetof(type, m), 0, 0}
/* The limits of every command running SQL on the store for a person (a
 * struct cli_limits member): --timeout, --max-rows, --max-result-bytes,
 * --max-temp-bytes, --max-memory. */
#define CLI_OPT_LIMITS(type, m)                                                                                       \
    CLI_OPT_TIMEOUT(type, m.timeout),                                                                                 \
    {"max-rows", 0, "N", "stop when the result passes N rows (default\n1000000); exit 1", cli_opt_int,              \
     offsetof(type, m.max_rows), 1, 2147483647LL},                                                                    \
    {"max-result-bytes", 0, "SIZE", "stop when the result takes more than SIZE bytes\nof memory (suffix K, M, G "    \
     "or T; default 256M); exit 1", cli_opt_bytes, offsetof(type, m.max_result_bytes), 0, 0},                          \
    {"max-temp-bytes", 0, "SIZE", "stop when the query's temporary files (sorts,\ntemporary tables) take more than "  \
     "SIZE bytes of\ndisk (default 1G; SQLite only); exit 1", cli_opt_bytes, offsetof(type, m.max_temp_bytes), 0, 0},             \
    {"max-memory", 0, "SIZE", "stop when the query needs more than SIZE bytes of\nmemory, its result included "      \
     "(default 1G, or\ntwice --max-result-bytes if more; SQLite only);\nexit 1", cli_opt_bytes, offsetof(type, m.max_memory), 0, 0}
#define CLI_OPT_QUERIES(type, m)                                                                                      \
    {"queries", 0, "DIR|FILE", "also look for saved queries here (repeatable;\n$BENCHDB_QUERIES adds ':'-separated entries)", \
     cli_opt_queries, offsetof(type, m), 0, 0}

/* A command's whole command line. */
struct cli_spec {
    const char *name;
    /* Lines of the synopsis, after "usage: benchdb [--db FILE] " (without
     * "[--db FILE] " unless store is set). NULL-terminated. */
    const char *const *synopsis;
    const char *about;   /* what the command does: paragraphs, within 80 columns */
    const struct cli_opt *opts;
    const char *more;    /* printed after the options (examples, exit status), or NULL */
    int store;           /* the command uses the store (--db) */
    int min_args;        /* positional arguments */
    int max_args;        /* -1: no limit */
    const char *missing; /* the usage error when fewer than min_args are given */
};

/* Parses argv (argv[0] is the command's name) into args by spec.opts;
 * *first gets the index of the first positional argument. Returns
 * EXIT_OK, or EXIT_USAGE after printing the usage error (an unknown
 * option, with the nearest name; a missing or bad value; too few or too
 * many arguments). */
int cli_parse(const struct cli_spec *spec, int argc, char **argv, void *args, int *first);
/* The help text of a command, generated from its spec. */
void cli_print_help(const struct cli_spec *spec, FILE *out);
/* After cli_parse: --envelope only with --format json (a usage error
 * otherwise), and the width a table must fit (out_terminal_width). */
int cli_output_ready(const char *cmd, struct out_opts *o);

/* ==== Limits on analysis (docs/queries.md, "Limits") ====
 * What one command running SQL for a person (sql, query, and every command
 * running a saved query) may spend: time, and the size of the result it
 * holds. As parsed, 0 in a field means its default. */
struct cli_limits {
    double timeout;          /* seconds; default $BENCHDB_TIMEOUT, else CLI_TIMEOUT_DEFAULT */
    int max_rows;            /* default ROWSET_MAX_ROWS_DEFAULT */
    size_t max_result_bytes; /* default ROWSET_MAX_BYTES_DEFAULT */
    size_t max_temp_bytes;   /* default CLI_TEMP_BYTES_DEFAULT */
    size_t max_memory;       /* default CLI_MEMORY_DEFAULT, or twice max_result_bytes if more */
};
/* The disk a query's temporary files may take: a sort of a result four
 * times the largest one held (--max-result-bytes' 256 MiB), a twelfth of
 * what the review's ORDER BY wrote before the time limit. */
#define CLI_TEMP_BYTES_DEFAULT ((size_t)1 << 30)
/* The memory SQLite may hold for a query: the largest result held and as
 * much again for the work (page cache, sorter, the statistics functions'
 * buffers); the review's median held 429 MB at 10 s, 2.6 GB by 60 s. */
#define CLI_MEMORY_DEFAULT ((size_t)1 << 30)
#define CLI_TIMEOUT_DEFAULT 60.0
/* The limits in effect: given's, defaults filled in; the disk and memory
 * ones are set for the process (store_query_limits). EXIT_OK, or
 * EXIT_USAGE after printing the error for a bad $BENCHDB_TIMEOUT. */
int cli_limits_resolve(const char *cmd, const struct cli_limits *given, double *timeout, struct rowset_limits *rows);
/* The first of the limits given on the command line ("--max-rows"), or
 * NULL: for a command that refuses them where it runs no query. */
const char *cli_limits_given(const struct cli_limits *given);
/* On a store where --max-temp-bytes and --max-memory bound nothing
 * (PostgreSQL: store_query_limits_apply), a warning naming each of them
 * given on the command line, so that a limit asked for is never dropped
 * unsaid. */
void cli_limits_warn_unapplied(const char *cmd, const struct cli_limits *given, const struct db *db);
/* The error for a command a limit stopped: which is 0 for the time limit
 * (seconds) or the disk or memory limit (whichever store_query_limit_passed
 * says passed), else ROWSET_OVER_ROWS or ROWSET_OVER_BYTES. who names it
 * ("sql", "query NAME"). Prints e.g. "error: query NAME: stopped after
 * 60 s (the default time limit; raise it with --timeout SECONDS)". */
void cli_limit_error(const char *who, const struct cli_limits *given, double timeout,
                     const struct rowset_limits *rows, int which);

/* A usage error whose hint is another command ("(see 'benchdb queries')"):
 * prints "error: MESSAGE (see 'benchdb SEE')" and returns EXIT_USAGE. */
int cli_usage_error_see(const char *see, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ==== The command table (commands.c) ==== */

/* One row: run gets argv with argv[0] the command's name and returns an
 * exit code (enum exit_code); spec is its command line (help, parsing). */
struct command {
    const char *name;
    int (*run)(struct cli *cli, int argc, char **argv);
    const char *summary;
    const struct cli_spec *spec;
};

extern const struct command commands[];
const struct command *command_find(const char *name);
/* The usage error for a name that is no command, with the nearest one. */
int command_unknown(const char *name);
void command_print_help(const struct command *c, FILE *out);
void commands_print_overview(FILE *out);

/* One line on stdout for a person ("created store FILE"): printf, with
 * control characters escaped (text_escape_controls), then a newline. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The result could not be written (a full disk, a closed pipe): "WHO:
 * cannot write the output: REASON" once, the reason from the failed
 * write's errno (or a flush now), and main then says nothing more of it
 * (cli_output_failure_said). */
void cli_output_failed(const char *who);
int cli_output_failure_said(void);

/* On a server store: the role benchdb_reader (SELECT only, no login) made
 * or granted in the store's database, and what no reader may do taken from
 * PUBLIC (cli/reader_role.c; init, and copy into a server). Each step that
 * cannot be done is a warning; say: the line naming the role on stdout. */
void cli_reader_role(struct db *db, int say);

/* Opens the store for a command, printing the error on failure. */
int cli_open_store(struct cli *cli, enum store_mode mode, sqlite3 **db);
/* The same through the connection layer, on either engine
 * (store_connect). */
int cli_connect_store(struct cli *cli, enum store_mode mode, struct db **db);
/* cli_connect_store with a time limit on the statements run for a person
 * (--timeout, resolved from given by cli_limits_resolve): SQLite's
 * store_set_timeout, PostgreSQL's statement_timeout; and
 * cli_limits_warn_unapplied for cmd. dl must outlive the connection. */
int cli_connect_limited(struct cli *cli, enum store_mode mode, const char *cmd, const struct cli_limits *given,
                        double timeout, struct store_deadline *dl, struct db **db);
/* After a failure: whether the time limit, or the disk or memory limit
 * (store_query_limit_passed), stopped it. */
int cli_deadline_passed(struct db *db, const struct store_deadline *dl);
/* The store's name for messages: --db as given, but a PostgreSQL URI's
 * password shown as ***. Valid until the next call. */
const char *cli_store_name(const struct cli *cli);

/* ==== Running a saved query (run_query.c) ====
 *
 * The path of `benchdb query`, for every command that runs a saved query
 * and reports it the same way: parameters checked before anything runs,
 * the store opened (read-write when recording), the query evaluated
 * (query/evaluate.h), its rows printed to stdout in the chosen format
 * (only its -- show: columns in a table unless all_columns), its verdict
 * once, registration and evaluation id as notes on stderr (or in the
 * --envelope), and the exit code: the gate's with gate, else EXIT_OK;
 * EXIT_USAGE for a bad parameter, EXIT_NO_ROWS when its needs are unmet
 * (nothing recorded), EXIT_FAIL on a failure: a limit passed (time, rows,
 * result size), or an evaluation that ran but could not be recorded (its
 * result is printed all the same, then why it was not recorded). */
struct saved_query;
struct cli_query_run {
    const char *cmd;                /* the command, for messages */
    const struct saved_query *q;
    const struct params *given;
    int record;
    int gate;
    int all_columns;
    struct cli_limits limits;       /* as given: 0 in a field is its default */
    struct out_opts out;
};
int cli_query_run(struct cli *cli, const struct cli_query_run *r);
/* The rows of the saved query `compare` (given: its parameters as given)
 * that compare nothing, no cell having values on both sides: 1 with *why
 * (malloc'd: "nothing compared (0 slower, ..., 1 added, 0 unchanged): no
 * cell has values both in a and in another side", as `benchdb compare`
 * says it); 0 when the rows are not compare's; -1
 * when memory ran out. `--gate` exits 4 then, as compare's does. 2 with
 * *why ("inconclusive (...): no cell has samples enough ...") when every
 * cell compared was inconclusive: the answer in words, the gate as the
 * query's. 3 with *why what follows the verdict's word on compare's first
 * line (" (5 slower, 15 faster, 16 unchanged)", " by more than 5% (...)"
 * with a threshold). When
 * 1 to 3, *counts is compare's envelope member `counts` ({"slower": 5,
 * ..., "gate": "fails"}, malloc'd), else NULL. */
int cli_compare_nothing_compared(const struct rowset *rs, const struct params *given, char **why, char **counts);
/* For the saved query `compare` (its rows recognised by
 * cli_compare_nothing_compared): what the harnesses reported failed in
 * the runs of the sides its parameters name (into *failed,
 * cmp_failures_free), which `benchdb compare` adds to its first line (";
 * the harness reported 1 failure: BM_Parse in head (error: ...)"), lists
 * after the tables past three, and gives its envelope as `failures`. */
struct db;
struct cmp_failures;
void cli_compare_failures_read(struct db *db, const struct params *given, struct cmp_failures *failed);

/* Finds a saved query for a command; an unknown name is a usage error
 * (with the nearest name), a file that cannot be read or parsed a failure.
 * Returns NULL with *rc set (having printed the error). */
struct query_path;
struct saved_query *cli_find_query(const char *cmd, const struct query_path *qp, const char *name, int *rc);
/* The harness files below dir that `ingest --plan` takes (Criterion.rs's
 * new/sample.json, not its copies; names starting with '.' left out), in
 * the order of their paths: 0 with *paths (malloc'd, each malloc'd) and
 * *n, or -1 after an error naming dir (none there, or unreadable). */
int cli_harness_files_under(const char *dir, char ***paths, size_t *n);

/* Each command's entry point and spec. */
#define CLI_COMMAND(n) int cmd_##n(struct cli *, int, char **); extern const struct cli_spec spec_##n
CLI_COMMAND(backtest);
CLI_COMMAND(backup);
CLI_COMMAND(check);
CLI_COMMAND(compare);
CLI_COMMAND(copy);
CLI_COMMAND(delete);
CLI_COMMAND(export);
CLI_COMMAND(help);
CLI_COMMAND(history);
CLI_COMMAND(ingest);
CLI_COMMAND(init);
CLI_COMMAND(list);
CLI_COMMAND(migrate);
CLI_COMMAND(queries);
CLI_COMMAND(query);
CLI_COMMAND(report);
CLI_COMMAND(rule);
CLI_COMMAND(simulate);
CLI_COMMAND(site);
CLI_COMMAND(sql);
#undef CLI_COMMAND

#endif
