/* benchdb: an embedded results database for benchmark runs.
 * Global options, then dispatch through the command table (cli/commands.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/hugepage.h"
#include "version.h"

static int wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    }
    return 0;
}

/* Whether argv[k] (an option of the command) takes the next argument as
 * its value, by the command's option table: "--param NAME=V", "-p NAME=V",
 * "--param" given as a prefix ("--par"), as getopt_long reads them. */
static int takes_next(const struct cli_spec *spec, const char *arg)
{
    if (arg[0] != '-' || !arg[1])
        return 0;
    if (arg[1] == '-') {
        size_t len = strcspn(arg + 2, "=");
        if (arg[2 + len] == '=')
            return 0;
        const struct cli_opt *hit = NULL;
        int prefixes = 0;
        for (const struct cli_opt *o = spec->opts; o && (o->name || o->help); o++) {
            if (!o->name || strncmp(o->name, arg + 2, len) != 0)
                continue;
            if (strlen(o->name) == len)
                return o->metavar != NULL;
            hit = o;
            prefixes++;
        }
        return prefixes == 1 && hit->metavar != NULL;
    }
    for (const char *c = arg + 1; *c; c++)
        for (const struct cli_opt *o = spec->opts; o && (o->name || o->help); o++)
            if (o->name && o->short_name == *c && o->metavar)
                return c[1] == 0; /* "-pNAME=V" holds its value */
    return 0;
}

/* Global options after the command's name (benchdb init --db FILE) are
 * taken as if given before it: out of argv[1..*argc), up to "--". Returns
 * EXIT_OK, else the exit status after a usage error or --version. */
static int take_globals(const struct cli_spec *spec, int *argc, char **argv, struct cli *cli, int *version)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strcmp(a, "--db") == 0) {
            if (i + 1 >= *argc)
                return bd_usage_error(NULL, "option '--db' needs a file name");
            cli->db_path = argv[++i];
            cli->db_named = 1;
            continue;
        }
        if (strncmp(a, "--db=", 5) == 0) {
            cli->db_path = a + 5;
            cli->db_named = 1;
            continue;
        }
        if (strcmp(a, "--version") == 0) {
            *version = 1;
            continue;
        }
        argv[out++] = argv[i];
        if (takes_next(spec, a) && i + 1 < *argc)
            argv[out++] = argv[++i];
    }
    *argc = out;
    return EXIT_OK;
}

/* Whether the command takes --max-memory (CLI_OPT_LIMITS). */
static int memory_limited(const struct cli_spec *spec)
{
    for (const struct cli_opt *o = spec->opts; o && (o->name || o->help); o++)
        if (o->name && strcmp(o->name, "max-memory") == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct cli cli = {0};
    mem_heap_setup(32u << 20);
    const char *env = getenv("BENCHDB");
    cli.db_path = env && *env ? env : "results.db";
    cli.db_named = env && *env;

    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--db") == 0) {
            if (i + 1 >= argc)
                return bd_usage_error(NULL, "option '--db' needs a file name");
            cli.db_path = argv[++i];
            cli.db_named = 1;
        } else if (strncmp(argv[i], "--db=", 5) == 0) {
            cli.db_path = argv[i] + 5;
            cli.db_named = 1;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("benchdb %s (SQLite %s)\n", BENCHDB_VERSION, sqlite3_libversion());
            return EXIT_OK;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            commands_print_overview(stdout);
            return EXIT_OK;
        } else {
            return bd_usage_error(NULL, "unknown option '%s'", argv[i]);
        }
    }
    if (!*cli.db_path)
        return bd_usage_error(NULL, "the store's file name is empty");
    if (i >= argc) {
        commands_print_overview(stderr);
        return EXIT_USAGE;
    }
    const struct command *c = command_find(argv[i]);
    if (!c)
        return command_unknown(argv[i]);
    /* No allocation statistics: without them SQLite's every malloc and
     * free takes a process-wide mutex (Debian builds it without lookaside,
     * so an ingest allocates per row). A command whose memory is limited
     * (--max-memory) counts SQLite's memory its own way. Both before
     * SQLite's first use, which is the command's. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (memory_limited(c->spec) && store_heap_counting() != 0) {
        bd_error("cannot count SQLite's memory for --max-memory");
        return EXIT_FAIL;
    }
    int cargc = argc - i, version = 0;
    if (take_globals(c->spec, &cargc, argv + i, &cli, &version) != EXIT_OK)
        return EXIT_USAGE;
    if (version) {
        printf("benchdb %s (SQLite %s)\n", BENCHDB_VERSION, sqlite3_libversion());
        return EXIT_OK;
    }
    if (!*cli.db_path)
        return bd_usage_error(NULL, "the store's file name is empty");
    argc = i + cargc;

    int rc;
    if (wants_help(argc - i, argv + i)) {
        command_print_help(c, stdout);
        rc = EXIT_OK;
    } else {
        rc = c->run(&cli, argc - i, argv + i);
    }
    /* A full disk on output is a failure, not a success. errno says why
     * only when this flush failed: after an earlier failed write it is
     * whatever failed last (closing the store: "Bad file descriptor"). */
    errno = 0;
    int flush_failed = fflush(stdout) != 0, why = errno;
    if ((flush_failed || ferror(stdout)) && cli_output_failure_said()) {
        if (rc == EXIT_OK)
            rc = EXIT_FAIL;
    } else if (flush_failed || ferror(stdout)) {
        if (flush_failed && why)
            bd_error("cannot write to standard output: %s", strerror(why));
        else
            bd_error("cannot write to standard output");
        if (rc == EXIT_OK)
            rc = EXIT_FAIL;
    }
    return rc;
}
