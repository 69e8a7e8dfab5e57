/* 'benchdb check': every JSON column holds valid JSON in every row. The
 * columns are found in the store's own schema (each column a CHECK
 * constraint passes to json_valid), so a column added by a migration is
 * checked without a change here. The constraints keep bad JSON out of a
 * sound store; this finds what came in around them (PRAGMA
 * ignore_check_constraints, an edited file), which would otherwise surface
 * only as a saved query failing with "malformed JSON" and naming no row. */
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

/* The column naming a row of table: its one-column primary key, else rowid. */
static char *row_key(sqlite3 *db, const char *table)
{
    sqlite3_stmt *st;
    char *key = NULL;
    if (sqlite3_prepare_v2(db, "SELECT min(name), count(*) FROM pragma_table_info(?) WHERE pk > 0", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 1) == 1)
            key = strdup((const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    return key ? key : strdup("rowid");
}

/* Checks one column; returns the number of bad values, or -1. */
static int64_t check_column(sqlite3 *db, const char *table, const char *column)
{
    char *key = row_key(db, table);
    char *sql = sqlite3_mprintf("SELECT \"%w\" FROM \"%w\" WHERE \"%w\" IS NOT NULL AND NOT json_valid(\"%w\") "
                                "ORDER BY 1",
                                key, table, column, column);
    sqlite3_stmt *st = NULL;
    int64_t bad = -1;
    if (sql && sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
        int rc;
        bad = 0;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            if (bad++ < SHOWN_PER_COLUMN)
                bd_error("check: %s %s: %s is not valid JSON", table, (const char *)sqlite3_column_text(st, 0), column);
        }
        if (rc != SQLITE_DONE)
            bad = -1;
        else if (bad > SHOWN_PER_COLUMN)
            bd_error("check: %s: %" PRId64 " more rows whose %s is not valid JSON", table, bad - SHOWN_PER_COLUMN,
                     column);
    }
    if (bad < 0)
        bd_error("check: JSON in %s.%s: %s", table, column, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    sqlite3_free(sql);
    free(key);
    return bad;
}

int store_check_json(sqlite3 *db, FILE *out, int *problems)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql IS NOT NULL "
                               "ORDER BY name",
                           -1, &st, NULL) != SQLITE_OK) {
        bd_error("check: JSON columns: %s", sqlite3_errmsg(db));
        return -1;
    }
    int columns = 0, rc;
    int64_t bad = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *table = (const char *)sqlite3_column_text(st, 0);
        struct strbuf cols = {0};
        json_columns((const char *)sqlite3_column_text(st, 1), &cols);
        for (size_t at = 0; at < cols.len; at += strlen(cols.buf + at) + 1) {
            int64_t n = check_column(db, table, cols.buf + at);
            columns++;
            if (n < 0) {
                sb_free(&cols);
                sqlite3_finalize(st);
                return -1;
            }
            bad += n;
        }
        sb_free(&cols);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        bd_error("check: JSON columns: %s", sqlite3_errmsg(db));
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
