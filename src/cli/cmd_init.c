#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli/cli.h"

const char usage_init[] =
    "usage: benchdb [--db FILE] init\n"
    "\n"
    "Create the store (results.db, or --db FILE, or $BENCHDB), or bring an\n"
    "existing store up to the current schema by applying pending migrations.\n";

static void report_modified(int version, const char *name, void *arg)
{
    (void)arg;
    bd_warning("migration %04d (%s) differs from the text recorded when it was applied", version, name);
}

int cmd_init(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {{0, 0, 0, 0}};
    cli_getopt_reset();
    if (cli_getopt("init", argc, argv, "", opts) == '?')
        return EXIT_USAGE;
    if (optind < argc)
        return bd_usage_error("init", "init: unexpected argument '%s'", argv[optind]);

    struct stat st;
    int existed = stat(cli->db_path, &st) == 0;
    int before = 0;
    if (existed) {
        sqlite3 *db;
        if (cli_open_store(cli, STORE_INSPECT, &db))
            return EXIT_FAIL;
        before = store_schema_version(db, NULL);
        store_close(db);
    }
    sqlite3 *db;
    if (cli_open_store(cli, STORE_CREATE, &db))
        return EXIT_FAIL;
    int now = store_schema_version(db, NULL);
    store_check_migration_hashes(db, report_modified, NULL);
    store_close(db);
    if (!existed || before == 0) /* an empty file is made a store */
        printf("created store %s (schema version %d)\n", cli->db_path, now);
    else if (now != before)
        printf("migrated store %s from schema version %d to %d\n", cli->db_path, before, now);
    else
        printf("store %s is up to date (schema version %d)\n", cli->db_path, now);
    return EXIT_OK;
}
