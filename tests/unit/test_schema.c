/* The schema: migrations from an empty store and from every earlier version
 * give exactly schema/schema.sql, its schema and the unit table's rows
 * (a unit's kind, factor and direction are definitions); a newer store is refused and untouched; a
 * migration whose text changed is reported; `benchdb copy` into a store
 * of an older version refuses one with rows before migrating it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "store/store.h"
#include "util/sha256.h"
#include "util/strbuf.h"

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct strbuf sb = {0};
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        sb_append(&sb, buf, k);
    fclose(f);
    if (n)
        *n = sb.len;
    return sb_detach(&sb);
}

/* The description of schema/schema.sql loaded into an empty database. */
static char *expected_schema(void)
{
    char *sql = slurp(TEST_SRC_DIR "/schema/schema.sql", NULL);
    assert_non_null(sql);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK)
        fail_msg("schema/schema.sql does not load: %s", msg);
    char *err = NULL;
    char *desc = store_schema_describe(db, &err);
    assert_non_null(desc);
    sqlite3_close(db);
    free(sql);
    return desc;
}

/* The rows of `unit`, one "name|kind|factor|direction" line each in name
 * order: the migrations' rows must be the description's (schema.sql). */
static char *units_of(sqlite3 *db)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT name, kind, printf('%.17g', factor), coalesce(direction, 'NULL') "
                                        "FROM unit ORDER BY name",
                                        -1, &st, NULL),
                     SQLITE_OK);
    struct strbuf sb = {0};
    while (sqlite3_step(st) == SQLITE_ROW)
        sb_printf(&sb, "%s|%s|%s|%s\n", (const char *)sqlite3_column_text(st, 0),
                  (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2),
                  (const char *)sqlite3_column_text(st, 3));
    sqlite3_finalize(st);
    return sb_detach(&sb);
}

static char *expected_units(void)
{
    char *sql = slurp(TEST_SRC_DIR "/schema/schema.sql", NULL);
    assert_non_null(sql);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    char *units = units_of(db);
    sqlite3_close(db);
    free(sql);
    assert_non_null(strstr(units, "items/s|other|1|higher\n"));
    return units;
}

static char *tmp_path(const char *tag)
{
    char *p = malloc(256);
    snprintf(p, 256, "/tmp/benchdb-test-%s-%ld.db", tag, (long)getpid());
    unlink(p);
    return p;
}

static void remove_store(const char *p)
{
    char side[300];
    unlink(p);
    snprintf(side, sizeof side, "%s-wal", p);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", p);
    unlink(side);
}

static void test_migrations_from_empty_give_schema_sql(void **state)
{
    (void)state;
    char *want = expected_schema();
    char *path = tmp_path("empty");
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(store_open(path, STORE_CREATE, &db, &err), 0);
    assert_int_equal(store_schema_version(db, &err), migrations_count());
    char *got = store_schema_describe(db, &err);
    assert_string_equal(got, want);
    free(got);
    char *units = units_of(db), *want_units = expected_units();
    assert_string_equal(units, want_units);
    free(units);
    free(want_units);
    store_close(db);
    remove_store(path);
    free(path);
    free(want);
}

static void test_migrations_from_every_version(void **state)
{
    (void)state;
    char *want = expected_schema(), *want_units = expected_units();
    for (int from = 0; from <= migrations_count(); from++) {
        char *path = tmp_path("step");
        sqlite3 *db;
        char *err = NULL;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        assert_true(store_migrate(db, from, &err) >= 0);
        assert_int_equal(store_schema_version(db, &err), from);
        sqlite3_close(db);
        /* Opening for writing brings it up to date; an empty file is a
         * store only to init (STORE_CREATE). */
        assert_int_equal(store_open(path, from ? STORE_WRITE : STORE_CREATE, &db, &err), 0);
        assert_int_equal(store_schema_version(db, &err), migrations_count());
        char *got = store_schema_describe(db, &err);
        assert_string_equal(got, want);
        free(got);
        char *units = units_of(db);
        assert_string_equal(units, want_units);
        free(units);
        store_close(db);
        remove_store(path);
        free(path);
    }
    free(want);
    free(want_units);
}

static void test_read_mode_refuses_pending_migrations(void **state)
{
    (void)state;
    char *path = tmp_path("pending");
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(store_migrate(db, 1, &err), 1);
    sqlite3_close(db);
    assert_int_equal(store_open(path, STORE_READ, &db, &err), -1);
    assert_null(db);
    assert_non_null(strstr(err, "needs migrations up to"));
    assert_non_null(strstr(err, "run 'benchdb migrate'"));
    free(err);
    remove_store(path);
    free(path);
}

static void test_newer_store_is_refused_and_untouched(void **state)
{
    (void)state;
    char *path = tmp_path("newer");
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(store_open(path, STORE_CREATE, &db, &err), 0);
    char sql[200];
    snprintf(sql, sizeof sql, "INSERT INTO schema_migration VALUES (%d, '%04d_future.sql', '%064d', 'x')",
             migrations_count() + 1, migrations_count() + 1, 0);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL), SQLITE_OK);
    store_close(db);

    size_t n1, n2;
    char *before = slurp(path, &n1);
    const enum store_mode modes[] = {STORE_READ, STORE_WRITE, STORE_CREATE, STORE_INSPECT, STORE_MIGRATE};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        assert_int_equal(store_open(path, modes[i], &db, &err), -1);
        assert_null(db);
        assert_non_null(strstr(err, "newer than this benchdb knows"));
        assert_non_null(strstr(err, "left untouched"));
    }
    free(err);
    char *after = slurp(path, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(before, after, n1);
    free(before);
    free(after);
    remove_store(path);
    free(path);
}

static void count_modified(int version, const char *name, void *arg)
{
    (void)name;
    assert_int_equal(version, 1);
    (*(int *)arg)++;
}

static void test_modified_migration_is_reported(void **state)
{
    (void)state;
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(store_open(":memory:", STORE_CREATE, &db, &err), 0);
    int seen = 0;
    assert_int_equal(store_check_migration_hashes(db, count_modified, &seen), 0);
    assert_int_equal(seen, 0);
    assert_int_equal(sqlite3_exec(db, "UPDATE schema_migration SET sha256 = 'changed' WHERE version = 1", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(store_check_migration_hashes(db, count_modified, &seen), 1);
    assert_int_equal(seen, 1);
    store_close(db);
}

static void test_not_a_store(void **state)
{
    (void)state;
    char *path = tmp_path("notdb");
    FILE *f = fopen(path, "wb");
    fputs("this is not an SQLite database, just text that is long enough to look like a header...", f);
    fclose(f);
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(store_open(path, STORE_READ, &db, &err), -1);
    assert_non_null(strstr(err, "not a benchdb store"));
    free(err);
    err = NULL;
    unlink(path);
    /* An SQLite database of someone else's. */
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE other(x)", NULL, NULL, NULL);
    sqlite3_close(db);
    assert_int_equal(store_open(path, STORE_WRITE, &db, &err), -1);
    assert_non_null(strstr(err, "not a benchdb store"));
    free(err);
    remove_store(path);
    free(path);
}

static void test_store_settings(void **state)
{
    (void)state;
    char *path = tmp_path("settings");
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(store_open(path, STORE_CREATE, &db, &err), 0);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA foreign_keys", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(st, 0), 1);
    sqlite3_finalize(st);
    int on = -1;
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &on);
    assert_int_equal(on, 1);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, -1, &on);
    assert_int_equal(on, 0);
    /* Defensive mode: the schema cannot be corrupted through writable_schema. */
    assert_int_equal(sqlite3_exec(db, "PRAGMA writable_schema = ON; DELETE FROM sqlite_schema", NULL, NULL, NULL) == SQLITE_OK, 0);
    store_close(db);
    remove_store(path);
    free(path);
}

/* benchdb --db STORE NAME ARG, as the command line runs it. */
static int run_command(const char *store, const char *name, const char *arg)
{
    const struct command *c = commands;
    while (c->name && strcmp(c->name, name) != 0)
        c++;
    assert_non_null(c->name);
    struct cli cli = {store, 1};
    char *argv[] = {(char *)name, (char *)arg, NULL};
    return c->run(&cli, 2, argv);
}

/* The file at path is a store at version v. */
static void assert_version(const char *path, int v)
{
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(store_schema_version(db, &err), v);
    sqlite3_close(db);
}

/* A store of version v, holding a plan when with_rows. */
static void older_store(const char *path, int v, int with_rows)
{
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(store_migrate(db, v, &err), v);
    if (with_rows)
        assert_int_equal(sqlite3_exec(db, "INSERT INTO plan(name) VALUES ('kept')", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

static void test_copy_into_an_older_store(void **state)
{
    (void)state;
    char *src = tmp_path("copy-src"), *dest = tmp_path("copy-old");
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(store_open(src, STORE_CREATE, &db, &err), 0);
    store_close(db);
    int older = migrations_count() - 1;
    /* With rows: refused, and left at its version byte for byte (before,
     * it was migrated, then refused as not empty: an older benchdb could
     * no longer open it, and the message said nothing was written). */
    older_store(dest, older, 1);
    size_t n0, n1;
    char *before = slurp(dest, &n0);
    assert_int_equal(run_command(src, "copy", dest), EXIT_FAIL);
    char *after = slurp(dest, &n1);
    assert_true(n0 == n1 && memcmp(before, after, n0) == 0);
    free(before);
    free(after);
    assert_version(dest, older);
    remove_store(dest);
    /* Empty: brought to the current schema and filled, as a new file is. */
    older_store(dest, older, 0);
    assert_int_equal(run_command(src, "copy", dest), EXIT_OK);
    assert_version(dest, migrations_count());
    remove_store(dest);
    remove_store(src);
    free(src);
    free(dest);
}

/* backup copies a store of an older schema as it is (the copy to keep
 * before migrating: it used to be refused, 'needs migrations ... run
 * benchdb migrate'). */
static void test_backup_of_an_older_store(void **state)
{
    (void)state;
    char *path = tmp_path("backup-old"), *copy = tmp_path("backup-copy");
    int older = migrations_count() - 1;
    older_store(path, older, 1);
    assert_int_equal(run_command(path, "backup", copy), EXIT_OK);
    assert_version(copy, older);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(copy, &db), SQLITE_OK);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT name FROM plan", -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(st, 0), "kept");
    sqlite3_finalize(st);
    sqlite3_close(db);
    assert_version(path, older); /* the store itself untouched */
    remove_store(path);
    remove_store(copy);
    free(path);
    free(copy);
}

/* A command that writes brings an older store up and says so, once. */
static void test_write_notes_the_migration(void **state)
{
    (void)state;
    char *path = tmp_path("note-old"), *errpath = tmp_path("note-err");
    int older = migrations_count() - 1;
    older_store(path, older, 1);
    fflush(stderr);
    int saved = dup(2);
    FILE *ef = fopen(errpath, "w+");
    assert_non_null(ef);
    dup2(fileno(ef), 2);
    sqlite3 *db;
    char *err = NULL;
    for (int k = 0; k < 2; k++) { /* the second open finds it current */
        assert_int_equal(store_open(path, STORE_WRITE, &db, &err), 0);
        store_close(db);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(ef);
    size_t n;
    char *got = slurp(errpath, &n);
    char want[512];
    snprintf(want, sizeof want,
             "note: %s: the store's schema was brought from version %d to %d; a benchdb that knows only up to "
             "version %d no longer opens it\n",
             path, older, migrations_count(), older);
    assert_string_equal(got, want);
    free(got);
    unlink(errpath);
    remove_store(path);
    free(path);
    free(errpath);
}

static void test_normalize(void **state)
{
    (void)state;
    char *a = sql_normalize("CREATE TABLE t (\n  a INT, -- note\n  b TEXT DEFAULT 'x  y' /* c */\n);");
    assert_string_equal(a, "CREATE TABLE t(a INT,b TEXT DEFAULT 'x  y')");
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_migrations_from_empty_give_schema_sql),
        cmocka_unit_test(test_migrations_from_every_version),
        cmocka_unit_test(test_read_mode_refuses_pending_migrations),
        cmocka_unit_test(test_newer_store_is_refused_and_untouched),
        cmocka_unit_test(test_modified_migration_is_reported),
        cmocka_unit_test(test_not_a_store),
        cmocka_unit_test(test_store_settings),
        cmocka_unit_test(test_copy_into_an_older_store),
        cmocka_unit_test(test_backup_of_an_older_store),
        cmocka_unit_test(test_write_notes_the_migration),
        cmocka_unit_test(test_normalize),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
