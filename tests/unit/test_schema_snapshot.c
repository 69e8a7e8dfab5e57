/* A new SQLite store made in one step (the schema tools/gen/
 * sqlite_schema_snapshot.c wrote at build time from the migrations) is the
 * store replaying the migrations makes: sqlite_schema row by row in rowid
 * order (type, name, table, SQL text byte for byte; root pages aside), the
 * pragmas user_version and application_id, schema_migration's versions,
 * names and SHA-256s, every table's rows, and the schema hashes an
 * evaluation records (of every table and view, and of every saved query's
 * reads), which must re-verify on either store (docs/schema.md, "How a
 * new store is made"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query/schema_hash.h"
#include "sqlfn/benchstats.h"
#include "store/db.h"
#include "store/store.h"
#include "util/embedded.h"
#include "util/strbuf.h"

/* Each row of sql (one text column) as a line of its own. */
static void lines_of(sqlite3 *db, const char *sql, struct strbuf *out)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        sb_printf(out, "%s\n", t ? t : "(NULL)");
    }
    sqlite3_finalize(st);
}

/* Everything of the store the two ways must agree on, as lines. */
static char *describe(sqlite3 *db)
{
    struct strbuf sb = {0};
    sb_puts(&sb, "== sqlite_schema in rowid order\n");
    lines_of(db,
             "SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || coalesce(quote(sql), 'NULL') "
             "FROM sqlite_schema ORDER BY rowid",
             &sb);
    sb_puts(&sb, "== pragmas\n");
    lines_of(db, "SELECT 'user_version ' || user_version FROM pragma_user_version", &sb);
    lines_of(db, "SELECT 'application_id ' || application_id FROM pragma_application_id", &sb);
    lines_of(db, "SELECT 'foreign_key_check ' || count(*) FROM pragma_foreign_key_check", &sb);
    sb_puts(&sb, "== schema_migration (applied_at aside: a time)\n");
    lines_of(db,
             "SELECT version || ' ' || name || ' ' || sha256 || ' ' || (applied_at GLOB "
             "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z') "
             "FROM schema_migration ORDER BY version",
             &sb);
    /* Every other table's rows, each value by quote() (its type shows). */
    sqlite3_stmt *tables = NULL;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> "
                                        "'schema_migration' ORDER BY name",
                                        -1, &tables, NULL),
                     SQLITE_OK);
    while (sqlite3_step(tables) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(tables, 0);
        struct strbuf row = {0};
        sqlite3_stmt *cols = NULL;
        char *q = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q) ORDER BY cid", t);
        assert_int_equal(sqlite3_prepare_v2(db, q, -1, &cols, NULL), SQLITE_OK);
        sqlite3_free(q);
        while (sqlite3_step(cols) == SQLITE_ROW) {
            char *c = sqlite3_mprintf("%s quote(\"%w\")", row.len ? " || '|' ||" : "", sqlite3_column_text(cols, 0));
            sb_puts(&row, c);
            sqlite3_free(c);
        }
        sqlite3_finalize(cols);
        sb_printf(&sb, "== rows of %s\n", t);
        q = sqlite3_mprintf("SELECT %s FROM \"%w\" ORDER BY 1", row.buf, t);
        lines_of(db, q, &sb);
        sqlite3_free(q);
        sb_free(&row);
    }
    sqlite3_finalize(tables);
    return sb_detach(&sb);
}

/* The first line where a and b differ, named. */
static void assert_same(const char *replayed, const char *one_step)
{
    const char *a = replayed, *b = one_step;
    int line = 1;
    while (*a && *b) {
        size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
        if (na != nb || memcmp(a, b, na) != 0)
            fail_msg("line %d differs:\n  replayed: %.*s\n  one step: %.*s", line, (int)na, a, (int)nb, b);
        a += na + (a[na] != 0);
        b += nb + (b[nb] != 0);
        line++;
    }
    if (*a || *b)
        fail_msg("line %d: only the %s store has more: %.120s", line, *a ? "replayed" : "one-step", *a ? a : b);
}

static sqlite3 *replayed_store(void)
{
    sqlite3 *db = NULL;
    char *err = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(benchstats_register(db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), SQLITE_OK);
    int n = store_migrate_replay(db, -1, &err);
    if (n != migrations_count())
        fail_msg("replaying the migrations: %s", err ? err : "not every one applied");
    return db;
}

/* The hash of every table and view, and of each saved query's reads, as
 * an evaluation records it. */
static char *hashes(sqlite3 *db)
{
    struct schema_reads all = {0};
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name "
                                        "NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
                                        -1, &st, NULL),
                     SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW)
        schema_reads_note(&all, (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    assert_true(all.n > 10);
    char hex[65], *err = NULL;
    struct strbuf sb = {0};
    if (schema_hash(db, &all, 0, hex, NULL, &err) != 0)
        fail_msg("schema_hash: %s", err);
    sb_printf(&sb, "all tables and views: %s\n", hex);
    schema_reads_free(&all);
    struct db *h = db_from_sqlite(db, 0);
    assert_non_null(h);
    for (size_t i = 0; i < embedded_queries_count; i++) {
        if (schema_hash_of_sql(h, embedded_queries[i].data, 0, hex, &err) != 0)
            fail_msg("%s: %s", embedded_queries[i].name, err);
        sb_printf(&sb, "%s: %s\n", embedded_queries[i].name, hex);
    }
    db_close(h);
    return sb_detach(&sb);
}

static void test_init_makes_the_replayed_store(void **state)
{
    (void)state;
    sqlite3 *replayed = replayed_store();
    char *err = NULL;
    sqlite3 *made = NULL; /* as benchdb init makes it */
    assert_int_equal(store_open(":memory:", STORE_CREATE, &made, &err), 0);
    /* made in one step: the schema the build wrote for this version */
    assert_int_equal(embedded_sqlite_schema_version, migrations_count());

    char *want = describe(replayed), *got = describe(made);
    assert_non_null(strstr(want, "CREATE TABLE"));
    assert_non_null(strstr(want, "== rows of unit\n'"));
    assert_same(want, got);
    char *hw = hashes(replayed), *hg = hashes(made);
    assert_same(hw, hg);
    assert_int_equal(store_check_migration_hashes(made, NULL, NULL), 0);

    free(want);
    free(got);
    free(hw);
    free(hg);
    store_close(made);
    sqlite3_close(replayed);
}

/* The logical schema a store on PostgreSQL is checked on, and an
 * in-memory store (store_open_memory), are made the same one-step way. */
static void test_memory_store_is_the_replayed_store(void **state)
{
    (void)state;
    sqlite3 *replayed = replayed_store();
    struct db *mem = NULL;
    char *err = NULL;
    assert_int_equal(store_open_memory(&mem, &err), 0);
    char *want = describe(replayed), *got = describe(db_sqlite(mem));
    assert_same(want, got);
    free(want);
    free(got);
    db_close(mem);
    sqlite3_close(replayed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_makes_the_replayed_store),
        cmocka_unit_test(test_memory_store_is_the_replayed_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
