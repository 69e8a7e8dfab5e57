#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/sha256.h"

const char usage_migrate[] =
    "usage: benchdb [--db FILE] migrate [--status]\n"
    "\n"
    "Apply the pending schema migrations to the store, each in its own\n"
    "transaction, or with --status list every migration this benchdb knows:\n"
    "applied (with when) or pending, and whether an applied migration's text\n"
    "differs from the one in this binary.\n"
    "\n"
    "  --status   list migrations, change nothing\n";

static int print_status(sqlite3 *db)
{
    int applied = store_schema_version(db, NULL);
    printf("%-7s %-32s %-9s %s\n", "version", "name", "state", "applied_at");
    for (int i = 1; i <= migrations_count(); i++) {
        const char *state = i <= applied ? "applied" : "pending";
        char when[64] = "";
        if (i <= applied) {
            sqlite3_stmt *st;
            if (sqlite3_prepare_v2(db, "SELECT applied_at, sha256 FROM schema_migration WHERE version = ?", -1, &st, NULL) == SQLITE_OK) {
                sqlite3_bind_int(st, 1, i);
                if (sqlite3_step(st) == SQLITE_ROW) {
                    snprintf(when, sizeof when, "%s", (const char *)sqlite3_column_text(st, 0));
                    char hex[65];
                    const char *text = migration_text(i);
                    sha256_hex_of(text, strlen(text), hex);
                    if (strcmp(hex, (const char *)sqlite3_column_text(st, 1)) != 0)
                        state = "modified";
                }
                sqlite3_finalize(st);
            }
        }
        printf("%04d    %-32s %-9s %s\n", i, migration_name(i), state, when);
    }
    return EXIT_OK;
}

int cmd_migrate(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {{"status", no_argument, 0, 's'}, {0, 0, 0, 0}};
    int status = 0, c;
    cli_getopt_reset();
    while ((c = cli_getopt("migrate", argc, argv, "", opts)) != -1) {
        if (c == '?')
            return EXIT_USAGE;
        if (c == 's')
            status = 1;
    }
    if (optind < argc)
        return bd_usage_error("migrate", "migrate: unexpected argument '%s'", argv[optind]);

    sqlite3 *db;
    if (cli_open_store(cli, status ? STORE_INSPECT : STORE_MIGRATE, &db))
        return EXIT_FAIL;
    if (status) {
        int rc = print_status(db);
        store_close(db);
        return rc;
    }
    char *err = NULL;
    int before = store_schema_version(db, NULL);
    int n = store_migrate(db, -1, &err);
    if (n < 0) {
        bd_error("%s: %s", cli->db_path, err);
        free(err);
        store_close(db);
        return EXIT_FAIL;
    }
    int now = store_schema_version(db, NULL);
    store_close(db);
    if (n == 0)
        printf("store %s is up to date (schema version %d)\n", cli->db_path, now);
    else
        printf("applied %d migration%s to %s: schema version %d to %d\n", n, n == 1 ? "" : "s", cli->db_path, before, now);
    return EXIT_OK;
}
