/* benchdb check: verify the store. */
#include <stdio.h>

#include "cli/cli.h"
#include "ingest/check.h"

const struct cli_spec spec_check = {
    .name = "check",
    .store = 1,
    .synopsis = (const char *const[]){"check", NULL},
    .about = "Verify the store: SQLite's integrity and foreign-key checks; every stored\n"
             "archive's bytes re-read (decompressed when stored as zstd) and re-hashed\n"
             "against its recorded SHA-256 and size; every series' n and total\n"
             "recomputed from its measured values; sample rows that belong to no series.\n"
             "Prints one line per check on stdout and one error line per problem on\n"
             "stderr. The store is opened read-only.\n",
    .opts = (const struct cli_opt[]){{0}},
    .more = "Exit status: 0 when nothing is wrong, 1 when anything is (or the store\n"
            "cannot be read), 2 on a usage error.\n",
};

int cmd_check(struct cli *cli, int argc, char **argv)
{
    int first;
    if (cli_parse(&spec_check, argc, argv, NULL, &first))
        return EXIT_USAGE;
    sqlite3 *db = NULL;
    if (cli_open_store(cli, STORE_READ, &db))
        return EXIT_FAIL;
    int problems = store_check(db, stdout);
    store_close(db);
    if (problems < 0)
        return EXIT_FAIL;
    if (problems > 0) {
        printf("check: %d problem%s found\n", problems, problems == 1 ? "" : "s");
        return EXIT_FAIL;
    }
    printf("check: ok\n");
    return EXIT_OK;
}
