/* Rules fixed before their data: registering, listing, looking up. */
#include "query/rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/sha256.h"

static int sql_fail(sqlite3 *db, char **err, const char *what)
{
    return bd_fail(err, "cannot %s: %s", what, sqlite3_errmsg(db));
}

/* Runs sql with text parameters (NULL binds NULL) expecting at most one
 * row, which it leaves in *st (finalize it); returns 1 row, 0 none, -1. */
static int one_row(sqlite3 *db, const char *sql, sqlite3_stmt **st, const char *what, char **err, int nargs, ...)
{
    if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
        return sql_fail(db, err, what);
    va_list ap;
    va_start(ap, nargs);
    int rc = SQLITE_OK;
    for (int i = 1; i <= nargs && rc == SQLITE_OK; i++) {
        const char *v = va_arg(ap, const char *);
        rc = v ? sqlite3_bind_text(*st, i, v, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(*st, i);
    }
    va_end(ap);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(*st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    sql_fail(db, err, what);
    sqlite3_finalize(*st);
    *st = NULL;
    return -1;
}

static void copy_text(char *dst, size_t size, sqlite3_stmt *st, int col)
{
    const char *t = (const char *)sqlite3_column_text(st, col);
    snprintf(dst, size, "%s", t ? t : "");
}

int rule_time_valid(sqlite3 *db, const char *s, char **err)
{
    size_t n = strlen(s);
    if (n < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':')
        return 0;
    if (!(s[n - 1] == 'Z' || s[n - 1] == 'z' || (n >= 25 && (s[n - 6] == '+' || s[n - 6] == '-') && s[n - 3] == ':')))
        return 0;
    sqlite3_stmt *st;
    int rc = one_row(db, "SELECT julianday(?) IS NOT NULL", &st, "check the time", err, 1, s);
    int ok = rc == 1 && sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? -1 : ok;
}

int rule_find(sqlite3 *db, const char *sha256, long long *id, char fixed[TIME_TEXT_MAX], char ref[256], char **err)
{
    sqlite3_stmt *st;
    int rc = one_row(db, "SELECT id, coalesce(published_at, registered_at), coalesce(ref, '') FROM rule WHERE sha256 = ?",
                     &st, "look up the registered rule", err, 1, sha256);
    if (rc == 1) {
        *id = sqlite3_column_int64(st, 0);
        copy_text(fixed, TIME_TEXT_MAX, st, 1);
        copy_text(ref, 256, st, 2);
    }
    sqlite3_finalize(st);
    return rc;
}

int rule_register(sqlite3 *db, const struct saved_query *q, const char *published, const char *ref,
                  struct rule_registration *out, char **err)
{
    memset(out, 0, sizeof *out);
    sha256_hex_of(q->text, strlen(q->text), out->sha256);
    sqlite3_stmt *st;
    int rc = one_row(db, "SELECT id, registered_at FROM rule WHERE sha256 = ?", &st, "look up the rule", err, 1,
                     out->sha256);
    if (rc == 1) {
        out->existed = 1;
        out->id = sqlite3_column_int64(st, 0);
        copy_text(out->registered_at, sizeof out->registered_at, st, 1);
    }
    sqlite3_finalize(st);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    time_now_rfc3339(out->registered_at, 0);
    rc = one_row(db, "INSERT INTO rule(name, sha256, text, registered_at, published_at, ref) VALUES (?,?,?,?,?,?)", &st,
                 "register the rule", err, 6, q->name, out->sha256, q->text, out->registered_at, published, ref);
    sqlite3_finalize(st);
    if (rc < 0)
        return -1;
    out->id = sqlite3_last_insert_rowid(db);
    return 0;
}

int rule_list(sqlite3 *db, struct rowset *rs, char **err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT id, name, substr(sha256, 1, 12) AS sha256, registered_at, published_at, ref "
                               "FROM rule ORDER BY id", -1, &st, NULL) != SQLITE_OK)
        return sql_fail(db, err, "list the rules");
    int rc = rowset_collect(rs, st);
    if (rc != SQLITE_DONE)
        sql_fail(db, err, "list the rules");
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int plan_first_start(sqlite3 *db, const char *plan, char out[TIME_TEXT_MAX], char **err)
{
    sqlite3_stmt *st;
    int rc = one_row(db, "SELECT min(r.started_at) FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = ?", &st,
                     "read the plan's start", err, 1, plan);
    int found = rc == 1 && sqlite3_column_type(st, 0) != SQLITE_NULL;
    if (found)
        copy_text(out, TIME_TEXT_MAX, st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? -1 : found;
}

int time_precedes(sqlite3 *db, const char *a, const char *b, char **err)
{
    /* RFC 3339 times with offsets compare once normalised by julianday. */
    sqlite3_stmt *st;
    int rc = one_row(db, "SELECT julianday(?) < julianday(?)", &st, "compare times", err, 2, a, b);
    int before = rc == 1 && sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? -1 : before;
}
