/* benchdb check: verify the store. */
#define _GNU_SOURCE /* fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli/cli.h"
#include "ingest/check.h"

const struct cli_spec spec_check = {
    .name = "check",
    .store = 1,
    .synopsis = (const char *const[]){"check", NULL},
    .about = "Verify the store: its schema version (migrations 1..N recorded); SQLite's\n"
             "integrity and foreign-key checks; every stored archive's bytes re-read\n"
             "(decompressed when stored as zstd) and re-hashed against its recorded\n"
             "SHA-256 and size; every series' n and total recomputed from its measured\n"
             "values, and the block scores, run summaries and history points from what\n"
             "they summarise; sample rows that belong to no series; valid JSON in every JSON\n"
             "column (each bad value named by table, id and column). A damaged store is\n"
             "opened too, to say where.\n"
             "On PostgreSQL (--db postgresql://...) the same checks, in one read-only\n"
             "transaction; SQLite's integrity and foreign-key pragmas have no twin\n"
             "there, so instead: the extension benchstats installed at the version this\n"
             "benchdb expects; every foreign key a validated constraint with its\n"
             "triggers enabled; and every foreign key verified row by row (no row\n"
             "refers to a missing row). The server's pages and indexes are not read\n"
             "(PostgreSQL's amcheck and data checksums do that). docs/postgresql.md.\n"
             "Prints the answer first ('check: ok', or 'check: N problems found'),\n"
             "then one line per check, on stdout, and one error line per problem on\n"
             "stderr; while it runs, a terminal shows each check's line as it ends. The\n"
             "store is opened read-only.\n",
    .opts = (const struct cli_opt[]){{0}},
    .more = "Exit status: 0 when nothing is wrong, 1 when anything is (or the store\n"
            "cannot be read), 2 on a usage error.\n",
};

/* The checks' lines, held for after the answer; on a terminal each is
 * shown on stderr as it comes (the progress of a long check), then
 * cleared. */
struct held {
    FILE *mem;
    int tty;
};

static ssize_t held_write(void *cookie, const char *buf, size_t n)
{
    struct held *h = cookie;
    if (fwrite(buf, 1, n, h->mem) != n)
        return -1;
    if (h->tty) {
        size_t len = n && buf[n - 1] == '\n' ? n - 1 : n;
        fprintf(stderr, "\r\033[K%.*s", (int)(len > 100 ? 100 : len), buf);
    }
    return (ssize_t)n;
}

int cmd_check(struct cli *cli, int argc, char **argv)
{
    int first;
    if (cli_parse(&spec_check, argc, argv, NULL, &first))
        return EXIT_USAGE;
    struct db *db = NULL;
    if (cli_connect_store(cli, STORE_CHECK, &db))
        return EXIT_FAIL;
    /* The checks' lines are held until the answer is known: it comes
     * first ('check: ok'), the lines that show it after. */
    char *lines = NULL;
    size_t len = 0;
    struct held h = {open_memstream(&lines, &len), isatty(2)};
    FILE *tee = h.mem ? fopencookie(&h, "w", (cookie_io_functions_t){.write = held_write}) : NULL;
    if (!tee || setvbuf(tee, NULL, _IOLBF, 0) != 0) {
        if (tee)
            fclose(tee);
        if (h.mem)
            fclose(h.mem);
        free(lines);
        db_close(db);
        bd_error("check: out of memory");
        return EXIT_FAIL;
    }
    int problems = store_check(db, tee);
    db_close(db);
    int bad = fclose(tee) != 0;
    if (h.tty)
        fputs("\r\033[K", stderr);
    if (fclose(h.mem) != 0 || bad) {
        free(lines);
        bd_error("check: out of memory");
        return EXIT_FAIL;
    }
    if (problems > 0)
        printf("check: %d problem%s found\n", problems, problems == 1 ? "" : "s");
    else if (problems == 0)
        printf("check: ok\n");
    fwrite(lines, 1, len, stdout);
    free(lines);
    return problems == 0 ? EXIT_OK : EXIT_FAIL;
}
