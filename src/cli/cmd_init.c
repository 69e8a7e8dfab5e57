/* benchdb init: create the store, or bring it up to date. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

const struct cli_spec spec_init = {
    .name = "init",
    .store = 1,
    .synopsis = (const char *const[]){"init", NULL},
    .about = "Create the store (results.db, or --db FILE, or $BENCHDB), or bring an\n"
             "existing store up to the current schema by applying pending migrations.\n"
             "With --db postgresql://... the store is made in that database: the\n"
             "extension benchstats is installed when missing, and the role\n"
             "benchdb_reader (SELECT only, no login: analysts log in as its members) is\n"
             "created when the connecting role may create roles (docs/postgresql.md).\n",
    .opts = (const struct cli_opt[]){{0}},
};

static void report_modified(int version, const char *name, void *arg)
{
    (void)arg;
    bd_warning("migration %04d (%s) differs from the text recorded when it was applied", version, name);
}

static int init_server(struct cli *cli)
{
    const char *name = cli_store_name(cli);
    struct db *db;
    if (cli_connect_store(cli, STORE_INSPECT, &db))
        return EXIT_FAIL;
    int before = store_version(db, NULL);
    char *err = NULL;
    if (before > 0 && store_may_change(db, "INSERT", "archive", &err)) { /* a reader: said before anything */
        bd_error("init: %s; nothing was changed", err ? err : "out of memory");
        free(err);
        db_close(db);
        return EXIT_FAIL;
    }
    db_close(db);
    if (cli_connect_store(cli, STORE_CREATE, &db))
        return EXIT_FAIL;
    int now = store_version(db, NULL);
    if (before == 0)
        cli_say("created store %s (schema version %d)", name, now);
    else if (now != before)
        cli_say("migrated store %s from schema version %d to %d", name, before, now);
    else
        cli_say("store %s is up to date (schema version %d)", name, now);
    cli_reader_role(db, 1);
    db_close(db);
    return EXIT_OK;
}

int cmd_init(struct cli *cli, int argc, char **argv)
{
    int first;
    if (cli_parse(&spec_init, argc, argv, NULL, &first))
        return EXIT_USAGE;
    /* Engine branch: on a server init also makes the role benchdb_reader
     * and installs the extension; a file is created as SQLite creates it. */
    if (db_is_server_name(cli->db_path))
        return init_server(cli);
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
        cli_say("created store %s (schema version %d)", cli->db_path, now);
    else if (now != before)
        cli_say("migrated store %s from schema version %d to %d", cli->db_path, before, now);
    else
        cli_say("store %s is up to date (schema version %d)", cli->db_path, now);
    return EXIT_OK;
}
