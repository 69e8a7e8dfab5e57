/* SQLite's schema migrations: migrations/NNNN_name.sql compiled into the
 * binary, the store's version read from its schema_migration table (and
 * damage named as damage), and a schema described for comparison. The
 * runner of both engines is migrations.c. */
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sqlfn/benchstats.h"
#include "util/diag.h"
#include "util/embedded.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/text.h"

int migrations_count(void) { return (int)embedded_migrations_count; }

const char *store_migration_name(int v)
{
    if (v < 1 || v > migrations_count())
        return NULL;
    return embedded_migrations[v - 1].name;
}

const char *migration_text(int i)
{
    if (i < 1 || i > migrations_count())
        return NULL;
    return embedded_migrations[i - 1].data;
}

static int table_exists(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_schema WHERE type='table' AND name=?", -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        found = 1;
    else if (rc != SQLITE_DONE)
        found = -1;
    sqlite3_finalize(st);
    return found;
}

/* The message for a failed read of the schema: damage named as damage. */
static enum store_schema unreadable(sqlite3 *db, const char *what, char **err)
{
    int code = sqlite3_errcode(db) & 0xff;
    if (code == SQLITE_NOTADB) {
        bd_fail(err, "not a benchdb store (the file is not an SQLite database)");
        return SCHEMA_FOREIGN;
    }
    if (code == SQLITE_CORRUPT) {
        bd_fail(err, "the store is damaged (%s)", sqlite3_errmsg(db));
        return SCHEMA_DAMAGED;
    }
    bd_fail(err, "cannot read the %s: %s", what, sqlite3_errmsg(db));
    return SCHEMA_UNREADABLE;
}

/* One integer (or -1 when NULL) from a query without parameters. */
static int query_int(sqlite3 *db, const char *sql, long long *out, int n)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    for (int i = 0; rc == SQLITE_ROW && i < n; i++)
        out[i] = sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, i);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

enum store_schema store_schema_state(sqlite3 *db, int *version, char **err)
{
    *version = 0;
    int has = table_exists(db, "schema_migration");
    if (has < 0)
        return unreadable(db, "schema", err);
    long long v[3];
    if (!has) {
        if (query_int(db, "SELECT count(*) FROM sqlite_schema", v, 1))
            return unreadable(db, "schema", err);
        if (v[0] != 0) {
            bd_fail(err, "not a benchdb store (an SQLite database without benchdb's schema)");
            return SCHEMA_FOREIGN;
        }
        return SCHEMA_EMPTY;
    }
    /* Migrations are applied one by one, each recorded in the transaction
     * that applies it (the first creates the table): the rows this binary
     * knows of are exactly the versions 1..N. Anything else is damage, not
     * an old schema. (Versions beyond ours are a newer benchdb's.) */
    char sql[160];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FILTER (WHERE version <= %d), min(version), max(version) FROM schema_migration",
             migrations_count());
    if (query_int(db, sql, v, 3))
        return unreadable(db, "schema version", err);
    long long known = v[2] < migrations_count() ? v[2] : migrations_count();
    if (v[0] == 0) {
        bd_fail(err, "the store is damaged (its schema_migration table, which records every migration applied, "
                     "is empty)");
        return SCHEMA_DAMAGED;
    }
    if (v[1] != 1 || v[0] != known) {
        bd_fail(err, "the store is damaged (its schema_migration table records %lld migrations from %lld to %lld, "
                     "where they are numbered 1, 2, 3...)",
                v[0], v[1], known);
        return SCHEMA_DAMAGED;
    }
    *version = (int)v[2];
    return SCHEMA_STORE;
}

int store_schema_version(sqlite3 *db, char **err)
{
    int v;
    enum store_schema s = store_schema_state(db, &v, err);
    return s == SCHEMA_STORE || s == SCHEMA_EMPTY ? v : -1;
}

void store_note_migrated(const char *name, int from, int to)
{
    bd_notice("note: %s: the store's schema was brought from version %d to %d; a benchdb that knows only up to "
              "version %d no longer opens it",
              name, from, to, from);
}

static int migrate(sqlite3 *db, int target, int replay, char **err)
{
    int v = store_schema_version(db, err);
    if (v < 0)
        return -1;
    /* Migrations compute derived data with benchdb's functions (0007:
     * moments() of the log ratios), whoever opened the connection. */
    if (v < migrations_count() && benchstats_register(db) != SQLITE_OK)
        return bd_fail(err, "cannot register benchdb's SQL functions: %s", sqlite3_errmsg(db));
    struct db *h = db_from_sqlite(db, 0);
    if (!h)
        return bd_fail(err, "out of memory");
    int n = replay ? store_replay_migrations(h, target, err) : store_apply_migrations(h, target, err);
    db_close(h);
    return n;
}

int store_migrate(sqlite3 *db, int target, char **err) { return migrate(db, target, 0, err); }

int store_migrate_replay(sqlite3 *db, int target, char **err) { return migrate(db, target, 1, err); }

int store_check_migration_hashes(sqlite3 *db, void (*report)(int, const char *, void *), void *arg)
{
    sqlite3_stmt *st;
    int bad = 0;
    if (sqlite3_prepare_v2(db, "SELECT version, sha256 FROM schema_migration ORDER BY version", -1, &st, NULL) != SQLITE_OK)
        return 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        int i = sqlite3_column_int(st, 0);
        const char *recorded = (const char *)sqlite3_column_text(st, 1);
        const char *text = migration_text(i);
        if (!text || !recorded)
            continue;
        char hex[65];
        sha256_hex_of(text, strlen(text), hex);
        if (strcmp(hex, recorded) != 0) {
            bad++;
            if (report)
                report(i, store_migration_name(i), arg);
        }
    }
    sqlite3_finalize(st);
    return bad;
}

/* Drops comments, collapses whitespace, removes it around punctuation;
 * quoted strings and identifiers are kept as they are. */
char *sql_normalize(const char *s)
{
    struct strbuf sb = {0};
    int pending_space = 0;
    while (*s) {
        if (s[0] == '-' && s[1] == '-') {
            while (*s && *s != '\n')
                s++;
            pending_space = 1;
            continue;
        }
        if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            s = e ? e + 2 : s + strlen(s);
            pending_space = 1;
            continue;
        }
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
            pending_space = 1;
            s++;
            continue;
        }
        int punct = strchr("(),;=", *s) != NULL;
        if (pending_space && sb.len && !punct && !strchr("(,=", sb.buf[sb.len - 1]))
            sb_putc(&sb, ' ');
        pending_space = 0;
        if (*s == '\'' || *s == '"' || *s == '`' || *s == '[') {
            char close = *s == '[' ? ']' : *s;
            sb_putc(&sb, *s++);
            while (*s) {
                if (*s == close) {
                    if (close != ']' && s[1] == close) {
                        sb_append(&sb, s, 2);
                        s += 2;
                        continue;
                    }
                    break;
                }
                sb_putc(&sb, *s++);
            }
            if (*s)
                sb_putc(&sb, *s++);
            continue;
        }
        sb_putc(&sb, *s++);
    }
    while (sb.len && sb.buf[sb.len - 1] == ';')
        sb.buf[--sb.len] = 0;
    return sb_detach(&sb);
}

char *store_schema_describe(sqlite3 *db, char **err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT type, name, tbl_name, sql FROM sqlite_schema "
                           "WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!' AND tbl_name <> 'schema_migration' "
                           "AND sql IS NOT NULL ORDER BY type, name",
                           -1, &st, NULL) != SQLITE_OK) {
        bd_fail(err, "cannot read the schema: %s", sqlite3_errmsg(db));
        return NULL;
    }
    struct strbuf sb = {0};
    while (sqlite3_step(st) == SQLITE_ROW) {
        char *norm = sql_normalize((const char *)sqlite3_column_text(st, 3));
        sb_printf(&sb, "%s %s ON %s: %s\n", (const char *)sqlite3_column_text(st, 0),
                  (const char *)sqlite3_column_text(st, 1), (const char *)sqlite3_column_text(st, 2), norm);
        free(norm);
    }
    sqlite3_finalize(st);
    return sb_detach(&sb);
}
