/* benchdb rule register: fix a decision rule before the data it judges. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "query/saved.h"
#include "util/sha256.h"
#include "util/text.h"

const char usage_rule[] =
    "usage: benchdb [--db FILE] rule register FILE.sql|NAME [--published-at TIME] [--ref TEXT]\n"
    "       benchdb [--db FILE] rule list [--format FORMAT]\n"
    "\n"
    "Register a rule (a saved query) before the plan it will judge runs: its\n"
    "text and SHA-256 are stored with the time of registration and, if given,\n"
    "when and where it was published (e.g. a pull request). When a rule with\n"
    "the same SHA-256 judges a plan, 'benchdb query' says whether it was fixed\n"
    "(published, else registered) before the plan's earliest run started.\n"
    "\n"
    "  --published-at TIME   when the rule was published (RFC 3339, e.g. 2026-10-20T16:00:00Z)\n"
    "  --ref TEXT            where it was published (e.g. a pull request URL)\n"
    "  -q, --queries DIR     also look for saved queries here (repeatable)\n"
    "  -f, --format FORMAT   for 'list': table (default), csv, json or markdown\n";

/* RFC 3339 date-time: YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM) that SQLite can read. */
static int valid_time(sqlite3 *db, const char *s)
{
    size_t n = strlen(s);
    if (n < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':')
        return 0;
    if (!(s[n - 1] == 'Z' || s[n - 1] == 'z' || (n >= 25 && (s[n - 6] == '+' || s[n - 6] == '-') && s[n - 3] == ':')))
        return 0;
    sqlite3_stmt *st;
    int ok = 0;
    if (sqlite3_prepare_v2(db, "SELECT julianday(?) IS NOT NULL", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, s, -1, SQLITE_STATIC);
        ok = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    return ok;
}

int cmd_rule(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"published-at", required_argument, 0, 'P'}, {"ref", required_argument, 0, 'r'},
        {"queries", required_argument, 0, 'q'},      {"format", required_argument, 0, 'f'},
        {0, 0, 0, 0},
    };
    const char *published = NULL, *ref = NULL;
    struct query_path qp = {0};
    enum out_format fmt = OUT_TABLE;
    int c, rc = EXIT_USAGE;
    char *err = NULL;
    struct saved_query *q = NULL;
    sqlite3 *db = NULL;
    cli_getopt_reset();
    while ((c = cli_getopt("rule", argc, argv, "q:f:", opts)) != -1) {
        switch (c) {
        case 'P': published = optarg; break;
        case 'r': ref = optarg; break;
        case 'q': query_path_add(&qp, optarg); break;
        case 'f':
            if (out_format_parse(optarg, &fmt)) {
                bd_usage_error("rule", "rule: --format '%s': expected one of %s", optarg, OUT_FORMAT_NAMES);
                goto out;
            }
            break;
        default: goto out;
        }
    }
    if (optind >= argc) {
        bd_usage_error("rule", "rule: missing the subcommand (register or list)");
        goto out;
    }
    const char *sub = argv[optind];
    if (strcmp(sub, "list") == 0) {
        if (optind + 1 < argc) {
            bd_usage_error("rule", "rule list: unexpected argument '%s'", argv[optind + 1]);
            goto out;
        }
        rc = EXIT_FAIL;
        if (cli_open_store(cli, STORE_READ, &db))
            goto out;
        sqlite3_stmt *st;
        sqlite3_prepare_v2(db, "SELECT id, name, substr(sha256, 1, 12) AS sha256, registered_at, published_at, ref "
                               "FROM rule ORDER BY id", -1, &st, NULL);
        struct rowset rs = {0};
        rowset_collect(&rs, st);
        sqlite3_finalize(st);
        rc = rowset_print(&rs, fmt, stdout) ? EXIT_FAIL : EXIT_OK;
        rowset_free(&rs);
        goto out;
    }
    if (strcmp(sub, "register") != 0) {
        bd_usage_error("rule", "rule: unknown subcommand '%s' (expected register or list)", sub);
        goto out;
    }
    if (optind + 2 != argc) {
        bd_usage_error("rule", "rule register: expected one saved query (a NAME or a FILE.sql)");
        goto out;
    }
    query_path_add_env(&qp);
    rc = EXIT_FAIL;
    q = saved_query_find(&qp, argv[optind + 1], &err);
    if (!q) {
        bd_error("rule register: %s", err);
        goto out;
    }
    if (!q->judges)
        bd_warning("rule register: %s has no '-- judges: PARAM' header line, so no evaluation can say whether it "
                   "preceded its plan", q->name);
    if (cli_open_store(cli, STORE_WRITE, &db))
        goto out;
    if (published && !valid_time(db, published)) {
        bd_usage_error("rule", "rule register: --published-at '%s': expected an RFC 3339 time such as "
                               "2026-10-20T16:00:00Z", published);
        rc = EXIT_USAGE;
        goto out;
    }
    char sha[65], when[TIME_TEXT_MAX];
    sha256_hex_of(q->text, strlen(q->text), sha);
    time_now_rfc3339(when, 0);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(db, "SELECT id, registered_at FROM rule WHERE sha256 = ?", -1, &st, NULL);
    sqlite3_bind_text(st, 1, sha, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        printf("rule %s (sha256 %.12s) is already registered as rule %lld, at %s\n", q->name, sha,
               (long long)sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1));
        sqlite3_finalize(st);
        rc = EXIT_OK;
        goto out;
    }
    sqlite3_finalize(st);
    sqlite3_prepare_v2(db, "INSERT INTO rule(name, sha256, text, registered_at, published_at, ref) VALUES (?,?,?,?,?,?)",
                       -1, &st, NULL);
    sqlite3_bind_text(st, 1, q->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, q->text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, when, -1, SQLITE_STATIC);
    if (published)
        sqlite3_bind_text(st, 5, published, -1, SQLITE_STATIC);
    if (ref)
        sqlite3_bind_text(st, 6, ref, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) {
        bd_error("rule register: %s", sqlite3_errmsg(db));
        sqlite3_finalize(st);
        goto out;
    }
    sqlite3_finalize(st);
    printf("registered rule %s (sha256 %.12s) as rule %lld at %s%s%s\n", q->name, sha,
           (long long)sqlite3_last_insert_rowid(db), when, published ? ", published " : "", published ? published : "");
    rc = EXIT_OK;
out:
    saved_query_free(q);
    store_close(db);
    query_path_free(&qp);
    free(err);
    return rc;
}
