/* benchdb init: create the store, or bring it up to date. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"

const struct cli_spec spec_init = {
    .name = "init",
    .store = 1,
    .synopsis = (const char *const[]){"init", NULL},
    .about = "Create the store (results.db, or --db FILE, or $BENCHDB), or bring an\n"
             "existing store up to the current schema by applying pending migrations.\n"
             "With --db postgresql://... the store is made in that database: the\n"
             "extension benchstats is installed when missing, and the role\n"
             "benchdb_reader (SELECT only, statement_timeout 60 s) is created when the\n"
             "connecting role may create roles (docs/postgresql.md).\n",
    .opts = (const struct cli_opt[]){{0}},
};

static void report_modified(int version, const char *name, void *arg)
{
    (void)arg;
    bd_warning("migration %04d (%s) differs from the text recorded when it was applied", version, name);
}

/* The role for read-only analysis: reads every table and view of the
 * store, writes nothing, and stops a statement after 60 s. Roles belong
 * to the cluster, so it is made once and granted in each store. */
static const char reader_role_sql[] =
    "DO $$ BEGIN\n"
    "  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'benchdb_reader') THEN\n"
    "    CREATE ROLE benchdb_reader LOGIN;\n"
    "  END IF;\n"
    "END $$;\n"
    "ALTER ROLE benchdb_reader SET default_transaction_read_only = on;\n"
    "ALTER ROLE benchdb_reader SET statement_timeout = '60s';\n"
    "GRANT USAGE ON SCHEMA public, benchstats TO benchdb_reader;\n"
    "GRANT SELECT ON ALL TABLES IN SCHEMA public TO benchdb_reader;\n"
    "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO benchdb_reader;\n"
    "REVOKE CREATE ON SCHEMA public FROM PUBLIC;\n";

static int init_server(struct cli *cli)
{
    const char *name = cli_store_name(cli);
    struct db *db;
    if (cli_connect_store(cli, STORE_INSPECT, &db))
        return EXIT_FAIL;
    int before = store_version(db, NULL);
    db_close(db);
    if (cli_connect_store(cli, STORE_CREATE, &db))
        return EXIT_FAIL;
    int now = store_version(db, NULL);
    /* The role belongs to the cluster: another init (of another database)
     * may be making or granting it at the same moment, which PostgreSQL
     * reports as a conflict; the SQL runs as one transaction and is run
     * again. */
    char *msg = NULL;
    int role = SQLITE_ERROR;
    for (int attempt = 0; attempt < 10; attempt++) {
        free(msg);
        msg = NULL;
        role = db_exec(db, reader_role_sql, &msg);
        const char *state = db_sqlstate(db);
        if (role == SQLITE_OK || !(strcmp(state, "XX000") == 0 || strcmp(state, "42710") == 0 ||
                                   strcmp(state, "23505") == 0 || role == SQLITE_BUSY))
            break;
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    db_close(db);
    if (before == 0)
        cli_say("created store %s (schema version %d)", name, now);
    else if (now != before)
        cli_say("migrated store %s from schema version %d to %d", name, before, now);
    else
        cli_say("store %s is up to date (schema version %d)", name, now);
    if (role == SQLITE_OK)
        cli_say("read-only analysis: connect as benchdb_reader (SELECT only, 60 s statement timeout; "
                "docs/postgresql.md)");
    else
        bd_warning("the role benchdb_reader was not made (%s): a role with CREATEROLE can run the SQL of "
                   "docs/postgresql.md, \"Read-only analysis\"",
                   msg);
    free(msg);
    return EXIT_OK;
}

int cmd_init(struct cli *cli, int argc, char **argv)
{
    int first;
    if (cli_parse(&spec_init, argc, argv, NULL, &first))
        return EXIT_USAGE;
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
