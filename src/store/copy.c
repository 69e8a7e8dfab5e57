/* Copying a whole store into another (store/copy.h, docs/copy.md). */
#include "store/copy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fnshared/numfmt.h"
#include "store/db_internal.h"
#include "store/dialect.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/test_hold.h"
#include "util/strbuf.h"

/* Every table of the schema in an order its foreign keys allow, each with
 * its key (the order rows are read and written in). The ones the copy
 * leaves: schema_migration (each store records its own migrations),
 * SQLite's ingest_defer (empty outside an ingest's transaction) and
 * PostgreSQL's sample_values, read and written as the view sample of the
 * same rows as SQLite's table (sample_to_pg). A table
 * of the source named in neither list stops the copy: a schema change
 * that adds one must add it here. */
static const struct {
    const char *name, *key;
} tables[] = {
    {"archive", "id"},
    {"archive_chunk", "archive_id, seq"},
    {"plan", "id"},
    {"host", "id"},
    {"variant", "id"},
    {"benchmark", "id"},
    {"run", "id"},
    {"unit", "name"},
    {"archive_member", "id"},
    {"series", "id"},
    {"sample", "series_id, warmup, iteration"},
    {"gate", "id"},
    {"event", "id"},
    {"block_score_data", "run_id, benchmark_id, block, variant_id"},
    {"run_cell_data", "run_id, benchmark_id"},
    {"history_point_data", "run_id, benchmark_id, variant_id, metric"},
    {"rule", "id"},
    {"evaluation", "id"},
};
#define NTABLES (sizeof tables / sizeof tables[0])
static const char *const left[] = {"schema_migration", "ingest_defer", "sample_values", NULL};

/* Rows sent to PostgreSQL per COPY statement, at most (bytes). For tests
 * only, $BENCHDB_TEST_COPY_BATCH=BYTES sets a smaller batch, so that a
 * small store crosses the batches' boundaries as a large one does
 * (tests/pg/test_copy.sh). */
#define COPY_BATCH (8u << 20)

static size_t copy_batch(void)
{
    const char *env = getenv("BENCHDB_TEST_COPY_BATCH");
    char *end = NULL;
    unsigned long long n = env && *env ? strtoull(env, &end, 10) : 0;
    return n > 0 && n < COPY_BATCH && !*end ? (size_t)n : COPY_BATCH;
}

struct store_copy {
    struct db *src, *dst;
    int src_open, dst_open;
    /* SQLite destination: its triggers, dropped for the copy and created
     * again from their own text (so the schema's text is unchanged). */
    char **trig_sql;
    size_t ntrig;
    /* PostgreSQL destination: the tables whose triggers were disabled. */
    char **trig_tables;
    size_t ntrig_tables;
    /* PostgreSQL destination: its foreign keys, dropped for the copy and
     * added again before the commit ("ALTER TABLE t ADD CONSTRAINT name
     * definition": one check of the whole table instead of one query per
     * row; the same names and definitions). */
    char **fkeys;
    size_t nfkeys;
};

static int fail_db(char **err, struct db *db, const char *what)
{
    return bd_fail(err, "%s: %s", what, db_errmsg(db));
}

static int known(const char *name)
{
    for (size_t i = 0; i < NTABLES; i++)
        if (strcmp(tables[i].name, name) == 0)
            return 1;
    for (size_t i = 0; left[i]; i++)
        if (strcmp(left[i], name) == 0)
            return 1;
    return 0;
}

/* Collects the first column of sql's rows (malloc'd strings). */
static int texts(struct db *db, const char *sql, char ***out, size_t *n, char **err)
{
    *out = NULL;
    *n = 0;
    struct db_stmt *st = NULL;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return fail_db(err, db, "cannot read the schema");
    int rc;
    size_t cap = 0;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            size_t nc = cap ? 2 * cap : 16;
            char **v = realloc(*out, nc * sizeof *v);
            if (!v)
                break;
            *out = v;
            cap = nc;
        }
        const char *t = (const char *)db_column_text(st, 0);
        if (!((*out)[*n] = strdup(t ? t : "")))
            break;
        (*n)++;
    }
    if (rc != SQLITE_DONE) {
        int r = rc == SQLITE_ROW ? bd_fail(err, "out of memory") : fail_db(err, db, "cannot read the schema");
        db_finalize(st);
        return r;
    }
    db_finalize(st);
    return 0;
}

static void free_texts(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The source's tables must all be known. */
static int check_source(struct db *src, char **err)
{
    char **names;
    size_t n;
    if (texts(src,
              src->engine == DB_POSTGRESQL
                  ? "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1"
                  : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
                    "ORDER BY 1",
              &names, &n, err))
        return -1;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (!known(names[i]))
            rc = bd_fail(err, "the source holds a table this benchdb does not copy: %s (a newer benchdb's schema?)",
                         names[i]);
    free_texts(names, n);
    return rc;
}

/* 0 when the destination's table holds no row; -1 with *err when it
 * holds one (naming it) or cannot be read. */
static int table_empty(struct db *dst, const char *table, char **err)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT 1 FROM \"%s\" LIMIT 1", table);
    struct db_stmt *st = NULL;
    int rc = db_prepare(dst, sql, &st) == SQLITE_OK ? db_step(st) : SQLITE_ERROR;
    db_finalize(st);
    if (rc == SQLITE_ROW)
        return bd_fail(err, "the destination is not empty: its table %s holds rows (benchdb copy writes only into a "
                            "new or empty store)",
                       table);
    return rc == SQLITE_DONE ? 0 : fail_db(err, dst, "cannot read the destination");
}

/* Refused as check_empty refuses, at whatever schema version dst is (opened
 * with STORE_INSPECT): the tables that hold a store's data, each since the
 * version that made it. */
static int check_empty_as_is(struct db *dst, char **err)
{
    /* the tables of every version since the one that made them: a store
     * with data holds an archive or a plan, a rule or an evaluation */
    static const struct {
        const char *name;
        int since;
    } held[] = {{"archive", 1}, {"plan", 1}, {"rule", 2}, {"evaluation", 2}};
    int version = store_version(dst, err);
    if (version < 0)
        return -1;
    for (size_t i = 0; i < sizeof held / sizeof *held; i++) {
        if (version < held[i].since)
            continue;
        if (table_empty(dst, held[i].name, err))
            return -1;
    }
    return 0;
}

/* A file that does not exist: the store made in a temporary beside it,
 * renamed to it once whole (store_copy_place). */
static int connect_new(const char *dest, struct db **out, char **partial, char **err)
{
    /* A server's name mistyped is refused as store_open refuses it (its
     * password masked), not made a file of. */
    char *mistaken = store_name_mistaken(dest);
    if (mistaken) {
        char *shown = store_name_masked(dest);
        bd_fail(err, "%s: %s", shown ? shown : "DEST", mistaken);
        free(shown);
        free(mistaken);
        return -1;
    }
    char *tmp = store_partial_new(dest);
    if (!tmp) {
        const char *why = store_unwritable_because(dest);
        return bd_fail(err, "%s: cannot create the store here: %s", dest, why ? why : strerror(errno));
    }
    char *e = NULL;
    if (store_connect(tmp, STORE_CREATE, out, &e)) {
        bd_fail(err, "%s: cannot create the store here (in %s, renamed to it once whole): %s", dest, tmp,
                e ? e : "out of memory");
        free(e);
        store_partial_discard(tmp);
        return -1;
    }
    *partial = tmp;
    return 0;
}

int store_copy_place(struct db *dst, char *partial, const char *dest, char **err)
{
    db_close(dst);
    return partial ? store_partial_place(partial, dest, err) : 0;
}

void store_copy_discard(struct db *dst, char *partial)
{
    db_close(dst);
    if (partial)
        store_partial_discard(partial);
}

int store_copy_connect(const char *dest, struct db **out, int *named, int *made, char **partial, char **err)
{
    *out = NULL;
    *named = 0;
    *made = 0;
    *partial = NULL;
    /* A link to nothing would be followed by SQLite and the store created
     * wherever it points (a file the link's maker chose the name of, with
     * text from archives in it): refused, as report -o refuses one. */
    struct stat l, t;
    if (!db_is_server_name(dest) && lstat(dest, &l) == 0 && S_ISLNK(l.st_mode) && stat(dest, &t) != 0)
        return bd_fail(err, "is a symbolic link to a file that does not exist (not followed: name the file itself)");
    if (!db_is_server_name(dest) && lstat(dest, &l) != 0 && errno == ENOENT) {
        int rc = connect_new(dest, out, partial, err);
        *named = rc != 0;
        return rc;
    }
    if (db_is_server_name(dest) || access(dest, F_OK) == 0) {
        struct db *as_is = NULL;
        if (store_connect(dest, STORE_INSPECT, &as_is, err)) {
            *named = 1;
            return -1;
        }
        int rc = check_empty_as_is(as_is, err);
        /* a reader's copy refused as its other writes are, not by the
         * first table whose foreign keys it may not set aside */
        if (rc == 0 && store_version(as_is, NULL) > 0)
            rc = store_may_own(as_is, "a copy into it", err);
        /* the schema made or brought up now is committed on its own, before
         * the copy's transaction: it stays should the copy fail */
        char *why = NULL;
        *made = rc == 0 && store_version(as_is, &why) < store_migrations_known(as_is);
        free(why);
        db_close(as_is);
        if (rc)
            return -1;
    }
    if (store_connect(dest, STORE_CREATE, out, err)) {
        *named = 1;
        return -1;
    }
    return 0;
}

/* The destination must hold no rows (units aside: the schema's own). */
static int check_empty(struct db *dst, char **err)
{
    for (size_t i = 0; i < NTABLES; i++) {
        if (strcmp(tables[i].name, "unit") == 0)
            continue;
        if (table_empty(dst, tables[i].name, err))
            return -1;
    }
    return 0;
}

/* SQLite: a read transaction (one snapshot) under the read-only guard,
 * which refuses BEGIN itself. PostgreSQL: a REPEATABLE READ, READ ONLY
 * transaction. */
static int source_snapshot(struct db *src, int on)
{
    if (src->engine == DB_POSTGRESQL)
        return on ? db_pg_begin_readonly(src, 0) : db_pg_end_readonly(src);
    store_guard_readonly(src->lite, 0);
    int rc = sqlite3_exec(src->lite, on ? "BEGIN; SELECT count(*) FROM sqlite_master" : "COMMIT", NULL, NULL, NULL);
    store_guard_readonly(src->lite, sqlite3_db_readonly(src->lite, "main") == 1);
    return rc;
}

/* The destination's triggers stand aside: SQLite has no way to disable a
 * trigger but to drop it (inside the transaction: a failed copy leaves
 * them); PostgreSQL's ALTER TABLE ... DISABLE TRIGGER USER, undone before
 * the commit, and its foreign keys dropped, to be added again then. */
static int triggers_aside(struct store_copy *c, char **err)
{
    struct db *dst = c->dst;
    if (dst->engine == DB_POSTGRESQL) {
        if (texts(dst,
                  "SELECT DISTINCT CAST(CAST(tgrelid AS regclass) AS TEXT) FROM pg_trigger t JOIN pg_class r "
                  "ON r.oid = t.tgrelid WHERE NOT t.tgisinternal AND r.relnamespace = "
                  "CAST(CAST(current_schema() AS regnamespace) AS oid) ORDER BY 1",
                  &c->trig_tables, &c->ntrig_tables, err))
            return -1;
        if (texts(dst,
                  "SELECT 'ALTER TABLE ' || CAST(CAST(conrelid AS regclass) AS TEXT) || ' ADD CONSTRAINT ' || "
                  "quote_ident(conname) || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'f' "
                  "AND connamespace = CAST(CAST(current_schema() AS regnamespace) AS oid) ORDER BY oid",
                  &c->fkeys, &c->nfkeys, err))
            return -1;
        if (db_exec(dst,
                    "DO $$ DECLARE k record; BEGIN FOR k IN SELECT conrelid, conname FROM pg_constraint WHERE "
                    "contype = 'f' AND connamespace = CAST(CAST(current_schema() AS regnamespace) AS oid) LOOP "
                    "EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', CAST(k.conrelid AS regclass), k.conname); "
                    "END LOOP; END $$",
                    NULL) != SQLITE_OK)
            return bd_fail(err, "cannot set the destination's foreign keys aside: %s", db_errmsg(dst));
        for (size_t i = 0; i < c->ntrig_tables; i++) {
            char *sql = bd_strdupf("ALTER TABLE %s DISABLE TRIGGER USER", c->trig_tables[i]);
            int rc = sql ? db_exec(dst, sql, NULL) : SQLITE_NOMEM;
            free(sql);
            if (rc != SQLITE_OK)
                return bd_fail(err, "cannot set the destination's triggers aside (ALTER TABLE %s: %s)",
                               c->trig_tables[i], db_errmsg(dst));
        }
        return 0;
    }
    char **names;
    size_t n;
    if (texts(dst, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid", &names, &n, err))
        return -1;
    if (texts(dst, "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid", &c->trig_sql, &c->ntrig,
              err) ||
        c->ntrig != n) {
        free_texts(names, n);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *sql = bd_strdupf("DROP TRIGGER \"%s\"", names[i]);
        if (!sql || db_exec(dst, sql, NULL) != SQLITE_OK)
            rc = sql ? fail_db(err, dst, "cannot set the destination's triggers aside") : bd_fail(err, "out of memory");
        free(sql);
    }
    free_texts(names, n);
    return rc;
}

int store_copy_open(struct db *src, struct db *dst, struct store_copy **out, char **err)
{
    *out = NULL;
    struct store_copy *c = calloc(1, sizeof *c);
    if (!c)
        return bd_fail(err, "out of memory");
    c->src = src;
    c->dst = dst;
    *out = c;
    if (source_snapshot(src, 1) != SQLITE_OK)
        return fail_db(err, src, "cannot read the source");
    c->src_open = 1;
    if (check_source(src, err))
        return -1;
    db_tune_for_writing(dst);
    if (db_begin_write(dst) != SQLITE_OK)
        return fail_db(err, dst, "cannot begin writing the destination");
    c->dst_open = 1;
    if (check_empty(dst, err) || triggers_aside(c, err))
        return -1;
    if (db_exec(dst, "DELETE FROM \"unit\"", NULL) != SQLITE_OK)
        return fail_db(err, dst, "cannot write the destination");
    return 0;
}

/* ---- rows ---- */

/* An event's value is any scalar on SQLite, text on PostgreSQL (numbers
 * in their shortest round-trip form, as ingest writes them there): copied
 * to SQLite, a text that is exactly such a number's form is the number
 * again (docs/copy.md). */
static int bind_any(sqlite3_stmt *ins, int i, sqlite3_value *v)
{
    if (sqlite3_value_type(v) == SQLITE_TEXT) {
        const char *t = (const char *)sqlite3_value_text(v);
        char *end, buf[40];
        long long ll = strtoll(t, &end, 10);
        if (*t && !*end && snprintf(buf, sizeof buf, "%lld", ll) > 0 && strcmp(buf, t) == 0)
            return sqlite3_bind_int64(ins, i, ll);
        double d = strtod(t, &end);
        if (*t && !*end) {
            numfmt_real(buf, d);
            if (strcmp(buf, t) == 0)
                return sqlite3_bind_double(ins, i, d);
        }
    }
    return sqlite3_bind_value(ins, i, v);
}

/* One cell in COPY's text format. */
static int copy_field(struct strbuf *sb, struct db_stmt *st, int i)
{
    char buf[40];
    switch (db_column_type(st, i)) {
    case SQLITE_NULL: return sb_append(sb, "\\N", 2);
    case SQLITE_INTEGER: return sb_printf(sb, "%lld", (long long)db_column_int64(st, i));
    case SQLITE_FLOAT: numfmt_real(buf, db_column_double(st, i)); return sb_puts(sb, buf);
    case SQLITE_BLOB: {
        static const char hex[] = "0123456789abcdef";
        const unsigned char *p = sqlite3_value_blob(db_column_value(st, i));
        int n = db_column_bytes(st, i);
        if (sb_grow(sb, 3 + 2 * (size_t)n))
            return -1;
        sb_append(sb, "\\\\x", 3);
        for (int k = 0; k < n; k++) {
            sb->buf[sb->len++] = hex[p[k] >> 4];
            sb->buf[sb->len++] = hex[p[k] & 15];
        }
        sb->buf[sb->len] = 0;
        return 0;
    }
    default: {
        const unsigned char *t = db_column_text(st, i);
        int n = db_column_bytes(st, i);
        if (sb_grow(sb, 2 * (size_t)n + 1))
            return -1;
        for (int k = 0; k < n; k++) {
            unsigned char ch = t[k];
            const char *e = ch == '\\' ? "\\\\" : ch == '\t' ? "\\t" : ch == '\n' ? "\\n" : ch == '\r' ? "\\r" : NULL;
            if (e) {
                sb->buf[sb->len++] = e[0];
                sb->buf[sb->len++] = e[1];
            } else
                sb->buf[sb->len++] = (char)ch;
        }
        sb->buf[sb->len] = 0;
        return 0;
    }
    }
}

/* The column list of st's result, quoted. */
static char *column_list(struct db_stmt *st, int params)
{
    struct strbuf sb = {0};
    int n = db_column_count(st);
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%s\"%s\"", i ? ", " : "", db_column_name(st, i));
    if (params) {
        sb_puts(&sb, ") VALUES (");
        for (int i = 0; i < n; i++)
            sb_puts(&sb, i ? ", ?" : "?");
    }
    return sb.buf ? sb_detach(&sb) : NULL;
}

struct table_copy {
    struct store_copy *c;
    const char *name;
    const struct store_copy_tick *tick;
    long long total, done;
};

static void ticked(struct table_copy *t)
{
    t->done++;
    if (t->tick && (t->done & 0xffff) == 0)
        t->tick->fn(t->tick->arg, t->name, t->done, t->total);
}

/* Into SQLite: one prepared INSERT, a row at a time. */
static int rows_to_sqlite(struct table_copy *t, struct db_stmt *st, char **err)
{
    struct store_copy *c = t->c;
    char *cols = column_list(st, 1);
    char *sql = cols ? bd_strdupf("INSERT INTO \"%s\"(%s)", t->name, cols) : NULL;
    free(cols);
    sqlite3_stmt *ins = NULL;
    if (!sql || sqlite3_prepare_v2(c->dst->lite, sql, -1, &ins, NULL) != SQLITE_OK) {
        free(sql);
        return sql ? fail_db(err, c->dst, "cannot write the destination") : bd_fail(err, "out of memory");
    }
    free(sql);
    int n = db_column_count(st), any = -1;
    for (int i = 0; i < n && c->src->engine == DB_POSTGRESQL; i++)
        if (strcmp(t->name, "event") == 0 && strcmp(db_column_name(st, i), "value") == 0)
            any = i;
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < n; i++)
            i == any ? bind_any(ins, i + 1, db_column_value(st, i))
                     : sqlite3_bind_value(ins, i + 1, db_column_value(st, i));
        if (sqlite3_step(ins) != SQLITE_DONE) {
            sqlite3_reset(ins);
            sqlite3_finalize(ins);
            return fail_db(err, c->dst, "cannot write the destination");
        }
        sqlite3_reset(ins);
        ticked(t);
    }
    sqlite3_finalize(ins);
    return rc == SQLITE_DONE ? 0 : fail_db(err, c->src, "cannot read the source");
}

/* Into PostgreSQL: COPY, COPY_BATCH bytes of rows at a time. */
static int rows_to_pg(struct table_copy *t, struct db_stmt *st, char **err)
{
    struct store_copy *c = t->c;
    char *cols = column_list(st, 0);
    char *sql = cols ? bd_strdupf("COPY \"%s\" (%s) FROM STDIN", t->name, cols) : NULL;
    free(cols);
    if (!sql)
        return bd_fail(err, "out of memory");
    struct strbuf sb = {0};
    int n = db_column_count(st), rc, bad = 0;
    size_t batch = copy_batch();
    while ((rc = db_step(st)) == SQLITE_ROW && !bad) {
        for (int i = 0; i < n && !bad; i++)
            bad = (i && sb_putc(&sb, '\t')) || copy_field(&sb, st, i);
        bad = bad || sb_putc(&sb, '\n');
        if (!bad && sb.len >= batch) {
            bad = db_copy_in(c->dst, sql, sb.buf, sb.len) != SQLITE_OK ? 2 : 0;
            sb_reset(&sb);
        }
        ticked(t);
    }
    if (!bad && rc == SQLITE_DONE && sb.len)
        bad = db_copy_in(c->dst, sql, sb.buf, sb.len) != SQLITE_OK ? 2 : 0;
    sb_free(&sb);
    free(sql);
    if (bad == 2)
        return fail_db(err, c->dst, "cannot write the destination");
    if (bad)
        return bd_fail(err, "out of memory");
    return rc == SQLITE_DONE ? 0 : fail_db(err, c->src, "cannot read the source");
}

/* One series' rows of sample as its row of PostgreSQL's sample_values
 * (schema/benchdb.schema): its values' array, their counts' array (NULL
 * when every count is 1) and its warmups' array (NULL when none), in the
 * text of COPY. */
struct values_row {
    long long series, n[2];
    int counted;
    struct strbuf value, count, warmup;
};

static int values_row_end(struct values_row *r, struct strbuf *sb)
{
    if (!r->n[0] && !r->n[1])
        return 0;
    int bad = sb_printf(sb, "%lld\t{", r->series) || sb_append(sb, r->value.buf, r->value.len) || sb_puts(sb, "}\t");
    if (r->counted)
        bad = bad || sb_putc(sb, '{') || sb_append(sb, r->count.buf, r->count.len) || sb_puts(sb, "}\t");
    else
        bad = bad || sb_puts(sb, "\\N\t");
    if (r->n[1])
        bad = bad || sb_putc(sb, '{') || sb_append(sb, r->warmup.buf, r->warmup.len) || sb_puts(sb, "}\n");
    else
        bad = bad || sb_puts(sb, "\\N\n");
    sb_reset(&r->value);
    sb_reset(&r->count);
    sb_reset(&r->warmup);
    r->n[0] = r->n[1] = 0;
    r->counted = 0;
    return bad;
}

/* Into PostgreSQL's sample_values, sample's rows (in key order) grouped by
 * series: an array keeps a value's iteration as its position, so
 * iterations that are not 1 to n, and a warmup with a count, are refused,
 * naming the series. */
static int sample_to_pg(struct table_copy *t, struct db_stmt *st, char **err)
{
    struct store_copy *c = t->c;
    static const char *const cols[] = {"series_id", "warmup", "iteration", "value", "count"};
    if (db_column_count(st) != 5)
        return bd_fail(err, "the source's sample has %d columns, not the 5 of this benchdb", db_column_count(st));
    for (int i = 0; i < 5; i++)
        if (strcmp(db_column_name(st, i), cols[i]) != 0)
            return bd_fail(err, "the source's sample has a column %s where this benchdb has %s", db_column_name(st, i),
                           cols[i]);
    const char *sql = "COPY sample_values (series_id, value, count, warmup) FROM STDIN";
    struct strbuf sb = {0};
    struct values_row r = {0};
    int rc = SQLITE_DONE, bad = 0;
    size_t batch = copy_batch();
    char num[40];
    while (!bad && (rc = db_step(st)) == SQLITE_ROW) {
        long long series = db_column_int64(st, 0), it = db_column_int64(st, 2), count = db_column_int64(st, 4);
        int w = db_column_int64(st, 1) != 0;
        if ((r.n[0] || r.n[1]) && series != r.series)
            bad = values_row_end(&r, &sb);
        if (!bad && (it != r.n[w] + 1 || (w && count != 1))) {
            bad = 3;
            if (w && count != 1)
                bd_fail(err, "series %lld: warmup %lld has count %lld: PostgreSQL keeps warmups without counts", series,
                        it, count);
            else
                bd_fail(err, "series %lld: %s %lld %s: PostgreSQL keeps a series' values as an array, numbered 1 to n "
                             "without a gap",
                        series, w ? "warmup" : "iteration", it, r.n[w] ? "follows a gap" : "is its first, not 1");
            break;
        }
        r.series = series;
        numfmt_real(num, db_column_double(st, 3));
        struct strbuf *into = w ? &r.warmup : &r.value;
        bad = bad || (r.n[w] && sb_putc(into, ',')) || sb_puts(into, num);
        if (!w)
            bad = bad || (r.n[0] && sb_putc(&r.count, ',')) || sb_printf(&r.count, "%lld", count);
        r.counted |= !w && count != 1;
        r.n[w]++;
        if (!bad && sb.len >= batch) {
            bad = db_copy_in(c->dst, sql, sb.buf, sb.len) != SQLITE_OK ? 2 : 0;
            sb_reset(&sb);
        }
        ticked(t);
    }
    if (!bad && rc == SQLITE_DONE)
        bad = values_row_end(&r, &sb);
    if (!bad && rc == SQLITE_DONE && sb.len)
        bad = db_copy_in(c->dst, sql, sb.buf, sb.len) != SQLITE_OK ? 2 : 0;
    sb_free(&sb);
    sb_free(&r.value);
    sb_free(&r.count);
    sb_free(&r.warmup);
    if (bad == 3)
        return -1;
    if (bad == 2)
        return fail_db(err, c->dst, "cannot write the destination");
    if (bad)
        return bd_fail(err, "out of memory");
    return rc == SQLITE_DONE ? 0 : fail_db(err, c->src, "cannot read the source");
}

static long long count_rows(struct db *db, const char *table)
{
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    struct db_stmt *st = NULL;
    long long n = -1;
    if (db_prepare(db, sql, &st) == SQLITE_OK && db_step(st) == SQLITE_ROW)
        n = db_column_int64(st, 0);
    db_finalize(st);
    return n;
}

int store_copy_rows(struct store_copy *c, const struct store_copy_tick *tick, long long *rows, char **err)
{
    *rows = 0;
    for (size_t i = 0; i < NTABLES; i++) {
        struct table_copy t = {c, tables[i].name, tick, 0, 0};
        if (tick) {
            t.total = count_rows(c->src, t.name);
            tick->fn(tick->arg, t.name, 0, t.total);
        }
        char *sql = bd_strdupf("SELECT * FROM \"%s\" ORDER BY %s", t.name, tables[i].key);
        struct db_stmt *st = NULL;
        if (!sql || db_prepare(c->src, sql, &st) != SQLITE_OK) {
            free(sql);
            return sql ? fail_db(err, c->src, "cannot read the source") : bd_fail(err, "out of memory");
        }
        free(sql);
        /* No columns: the source's statement was not described (its
         * connection lost), said as such, not as the INSERT of no column
         * it would make ("near \")\": syntax error"). */
        int rc = db_column_count(st) == 0            ? fail_db(err, c->src, "cannot read the source")
                 : c->dst->engine != DB_POSTGRESQL     ? rows_to_sqlite(&t, st, err)
                 : strcmp(t.name, "sample") == 0 ? sample_to_pg(&t, st, err)
                                                 : rows_to_pg(&t, st, err);
        db_finalize(st);
        if (rc) {
            char *e = *err;
            *err = bd_strdupf("table %s: %s", t.name, e);
            free(e);
            return -1;
        }
        if (tick)
            tick->fn(tick->arg, t.name, t.done, t.total);
        *rows += t.done;
        if (i == 0) /* tests only: held mid-copy (util/test_hold.h) */
            test_hold("BENCHDB_TEST_COPY_HOLD");
    }
    return 0;
}

/* ---- the end ---- */

/* On PostgreSQL series' references to run, benchmark, variant and unit
 * are checked by triggers, not foreign keys (schema/benchdb.schema), and
 * the triggers stood aside: the copied rows are checked here as adding
 * those foreign keys back would have checked them. */
#define SERIES_REF(col, tab, key, text)                                                                        \
    "SELECT 'series_" col "_fkey: Key (" col ")=(' || " text " || ') is not present in table \"" tab "\"' " \
    "FROM series AS s WHERE NOT EXISTS (SELECT 1 FROM \"" tab "\" AS t WHERE t." key " = s." col ")"
static int series_refs_copied(struct db *dst, char **err)
{
    char **bad;
    size_t n;
    if (texts(dst,
              "SELECT * FROM (" SERIES_REF("run_id", "run", "id", "CAST(s.run_id AS TEXT)") " UNION ALL " SERIES_REF(
                  "benchmark_id", "benchmark", "id", "CAST(s.benchmark_id AS TEXT)") " UNION ALL " SERIES_REF("variant_id",
                  "variant", "id", "CAST(s.variant_id AS TEXT)") " UNION ALL " SERIES_REF("unit", "unit", "name",
                  "s.unit") ") AS m LIMIT 1",
              &bad, &n, err))
        return -1;
    int rc = n ? bd_fail(err, "the copied rows fail a foreign key (%s)", bad[0]) : 0;
    free_texts(bad, n);
    return rc;
}

int store_copy_rearm(struct store_copy *c, char **err)
{
    struct db *dst = c->dst;
    for (size_t i = 0; i < c->ntrig; i++)
        if (db_exec(dst, c->trig_sql[i], NULL) != SQLITE_OK)
            return fail_db(err, dst, "cannot restore the destination's triggers");
    free_texts(c->trig_sql, c->ntrig);
    c->trig_sql = NULL;
    c->ntrig = 0;
    for (size_t i = 0; i < c->nfkeys; i++)
        if (db_exec(dst, c->fkeys[i], NULL) != SQLITE_OK)
            return bd_fail(err, "the copied rows fail a foreign key (%s): %s", c->fkeys[i], db_errmsg(dst));
    if (dst->engine == DB_POSTGRESQL && series_refs_copied(dst, err))
        return -1;
    for (size_t i = 0; i < c->ntrig_tables; i++) {
        char *sql = bd_strdupf("ALTER TABLE %s ENABLE TRIGGER USER", c->trig_tables[i]);
        int rc = sql ? db_exec(dst, sql, NULL) : SQLITE_NOMEM;
        free(sql);
        if (rc != SQLITE_OK)
            return fail_db(err, dst, "cannot restore the destination's triggers");
    }
    /* PostgreSQL's identity columns: their sequences past the copied ids,
     * so that the next ingest or evaluation takes a new one (SQLite's
     * rowid follows the largest by itself). */
    for (size_t i = 0; i < NTABLES && dst->engine == DB_POSTGRESQL; i++) {
        if (strcmp(tables[i].key, "id") != 0)
            continue;
        char *sql = bd_strdupf("SELECT setval(pg_get_serial_sequence('\"%s\"', 'id'), max(id)) FROM \"%s\" "
                               "HAVING max(id) IS NOT NULL",
                               tables[i].name, tables[i].name);
        int rc = sql ? db_exec(dst, sql, NULL) : SQLITE_NOMEM;
        free(sql);
        if (rc != SQLITE_OK)
            return fail_db(err, dst, "cannot move the destination's id sequences");
    }
    return 0;
}

int store_copy_commit(struct store_copy *c, char **err)
{
    if (db_exec(c->dst, "COMMIT", NULL) != SQLITE_OK)
        return fail_db(err, c->dst, "cannot commit the copy");
    c->dst_open = 0;
    return 0;
}

int store_copy_analyze(struct store_copy *c, char **err)
{
    /* A server plans from statistics its autovacuum gathers some time
     * later: until then the first queries on a copied store ran up to 60
     * times slower (history --verify 10.9 s of the server's CPU instead of
     * 1.3 s on the tutorial's store). */
    return store_refresh_statistics(c->dst, err) < 0 ? -1 : 0;
}

void store_copy_free(struct store_copy *c)
{
    if (!c)
        return;
    if (c->dst_open)
        db_exec(c->dst, "ROLLBACK", NULL);
    if (c->src_open)
        source_snapshot(c->src, 0);
    free_texts(c->trig_sql, c->ntrig);
    free_texts(c->trig_tables, c->ntrig_tables);
    free_texts(c->fkeys, c->nfkeys);
    free(c);
}
