/* benchdb backup: a consistent copy of a SQLite store into a new file,
 * while other processes go on using it (store/copy.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "store/copy.h"
#include "store/store.h"

struct backup_args {
    int quiet;
};

static const struct cli_opt backup_opts[] = {
    {"quiet", 'q', NULL, "print nothing on success", cli_opt_flag, offsetof(struct backup_args, quiet), 0, 0},
    {0},
};

const struct cli_spec spec_backup = {
    .name = "backup",
    .store = 1,
    .synopsis = (const char *const[]){"backup FILE [--quiet]", NULL},
    .about = "Copy the store (a SQLite file) into FILE, a new file, with SQLite's online\n"
             "backup: the copy is one snapshot of the store, consistent while ingests\n"
             "and queries go on (they are not stopped), and 'benchdb --db FILE check'\n"
             "finds it whole. FILE appears only once complete. A store of an older schema\n"
             "is copied as it is (back it up before 'benchdb migrate'). A store on\n"
             "PostgreSQL is backed up with the server's tools, or copied with 'benchdb copy'.\n",
    .opts = backup_opts,
    .more = "Example:\n"
            "  benchdb --db results.db backup /backups/results-$(date +%F).db\n",
    .min_args = 1,
    .max_args = 1,
    .missing = "expected FILE, the new file to copy the store into",
};

int cmd_backup(struct cli *cli, int argc, char **argv)
{
    struct backup_args a = {0};
    int first;
    if (cli_parse(&spec_backup, argc, argv, &a, &first))
        return EXIT_USAGE;
    /* A store of an older schema is backed up as it is: the copy to keep
     * before 'benchdb migrate', which an older benchdb still opens. An
     * empty file is still no store (STORE_READ says so). */
    struct db *db = NULL;
    if (cli_connect_store(cli, STORE_INSPECT, &db))
        return EXIT_FAIL;
    if (store_version(db, NULL) == 0) {
        db_close(db);
        if (cli_connect_store(cli, STORE_READ, &db))
            return EXIT_FAIL;
    }
    char *err = NULL;
    int rc = store_backup(db, argv[first], &err);
    db_close(db);
    if (rc) {
        bd_error("backup: %s", err ? err : "out of memory");
        free(err);
        return EXIT_FAIL;
    }
    if (!a.quiet)
        cli_say("backed up %s to %s", cli_store_name(cli), argv[first]);
    return EXIT_OK;
}
