/* benchdb copy: the whole store into another, on either engine
 * (store/copy.h; docs/copy.md). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "query/saved.h"
#include "query/schema_hash.h"
#include "store/copy.h"
#include "store/dialect.h"
#include "util/xalloc.h"

struct copy_args {
    int quiet;
};

static const struct cli_opt copy_opts[] = {
    {"quiet", 'q', NULL, "no progress on a terminal, no summary", cli_opt_flag, offsetof(struct copy_args, quiet), 0,
     0},
    {0},
};

const struct cli_spec spec_copy = {
    .name = "copy",
    .store = 1,
    .synopsis = (const char *const[]){"copy DEST [--quiet]", NULL},
    .about = "Copy the whole store (--db) into DEST: a SQLite file or a postgresql:// URI,\n"
             "either engine to either. Everything goes: archives with their stored bytes,\n"
             "runs, series, values, units, the derived tables bit for bit, registered\n"
             "rules, and recorded evaluations with their ids, rows and hashes, so that\n"
             "'benchdb --db DEST history --verify --all' judges them as on the source.\n"
             "DEST is created when missing (a file, filled under a temporary name and\n"
             "renamed once whole: Ctrl-C leaves nothing) or brought to the current schema\n"
             "(an empty database), and must hold no rows: the copy is one transaction\n"
             "there, all or nothing. The source is read in one snapshot; it may be written\n"
             "meanwhile. An evaluation's schema hash is each engine's own: one the\n"
             "source still computes is written as the destination computes it\n"
             "(docs/copy.md). On a server, the role benchdb_reader is made and granted\n"
             "there as 'benchdb init' does.\n",
    .opts = copy_opts,
    .more = "Progress goes to stderr when it is a terminal.\n"
            "\n"
            "Examples:\n"
            "  benchdb --db results.db copy postgresql://ci@db.example/results\n"
            "  benchdb --db postgresql://db.example/results copy local.db\n",
    .min_args = 1,
    .max_args = 1,
    .missing = "expected DEST, the store to copy into",
};

static void tick(void *arg, const char *table, long long done, long long total)
{
    (void)arg;
    fprintf(stderr, "\r\033[Kcopying %s: %lld of %lld rows", table, done, total);
    fflush(stderr);
}

/* The distinct recorded texts with a schema hash: their SHA-256 and text. */
static int recorded_texts(struct db *src, char ***sha, char ***text, size_t *n, char **err)
{
    *sha = *text = NULL;
    *n = 0;
    struct db_stmt *st = NULL;
    if (db_prepare(src, "SELECT query_sha256, min(query_text) FROM evaluation WHERE schema_sha256 IS NOT NULL "
                        "GROUP BY query_sha256 ORDER BY query_sha256",
                   &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the evaluations: %s", db_errmsg(src));
    int rc;
    size_t cap = 0;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 8;
            *sha = xreallocarray(*sha, nc, sizeof **sha);
            *text = xreallocarray(*text, nc, sizeof **text);
            cap = nc;
        }
        (*sha)[*n] = xstrdup((const char *)db_column_text(st, 0));
        (*text)[*n] = xstrdup((const char *)db_column_text(st, 1));
        (*n)++;
        if (!(*sha)[*n - 1] || !(*text)[*n - 1])
            break;
    }
    db_finalize(st);
    if (rc == SQLITE_ROW)
        return bd_fail(err, "out of memory");
    return rc == SQLITE_DONE ? 0 : bd_fail(err, "cannot read the evaluations: %s", db_errmsg(src));
}

/* Rewrites, for one recorded text, the schema hash of the evaluations
 * recorded with the hash the source computes now into the hash the
 * destination computes now (the same schema, as each engine hashes it). */
static int translate_one(struct db *src, struct db *dst, const char *sha, const char *text, long long *changed,
                         char **err)
{
    char *perr = NULL, from[65], to[65];
    struct saved_query *q = saved_query_parse(strdup(text), "recorded query", 0, &perr);
    if (!q) {
        free(perr); /* it cannot be re-run on either store: kept as it is */
        return 0;
    }
    int rc = 0;
    if (schema_hash_of_sql(src, q->sql, 1, from, &perr) || schema_hash_of_sql(dst, q->sql, 0, to, &perr)) {
        free(perr); /* no hash now (it no longer prepares): kept as it is */
        perr = NULL;
    } else if (strcmp(from, to) != 0) {
        struct db_stmt *st = NULL;
        if (db_prepare(dst, "UPDATE evaluation SET schema_sha256 = ?1 WHERE query_sha256 = ?2 AND schema_sha256 = ?3",
                       &st) != SQLITE_OK ||
            db_bind_text(st, 1, to, -1) || db_bind_text(st, 2, sha, -1) || db_bind_text(st, 3, from, -1) ||
            db_step(st) != SQLITE_DONE)
            rc = bd_fail(err, "cannot write the evaluations' schema hashes: %s", db_errmsg(dst));
        db_finalize(st);
        (*changed)++;
    }
    saved_query_free(q);
    return rc;
}

static int translate_hashes(struct db *src, struct db *dst, long long *changed, char **err)
{
    char **sha, **text;
    size_t n;
    *changed = 0;
    int rc = recorded_texts(src, &sha, &text, &n, err);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = translate_one(src, dst, sha[i], text[i], changed, err);
    for (size_t i = 0; i < n; i++)
        free(sha[i]), free(text[i]);
    free(sha);
    free(text);
    return rc;
}

static int run_copy(struct db *src, struct db *dst, int progress, long long *rows, long long *texts, char **err)
{
    struct store_copy *c = NULL;
    const struct store_copy_tick t = {tick, NULL};
    int rc = store_copy_open(src, dst, &c, err) || store_copy_rows(c, progress ? &t : NULL, rows, err) ||
             store_copy_rearm(c, err) || translate_hashes(src, dst, texts, err) || store_copy_commit(c, err);
    if (progress)
        fputs("\r\033[K", stderr);
    char *why = NULL;
    if (rc == 0 && store_copy_analyze(c, &why)) {
        bd_warning("copy: copied and committed; the server's statistics were not gathered (%s): it gathers them "
                   "itself later, and queries may be slow until then",
                   why ? why : "out of memory");
        free(why);
    }
    store_copy_free(c);
    return rc ? -1 : 0;
}

int cmd_copy(struct cli *cli, int argc, char **argv)
{
    struct copy_args a = {0};
    int first;
    if (cli_parse(&spec_copy, argc, argv, &a, &first))
        return EXIT_USAGE;
    const char *dest = argv[first];
    struct stat sd, ss; /* the same file by another name (./results.db, a link) too */
    if (strcmp(dest, cli->db_path) == 0 || (stat(dest, &sd) == 0 && stat(cli->db_path, &ss) == 0 &&
                                            sd.st_dev == ss.st_dev && sd.st_ino == ss.st_ino))
        return bd_usage_error("copy", "copy: DEST is the store itself (%s)", cli_store_name(cli));
    struct db *src = NULL, *dst = NULL;
    if (cli_connect_store(cli, STORE_READ, &src))
        return EXIT_FAIL;
    char *err = NULL, *shown = store_name_masked(dest), *partial = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    long long rows = 0, changed = 0;
    int named = 0, made = 0; /* the message names the store; its schema is made as it opens */
    int rc = store_copy_connect(dest, &dst, &named, &made, &partial, &err) ? -1
             : run_copy(src, dst, !a.quiet && isatty(2), &rows, &changed, &err);
    int dst_opened = dst != NULL; /* its schema made: store_copy_connect got that far */
    db_close(src);
    /* A file the copy made is renamed to DEST only now, whole; one it
     * could not fill goes (with SQLite's files beside it). */
    if (rc == 0 && partial) {
        if (store_copy_place(dst, partial, dest, &err))
            rc = -1, made = 0, named = 1;
        dst = NULL;
    } else if (rc) {
        store_copy_discard(dst, partial);
        dst = NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc) {
        /* Only the copy's rows are one transaction: the schema made before
         * them in a store that was there stays, an empty store (said,
         * where "nothing" was said). */
        const char *left = made && dst_opened ? "no row was written there (the copy first gave it the store's schema, "
                                                "which stays, empty: a copy again fills it)"
                                              : "nothing was written there";
        if (named)
            bd_error("copy: %s; %s", err ? err : "out of memory", left);
        else
            bd_error("copy: %s: %s; %s", shown ? shown : "DEST", err ? err : "out of memory", left);
        free(err);
        free(shown);
        return EXIT_FAIL;
    }
    if (!a.quiet) {
        /* the hashes rewritten, when any (none between stores of one engine) */
        char hashes[128] = "";
        if (changed)
            snprintf(hashes, sizeof hashes, " (schema hashes of %lld recorded quer%s written as the destination "
                     "computes them)", changed, changed == 1 ? "y" : "ies");
        cli_say("copied %lld rows from %s to %s in %.2f s%s", rows, cli_store_name(cli), shown ? shown : dest,
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, hashes);
    }
    /* A store made on a server by the copy is made as init makes one: its
     * readers' role granted there (docs/copy.md; nothing on SQLite). */
    if (dst)
        cli_reader_role(dst, !a.quiet);
    db_close(dst);
    free(shown);
    return EXIT_OK;
}
