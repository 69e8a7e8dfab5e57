/* benchdb: an embedded results database for benchmark runs.
 * Global options, then dispatch through the command table (cli/commands.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
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

int main(int argc, char **argv)
{
    struct cli cli = {0};
    /* No allocation statistics: without them SQLite's every malloc and
     * free takes a process-wide mutex (Debian builds it without lookaside,
     * so an ingest allocates per row). Nothing in benchdb reads them. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
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

    int rc;
    if (wants_help(argc - i, argv + i)) {
        command_print_help(c, stdout);
        rc = EXIT_OK;
    } else {
        rc = c->run(&cli, argc - i, argv + i);
    }
    /* A full disk on output is a failure, not a success. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        bd_error("cannot write to standard output: %s", strerror(errno));
        if (rc == EXIT_OK)
            rc = EXIT_FAIL;
    }
    return rc;
}
