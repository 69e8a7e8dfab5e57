/* Build-time generator of the SQLite store at the latest version in one
 * step (docs/schema.md, "How a new store is made"):
 *
 *     sqlite_schema_snapshot OUT.c
 *
 * replays migrations/NNNN_name.sql (compiled in, as in benchdb) into an
 * in-memory database, each after the bookkeeping table's statement as
 * store/migrations.c runs them, and writes OUT.c: the statements of
 * sqlite_schema in rowid order (the order SQLite made them in, which
 * `.schema` shows), as SQLite stored them, then the rows the migrations
 * left in each table, as INSERTs. schema_migration (made by the runner
 * before the text, as in a replay), SQLite's automatic indexes and the
 * migrations' own rows are left out: the runner makes and records those.
 * Run on its output, SQLite stores each statement's text as it is (it
 * stores CREATE statements from the name on, after "CREATE TABLE " and
 * the like, which a stored text already is), so a store made from it is
 * the replayed one; the test unit/schema_snapshot compares the two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sqlfn/benchstats.h"
#include "store/sqlite_bookkeeping.h"
#include "util/embedded.h"

static int fail(sqlite3 *db, const char *what)
{
    fprintf(stderr, "sqlite_schema_snapshot: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    return 1;
}

/* Appends s (n bytes) to *buf. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (*len + n + 1 > c)
            c *= 2;
        char *b = realloc(*buf, c);
        if (!b)
            return -1;
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = 0;
    return 0;
}

/* The INSERTs of table's rows: one statement per row, each value as
 * SQLite's quote() gives it (a REAL in a form that reads back as the same
 * double). */
static int dump_rows(sqlite3 *db, const char *table, char **buf, size_t *len, size_t *cap)
{
    sqlite3_stmt *cols = NULL, *rows = NULL;
    char *sel = sqlite3_mprintf("'INSERT INTO \"%w\" VALUES('", table);
    int rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?) ORDER BY cid", -1, &cols, NULL);
    if (rc == SQLITE_OK)
        sqlite3_bind_text(cols, 1, table, -1, SQLITE_STATIC);
    for (int i = 0; sel && rc == SQLITE_OK && sqlite3_step(cols) == SQLITE_ROW; i++) {
        char *s = sqlite3_mprintf("%s%s || quote(\"%w\")", sel, i ? " || ','" : "", sqlite3_column_text(cols, 0));
        sqlite3_free(sel);
        sel = s;
    }
    sqlite3_finalize(cols);
    char *sql = sel ? sqlite3_mprintf("SELECT %s || ');' FROM \"%w\"", sel, table) : NULL;
    sqlite3_free(sel);
    if (rc == SQLITE_OK && !sql)
        rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, sql, -1, &rows, NULL);
    sqlite3_free(sql);
    while (rc == SQLITE_OK && (rc = sqlite3_step(rows)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(rows, 0);
        rc = append(buf, len, cap, t, strlen(t)) || append(buf, len, cap, "\n", 1) ? SQLITE_NOMEM : SQLITE_OK;
    }
    sqlite3_finalize(rows);
    return rc == SQLITE_DONE ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sqlite_schema_snapshot OUT.c\n");
        return 2;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) != SQLITE_OK ||
        benchstats_register(db) != SQLITE_OK || sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL))
        return fail(db, "cannot open an in-memory database");
    for (size_t i = 0; i < embedded_migrations_count; i++)
        if (sqlite3_exec(db, STORE_SQLITE_BOOKKEEPING, NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(db, embedded_migrations[i].data, NULL, NULL, NULL) != SQLITE_OK)
            return fail(db, embedded_migrations[i].name);

    char *text = NULL;
    size_t len = 0, cap = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "SELECT type, name, sql FROM sqlite_schema ORDER BY rowid", -1, &st, NULL) != SQLITE_OK)
        return fail(db, "cannot read the schema");
    int first = 1, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        const char *sql = (const char *)sqlite3_column_text(st, 2);
        if (first && strcmp(name, "schema_migration") != 0) {
            fprintf(stderr, "sqlite_schema_snapshot: schema_migration is not the store's first object\n");
            return 1;
        }
        first = 0;
        if (!sql || strcmp(name, "schema_migration") == 0)
            continue;
        if (strncmp(name, "sqlite_", 7) == 0) { /* sqlite_sequence, sqlite_stat1: none yet */
            fprintf(stderr, "sqlite_schema_snapshot: the migrations make %s, which this generator cannot copy\n", name);
            return 1;
        }
        if (append(&text, &len, &cap, sql, strlen(sql)) || append(&text, &len, &cap, ";\n", 2))
            return fail(NULL, "cannot keep the schema");
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(db, "cannot read the schema");

    if (sqlite3_prepare_v2(db,
                           "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'schema_migration' "
                           "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(db, "cannot read the tables");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (dump_rows(db, (const char *)sqlite3_column_text(st, 0), &text, &len, &cap))
            return fail(db, "cannot read a table's rows");
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return fail(db, "cannot read the tables");
    sqlite3_close(db);

    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "/* Generated by tools/gen/sqlite_schema_snapshot.c from migrations/: do not edit. */\n"
                 "#include \"util/embedded.h\"\n\nstatic const unsigned char text[] = {\n");
    for (size_t i = 0; i < len; i++)
        fprintf(out, "0x%02x,%s", (unsigned char)text[i], i % 16 == 15 ? "\n" : "");
    fprintf(out, "0x00};\n\nconst struct embedded_file embedded_sqlite_schema = {\"the schema of version %zu\", "
                 "(const char *)text, %zu};\nconst int embedded_sqlite_schema_version = %zu;\n",
            embedded_migrations_count, len, embedded_migrations_count);
    free(text);
    if (fclose(out) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
