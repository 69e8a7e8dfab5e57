/* 'benchdb check' on PostgreSQL: what stands there for SQLite's PRAGMA
 * integrity_check and foreign_key_check (docs/postgresql.md, "check").
 *
 *  1. The extension benchstats is installed at the version this benchdb
 *     is built with (src/pg/benchstats.control), so the store's derived
 *     rows and saved queries compute with the functions they expect.
 *  2. Every foreign key of the store's tables is an enforced constraint:
 *     validated (not NOT VALID) and with none of its triggers disabled
 *     (ALTER TABLE ... DISABLE TRIGGER ALL, a superuser's bulk load).
 *  3. foreign_key_check: no row refers to a missing row, each foreign key
 *     verified row by row as SQLite's pragma does, with SQLite's error line
 *     (the row named by its one-column primary key); series' references to
 *     run, benchmark, variant and unit too, and sample_values' to series,
 *     which are triggers here (their triggers enabled, as 2 asks of a
 *     foreign key's).
 * The server's pages and indexes are its own to keep (amcheck, checksums):
 * nothing here reads them. */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "util/diag.h"
#include "util/strbuf.h"

/* The version of benchstats this benchdb ships (benchstats.control's
 * default_version; tests/pg/test_check.sh compares them). */
#define BENCHSTATS_VERSION "0.1"

static int check_extension(struct db *db, FILE *out, int *problems)
{
    struct db_stmt *st = NULL;
    int rc = db_prepare(db, "SELECT (SELECT extversion FROM pg_extension WHERE extname = 'benchstats')", &st);
    if (rc == SQLITE_OK)
        rc = db_step(st);
    if (rc != SQLITE_ROW) {
        bd_error("check: extension benchstats: %s", db_errmsg(db));
        db_finalize(st);
        return -1;
    }
    const char *v = (const char *)db_column_text(st, 0);
    int ok = v && strcmp(v, BENCHSTATS_VERSION) == 0;
    if (!v)
        bd_error("check: extension benchstats: not installed in this database (as a superuser: CREATE EXTENSION "
                 "benchstats; docs/postgresql.md)");
    else if (!ok)
        bd_error("check: extension benchstats: version %s is installed, this benchdb expects %s (as a superuser: "
                 "ALTER EXTENSION benchstats UPDATE)",
                 v, BENCHSTATS_VERSION);
    fprintf(out, "check: extension benchstats: %s\n", ok ? "version " BENCHSTATS_VERSION ": ok" : "PROBLEMS");
    *problems += !ok;
    db_finalize(st);
    return 0;
}

/* Every foreign key of the tables in the store's schema: name, table,
 * referenced table, validated, enforced, the columns on each side
 * (quoted, comma-separated, in order), the table's one-column primary key
 * (NULL when it has none). */
static const char foreign_keys_sql[] =
    "SELECT k.conname, c.relname, p.relname, k.convalidated, "
    "NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgconstraint = k.oid AND t.tgenabled = 'D'), "
    "(SELECT string_agg(quote_ident(a.attname), ',' ORDER BY u.i) FROM unnest(k.conkey) WITH ORDINALITY AS u(n, i) "
    " JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n), "
    "(SELECT string_agg(quote_ident(a.attname), ',' ORDER BY u.i) FROM unnest(k.confkey) WITH ORDINALITY AS u(n, i) "
    " JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n), "
    "(SELECT quote_ident(a.attname) FROM pg_index x JOIN pg_attribute a ON a.attrelid = x.indrelid "
    " AND a.attnum = x.indkey[0] WHERE x.indrelid = k.conrelid AND x.indisprimary AND x.indnkeyatts = 1) "
    "FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid "
    "WHERE k.contype = 'f' AND c.relnamespace = CAST(current_schema() AS regnamespace) "
    "ORDER BY c.relname, k.conname";

/* The next name of a comma-separated list of quoted names; *at moves on. */
static const char *next_name(const char **at, size_t *n)
{
    const char *s = *at;
    if (!*s)
        return NULL;
    *n = strcspn(s, ",");
    *at = s + *n + (s[*n] == ',');
    return s;
}

/* The query of the rows of table whose key (cols) has no row in parent
 * (pcols): each such row's primary key (or its key columns, in brackets). */
static char *dangling_sql(const char *table, const char *parent, const char *cols, const char *pcols, const char *key)
{
    struct strbuf q = {0}, keycols = {0};
    const char *a = cols, *b = pcols, *x, *y;
    size_t n, m;
    while ((x = next_name(&a, &n)))
        sb_printf(&keycols, "%sCAST(c.%.*s AS TEXT)", keycols.len ? ", " : "", (int)n, x);
    if (key)
        sb_printf(&q, "SELECT CAST(c.%s AS TEXT) FROM %s AS c WHERE ", key, table);
    else
        sb_printf(&q, "SELECT '(' || concat_ws(', ', %s) || ')' FROM %s AS c WHERE ", keycols.buf, table);
    for (a = cols; (x = next_name(&a, &n));)
        sb_printf(&q, "c.%.*s IS NOT NULL AND ", (int)n, x);
    sb_printf(&q, "NOT EXISTS (SELECT 1 FROM %s AS p WHERE ", parent);
    int k = 0;
    for (a = cols, b = pcols; (x = next_name(&a, &n)) && (y = next_name(&b, &m)); k++)
        sb_printf(&q, "%sp.%.*s = c.%.*s", k ? " AND " : "", (int)m, y, (int)n, x);
    sb_puts(&q, ") ORDER BY 1");
    sb_free(&keycols);
    return sb_detach(&q);
}

/* Rows of one foreign key that refer to a missing row, each an error;
 * how many, or -1. */
static int64_t dangling_rows(struct db *db, const char *sql, const char *table, const char *parent)
{
    struct db_stmt *st = NULL;
    int64_t bad = 0;
    int rc = db_prepare(db, sql, &st);
    while (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        bd_error("check: foreign_key_check: %s row %s refers to a missing row of %s", table,
                 (const char *)db_column_text(st, 0), parent);
        bad++;
    }
    db_finalize(st);
    return rc == SQLITE_DONE ? bad : -1;
}

/* References that are foreign keys on SQLite (series') or none there
 * (sample's, whose orphans 'check' counts: src/ingest/check.c) and the schema's triggers
 * on PostgreSQL (schema/benchdb.schema, "series' references",
 * "sample_values' reference to series"): each checked here as the foreign
 * keys above are and counted as one, and enforced when every one of its
 * group's triggers is enabled. */
static const struct trigger_refs {
    const char *what, *their, *on; /* for the message when one is disabled */
    int triggers;                  /* how many */
    const char *names;             /* the condition on pg_trigger t that counts them */
    const char *refs[4][3];        /* column, parent, parent's column */
    const char *table, *key;       /* the referring table, its one-column key */
} trigger_refs[] = {
    {"series' references to run, benchmark, variant and unit are", "their", "series, run, benchmark, variant and unit", 15,
     "(t.tgname LIKE '%\\_series\\_refs' OR t.tgname IN ('series_check_refs_insert', 'series_check_refs_update', "
     "'series_insert_refs', 'run_delete_series'))",
     {{"run_id", "run", "id"}, {"benchmark_id", "benchmark", "id"}, {"variant_id", "variant", "id"}, {"unit", "unit", "name"}},
     "series", "id"},
    {"sample_values' reference to series is", "its", "sample_values and series", 5,
     "t.tgname IN ('sample_values_insert_refs', 'sample_values_check_refs_update', 'series_delete_values', "
     "'series_update_values_refs', 'series_truncate_values_refs')",
     {{"series_id", "series", "id"}},
     "sample_values", "series_id"},
};

/* One group of trigger_refs: how many rows refer to a missing row (errors
 * printed), -1 when the check could not run; *unenforced + 1 when a
 * trigger is missing or disabled; *keys + its references. */
static int64_t check_trigger_refs(struct db *db, const struct trigger_refs *g, int *unenforced, int *keys)
{
    struct strbuf q = {0};
    sb_printf(&q,
              "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
              "WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND t.tgenabled <> 'D' AND %s",
              g->names);
    struct db_stmt *st = NULL;
    int rc = sb_failed(&q) ? SQLITE_NOMEM : db_prepare(db, q.buf, &st);
    int64_t enabled = rc == SQLITE_OK && db_step(st) == SQLITE_ROW ? db_column_int64(st, 0) : -1;
    db_finalize(st);
    sb_free(&q);
    if (enabled < 0)
        return -1;
    if (enabled != g->triggers) {
        (*unenforced)++;
        bd_error("check: foreign keys: %s not enforced: %" PRId64 " of %s %d triggers are enabled (ALTER TABLE ... "
                 "ENABLE TRIGGER USER on %s)",
                 g->what, enabled, g->their, g->triggers, g->on);
    }
    int64_t dangling = 0;
    for (size_t i = 0; i < 4 && g->refs[i][0]; i++) {
        char *sql = dangling_sql(g->table, g->refs[i][1], g->refs[i][0], g->refs[i][2], g->key);
        int64_t n = sql ? dangling_rows(db, sql, g->table, g->refs[i][1]) : -1;
        free(sql);
        if (n < 0)
            return -1;
        dangling += n;
        ++*keys;
    }
    return dangling;
}

static int check_foreign_keys(struct db *db, FILE *out, int *problems)
{
    struct db_stmt *st = NULL;
    int rc = db_prepare(db, foreign_keys_sql, &st);
    int keys = 0, unenforced = 0;
    int64_t dangling = 0;
    while (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK; /* on to the next */
        const char *name = (const char *)db_column_text(st, 0);
        char *table = strdup((const char *)db_column_text(st, 1));
        char *parent = strdup((const char *)db_column_text(st, 2));
        int validated = db_column_int(st, 3), enforced = db_column_int(st, 4);
        keys++;
        if (!validated || !enforced) {
            unenforced++;
            if (!enforced)
                bd_error("check: foreign keys: %s of %s is not enforced: its triggers are disabled (ALTER TABLE %s "
                         "ENABLE TRIGGER ALL)",
                         name, table, table);
            else
                bd_error("check: foreign keys: %s of %s is NOT VALID: rows from before it were never checked "
                         "(ALTER TABLE %s VALIDATE CONSTRAINT %s)",
                         name, table, table, name);
        }
        const char *key = db_column_type(st, 7) == SQLITE_NULL ? NULL : (const char *)db_column_text(st, 7);
        char *sql = table && parent ? dangling_sql(table, parent, (const char *)db_column_text(st, 5),
                                                   (const char *)db_column_text(st, 6), key)
                                    : NULL;
        int64_t n = sql ? dangling_rows(db, sql, table, parent) : -1;
        free(sql);
        free(table);
        free(parent);
        if (n < 0) {
            bd_error("check: foreign_key_check: %s", db_errmsg(db));
            db_finalize(st);
            return -1;
        }
        dangling += n;
    }
    db_finalize(st);
    if (rc != SQLITE_DONE) {
        bd_error("check: foreign keys: %s", db_errmsg(db));
        return -1;
    }
    for (size_t g = 0; g < sizeof trigger_refs / sizeof trigger_refs[0]; g++) {
        int64_t n = check_trigger_refs(db, &trigger_refs[g], &unenforced, &keys);
        if (n < 0) {
            bd_error("check: foreign_key_check: %s", db_errmsg(db));
            return -1;
        }
        dangling += n;
    }
    *problems += unenforced + (dangling > 1000000 ? 1000000 : (int)dangling);
    fprintf(out, "check: foreign keys: %d constraint%s, %s\n", keys, keys == 1 ? "" : "s",
            unenforced ? "NOT all validated and enforced" : "all validated and enforced: ok");
    fprintf(out, "check: foreign_key_check: %s\n", dangling ? "PROBLEMS" : "ok");
    return 0;
}

int store_check_pg_server(struct db *db, FILE *out, int *problems)
{
    return check_extension(db, out, problems) || check_foreign_keys(db, out, problems) ? -1 : 0;
}
