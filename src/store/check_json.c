/* 'benchdb check': every JSON column holds valid JSON in every row. The
 * columns are found in the store's own schema (each column a CHECK
 * constraint passes to json_valid), so a column added by a migration is
 * checked without a change here. The constraints keep bad JSON out of a
 * sound store; this finds what came in around them (PRAGMA
 * ignore_check_constraints, an edited file), which would otherwise surface
 * only as a saved query failing with "malformed JSON" and naming no row.
 *
 * On PostgreSQL a json column holds valid JSON by its type: it is counted,
 * not read. A text column holding JSON (benchmark.params) has a CHECK
 * constraint calling benchdb_json_valid, found and run the same way; what
 * came in around it (a constraint dropped and added back NOT VALID) is
 * found so. */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "util/diag.h"
#include "util/strbuf.h"

/* Errors printed per column; the rest are counted. */
enum { SHOWN_PER_COLUMN = 10 };

/* The column named in each "json_valid(NAME)" of a table's SQL, appended to
 * cols as "NAME\0" entries (each once). */
static void json_columns(const char *sql, struct strbuf *cols)
{
    static const char key[] = "json_valid(";
    for (const char *p = sql; (p = strstr(p, key)) != NULL;) {
        p += sizeof key - 1;
        while (*p == ' ')
            p++;
        size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (!n)
            continue;
        int seen = 0;
        for (size_t at = 0; at < cols->len; at += strlen(cols->buf + at) + 1)
            seen |= strlen(cols->buf + at) == n && strncmp(cols->buf + at, p, n) == 0;
        if (!seen) {
            sb_append(cols, p, n);
            sb_putc(cols, 0);
        }
        p += n;
    }
}

/* The column naming a row of table: its one-column primary key, else
 * SQLite's rowid (PostgreSQL's ctid). */
static char *row_key(struct db *db, const char *table)
{
    int pg = db_engine(db) == DB_POSTGRESQL;
    struct db_stmt *st = NULL;
    char *key = NULL;
    if (db_prepare(db, pg ? "SELECT min(a.attname), count(*) FROM pg_index x JOIN pg_attribute a "
                            "ON a.attrelid = x.indrelid AND a.attnum = ANY(x.indkey) "
                            "WHERE x.indrelid = CAST(quote_ident(CAST(? AS TEXT)) AS regclass) AND x.indisprimary"
                          : "SELECT min(name), count(*) FROM pragma_table_info(?) WHERE pk > 0",
                   &st) == SQLITE_OK) {
        db_bind_text(st, 1, table, -1);
        if (db_step(st) == SQLITE_ROW && db_column_int(st, 1) == 1)
            key = strdup((const char *)db_column_text(st, 0));
    }
    db_finalize(st);
    return key ? key : strdup(pg ? "ctid" : "rowid");
}

/* Checks one column; returns the number of bad values, or -1. */
static int64_t check_column(struct db *db, const char *table, const char *column)
{
    char *key = row_key(db, table);
    char *sql = sqlite3_mprintf("SELECT \"%w\" FROM \"%w\" WHERE \"%w\" IS NOT NULL AND NOT %s(\"%w\") "
                                "ORDER BY 1",
                                key, table, column, db_engine(db) == DB_POSTGRESQL ? "benchdb_json_valid" : "json_valid",
                                column);
    struct db_stmt *st = NULL;
    int64_t bad = -1;
    if (sql && db_prepare(db, sql, &st) == SQLITE_OK) {
        int rc;
        bad = 0;
        while ((rc = db_step(st)) == SQLITE_ROW) {
            if (bad++ < SHOWN_PER_COLUMN)
                bd_error("check: %s %s: %s is not valid JSON", table, (const char *)db_column_text(st, 0), column);
        }
        if (rc != SQLITE_DONE)
            bad = -1;
        else if (bad > SHOWN_PER_COLUMN)
            bd_error("check: %s: %" PRId64 " more rows whose %s is not valid JSON", table, bad - SHOWN_PER_COLUMN,
                     column);
    }
    if (bad < 0)
        bd_error("check: JSON in %s.%s: %s", table, column, db_errmsg(db));
    db_finalize(st);
    sqlite3_free(sql);
    free(key);
    return bad;
}

/* Each table: its name, the SQL holding its CHECK constraints, and (on
 * PostgreSQL) how many json or jsonb columns it has. */
static const char tables_sqlite[] =
    "SELECT name, sql, 0 FROM sqlite_schema WHERE type = 'table' AND sql IS NOT NULL ORDER BY name";
static const char tables_pg[] =
    "SELECT c.relname, coalesce((SELECT string_agg(pg_get_constraintdef(k.oid), ' ') FROM pg_constraint k "
    "WHERE k.conrelid = c.oid AND k.contype = 'c'), ''), (SELECT count(*) FROM pg_attribute a WHERE "
    "a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.atttypid IN (CAST('json' AS regtype), "
    "CAST('jsonb' AS regtype))) FROM pg_class c WHERE c.relkind IN ('r', 'p') "
    "AND c.relnamespace = CAST(current_schema() AS regnamespace) ORDER BY c.relname";

int store_check_json(struct db *db, FILE *out, int *problems)
{
    struct db_stmt *st = NULL;
    if (db_prepare(db, db_engine(db) == DB_POSTGRESQL ? tables_pg : tables_sqlite, &st) != SQLITE_OK) {
        bd_error("check: JSON columns: %s", db_errmsg(db));
        return -1;
    }
    int columns = 0, rc;
    int64_t bad = 0;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *table = (const char *)db_column_text(st, 0);
        columns += db_column_int(st, 2); /* json: valid by construction */
        struct strbuf cols = {0};
        json_columns((const char *)db_column_text(st, 1), &cols);
        for (size_t at = 0; at < cols.len; at += strlen(cols.buf + at) + 1) {
            int64_t n = check_column(db, table, cols.buf + at);
            columns++;
            if (n < 0) {
                sb_free(&cols);
                db_finalize(st);
                return -1;
            }
            bad += n;
        }
        sb_free(&cols);
    }
    db_finalize(st);
    if (rc != SQLITE_DONE) {
        bd_error("check: JSON columns: %s", db_errmsg(db));
        return -1;
    }
    *problems += bad > 1000000 ? 1000000 : (int)bad;
    if (bad)
        fprintf(out, "check: %d JSON columns: %" PRId64 " value%s NOT valid JSON\n", columns, bad,
                bad == 1 ? " is" : "s are");
    else
        fprintf(out, "check: %d JSON columns: valid JSON in every row\n", columns);
    return 0;
}
