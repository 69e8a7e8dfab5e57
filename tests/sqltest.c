/* sqltest FILE.sql: runs a data-driven SQL case file against a fresh store
 * with every benchdb function registered.
 *
 * Conventions (after SQLite's own test files):
 *  1. Statements run in order. A statement that returns rows must return two
 *     columns, a case id and a check, and every check must be the integer 1:
 *       SELECT 'geomean-two', geomean(x) = 2.0 FROM (...);
 *  2. A statement preceded by a comment line "-- error: TEXT" must fail with
 *     exactly TEXT as its error message.
 *  3. Any other failure, a check other than 1, a checking statement that
 *     returns no rows, or a case id seen twice fails the file; every failing
 *     case is named on stderr. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "util/strbuf.h"

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct strbuf sb = {0};
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_append(&sb, buf, n);
    fclose(f);
    return sb_detach(&sb);
}

/* The text after "-- error: " in the statement's leading comments, or NULL. */
static char *expected_error(const char *stmt)
{
    const char *p = stmt;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (p[0] != '-' || p[1] != '-')
            return NULL;
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        if (strncmp(p, "-- error: ", 10) == 0) {
            const char *e = eol;
            while (e > p + 10 && (e[-1] == '\r' || e[-1] == ' '))
                e--;
            return strndup(p + 10, (size_t)(e - (p + 10)));
        }
        p = eol;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sqltest FILE.sql\n");
        return 2;
    }
    char *text = read_file(argv[1]);
    if (!text) {
        fprintf(stderr, "sqltest: cannot read %s\n", argv[1]);
        return 2;
    }
    sqlite3 *db;
    char *err = NULL;
    if (store_open(":memory:", STORE_CREATE, &db, &err)) {
        fprintf(stderr, "sqltest: %s\n", err);
        return 2;
    }
    int failures = 0, cases = 0;
    struct strbuf seen = {0};
    sb_putc(&seen, '\n');
    struct strbuf stmt = {0};
    int line = 1, stmt_line = 1;
    for (const char *p = text; *p; p++) {
        if (stmt.len == 0 || strspn(stmt.buf, " \t\r\n") == stmt.len)
            stmt_line = line;
        sb_putc(&stmt, *p);
        if (*p == '\n')
            line++;
        if (*p != ';' || !sqlite3_complete(stmt.buf))
            continue;
        char *want = expected_error(stmt.buf);
        sqlite3_stmt *st = NULL;
        int rc = sqlite3_prepare_v2(db, stmt.buf, -1, &st, NULL);
        int rows = 0;
        while (rc == SQLITE_OK && st && (rc = sqlite3_step(st)) == SQLITE_ROW && (rc = SQLITE_OK) == SQLITE_OK) {
            if (sqlite3_column_count(st) != 2) {
                fprintf(stderr, "%s:%d: a checking statement must return (case id, check)\n", argv[1], stmt_line);
                failures++;
                rc = SQLITE_DONE;
                break;
            }
            rows++;
            const char *id = (const char *)sqlite3_column_text(st, 0);
            char key[512];
            snprintf(key, sizeof key, "\n%s\n", id ? id : "(null)");
            if (strstr(seen.buf, key)) {
                fprintf(stderr, "%s:%d: case id '%s' used twice\n", argv[1], stmt_line, id ? id : "(null)");
                failures++;
            }
            sb_puts(&seen, key + 1);
            cases++;
            if (sqlite3_column_type(st, 1) != SQLITE_INTEGER || sqlite3_column_int64(st, 1) != 1) {
                const char *got = (const char *)sqlite3_column_text(st, 1);
                fprintf(stderr, "%s:%d: FAIL %s (check gave %s)\n", argv[1], stmt_line, id ? id : "(null)",
                        got ? got : "NULL");
                failures++;
            }
        }
        if ((rc == SQLITE_OK || rc == SQLITE_DONE) && st && rows == 0 && sqlite3_column_count(st) == 2 &&
            sqlite3_stmt_readonly(st)) {
            /* A check that returns no row checks nothing. */
            fprintf(stderr, "%s:%d: FAIL a checking statement returned no rows\n", argv[1], stmt_line);
            failures++;
        }
        if (rc == SQLITE_OK || rc == SQLITE_DONE) {
            if (want) {
                fprintf(stderr, "%s:%d: FAIL expected the error \"%s\", but the statement succeeded\n", argv[1],
                        stmt_line, want);
                failures++;
            }
        } else {
            const char *msg = sqlite3_errmsg(db);
            if (!want) {
                fprintf(stderr, "%s:%d: FAIL error: %s\n", argv[1], stmt_line, msg);
                failures++;
            } else if (strcmp(want, msg) != 0) {
                fprintf(stderr, "%s:%d: FAIL expected the error \"%s\", got \"%s\"\n", argv[1], stmt_line, want, msg);
                failures++;
            } else {
                cases++;
            }
        }
        sqlite3_finalize(st);
        free(want);
        sb_reset(&stmt);
    }
    store_close(db);
    sb_free(&stmt);
    sb_free(&seen);
    free(text);
    if (cases == 0) {
        fprintf(stderr, "%s: no cases\n", argv[1]);
        return 1;
    }
    printf("%s: %d cases, %d failures\n", argv[1], cases, failures);
    return failures ? 1 : 0;
}
