/* The connection layer on PostgreSQL (store/db.h), through libpq: SQLite's
 * parameters rewritten as $N, values sent as text with a type, a query of
 * a read-only transaction read through a cursor in batches (any other
 * statement's result whole on its first step), its rows made
 * sqlite3_values by a private in-memory SQLite connection, errors mapped
 * to SQLite's codes by SQLSTATE. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "fnshared/numfmt.h"
#include "store/db_internal.h"
#include "store/pg_lex.h"
#include "store/pq.h"
#include "util/diag.h"
#include "util/strbuf.h"

#define OID_BOOL 16
#define OID_BYTEA 17
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_TEXT 25
#define OID_OID 26
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

static PGconn *conn(struct db *db) { return db->pg; }

/* libpq's message as one line, malloc'd (NULL: out of memory), so that it
 * reads as one sentence inside benchdb's one-line error and with what
 * benchdb adds after it ("...; nothing was written there"):
 *  - the trailing newline gone, and a closing full stop ("... processing
 *    the request.": "request.; nothing was written" read as two);
 *  - a line libpq indents with a tab and begins in lower case goes on the
 *    sentence it wraps ("terminated abnormally\n\tbefore or while
 *    processing"): a space;
 *  - a line libpq indents with a tab that asks ("\n\tIs the server
 *    running ... connections?") in parentheses after the line it is about,
 *    so that no "?;" follows it;
 *  - any other line break said "; " (the sentence after it going on in
 *    lower case), never printed escaped ("\n\t"). */
static char *one_line(const char *m)
{
    size_t n = strlen(m);
    while (n && (m[n - 1] == '\n' || m[n - 1] == '\r' || m[n - 1] == ' '))
        n--;
    char *out = malloc(3 * n + 1), *w = out;
    for (size_t r = 0; out && r < n;) {
        if (m[r] != '\n' && m[r] != '\r') {
            *w++ = m[r++];
            continue;
        }
        while (r < n && (m[r] == '\n' || m[r] == '\r'))
            r++;
        int tabbed = r < n && m[r] == '\t';
        while (r < n && (m[r] == '\t' || m[r] == ' '))
            r++;
        size_t e = r; /* the line's end */
        while (e < n && m[e] != '\n' && m[e] != '\r')
            e++;
        int asks = tabbed && e > r && m[e - 1] == '?';
        if (tabbed && r < n && islower((unsigned char)m[r]))
            *w++ = ' ';
        else {
            *w++ = asks ? ' ' : ';';
            *w++ = asks ? '(' : ' ';
            if (r + 1 < n && isupper((unsigned char)m[r]) && islower((unsigned char)m[r + 1]))
                *w++ = (char)tolower((unsigned char)m[r++]); /* a sentence goes on: "; is the server ..." */
        }
        if (asks) {
            memcpy(w, m + r, e - r);
            w += e - r;
            *w++ = ')';
            r = e;
        }
    }
    if (out) {
        if (w - out >= 2 && w[-1] == '.' && w[-2] != '.') /* a closing full stop, not "..." */
            w--;
        *w = '\0';
    }
    return out;
}

void db_pg_set_error(struct db *db, int code, const char *state, const char *msg)
{
    /* A connection lost (the server's FATAL ends the session: 57P01
     * terminated by an administrator, 57P02 a crash, 57P03 shutting down;
     * 08: the link) keeps the first reason given for every later error. */
    int lost = (db->pg && PQstatus(conn(db)) == CONNECTION_BAD) ||
               (state && (strncmp(state, "57P0", 4) == 0 || strncmp(state, "08", 2) == 0));
    if (lost && db->lost) {
        msg = db->lost;
        state = db->lost_state;
    }
    free(db->errmsg);
    /* gcc -fanalyzer reads a leak: db->errmsg is freed here next time and
     * when the connection closes. NULL (out of memory) reads as no message. */
    db->errmsg = one_line(msg ? msg : "unknown error");
    db->errcode = code;
    snprintf(db->sqlstate, sizeof db->sqlstate, "%s", state ? state : "");
    if (lost && !db->lost && db->errmsg) {
        db->lost = one_line(db->errmsg);
        snprintf(db->lost_state, sizeof db->lost_state, "%s", db->sqlstate);
    }
}

/* SQLite's code for an SQLSTATE (db.h). */
static int code_of(const char *state)
{
    if (!state || strlen(state) != 5)
        return SQLITE_ERROR;
    if (strncmp(state, "23", 2) == 0)
        return SQLITE_CONSTRAINT;
    if (strcmp(state, "25006") == 0 || strcmp(state, "42501") == 0)
        return SQLITE_READONLY;
    if (strcmp(state, "57014") == 0)
        return SQLITE_INTERRUPT;
    if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 || strcmp(state, "55P03") == 0)
        return SQLITE_BUSY;
    if (strncmp(state, "53", 2) == 0)
        return strcmp(state, "53200") == 0 ? SQLITE_NOMEM : SQLITE_FULL;
    if (strncmp(state, "08", 2) == 0)
        return SQLITE_IOERR;
    return SQLITE_ERROR;
}

/* The server's reason for ending the session, when it gave one before
 * the connection closed (libpq's message then starts with it: "FATAL:
 * terminating connection due to administrator command\nserver closed
 * the connection unexpectedly ..."), malloc'd; else NULL. The result
 * libpq makes for the closed connection carries only its own second
 * line, which says nothing of why. */
static char *server_reason(PGconn *c)
{
    const char *m = PQstatus(c) == CONNECTION_BAD ? PQerrorMessage(c) : NULL;
    if (!m || strncmp(m, "FATAL:", 6) != 0)
        return NULL;
    m += 6;
    m += strspn(m, " ");
    return strndup(m, strcspn(m, "\n"));
}

/* SQLITE_OK when res succeeded, else the error recorded on db. */
static int check_result(struct db *db, PGresult *res)
{
    ExecStatusType s = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_EMPTY_QUERY)
        return SQLITE_OK;
    if (!res) {
        db_pg_set_error(db, PQstatus(conn(db)) == CONNECTION_OK ? SQLITE_NOMEM : SQLITE_IOERR, "", PQerrorMessage(conn(db)));
        return db->errcode;
    }
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    int code = state ? code_of(state) : (PQstatus(conn(db)) == CONNECTION_OK ? SQLITE_ERROR : SQLITE_IOERR);
    char *reason = state ? NULL : server_reason(conn(db));
    db_pg_set_error(db, code, state, reason ? reason : primary ? primary : PQresultErrorMessage(res));
    free(reason);
    return code;
}

static void quiet_notice(void *arg, const PGresult *res)
{
    (void)arg;
    (void)res;
}

struct db *db_connect_pg(const char *name, char **err)
{
    if (pq_load(err))
        return NULL;
    char *conninfo = store_name_conninfo(name);
    PGconn *c = conninfo ? PQconnectdb(conninfo) : NULL;
    if (!c) {
        free(conninfo);
        bd_fail(err, "cannot connect to the PostgreSQL store: out of memory");
        return NULL;
    }
    if (PQstatus(c) != CONNECTION_OK) {
        char *m = one_line(PQerrorMessage(c));
        /* libpq may quote the name, or a piece of a password it misread
         * (an unescaped @ or /): never printed. */
        char *safe = m ? store_name_scrub(name, m) : NULL;
        bd_fail(err, "cannot connect to the PostgreSQL store: %s", safe ? safe : "out of memory");
        free(safe);
        free(m);
        free(conninfo);
        PQfinish(c);
        return NULL;
    }
    struct db *db = calloc(1, sizeof *db);
    if (!db || sqlite3_open_v2(":memory:", &db->lite, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        bd_fail(err, "out of memory");
        if (db)
            sqlite3_close(db->lite);
        free(db);
        free(conninfo);
        PQfinish(c);
        return NULL;
    }
    db->engine = DB_POSTGRESQL;
    db->pg = c;
    db->own = 1;
    db->conninfo = conninfo; /* for pg_wait.c's second connection */
    PQsetNoticeReceiver(c, quiet_notice, NULL);
    char *msg = NULL;
    if (db_pg_exec(db, "SET client_encoding = 'UTF8'; SET extra_float_digits = 3; SET client_min_messages = warning; "
                       "SET search_path = public, benchstats, pg_catalog; SET TIME ZONE 'UTC'; "
                       /* Strings as pg_lex.h reads them (a backslash is a
                        * backslash), whatever the role's or database's
                        * default. */
                       "SET standard_conforming_strings = on; "
                       /* A read-only query is read through a cursor (below);
                        * plan it for its whole result, as when it is not. */
                       "SET cursor_tuple_fraction = 1",
                   &msg) != SQLITE_OK) {
        bd_fail(err, "cannot set up the PostgreSQL session: %s", msg ? msg : "out of memory");
        free(msg);
        db_close(db);
        return NULL;
    }
    return db;
}

void db_pg_close(struct db *db)
{
    db_pg_sync(db);
    db_pg_wait_close(db);
    free(db->conninfo);
    PQfinish(conn(db));
    sqlite3_close(db->lite);
    free(db->errmsg);
    free(db->lost);
}

/* The result of what was just sent, as PQexec gives it: the last one, or
 * the first error; a COPY's stops it. NULL when nothing could be sent. */
static PGresult *collect(struct db *db, int sent)
{
    PGresult *keep = NULL, *r;
    while (sent) {
        db_pg_await(db);
        if (!(r = PQgetResult(conn(db))))
            break;
        ExecStatusType s = PQresultStatus(r);
        if (keep && PQresultStatus(keep) == PGRES_FATAL_ERROR)
            PQclear(r);
        else {
            PQclear(keep);
            keep = r;
        }
        if (s == PGRES_COPY_IN || s == PGRES_COPY_OUT || s == PGRES_COPY_BOTH)
            break;
    }
    return keep;
}

/* ---- Statements sent without waiting ----
 *
 * A writer's statements whose answers it does not need before its next
 * one (db_step_later: an ingest's BEGIN, archive lock, chunks, name
 * inserts, derived rows) are sent in libpq's pipeline mode and their
 * answers read with the next statement that waits, which is sent in the
 * same pipeline: one round trip for all of them (docs/postgresql.md,
 * "ingest"). The first error among them is the one returned; the server
 * skips what follows it up to the sync, and the transaction is aborted,
 * as if each had been waited for. COPY, cursors and several statements
 * in one text do not go in a pipeline: everything pending is read first
 * (db_pg_sync). At most PIPE_MAX statements wait, so that the answers
 * never fill the socket's buffer while the client is still sending. */
enum { PIPE_MAX = 64 };

static void exec_readonly_state(struct db *db, const char *sql);
static int txn_control(const char *sql);

/* Sends one statement into the pipeline (entered when not yet). */
static int pipe_send(struct db *db, const char *sql, int n, const unsigned *types, char *const *values)
{
    PGconn *c = conn(db);
    if (PQpipelineStatus(c) == PQ_PIPELINE_OFF && !PQenterPipelineMode(c))
        return check_result(db, NULL);
    if (!PQsendQueryParams(c, sql, n, types, (const char *const *)values, NULL, NULL, 0))
        return check_result(db, NULL);
    db->pending++;
    return SQLITE_OK;
}

/* Ends the pipeline with a sync and reads every answer in it: the first
 * error's result, else the last statement's (collect's contract). NULL
 * when the connection failed. */
static PGresult *pipe_collect(struct db *db)
{
    PGconn *c = conn(db);
    int n = db->pending;
    db->pending = 0;
    if (!PQpipelineSync(c))
        return NULL;
    PGresult *keep = NULL, *r;
    for (int i = 0; i < n; i++)
        while ((db_pg_await(db), r = PQgetResult(c))) {
            if (keep && PQresultStatus(keep) == PGRES_FATAL_ERROR)
                PQclear(r); /* the rest were skipped (PGRES_PIPELINE_ABORTED) */
            else {
                PQclear(keep);
                keep = r;
            }
        }
    db_pg_await(db);
    PQclear(PQgetResult(c)); /* the sync's PGRES_PIPELINE_SYNC */
    PQexitPipelineMode(c);
    return keep;
}

int db_pg_sync(struct db *db)
{
    if (!db->pending)
        return SQLITE_OK;
    PGresult *res = pipe_collect(db);
    int rc = check_result(db, res);
    PQclear(res);
    return rc;
}

int db_pg_step_later(struct db_stmt *st)
{
    struct db *db = st->db;
    if (st->refused)
        return db->errcode;
    int rc = db->pending >= PIPE_MAX ? db_pg_sync(db) : SQLITE_OK;
    if (rc != SQLITE_OK)
        return rc;
    if (txn_control(st->sql))
        db->txn_readonly = db->begin_readonly = db->plain_begin = 0;
    return pipe_send(db, st->sql, st->nparams, st->types, st->values);
}

int db_pg_exec_later(struct db *db, const char *sql)
{
    int rc = db->pending >= PIPE_MAX ? db_pg_sync(db) : SQLITE_OK;
    if (rc != SQLITE_OK)
        return rc;
    exec_readonly_state(db, sql);
    return pipe_send(db, sql, 0, NULL, NULL);
}

/* The pipeline's answers, the statement just sent last among them: the
 * first error's result, else its own; NULL when it could not be sent. */
static PGresult *pipe_with(struct db *db, int sent)
{
    PGresult *res = pipe_collect(db);
    if (!sent && res && PQresultStatus(res) != PGRES_FATAL_ERROR) {
        PQclear(res);
        return NULL;
    }
    return res;
}

/* PQexec and PQexecParams, waiting as db_pg_await waits. With statements
 * waiting in the pipeline, one statement goes in with them (a ROLLBACK
 * after them, which an error among them would skip, and several
 * statements in one text, which a pipeline cannot take, are sent alone). */
static PGresult *exec_sql(struct db *db, const char *sql)
{
    if (db->pending) {
        if (!strchr(sql, ';') && strcasecmp(sql, "ROLLBACK") != 0)
            return pipe_with(db, pipe_send(db, sql, 0, NULL, NULL) == SQLITE_OK);
        PGresult *res = pipe_collect(db);
        if (check_result(db, res) != SQLITE_OK && strcasecmp(sql, "ROLLBACK") != 0)
            return res;
        PQclear(res);
    }
    return collect(db, PQsendQuery(conn(db), sql));
}
static PGresult *exec_params(struct db_stmt *st, const char *sql)
{
    struct db *db = st->db;
    if (db->pending)
        return pipe_with(db, pipe_send(db, sql, st->nparams, st->types, st->values) == SQLITE_OK);
    return collect(db, PQsendQueryParams(conn(db), sql, st->nparams, st->types, (const char *const *)st->values,
                                         NULL, NULL, 0));
}

/* What sql does to the read-only state (txn_readonly): a plain BEGIN
 * (db_begin_write) begins a transaction as the session's default makes
 * it, known after the first one; COMMIT and ROLLBACK end one; anything
 * else may change either (SET, BEGIN READ ONLY, several statements). */
static void exec_readonly_state(struct db *db, const char *sql)
{
    db->txn_readonly = 0;
    db->plain_begin = 0;
    if (strcmp(sql, "BEGIN") == 0) {
        db->plain_begin = 1;
        db->txn_readonly = db->begin_readonly;
    } else if (strcmp(sql, "COMMIT") != 0 && strcmp(sql, "ROLLBACK") != 0) {
        db->begin_readonly = 0;
    }
}

int db_pg_exec(struct db *db, const char *sql, char **errmsg)
{
    exec_readonly_state(db, sql);
    PGresult *res = exec_sql(db, sql);
    int rc = check_result(db, res);
    PQclear(res);
    if (errmsg)
        *errmsg = rc == SQLITE_OK ? NULL : strdup(db->errmsg);
    return rc;
}

/* Sends a COPY's input and its end (an error instead when data is NULL:
 * the COPY refused); 1 when libpq took it all. */
static int put_copy(PGconn *c, const void *data, size_t n)
{
    /* In pieces of at most 1 GiB (an int's worth for libpq). */
    int ok = 1;
    for (size_t at = 0; data && ok && at < n;) {
        size_t piece = n - at < ((size_t)1 << 30) ? n - at : (size_t)1 << 30;
        ok = PQputCopyData(c, (const char *)data + at, (int)piece) == 1;
        at += piece;
    }
    return PQputCopyEnd(c, data && ok ? NULL : "benchdb could not send the data") == 1 && data && ok;
}

int db_pg_copy_in(struct db *db, const char *sql, const void *data, size_t n)
{
    PGconn *c = conn(db);
    int rc = db_pg_sync(db); /* COPY goes in no pipeline */
    if (rc != SQLITE_OK)
        return rc;
    /* COPY neither begins nor ends a transaction, nor changes whether it
     * only reads: txn_readonly stays. */
    PGresult *res = exec_sql(db, sql);
    if (!res || PQresultStatus(res) != PGRES_COPY_IN) {
        rc = check_result(db, res);
        PQclear(res);
        return rc == SQLITE_OK ? SQLITE_ERROR : rc;
    }
    PQclear(res);
    int ok = put_copy(c, data ? data : "", n);
    while ((db_pg_await(db), res = PQgetResult(c))) {
        int r = check_result(db, res);
        if (rc == SQLITE_OK)
            rc = r;
        PQclear(res);
    }
    if (rc == SQLITE_OK && !ok) {
        db_pg_set_error(db, SQLITE_IOERR, "", PQerrorMessage(c));
        rc = SQLITE_IOERR;
    }
    return rc;
}

/* The rows of a SELECT of one integer column, to cb->ids: its answer, or
 * -2 when out of memory. */
static int give_ids(const struct db_copy_steps *cb, PGresult *res)
{
    size_t n = (size_t)PQntuples(res);
    int64_t *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids)
        return -2;
    for (size_t i = 0; i < n; i++)
        ids[i] = strtoll(PQgetvalue(res, (int)i, 0), NULL, 10);
    int rc = cb->ids(cb->arg, ids, n);
    free(ids);
    return rc;
}

int db_pg_copy_steps(struct db *db, const char *sql, const struct db_copy_steps *cb)
{
    PGconn *c = conn(db);
    int rc = db_pg_sync(db); /* COPY goes in no pipeline */
    if (rc != SQLITE_OK)
        return rc;
    if (!PQsendQuery(c, sql))
        return check_result(db, NULL);
    /* Every result read to the end (libpq's contract), the first error
     * kept; a callback's failure refuses the COPY asked for next. */
    int k = 0, ok = 1, stopped = 0, nomem = 0;
    PGresult *res;
    while ((db_pg_await(db), res = PQgetResult(c))) {
        ExecStatusType st = PQresultStatus(res);
        int given = st == PGRES_TUPLES_OK && !stopped ? give_ids(cb, res) : 0;
        if (given) {
            stopped = 1;
            nomem = given == -2;
        }
        if (st == PGRES_COPY_IN) {
            const void *buf = NULL;
            size_t n = 0;
            if (!stopped && cb->data(cb->arg, k++, &buf, &n))
                stopped = 1;
            if (!put_copy(c, stopped ? NULL : buf ? buf : "", n) && !stopped)
                ok = 0;
        } else if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK && rc == SQLITE_OK) {
            rc = check_result(db, res);
        }
        PQclear(res);
    }
    if (stopped) { /* the caller said why, unless memory ran out here */
        db_pg_set_error(db, nomem ? SQLITE_NOMEM : SQLITE_ABORT, "", nomem ? "out of memory" : "stopped by the caller");
        return db->errcode;
    }
    if (rc == SQLITE_OK && !ok) {
        db_pg_set_error(db, SQLITE_IOERR, "", PQerrorMessage(c));
        rc = SQLITE_IOERR;
    }
    return rc;
}

int db_pg_lost(struct db *db) { return PQstatus(conn(db)) == CONNECTION_BAD; }

int db_pg_autocommit(struct db *db)
{
    db_pg_sync(db); /* an error leaves the transaction open (and aborted) */
    return PQtransactionStatus(conn(db)) == PQTRANS_IDLE;
}

int db_pg_timeout(struct db *db, long long ms)
{
    char sql[80];
    snprintf(sql, sizeof sql, "SET %sstatement_timeout = %lld", db_pg_autocommit(db) ? "" : "LOCAL ", ms);
    int rc = db_pg_exec(db, sql, NULL);
    if (rc == SQLITE_OK)
        db->timeout_ms = ms > 0 ? ms : 0;
    return rc;
}

/* ---- SQL: SQLite's parameters as $N ---- */

/* Adds a parameter of the given name (NULL: positional) as number k
 * (1-based), growing the tables. */
static int add_param(struct db_stmt *st, int k, const char *name, size_t len)
{
    if (k > st->nparams) {
        char **names = realloc(st->param_names, (size_t)k * sizeof *names);
        if (names)
            st->param_names = names;
        unsigned char *seen = realloc(st->seen, (size_t)k);
        if (seen)
            st->seen = seen;
        if (!names || !seen)
            return -1;
        for (int i = st->nparams; i < k; i++) {
            names[i] = NULL;
            seen[i] = 0;
        }
        st->nparams = k;
    }
    st->seen[k - 1] = 1;
    if (name && !st->param_names[k - 1]) {
        st->param_names[k - 1] = malloc(len + 1);
        if (!st->param_names[k - 1])
            return -1;
        memcpy(st->param_names[k - 1], name, len);
        st->param_names[k - 1][len] = '\0';
    }
    return 0;
}

/* The first statement of sql into st->sql with $N parameters; *end after
 * it (past its ';'). Returns SQLITE_OK, or an error code. The statement's
 * end is where PostgreSQL's scanner finds it (pg_lex.h); SQLite's
 * parameters are read in what the scanner takes for code (a ? ?NNN :name
 * @name or $name outside strings, quoted names and comments). */
static int rewrite(struct db_stmt *st, const char *sql, const char **end)
{
    struct strbuf out = {0};
    int next = 0; /* the last parameter number used */
    const char *s = sql;
    int rc = SQLITE_OK;
    for (struct pg_token t; rc == SQLITE_OK && (t = pg_lex(s)).kind != PG_TOK_END && t.kind != PG_TOK_SEMI;) {
        if (t.kind != PG_TOK_OTHER || !strchr("?:@$", *s)) {
            rc = sb_append(&out, s, t.len) ? SQLITE_NOMEM : SQLITE_OK;
            s += t.len;
            continue;
        }
        int k = 0;
        const char *name = NULL;
        size_t len = pg_lex_param(s);
        if (*s == '$' && isdigit((unsigned char)s[1])) { /* PostgreSQL's own */
            char *d;
            k = (int)strtol(s + 1, &d, 10);
            s = d;
        } else if (*s == '?' && len) { /* ? or ?NNN */
            k = len > 1 ? (int)strtol(s + 1, NULL, 10) : next + 1;
            s += len;
            len = 0;
        } else if (len) {
            name = s;
            for (int i = 0; i < st->nparams && !k; i++)
                if (st->param_names[i] && strlen(st->param_names[i]) == len && memcmp(st->param_names[i], s, len) == 0)
                    k = i + 1;
            if (!k)
                k = next + 1;
            s += len;
        } else {
            rc = sb_putc(&out, *s++) ? SQLITE_NOMEM : SQLITE_OK;
            continue;
        }
        if (k < 1 || k > 32766) {
            db_pg_set_error(st->db, SQLITE_RANGE, "", "parameter number out of range");
            rc = SQLITE_RANGE;
            break;
        }
        if (k > next)
            next = k;
        if (add_param(st, k, name, len) || sb_printf(&out, "$%d", k))
            rc = SQLITE_NOMEM;
    }
    *end = *s == ';' ? s + 1 : s;
    if (rc == SQLITE_OK)
        st->sql = sb_detach(&out);
    sb_free(&out);
    return rc;
}

/* Whether sql (up to end) holds only blanks, comments and semicolons. */
static int blank(const char *s, const char *end)
{
    while (s < end) {
        struct pg_token t = pg_lex(s);
        if (t.kind == PG_TOK_END)
            break;
        if (t.kind != PG_TOK_SPACE && t.kind != PG_TOK_COMMENT && t.kind != PG_TOK_SEMI)
            return 0;
        s += t.len;
    }
    return 1;
}

int db_pg_prepare(struct db *db, const char *sql, struct db_stmt **out, const char **tail)
{
    *out = NULL;
    for (;;) {
        struct db_stmt *st = calloc(1, sizeof *st);
        if (!st)
            return SQLITE_NOMEM;
        st->db = db;
        const char *end;
        int rc = rewrite(st, sql, &end);
        if (rc == SQLITE_OK && blank(sql, end) && *end) { /* a lone ';': on to the next statement */
            db_pg_free(st);
            free(st);
            sql = end;
            continue;
        }
        if (tail)
            *tail = end;
        if (rc == SQLITE_OK && blank(sql, end)) {
            db_pg_free(st);
            free(st);
            return SQLITE_OK;
        }
        if (rc == SQLITE_OK && (db->guard || db->guard_connection))
            rc = db_pg_guard_check(db, st->sql);
        if (rc == SQLITE_OK && st->nparams) {
            st->values = calloc((size_t)st->nparams, sizeof *st->values);
            st->types = calloc((size_t)st->nparams, sizeof *st->types);
            if (!st->values || !st->types)
                rc = SQLITE_NOMEM;
            for (int i = 0; rc == SQLITE_OK && i < st->nparams; i++)
                st->types[i] = st->seen[i] ? 0 : OID_TEXT;
        }
        if (rc != SQLITE_OK) {
            if (rc == SQLITE_NOMEM)
                db_pg_set_error(db, rc, "", "out of memory");
            db_pg_free(st);
            free(st);
            return rc;
        }
        *out = st;
        return SQLITE_OK;
    }
}

int db_pg_bind(struct db_stmt *st, int i, int type, sqlite3_int64 iv, double d, const char *s, int n)
{
    if (i < 1 || i > st->nparams)
        return SQLITE_RANGE;
    char buf[64];
    free(st->values[i - 1]);
    st->values[i - 1] = NULL;
    st->types[i - 1] = 0;
    switch (type) {
    case SQLITE_NULL:
        st->types[i - 1] = st->seen[i - 1] ? 0 : OID_TEXT;
        return SQLITE_OK;
    case SQLITE_INTEGER:
        snprintf(buf, sizeof buf, "%lld", (long long)iv);
        st->types[i - 1] = OID_INT8;
        s = buf;
        n = (int)strlen(buf);
        break;
    case SQLITE_BLOB: { /* bytea's hex form */
        static const char hex[] = "0123456789abcdef";
        char *x = malloc(2 * (size_t)n + 3);
        if (!x)
            return SQLITE_NOMEM;
        x[0] = '\\', x[1] = 'x';
        for (int k = 0; k < n; k++) {
            x[2 + 2 * k] = hex[((const unsigned char *)s)[k] >> 4];
            x[3 + 2 * k] = hex[((const unsigned char *)s)[k] & 15];
        }
        x[2 + 2 * n] = '\0';
        st->values[i - 1] = x;
        st->types[i - 1] = OID_BYTEA;
        return SQLITE_OK;
    }
    case SQLITE_FLOAT:
        if (d != d) /* NaN binds NULL, as on SQLite */
            return SQLITE_OK;
        numfmt_real(buf, d);
        st->types[i - 1] = OID_FLOAT8;
        s = buf;
        n = (int)strlen(buf);
        break;
    default:
        break;
    }
    /* A number SQLite's text leaves unused (?3 without ?2): the server
     * cannot infer its type, so it is text. */
    if (!st->seen[i - 1] && !st->types[i - 1])
        st->types[i - 1] = OID_TEXT;
    st->values[i - 1] = malloc((size_t)n + 1);
    if (!st->values[i - 1])
        return SQLITE_NOMEM;
    memcpy(st->values[i - 1], s, (size_t)n);
    st->values[i - 1][n] = '\0';
    return SQLITE_OK;
}

/* Binds cell (row, col) of the result to the value maker's parameter. */
static int bind_cell(struct db_stmt *st, PGresult *res, int row, int col)
{
    sqlite3_stmt *v = st->row_values;
    if (PQgetisnull(res, row, col))
        return sqlite3_bind_null(v, col + 1);
    const char *s = PQgetvalue(res, row, col);
    int n = PQgetlength(res, row, col);
    switch (PQftype(res, col)) {
    case OID_BOOL:
        return sqlite3_bind_int(v, col + 1, s[0] == 't');
    case OID_INT2:
    case OID_INT4:
    case OID_INT8:
    case OID_OID:
        return sqlite3_bind_int64(v, col + 1, strtoll(s, NULL, 10));
    case OID_NUMERIC:
        if (!strpbrk(s, ".eEN")) { /* integral: an integer when it fits, as SQLite's sum() gives */
            errno = 0;
            long long x = strtoll(s, NULL, 10);
            if (errno == 0)
                return sqlite3_bind_int64(v, col + 1, x);
        }
        /* fall through */
    case OID_FLOAT4:
    case OID_FLOAT8: {
        double d = strtod(s, NULL);
        return d != d ? sqlite3_bind_null(v, col + 1) : sqlite3_bind_double(v, col + 1, d);
    }
    case OID_BYTEA: {
        size_t len = 0;
        unsigned char *b = PQunescapeBytea((const unsigned char *)s, &len);
        if (!b)
            return SQLITE_NOMEM;
        int rc = sqlite3_bind_blob(v, col + 1, b, (int)len, SQLITE_TRANSIENT);
        PQfreemem(b);
        return rc;
    }
    default:
        return sqlite3_bind_text(v, col + 1, s, n, SQLITE_TRANSIENT);
    }
}

/* ---- Reading in batches ----
 *
 * A query (SELECT, WITH, VALUES or TABLE) run in a transaction that only
 * reads is declared as a cursor (DECLARE ... NO SCROLL CURSOR FOR, its
 * parameters bound as for any statement) and its rows fetched in batches:
 * 64 rows first, doubling up to 8192 while a batch takes less than 2 MiB,
 * halving while one takes more than 8 MiB. So a caller that stops reading
 * (--max-rows, --max-result-bytes) has the client hold one batch, never
 * the whole result, and the server stops computing: the cursor is closed
 * at the caller's reset or finalize (or once it ran out). Several cursors
 * may be open at once (a statement stepped while another runs, as
 * 'benchdb check' does), which libpq's single-row mode does not allow.
 * statement_timeout bounds the whole query, not each FETCH: each fetch
 * runs with the time left (SET LOCAL before it, the limit restored after
 * it, in one round trip). Writes, COPY, transaction control and any
 * statement outside a read-only transaction are read whole, as before. */
enum { BATCH_FIRST = 64, BATCH_MAX = 8192, BATCH_GROW_BYTES = 2 << 20, BATCH_SHRINK_BYTES = 8 << 20 };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Whether sql is a query a cursor runs as it runs alone: SELECT, WITH,
 * VALUES or TABLE first, and no INTO, INSERT, UPDATE, DELETE or MERGE
 * anywhere (SELECT INTO and a data-modifying WITH, which DECLARE refuses;
 * FOR UPDATE left alone too). */
static int cursor_query(const char *sql)
{
    const char *at = sql, *w;
    size_t n;
    if (!(w = pg_lex_next_word(&at, &n, 0)) ||
        !(pg_lex_word_is(w, n, "select") || pg_lex_word_is(w, n, "with") || pg_lex_word_is(w, n, "values") || pg_lex_word_is(w, n, "table")))
        return 0;
    while ((w = pg_lex_next_word(&at, &n, 0)))
        if (pg_lex_word_is(w, n, "into") || pg_lex_word_is(w, n, "insert") || pg_lex_word_is(w, n, "update") || pg_lex_word_is(w, n, "delete") ||
            pg_lex_word_is(w, n, "merge"))
            return 0;
    return 1;
}

/* Whether the open transaction only reads: asked once per transaction
 * (forgotten whenever one may begin or end), and once per session for
 * the transactions a plain BEGIN begins (an ingest's, one per archive). */
static int txn_readonly(struct db *db)
{
    if (db->pending) /* known (execute read the pipeline otherwise): what was sent decides */
        return db->txn_readonly == 1;
    if (PQtransactionStatus(conn(db)) != PQTRANS_INTRANS) {
        db->txn_readonly = 0;
        return 0;
    }
    if (!db->txn_readonly) {
        PGresult *r = PQexec(conn(db), "SHOW transaction_read_only");
        db->txn_readonly = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
                                   strcmp(PQgetvalue(r, 0, 0), "on") == 0
                               ? 1
                               : 2;
        PQclear(r);
        if (db->plain_begin)
            db->begin_readonly = db->txn_readonly;
    }
    return db->txn_readonly == 1;
}

static void close_cursor(struct db_stmt *st)
{
    if (st->cursor[0])
        db_pg_sync(st->db); /* its error is the next statement's */
    if (st->cursor[0] && PQtransactionStatus(conn(st->db)) == PQTRANS_INTRANS) {
        char sql[48];
        snprintf(sql, sizeof sql, "CLOSE %s", st->cursor);
        PQclear(PQexec(conn(st->db), sql)); /* an error here ends nothing the caller needs */
    }
    st->cursor[0] = '\0';
}

/* Runs sql (statements in one message) and returns the result holding
 * rows, or NULL with the first error recorded on db (*rc its code). */
static PGresult *run_for_rows(struct db *db, const char *sql, int *rc)
{
    PGconn *c = conn(db);
    PGresult *rows = NULL, *res;
    if ((*rc = db_pg_sync(db)) != SQLITE_OK)
        return NULL;
    if (!PQsendQuery(c, sql)) {
        *rc = check_result(db, NULL);
        return NULL;
    }
    while ((res = PQgetResult(c))) {
        int r = check_result(db, res);
        if (r != SQLITE_OK && *rc == SQLITE_OK)
            *rc = r;
        if (r == SQLITE_OK && PQresultStatus(res) == PGRES_TUPLES_OK && !rows)
            rows = res;
        else
            PQclear(res);
    }
    if (*rc != SQLITE_OK || !rows) {
        PQclear(rows);
        if (*rc == SQLITE_OK)
            *rc = check_result(db, NULL);
        return NULL;
    }
    return rows;
}

/* The cursor's next batch into st->res. */
static int fetch(struct db_stmt *st)
{
    struct db *db = st->db;
    char sql[256];
    if (db->timeout_ms > 0) {
        long long left = db->timeout_ms - (long long)(now_ms() - st->started);
        if (left < 1) { /* the server's own words for it */
            close_cursor(st);
            db_pg_set_error(db, SQLITE_INTERRUPT, "57014", "canceling statement due to statement timeout");
            return SQLITE_INTERRUPT;
        }
        snprintf(sql, sizeof sql, "SET LOCAL statement_timeout = %lld; FETCH %d FROM %s; SET LOCAL statement_timeout = %lld",
                 left, st->batch, st->cursor, db->timeout_ms);
    } else
        snprintf(sql, sizeof sql, "FETCH %d FROM %s", st->batch, st->cursor);
    int rc;
    PGresult *res = run_for_rows(db, sql, &rc);
    PQclear(st->res);
    st->res = res;
    st->row = -1;
    st->nrows = 0;
    if (!res) {
        st->cursor[0] = '\0'; /* the transaction failed: the cursor with it */
        return rc;
    }
    st->nrows = PQntuples(res);
    size_t bytes = 0;
    for (int r = 0; r < st->nrows; r++)
        for (int c = 0; c < PQnfields(res); c++)
            bytes += (size_t)PQgetlength(res, r, c);
    if (st->nrows < st->batch)
        close_cursor(st);
    else if (bytes > BATCH_SHRINK_BYTES && st->batch > 1)
        st->batch /= 2;
    else if (bytes < BATCH_GROW_BYTES && st->batch < BATCH_MAX)
        st->batch *= 2;
    return SQLITE_OK;
}

/* Whether sql begins with a word that may begin or end a transaction or
 * change its mode. */
static int txn_control(const char *sql)
{
    static const char *const words[] = {"begin",   "start",   "commit", "end",     "rollback", "abort", "set",
                                        "reset",   "savepoint", "release", "prepare", "discard", NULL};
    const char *at = sql, *w;
    size_t n;
    if (!(w = pg_lex_next_word(&at, &n, 0)))
        return 0;
    for (int i = 0; words[i]; i++)
        if (pg_lex_word_is(w, n, words[i]))
            return 1;
    return 0;
}

/* Runs the statement (declares its cursor and fetches the first batch, or
 * reads its result whole) and makes its value maker. */
static int execute(struct db_stmt *st)
{
    struct db *db = st->db;
    int rc;
    /* Whether the transaction only reads, when statements wait in the
     * pipeline: known when they began it with a plain BEGIN (its kind
     * known), else read after them. */
    if (db->pending && !db->txn_readonly && cursor_query(st->sql) && (rc = db_pg_sync(db)) != SQLITE_OK)
        return rc;
    if (cursor_query(st->sql) && txn_readonly(db)) {
        if ((rc = db_pg_sync(db)) != SQLITE_OK)
            return rc;
        snprintf(st->cursor, sizeof st->cursor, "benchdb_cursor_%u", ++db->cursors);
        char *sql = bd_strdupf("DECLARE %s NO SCROLL CURSOR FOR %s", st->cursor, st->sql);
        if (!sql) {
            st->cursor[0] = '\0';
            db_pg_set_error(db, SQLITE_NOMEM, "", "out of memory");
            return SQLITE_NOMEM;
        }
        PGresult *res = PQexecParams(conn(db), sql, st->nparams, st->types, (const char *const *)st->values, NULL,
                                     NULL, 0);
        free(sql);
        rc = check_result(db, res);
        PQclear(res);
        if (rc != SQLITE_OK) {
            st->cursor[0] = '\0';
            return rc;
        }
        st->batch = BATCH_FIRST;
        st->started = now_ms();
        if ((rc = fetch(st)) != SQLITE_OK)
            return rc;
    } else {
        if (txn_control(st->sql))
            db->txn_readonly = db->begin_readonly = db->plain_begin = 0;
        PGresult *res = exec_params(st, st->sql);
        rc = check_result(db, res);
        if (rc != SQLITE_OK) {
            PQclear(res);
            return rc;
        }
        st->res = res;
        st->row = -1;
        st->nrows = PQntuples(res);
    }
    st->ncols = PQnfields(st->res);
    /* The value maker of the statement's last run serves again when the
     * columns are as many (an ingest runs its statements thousands of
     * times: SQLite's compile of it is then paid once). */
    if (st->row_values && sqlite3_bind_parameter_count(st->row_values) != st->ncols) {
        sqlite3_finalize(st->row_values);
        st->row_values = NULL;
    }
    if (st->ncols > 0 && !st->row_values) {
        struct strbuf sql = {0};
        int bad = sb_puts(&sql, "SELECT ");
        for (int c = 1; c <= st->ncols && !bad; c++)
            bad = sb_printf(&sql, "%s?%d", c > 1 ? ", " : "", c);
        if (bad || sqlite3_prepare_v2(db->lite, sql.buf, -1, &st->row_values, NULL) != SQLITE_OK) {
            sb_free(&sql);
            db_pg_set_error(db, SQLITE_NOMEM, "", "out of memory (a result of many columns?)");
            return SQLITE_NOMEM;
        }
        sb_free(&sql);
    }
    return SQLITE_OK;
}

int db_pg_step(struct db_stmt *st)
{
    if (st->refused) /* the server refused it when describing it: the same error again */
        return st->db->errcode;
    if (!st->res) {
        int rc = execute(st);
        if (rc != SQLITE_OK)
            return rc;
    }
    if (st->row + 1 >= st->nrows && st->cursor[0]) { /* the cursor's next batch */
        int rc = fetch(st);
        if (rc != SQLITE_OK)
            return rc;
    }
    if (st->row + 1 >= st->nrows) {
        st->row = st->nrows;
        return SQLITE_DONE;
    }
    st->row++;
    sqlite3_reset(st->row_values);
    for (int c = 0; c < st->ncols; c++)
        if (bind_cell(st, st->res, st->row, c) != SQLITE_OK) {
            db_pg_set_error(st->db, SQLITE_NOMEM, "", "out of memory");
            return SQLITE_NOMEM;
        }
    return sqlite3_step(st->row_values) == SQLITE_ROW ? SQLITE_ROW : SQLITE_NOMEM;
}

int db_pg_reset(struct db_stmt *st)
{
    close_cursor(st);
    PQclear(st->res);
    st->res = NULL;
    if (st->row_values) { /* kept for the next run (execute); its cells let go */
        sqlite3_reset(st->row_values);
        sqlite3_clear_bindings(st->row_values);
    }
    st->ncols = 0;
    return SQLITE_OK;
}

/* The result's shape: the executed result's, else (before the first
 * step, as SQLite gives names after prepare) the statement's description
 * from the server. NULL when the server refuses the statement. */
static PGresult *shape(struct db_stmt *st)
{
    if (st->res)
        return st->res;
    if (!st->desc) {
        if (db_pg_sync(st->db) != SQLITE_OK)
            return NULL; /* the error is the statement's to return when it runs */
        PGresult *p = PQprepare(conn(st->db), "", st->sql, st->nparams, st->types);
        int rc = check_result(st->db, p);
        PQclear(p);
        if (rc != SQLITE_OK) {
            st->refused = 1;
            return NULL;
        }
        st->desc = PQdescribePrepared(conn(st->db), "");
        if (check_result(st->db, st->desc) != SQLITE_OK) {
            PQclear(st->desc);
            st->desc = NULL;
        }
    }
    return st->desc;
}

int db_pg_column_count(struct db_stmt *st)
{
    PGresult *r = shape(st);
    return r ? PQnfields(r) : 0;
}

const char *db_pg_column_name(struct db_stmt *st, int i)
{
    PGresult *r = shape(st);
    return r && i >= 0 && i < PQnfields(r) ? PQfname(r, i) : NULL;
}

void db_pg_free(struct db_stmt *st)
{
    db_pg_reset(st);
    for (int i = 0; i < st->nparams; i++) {
        if (st->param_names)
            free(st->param_names[i]);
        if (st->values)
            free(st->values[i]);
    }
    free(st->param_names);
    free(st->seen);
    free(st->values);
    free(st->types);
    free(st->sql);
    PQclear(st->desc);
    sqlite3_finalize(st->row_values);
    st->row_values = NULL;
}
