/* The connection layer on SQLite (store/db.h): each call is SQLite's own.
 * The PostgreSQL backend (db_pg.c) shares struct db and struct db_stmt
 * (db_internal.h); every entry point here passes a PostgreSQL handle on
 * to it. */
#include <stdlib.h>
#include <string.h>

#include "store/db_internal.h"

struct db *db_from_sqlite(sqlite3 *h, int own)
{
    struct db *db = calloc(1, sizeof *db);
    if (!db)
        return NULL;
    db->engine = DB_SQLITE;
    db->lite = h;
    db->own = own;
    return db;
}

void db_close(struct db *db)
{
    if (!db)
        return;
    if (db->engine == DB_POSTGRESQL)
        db_pg_close(db);
    else if (db->own)
        sqlite3_close(db->lite);
    free(db);
}

enum db_engine db_engine(const struct db *db) { return db->engine; }
sqlite3 *db_sqlite(const struct db *db) { return db->engine == DB_SQLITE ? db->lite : NULL; }

int db_prepare(struct db *db, const char *sql, struct db_stmt **st) { return db_prepare_tail(db, sql, st, NULL); }

int db_prepare_tail(struct db *db, const char *sql, struct db_stmt **st, const char **tail)
{
    *st = NULL;
    if (db->engine == DB_POSTGRESQL)
        return db_pg_prepare(db, sql, st, tail);
    sqlite3_stmt *h = NULL;
    int rc = sqlite3_prepare_v2(db->lite, sql, -1, &h, tail);
    if (rc != SQLITE_OK || !h)
        return rc;
    struct db_stmt *s = calloc(1, sizeof *s);
    if (!s) {
        sqlite3_finalize(h);
        return SQLITE_NOMEM;
    }
    s->db = db;
    s->lite = h;
    *st = s;
    return SQLITE_OK;
}

#define PG(st) ((st)->db->engine == DB_POSTGRESQL)

int db_describe(struct db_stmt *st)
{
    if (!PG(st))
        return SQLITE_OK;
    db_pg_column_count(st);
    return st->refused ? st->db->errcode : SQLITE_OK;
}

int db_bind_int(struct db_stmt *st, int i, int v) { return db_bind_int64(st, i, v); }
int db_bind_int64(struct db_stmt *st, int i, sqlite3_int64 v)
{
    return PG(st) ? db_pg_bind(st, i, SQLITE_INTEGER, v, 0, NULL, 0) : sqlite3_bind_int64(st->lite, i, v);
}
int db_bind_double(struct db_stmt *st, int i, double v)
{
    return PG(st) ? db_pg_bind(st, i, SQLITE_FLOAT, 0, v, NULL, 0) : sqlite3_bind_double(st->lite, i, v);
}
int db_bind_text(struct db_stmt *st, int i, const char *s, int n)
{
    if (!s)
        return db_bind_null(st, i);
    return PG(st) ? db_pg_bind(st, i, SQLITE_TEXT, 0, 0, s, n < 0 ? (int)strlen(s) : n)
                  : sqlite3_bind_text(st->lite, i, s, n, SQLITE_STATIC);
}
int db_bind_null(struct db_stmt *st, int i)
{
    return PG(st) ? db_pg_bind(st, i, SQLITE_NULL, 0, 0, NULL, 0) : sqlite3_bind_null(st->lite, i);
}
int db_bind_blob(struct db_stmt *st, int i, const void *p, int n)
{
    return PG(st) ? db_pg_bind(st, i, SQLITE_BLOB, 0, 0, p, n) : sqlite3_bind_blob(st->lite, i, p, n, SQLITE_STATIC);
}
int db_clear_bindings(struct db_stmt *st)
{
    if (!PG(st))
        return sqlite3_clear_bindings(st->lite);
    for (int i = 1; i <= st->nparams; i++)
        db_pg_bind(st, i, SQLITE_NULL, 0, 0, NULL, 0);
    return SQLITE_OK;
}
int db_bind_parameter_count(struct db_stmt *st)
{
    return PG(st) ? st->nparams : sqlite3_bind_parameter_count(st->lite);
}
const char *db_bind_parameter_name(struct db_stmt *st, int i)
{
    if (!PG(st))
        return sqlite3_bind_parameter_name(st->lite, i);
    return i >= 1 && i <= st->nparams ? st->param_names[i - 1] : NULL;
}

int db_step(struct db_stmt *st) { return PG(st) ? db_pg_step(st) : sqlite3_step(st->lite); }
int db_step_later(struct db_stmt *st)
{
    if (PG(st))
        return db_pg_step_later(st);
    int rc = sqlite3_step(st->lite);
    sqlite3_reset(st->lite);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}
int db_reset(struct db_stmt *st) { return PG(st) ? db_pg_reset(st) : sqlite3_reset(st->lite); }
int db_finalize(struct db_stmt *st)
{
    if (!st)
        return SQLITE_OK;
    int rc;
    if (PG(st)) {
        rc = db_pg_reset(st);
        db_pg_free(st);
    } else
        rc = sqlite3_finalize(st->lite);
    free(st);
    return rc;
}

/* The statement whose columns the accessors read: SQLite's own, or on
 * PostgreSQL the value maker holding the current row. */
static sqlite3_stmt *cells(struct db_stmt *st) { return PG(st) ? st->row_values : st->lite; }

int db_column_count(struct db_stmt *st) { return PG(st) ? db_pg_column_count(st) : sqlite3_column_count(st->lite); }
const char *db_column_name(struct db_stmt *st, int i)
{
    return PG(st) ? db_pg_column_name(st, i) : sqlite3_column_name(st->lite, i);
}
int db_column_type(struct db_stmt *st, int i) { return sqlite3_column_type(cells(st), i); }
sqlite3_int64 db_column_int64(struct db_stmt *st, int i) { return sqlite3_column_int64(cells(st), i); }
int db_column_int(struct db_stmt *st, int i) { return sqlite3_column_int(cells(st), i); }
double db_column_double(struct db_stmt *st, int i) { return sqlite3_column_double(cells(st), i); }
const unsigned char *db_column_text(struct db_stmt *st, int i) { return sqlite3_column_text(cells(st), i); }
int db_column_bytes(struct db_stmt *st, int i) { return sqlite3_column_bytes(cells(st), i); }
sqlite3_value *db_column_value(struct db_stmt *st, int i) { return sqlite3_column_value(cells(st), i); }

int db_stmt_readonly(struct db_stmt *st) { return PG(st) ? 1 : sqlite3_stmt_readonly(st->lite); }
struct db *db_stmt_db(struct db_stmt *st) { return st->db; }

int db_exec(struct db *db, const char *sql, char **errmsg)
{
    if (db->engine == DB_POSTGRESQL)
        return db_pg_exec(db, sql, errmsg);
    char *msg = NULL;
    int rc = sqlite3_exec(db->lite, sql, NULL, NULL, &msg);
    if (errmsg)
        *errmsg = rc == SQLITE_OK ? NULL : strdup(msg ? msg : sqlite3_errmsg(db->lite));
    sqlite3_free(msg);
    return rc;
}

int db_exec_later(struct db *db, const char *sql)
{
    return db->engine == DB_POSTGRESQL ? db_pg_exec_later(db, sql) : db_exec(db, sql, NULL);
}

const char *db_errmsg(struct db *db)
{
    return db->engine == DB_POSTGRESQL ? (db->errmsg ? db->errmsg : "not an error") : sqlite3_errmsg(db->lite);
}
int db_errcode(struct db *db)
{
    return db->engine == DB_POSTGRESQL ? db->errcode : sqlite3_errcode(db->lite) & 0xff;
}
const char *db_sqlstate(struct db *db) { return db->engine == DB_POSTGRESQL ? db->sqlstate : ""; }
int db_autocommit(struct db *db)
{
    return db->engine == DB_POSTGRESQL ? db_pg_autocommit(db) : sqlite3_get_autocommit(db->lite);
}
int db_lost(struct db *db) { return db->engine == DB_POSTGRESQL && db_pg_lost(db); }
int db_copy_in(struct db *db, const char *sql, const void *data, size_t n)
{
    return db->engine == DB_POSTGRESQL ? db_pg_copy_in(db, sql, data, n) : SQLITE_MISUSE;
}
int db_copy_steps(struct db *db, const char *sql, const struct db_copy_steps *cb)
{
    return db->engine == DB_POSTGRESQL ? db_pg_copy_steps(db, sql, cb) : SQLITE_MISUSE;
}

sqlite3_int64 db_last_insert_id(struct db *db)
{
    if (db->engine == DB_SQLITE)
        return sqlite3_last_insert_rowid(db->lite);
    struct db_stmt *st = NULL;
    sqlite3_int64 id = 0;
    if (db_prepare(db, "SELECT lastval()", &st) == SQLITE_OK && st && db_step(st) == SQLITE_ROW)
        id = db_column_int64(st, 0);
    db_finalize(st);
    return id;
}

int db_pg_set_timeout(struct db *db, long long ms)
{
    return db->engine == DB_POSTGRESQL ? db_pg_timeout(db, ms) : SQLITE_OK;
}
