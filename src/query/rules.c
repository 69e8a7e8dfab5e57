/* Rules fixed before their data: registering, listing, looking up. */
#include "query/rules.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/dialect.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/xalloc.h"

static int sql_fail(struct db *db, char **err, const char *what)
{
    return bd_fail(err, "cannot %s: %s", what, db_errmsg(db));
}

/* Runs sql with text parameters (NULL binds NULL) expecting at most one
 * row, which it leaves in *st (finalize it); returns 1 row, 0 none, -1. */
static int one_row(struct db *db, const char *sql, struct db_stmt **st, const char *what, char **err, int nargs, ...)
{
    if (db_prepare(db, sql, st) != SQLITE_OK)
        return sql_fail(db, err, what);
    va_list ap;
    va_start(ap, nargs);
    int rc = SQLITE_OK;
    for (int i = 1; i <= nargs && rc == SQLITE_OK; i++) {
        const char *v = va_arg(ap, const char *);
        rc = v ? db_bind_text(*st, i, v, -1) : db_bind_null(*st, i);
    }
    va_end(ap);
    if (rc == SQLITE_OK)
        rc = db_step(*st);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    sql_fail(db, err, what);
    db_finalize(*st);
    *st = NULL;
    return -1;
}

static void copy_text(char *dst, size_t size, struct db_stmt *st, int col)
{
    const char *t = (const char *)db_column_text(st, col);
    snprintf(dst, size, "%s", t ? t : "");
}

int rule_time_valid(struct db *db, const char *s, char **err)
{
    size_t n = strlen(s);
    if (n < 20 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':')
        return 0;
    if (!(s[n - 1] == 'Z' || s[n - 1] == 'z' || (n >= 25 && (s[n - 6] == '+' || s[n - 6] == '-') && s[n - 3] == ':')))
        return 0;
    struct db_stmt *st;
    int rc = one_row(db, db_dialect(db)->time_valid, &st, "check the time", err, 1, s);
    int ok = rc == 1 && db_column_int(st, 0);
    db_finalize(st);
    return rc < 0 ? -1 : ok;
}

int rule_find(struct db *db, const char *sha256, long long *id, char fixed[TIME_TEXT_MAX], char ref[256], char **err)
{
    struct db_stmt *st;
    int rc = one_row(db, "SELECT id, coalesce(published_at, registered_at), coalesce(ref, '') FROM rule WHERE sha256 = ?",
                     &st, "look up the registered rule", err, 1, sha256);
    if (rc == 1) {
        *id = db_column_int64(st, 0);
        copy_text(fixed, TIME_TEXT_MAX, st, 1);
        copy_text(ref, 256, st, 2);
    }
    db_finalize(st);
    return rc;
}

int rule_register(struct db *db, const struct saved_query *q, const char *published, const char *ref,
                  struct rule_registration *out, char **err)
{
    memset(out, 0, sizeof *out);
    sha256_hex_of(q->text, strlen(q->text), out->sha256);
    struct db_stmt *st;
    int rc = one_row(db, "SELECT id, registered_at FROM rule WHERE sha256 = ?", &st, "look up the rule", err, 1,
                     out->sha256);
    if (rc == 1) {
        out->existed = 1;
        out->id = db_column_int64(st, 0);
        copy_text(out->registered_at, sizeof out->registered_at, st, 1);
    }
    db_finalize(st);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    time_now_rfc3339(out->registered_at, 0);
    rc = one_row(db, "INSERT INTO rule(name, sha256, text, registered_at, published_at, ref) VALUES (?,?,?,?,?,?) "
                     "RETURNING id",
                 &st, "register the rule", err, 6, q->name, out->sha256, q->text, out->registered_at, published, ref);
    if (rc == 1)
        out->id = db_column_int64(st, 0);
    if (rc == 1 && db_step(st) != SQLITE_DONE)
        rc = sql_fail(db, err, "register the rule");
    db_finalize(st);
    return rc == 1 ? 0 : -1;
}

int rule_list(struct db *db, struct rowset *rs, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, "SELECT id, name, substr(sha256, 1, 12) AS sha256, registered_at, published_at, ref "
                       "FROM rule ORDER BY id", &st) != SQLITE_OK)
        return sql_fail(db, err, "list the rules");
    int rc = rowset_collect_db(rs, st);
    if (rc != SQLITE_DONE)
        sql_fail(db, err, "list the rules");
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int rule_find_named(struct db *db, const char *name, long long *id, char sha256[65], char fixed[TIME_TEXT_MAX],
                    long long *count, char **err)
{
    struct db_stmt *st;
    int rc = one_row(db,
                     "SELECT id, sha256, coalesce(published_at, registered_at), "
                     "(SELECT count(*) FROM rule WHERE name = ?) FROM rule WHERE name = ? ORDER BY id DESC LIMIT 1",
                     &st, "look up the rules of that name", err, 2, name, name);
    if (rc == 1) {
        *id = db_column_int64(st, 0);
        copy_text(sha256, 65, st, 1);
        copy_text(fixed, TIME_TEXT_MAX, st, 2);
        *count = db_column_int64(st, 3);
    }
    db_finalize(st);
    return rc;
}

int rule_text(struct db *db, long long id, char **text, char **name, char **err)
{
    char key[32];
    snprintf(key, sizeof key, "%lld", id);
    struct db_stmt *st;
    *text = *name = NULL;
    int rc = one_row(db, "SELECT text, name FROM rule WHERE id = CAST(? AS BIGINT)", &st, "read the rule", err, 1, key);
    if (rc == 1) {
        const char *t = (const char *)db_column_text(st, 0), *nm = (const char *)db_column_text(st, 1);
        *text = xstrdup(t ? t : "");
        *name = xstrdup(nm ? nm : "");
    }
    db_finalize(st);
    return rc;
}

int rule_names(struct db *db, long long **ids, char ***names, size_t *n, char **err)
{
    struct db_stmt *st;
    *ids = NULL;
    *names = NULL;
    *n = 0;
    if (db_prepare(db, "SELECT id, name FROM rule ORDER BY id", &st) != SQLITE_OK)
        return sql_fail(db, err, "list the rules");
    size_t cap = 0;
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            *ids = xreallocarray(*ids, cap, sizeof **ids);
            *names = xreallocarray(*names, cap, sizeof **names);
        }
        const char *nm = (const char *)db_column_text(st, 1);
        (*ids)[*n] = db_column_int64(st, 0);
        (*names)[(*n)++] = xstrdup(nm ? nm : "");
    }
    if (rc != SQLITE_DONE)
        sql_fail(db, err, "list the rules");
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int rule_registered_at(struct db *db, long long id, char out[TIME_TEXT_MAX], char **err)
{
    char key[32];
    snprintf(key, sizeof key, "%lld", id);
    struct db_stmt *st;
    int rc = one_row(db, "SELECT registered_at FROM rule WHERE id = CAST(? AS BIGINT)", &st, "read the rule", err, 1,
                     key);
    if (rc == 1)
        copy_text(out, TIME_TEXT_MAX, st, 0);
    db_finalize(st);
    return rc;
}

int plan_first_start(struct db *db, const char *plan, char out[TIME_TEXT_MAX], char **err)
{
    struct db_stmt *st;
    int rc = one_row(db, "SELECT min(r.started_at) FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = ?", &st,
                     "read the plan's start", err, 1, plan);
    int found = rc == 1 && db_column_type(st, 0) != SQLITE_NULL;
    if (found)
        copy_text(out, TIME_TEXT_MAX, st, 0);
    db_finalize(st);
    return rc < 0 ? -1 : found;
}

int time_precedes(struct db *db, const char *a, const char *b, char **err)
{
    /* RFC 3339 times with offsets compare once normalised (to SQLite's
     * Julian day in milliseconds, on both engines). */
    struct db_stmt *st;
    int rc = one_row(db, db_dialect(db)->time_precedes, &st, "compare times", err, 2, a, b);
    int before = rc == 1 && db_column_int(st, 0);
    db_finalize(st);
    return rc < 0 ? -1 : before;
}
