/* benchdb history: the verdict history, and what changed between two
 * evaluations of one query. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "query/saved.h"
#include "util/strbuf.h"

const char usage_history[] =
    "usage: benchdb [--db FILE] history [NAME] [--limit N] [--format FORMAT]\n"
    "       benchdb [--db FILE] history --diff ID1 ID2 [--format FORMAT]\n"
    "\n"
    "List recorded evaluations of saved queries, newest last: id, when, query,\n"
    "the query text's short SHA-256, parameters, the one-line outcome and, for a\n"
    "rule judging a plan, whether it was pre-registered.\n"
    "With --diff, compare two evaluations of the same query: whether the rule\n"
    "text, the parameters or the data (the archives in the store) changed, and\n"
    "which result rows differ (rows are matched by the query's '-- key:' columns).\n"
    "\n"
    "  --diff ID1 ID2          compare two evaluations\n"
    "  -n, --limit N           only the last N evaluations\n"
    "  -f, --format FORMAT     table (default), csv, json or markdown\n";

static int list(sqlite3 *db, const char *name, long long limit, enum out_format fmt)
{
    sqlite3_stmt *st;
    const char *sql =
        "SELECT * FROM (SELECT id, evaluated_at, query_name AS query, substr(query_sha256, 1, 12) AS sha256, "
        "params, outcome, registration FROM evaluation WHERE (?1 IS NULL OR query_name = ?1) "
        "ORDER BY id DESC LIMIT ?2) ORDER BY id";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        bd_error("history: %s", sqlite3_errmsg(db));
        return EXIT_FAIL;
    }
    if (name)
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, limit);
    struct rowset rs = {0};
    int rc = rowset_collect(&rs, st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        bd_error("history: %s", sqlite3_errmsg(db));
        rowset_free(&rs);
        return EXIT_FAIL;
    }
    rc = rowset_print(&rs, fmt, stdout) ? EXIT_FAIL : EXIT_OK;
    rowset_free(&rs);
    return rc;
}

struct eval_rec {
    long long id;
    char *name, *sha, *text, *fp, *when;
    long long archives;
    json_t *params, *rows;
};

static void eval_rec_free(struct eval_rec *e)
{
    free(e->name); free(e->sha); free(e->text); free(e->fp); free(e->when);
    json_decref(e->params);
    json_decref(e->rows);
}

static int load(sqlite3 *db, long long id, struct eval_rec *e)
{
    sqlite3_stmt *st;
    memset(e, 0, sizeof *e);
    e->id = id;
    if (sqlite3_prepare_v2(db, "SELECT query_name, query_sha256, query_text, data_fingerprint, archive_count, params, "
                               "rows, evaluated_at FROM evaluation WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return -1;
    }
    e->name = strdup((const char *)sqlite3_column_text(st, 0));
    e->sha = strdup((const char *)sqlite3_column_text(st, 1));
    e->text = strdup((const char *)sqlite3_column_text(st, 2));
    e->fp = strdup((const char *)sqlite3_column_text(st, 3));
    e->archives = sqlite3_column_int64(st, 4);
    e->params = json_loads((const char *)sqlite3_column_text(st, 5), JSON_DECODE_ANY, NULL);
    e->rows = json_loads((const char *)sqlite3_column_text(st, 6), JSON_DECODE_ANY, NULL);
    e->when = strdup((const char *)sqlite3_column_text(st, 7));
    sqlite3_finalize(st);
    return e->params && e->rows ? 0 : -1;
}

/* A JSON value as a short text: numbers in shortest form, strings bare. */
static char *jtext(json_t *v)
{
    char buf[40];
    if (!v)
        return strdup("(absent)");
    switch (json_typeof(v)) {
    case JSON_NULL: return strdup("null");
    case JSON_TRUE: return strdup("true");
    case JSON_FALSE: return strdup("false");
    case JSON_INTEGER: snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v)); return strdup(buf);
    case JSON_REAL: fmt_double(buf, json_real_value(v)); return strdup(buf);
    case JSON_STRING: return strdup(json_string_value(v));
    default: return json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    }
}

static char *row_key(json_t *row, char **keys, int nkeys)
{
    struct strbuf sb = {0};
    if (!nkeys) {
        char *all = json_dumps(row, JSON_COMPACT | JSON_SORT_KEYS);
        sb_puts(&sb, all);
        free(all);
    }
    for (int k = 0; k < nkeys; k++) {
        char *t = jtext(json_object_get(row, keys[k]));
        sb_printf(&sb, "%s%s", k ? "\x1f" : "", t);
        free(t);
    }
    return sb_detach(&sb);
}

/* Binds a row's key values to the first nkeys parameters of ins. */
static void bind_keys(sqlite3_stmt *ins, json_t *row, char **keys, int nkeys)
{
    for (int k = 0; k < nkeys; k++) {
        char *t = jtext(json_object_get(row, keys[k]));
        sqlite3_bind_text(ins, k + 1, t, -1, SQLITE_TRANSIENT);
        free(t);
    }
}

static json_t *find_row(json_t *rows, const char *key, char **keys, int nkeys)
{
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r) {
        char *k = row_key(r, keys, nkeys);
        int same = strcmp(k, key) == 0;
        free(k);
        if (same)
            return r;
    }
    return NULL;
}

static int diff(sqlite3 *db, long long id1, long long id2, enum out_format fmt)
{
    struct eval_rec a, b;
    if (load(db, id1, &a)) {
        bd_error("history: no evaluation %lld in the store", id1);
        eval_rec_free(&a);
        return EXIT_FAIL;
    }
    if (load(db, id2, &b)) {
        bd_error("history: no evaluation %lld in the store", id2);
        eval_rec_free(&a);
        eval_rec_free(&b);
        return EXIT_FAIL;
    }
    int rc = EXIT_FAIL;
    if (strcmp(a.name, b.name) != 0) {
        bd_error("history: evaluations %lld and %lld are of different queries (%s, %s); --diff compares one query's "
                 "evaluations", id1, id2, a.name, b.name);
        goto out;
    }
    /* The key columns come from the header of the later evaluation's text. */
    char *err = NULL;
    struct saved_query *q = saved_query_parse(strdup(b.text), "recorded query", 0, &err);
    free(err);
    char **keys = q ? q->keys : NULL;
    int nkeys = q ? q->nkeys : 0;

    int text_same = strcmp(a.sha, b.sha) == 0, data_same = strcmp(a.fp, b.fp) == 0;
    struct strbuf pd = {0};
    const char *k;
    json_t *v;
    json_object_foreach(b.params, k, v) {
        json_t *old = json_object_get(a.params, k);
        if (!old || !json_equal(old, v)) {
            char *o = jtext(old), *n = jtext(v);
            sb_printf(&pd, "%s%s: %s -> %s", pd.len ? ", " : "", k, o, n);
            free(o);
            free(n);
        }
    }
    json_object_foreach(a.params, k, v) {
        if (!json_object_get(b.params, k))
            sb_printf(&pd, "%s%s: removed", pd.len ? ", " : "", k);
    }

    sqlite3 *mem;
    sqlite3_open(":memory:", &mem);
    struct strbuf ddl = {0};
    sb_puts(&ddl, "CREATE TABLE d(");
    for (int i = 0; i < nkeys; i++)
        sb_printf(&ddl, "\"%s\", ", keys[i]);
    sb_printf(&ddl, "\"column\", \"%lld\", \"%lld\")", id1, id2);
    sqlite3_exec(mem, ddl.buf, NULL, NULL, NULL);
    sb_reset(&ddl);
    sb_puts(&ddl, "INSERT INTO d VALUES (");
    for (int i = 0; i < nkeys + 3; i++)
        sb_puts(&ddl, i ? ",?" : "?");
    sb_puts(&ddl, ")");
    sqlite3_stmt *ins;
    sqlite3_prepare_v2(mem, ddl.buf, -1, &ins, NULL);
    sb_free(&ddl);

    int changed_rows = 0;
    size_t i;
    json_t *ra;
    /* Rows of the first evaluation: changed or gone. */
    json_array_foreach(a.rows, i, ra) {
        char *key = row_key(ra, keys, nkeys);
        json_t *rb = find_row(b.rows, key, keys, nkeys);
        int row_changed = 0;
        const char *col;
        json_t *va;
        if (!rb || !nkeys) {
            if (!rb) {
                bind_keys(ins, ra, keys, nkeys);
                char *whole = json_dumps(ra, JSON_COMPACT);
                sqlite3_bind_text(ins, nkeys + 1, "(row)", -1, SQLITE_STATIC);
                sqlite3_bind_text(ins, nkeys + 2, whole, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(ins, nkeys + 3, "(absent)", -1, SQLITE_STATIC);
                sqlite3_step(ins);
                sqlite3_reset(ins);
                free(whole);
                row_changed = 1;
            }
        } else {
            json_object_foreach(ra, col, va) {
                json_t *vb = json_object_get(rb, col);
                if (vb && json_equal(va, vb))
                    continue;
                bind_keys(ins, ra, keys, nkeys);
                char *o = jtext(va), *n = jtext(vb);
                sqlite3_bind_text(ins, nkeys + 1, col, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(ins, nkeys + 2, o, -1, SQLITE_TRANSIENT);
                sqlite3_bind_text(ins, nkeys + 3, n, -1, SQLITE_TRANSIENT);
                sqlite3_step(ins);
                sqlite3_reset(ins);
                free(o);
                free(n);
                row_changed = 1;
            }
        }
        changed_rows += row_changed;
        free(key);
    }
    /* Rows only in the second evaluation. */
    json_t *rb;
    json_array_foreach(b.rows, i, rb) {
        char *key = row_key(rb, keys, nkeys);
        if (!find_row(a.rows, key, keys, nkeys)) {
            bind_keys(ins, rb, keys, nkeys);
            char *whole = json_dumps(rb, JSON_COMPACT);
            sqlite3_bind_text(ins, nkeys + 1, "(row)", -1, SQLITE_STATIC);
            sqlite3_bind_text(ins, nkeys + 2, "(absent)", -1, SQLITE_STATIC);
            sqlite3_bind_text(ins, nkeys + 3, whole, -1, SQLITE_TRANSIENT);
            sqlite3_step(ins);
            sqlite3_reset(ins);
            free(whole);
            changed_rows++;
        }
        free(key);
    }
    sqlite3_finalize(ins);

    if (fmt == OUT_TABLE || fmt == OUT_MARKDOWN) {
        printf("evaluations %lld (%s) and %lld (%s) of %s\n", id1, a.when, id2, b.when, a.name);
        if (text_same)
            printf("rule text:  same (sha256 %.12s)\n", a.sha);
        else
            printf("rule text:  differs (sha256 %.12s -> %.12s)\n", a.sha, b.sha);
        printf("parameters: %s\n", pd.len ? pd.buf : "same");
        if (data_same)
            printf("data:       same (%lld archives, fingerprint %.12s)\n", a.archives, a.fp);
        else
            printf("data:       differs (%lld -> %lld archives, fingerprint %.12s -> %.12s)\n", a.archives, b.archives,
                   a.fp, b.fp);
        printf("rows:       %d of %zu differ\n", changed_rows, json_array_size(b.rows) > json_array_size(a.rows)
                                                                     ? json_array_size(b.rows)
                                                                     : json_array_size(a.rows));
        if (changed_rows)
            putchar('\n');
    }
    sqlite3_stmt *sel;
    sqlite3_prepare_v2(mem, "SELECT * FROM d", -1, &sel, NULL);
    struct rowset rs = {0};
    rowset_collect(&rs, sel);
    sqlite3_finalize(sel);
    if (changed_rows || (fmt != OUT_TABLE && fmt != OUT_MARKDOWN))
        rc = rowset_print(&rs, fmt, stdout) ? EXIT_FAIL : EXIT_OK;
    else
        rc = EXIT_OK;
    rowset_free(&rs);
    sqlite3_close(mem);
    sb_free(&pd);
    saved_query_free(q);
out:
    eval_rec_free(&a);
    eval_rec_free(&b);
    return rc;
}

static int parse_id(const char *s, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || v < 1)
        return -1;
    *out = v;
    return 0;
}

int cmd_history(struct cli *cli, int argc, char **argv)
{
    static const struct option opts[] = {
        {"diff", no_argument, 0, 'd'}, {"limit", required_argument, 0, 'n'},
        {"format", required_argument, 0, 'f'}, {0, 0, 0, 0},
    };
    enum out_format fmt = OUT_TABLE;
    int do_diff = 0, c;
    long long limit = -1;
    cli_getopt_reset();
    while ((c = cli_getopt("history", argc, argv, "n:f:", opts)) != -1) {
        switch (c) {
        case 'd': do_diff = 1; break;
        case 'n':
            if (parse_id(optarg, &limit))
                return bd_usage_error("history", "history: --limit '%s': expected a positive integer", optarg);
            break;
        case 'f':
            if (out_format_parse(optarg, &fmt))
                return bd_usage_error("history", "history: --format '%s': expected one of %s", optarg, OUT_FORMAT_NAMES);
            break;
        default: return EXIT_USAGE;
        }
    }
    long long id1 = 0, id2 = 0;
    if (do_diff) {
        if (argc - optind != 2)
            return bd_usage_error("history", "history: --diff needs two evaluation ids");
        if (parse_id(argv[optind], &id1) || parse_id(argv[optind + 1], &id2))
            return bd_usage_error("history", "history: --diff %s %s: expected two evaluation ids (positive integers)",
                                  argv[optind], argv[optind + 1]);
    } else if (argc - optind > 1) {
        return bd_usage_error("history", "history: unexpected argument '%s'", argv[optind + 1]);
    }
    sqlite3 *db;
    if (cli_open_store(cli, STORE_READ, &db))
        return EXIT_FAIL;
    int rc = do_diff ? diff(db, id1, id2, fmt) : list(db, optind < argc ? argv[optind] : NULL, limit, fmt);
    store_close(db);
    return rc;
}
