/* The schema an evaluation read (query/schema_hash.h).
 *
 * SQLite's authorizer names, while a statement is prepared, every table
 * and view it reads (a view, and each table or view under it), and the
 * trigger or view on whose behalf it does (the innermost). The statement's
 * own reads come from the read-only guard. What keeps derived tables
 * (block_score_data, run_cell_data, history_point_data) is triggers, which
 * a SELECT never names: preparing a write of a table codes the triggers it
 * fires, nested ones too, so preparing an insert, an update of every
 * column and a delete of each table that has triggers, under an authorizer
 * that only takes notes, shows what each trigger writes and reads. Nothing
 * prepared here is ever run.
 *
 * The set: the statement's reads; then, until nothing is added, every
 * trigger writing a table of the set, with its table and what it reads,
 * and what each view of the set reads. The hash: "benchdb-schema/1\n",
 * then per object in name order "TYPE NAME\n" and its SQL normalised as
 * store_schema_describe normalises it (comments dropped, whitespace
 * collapsed) and "\n"; then, when `unit` is in the set, "unit rows\n" and
 * one line "name|kind|factor|direction\n" per unit in name order (factor
 * in shortest round-trip form, direction empty when NULL).
 *
 * On PostgreSQL (schema_hash_pg, "benchdb-schema-pg/1"): the same set,
 * found on benchdb's SQLite schema in a private in-memory connection,
 * hashed from the server's catalogues (query/schema_hash.h). */
#include "query/schema_hash.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fnshared/numfmt.h"
#include "sqlfn/benchstats.h"
#include "store/db.h"
#include "store/store.h"
#include "util/diag.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* ---- names ---- */

static int has(char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(names[i], name) == 0)
            return 1;
    return 0;
}

void schema_reads_note(void *arg, const char *name)
{
    struct schema_reads *r = arg;
    if (r->nomem || has(r->names, r->n, name))
        return;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        char **v = xreallocarray(r->names, cap, sizeof *v);
        if (!v) {
            r->nomem = 1;
            return;
        }
        r->names = v;
        r->cap = cap;
    }
    if (!(r->names[r->n] = xstrdup(name)))
        r->nomem = 1;
    else
        r->n++;
}

void schema_reads_free(struct schema_reads *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->names[i]);
    free(r->names);
    memset(r, 0, sizeof *r);
}

/* ---- what triggers and views read and write ---- */

/* One note of the authorizer: on behalf of ctx (a trigger or view), a
 * read of name, or a write (insert, update, delete) of it. */
struct edge {
    char *ctx, *name;
    int write;
};

struct edges {
    struct edge *v;
    size_t n, cap;
    int nomem;
};

static void add_edge(struct edges *e, const char *ctx, const char *name, int write)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->v[i].write == write && strcasecmp(e->v[i].ctx, ctx) == 0 && strcasecmp(e->v[i].name, name) == 0)
            return;
    if (e->nomem)
        return;
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 64;
        struct edge *v = xreallocarray(e->v, cap, sizeof *v);
        if (!v) {
            e->nomem = 1;
            return;
        }
        e->v = v;
        e->cap = cap;
    }
    struct edge *x = &e->v[e->n];
    x->ctx = xstrdup(ctx);
    x->name = xstrdup(name);
    x->write = write;
    if (!x->ctx || !x->name) {
        free(x->ctx);
        free(x->name);
        e->nomem = 1;
        return;
    }
    e->n++;
}

static void edges_free(struct edges *e)
{
    for (size_t i = 0; i < e->n; i++) {
        free(e->v[i].ctx);
        free(e->v[i].name);
    }
    free(e->v);
}

static int take_notes(void *arg, int action, const char *a1, const char *a2, const char *db, const char *ctx)
{
    (void)a2;
    (void)db;
    if (!a1 || !ctx)
        return SQLITE_OK;
    if (action == SQLITE_READ)
        add_edge(arg, ctx, a1, 0);
    else if (action == SQLITE_INSERT || action == SQLITE_UPDATE || action == SQLITE_DELETE)
        add_edge(arg, ctx, a1, 1);
    return SQLITE_OK;
}

/* Prepares sql (made with sqlite3_mprintf; freed here) and throws it away. */
static int prepare_only(sqlite3 *db, char *sql)
{
    if (!sql)
        return SQLITE_NOMEM;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    sqlite3_finalize(st);
    sqlite3_free(sql);
    return rc;
}

/* The writes and reads of every trigger (and of the views they read),
 * from writes of each table that has triggers. */
static int trigger_edges(sqlite3 *db, struct edges *e, char **err)
{
    sqlite3_stmt *tables = NULL, *cols = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT DISTINCT tbl_name FROM sqlite_schema WHERE type = 'trigger' ORDER BY 1", -1,
                                &tables, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?)", -1, &cols, NULL);
    while (rc == SQLITE_OK && (rc = sqlite3_step(tables)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        char *table = xstrdup((const char *)sqlite3_column_text(tables, 0));
        struct strbuf set = {0};
        sqlite3_bind_text(cols, 1, table, -1, SQLITE_STATIC);
        while (table && sqlite3_step(cols) == SQLITE_ROW) {
            char *c = sqlite3_mprintf("%s\"%w\" = \"%w\"", set.len ? ", " : "", sqlite3_column_text(cols, 0),
                                      sqlite3_column_text(cols, 0));
            if (c)
                sb_puts(&set, c);
            sqlite3_free(c);
        }
        sqlite3_reset(cols);
        /* Whether these prepare is not the point (a table may refuse one
         * form); what the authorizer saw while they were coded is. */
        char *sql[3] = {NULL, NULL, NULL};
        if (table && set.len) {
            sql[0] = sqlite3_mprintf("INSERT INTO \"%w\" DEFAULT VALUES", table);
            sql[1] = sqlite3_mprintf("UPDATE \"%w\" SET %s", table, xsb_text(&set));
            sql[2] = sqlite3_mprintf("DELETE FROM \"%w\"", table);
        }
        for (int k = 0; k < 3; k++)
            if (prepare_only(db, sql[k]) == SQLITE_NOMEM)
                rc = SQLITE_NOMEM;
        if (!table)
            rc = SQLITE_NOMEM;
        free(table);
        sb_free(&set);
    }
    if (rc == SQLITE_DONE && e->nomem)
        rc = SQLITE_NOMEM;
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot read the schema's triggers: %s", rc == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(db));
    sqlite3_finalize(tables);
    sqlite3_finalize(cols);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* ---- the set and its hash ---- */

struct object {
    char *type, *name, *table, *sql;
    int in;
};

static void objects_free(struct object *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(o[i].type);
        free(o[i].name);
        free(o[i].table);
        free(o[i].sql);
    }
    free(o);
}

static int load_objects(sqlite3 *db, struct object **out, size_t *n, char **err)
{
    sqlite3_stmt *st;
    *out = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('table', 'view', "
                               "'trigger') AND sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name, type",
                           -1, &st, NULL) != SQLITE_OK)
        return bd_fail(err, "cannot read the schema: %s", sqlite3_errmsg(db));
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            struct object *v = xreallocarray(*out, cap, sizeof *v);
            if (!v) {
                rc = SQLITE_NOMEM;
                break;
            }
            *out = v;
        }
        struct object *o = &(*out)[(*n)++];
        o->type = xstrdup((const char *)sqlite3_column_text(st, 0));
        o->name = xstrdup((const char *)sqlite3_column_text(st, 1));
        o->table = xstrdup((const char *)sqlite3_column_text(st, 2));
        o->sql = xstrdup((const char *)sqlite3_column_text(st, 3));
        o->in = 0;
        if (!o->type || !o->name || !o->table || !o->sql) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        bd_fail(err, "cannot read the schema: %s", rc == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(db));
        objects_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

/* Marks the table or view name (and returns 1 when it was not yet). */
static int mark(struct object *o, size_t n, const char *name)
{
    int added = 0;
    for (size_t i = 0; i < n; i++)
        if (!o[i].in && strcmp(o[i].type, "trigger") != 0 && strcasecmp(o[i].name, name) == 0)
            o[i].in = added = 1;
    return added;
}

/* Whether table or view name is in the set. */
static int marked(const struct object *o, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (o[i].in && strcmp(o[i].type, "trigger") != 0 && strcasecmp(o[i].name, name) == 0)
            return 1;
    return 0;
}

static void close_set(struct object *o, size_t n, const struct edges *e)
{
    for (int more = 1; more;) {
        more = 0;
        for (size_t i = 0; i < n; i++) {
            int trigger = strcmp(o[i].type, "trigger") == 0;
            if (trigger && !o[i].in)
                for (size_t k = 0; k < e->n; k++)
                    if (e->v[k].write && strcasecmp(e->v[k].ctx, o[i].name) == 0 && marked(o, n, e->v[k].name)) {
                        o[i].in = more = 1;
                        mark(o, n, o[i].table);
                        break;
                    }
            if (!o[i].in || (!trigger && strcmp(o[i].type, "view") != 0))
                continue;
            for (size_t k = 0; k < e->n; k++)
                if (!e->v[k].write && strcasecmp(e->v[k].ctx, o[i].name) == 0)
                    more |= mark(o, n, e->v[k].name);
        }
    }
}

/* The rows of `unit`, on either engine. */
static int hash_units(struct db *db, struct sha256 *h, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, "SELECT name, kind, factor, direction FROM unit ORDER BY name", &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the units: %s", db_errmsg(db));
    sha256_update(h, "unit rows\n", 10);
    struct strbuf sb = {0};
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        char num[40];
        numfmt_real(num, db_column_double(st, 2));
        const char *dir = (const char *)db_column_text(st, 3);
        sb_reset(&sb);
        sb_printf(&sb, "%s|%s|%s|%s\n", (const char *)db_column_text(st, 0), (const char *)db_column_text(st, 1), num,
                  dir ? dir : "");
        sha256_update(h, xsb_text(&sb), sb.len);
    }
    sb_free(&sb);
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot read the units: %s", db_errmsg(db));
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The set of r's names closed over triggers and views (close_set), as
 * marked objects of db's schema. On return the read-only guard is on again
 * if guard_on, else no authorizer is. */
static int closed_set(sqlite3 *db, const struct schema_reads *r, int guard_on, struct object **o, size_t *n,
                      struct edges *e, char **err)
{
    *o = NULL;
    *n = 0;
    if (r->nomem)
        return bd_fail(err, "out of memory");
    sqlite3_set_authorizer(db, take_notes, e);
    int rc = trigger_edges(db, e, err);
    if (guard_on)
        store_guard_readonly(db, 1);
    else
        sqlite3_set_authorizer(db, NULL, NULL);
    if (rc == 0)
        rc = load_objects(db, o, n, err);
    if (rc == 0) {
        for (size_t i = 0; i < r->n; i++)
            mark(*o, *n, r->names[i]);
        close_set(*o, *n, e);
    }
    return rc;
}

int schema_hash(sqlite3 *db, const struct schema_reads *r, int guard_on, char out[65], struct schema_reads *set,
                char **err)
{
    struct edges e = {0};
    struct object *o = NULL;
    size_t n = 0;
    int rc = closed_set(db, r, guard_on, &o, &n, &e, err);
    for (size_t i = 0; rc == 0 && set && i < n; i++)
        if (o[i].in && strcmp(o[i].type, "trigger") != 0)
            schema_reads_note(set, o[i].name);
    if (rc == 0 && set && set->nomem)
        rc = bd_fail(err, "out of memory");
    if (rc == 0) {
        struct sha256 h;
        sha256_init(&h);
        sha256_update(&h, "benchdb-schema/1\n", 17);
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (!o[i].in)
                continue;
            char *norm = sql_normalize(o[i].sql);
            if (!norm) {
                rc = bd_fail(err, "out of memory");
                break;
            }
            struct strbuf sb = {0};
            sb_printf(&sb, "%s %s\n%s\n", o[i].type, o[i].name, norm);
            sha256_update(&h, xsb_text(&sb), sb.len);
            sb_free(&sb);
            free(norm);
        }
        if (rc == 0 && marked(o, n, "unit")) {
            struct db *via = db_from_sqlite(db, 0);
            rc = via ? hash_units(via, &h, err) : bd_fail(err, "out of memory");
            db_close(via);
        }
        unsigned char d[32];
        sha256_final(&h, d);
        sha256_hex(d, out);
    }
    objects_free(o, n);
    edges_free(&e);
    return rc;
}

/* ---- PostgreSQL ---- */

/* The store's logical schema: benchdb's SQLite migrations up to version,
 * applied to a private in-memory connection with benchdb's functions.
 * Making it takes a few milliseconds, so one is kept for the process
 * (history --verify hashes once per evaluation) and closed at exit. */
static struct {
    sqlite3 *db;
    int version, at_exit;
} logical;

static void logical_close(void)
{
    sqlite3_close(logical.db);
    logical.db = NULL;
}

static sqlite3 *logical_store(int version, char **err)
{
    if (logical.db && logical.version == version)
        return logical.db;
    if (!logical.at_exit && atexit(logical_close) != 0)
        return bd_fail(err, "out of memory"), NULL;
    logical.at_exit = 1;
    logical_close();
    sqlite3 *mem = NULL;
    if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) != SQLITE_OK) {
        bd_fail(err, "cannot open an in-memory database: %s", mem ? sqlite3_errmsg(mem) : "out of memory");
        sqlite3_close(mem);
        return NULL;
    }
    char *e2 = NULL;
    if (benchstats_register(mem) != SQLITE_OK || store_migrate(mem, version, &e2) < 0) {
        bd_fail(err, "cannot make the store's schema in memory: %s", e2 ? e2 : sqlite3_errmsg(mem));
        free(e2);
        sqlite3_close(mem);
        return NULL;
    }
    logical.db = mem;
    logical.version = version;
    return mem;
}

/* The logical schema of db's store (its version read from the store). */
static sqlite3 *pg_logical(struct db *db, char **err)
{
    int version = store_version(db, err);
    return version < 0 ? NULL : logical_store(version, err);
}

int schema_pg_check(struct db *db, const char *sql, const struct store_guard_reads *reads, char **err)
{
    sqlite3 *mem = pg_logical(db, err);
    if (!mem)
        return -1;
    if (reads)
        store_guard_readonly_reporting(mem, reads);
    else
        store_guard_readonly(mem, 1);
    store_guard_set_refusal(NULL);
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(mem, sql, -1, &st, &tail) != SQLITE_OK) {
        int auth = sqlite3_errcode(mem) == SQLITE_AUTH;
        bd_fail(err, "%s", auth && store_guard_refusal() ? store_guard_refusal() : sqlite3_errmsg(mem));
        rc = auth ? -2 : -1;
    }
    else if (!st)
        rc = bd_fail(err, "it holds no SQL statement");
    else if (!sql_is_blank(tail))
        rc = bd_fail(err, "it holds more than one statement");
    else if (!sqlite3_stmt_readonly(st)) {
        bd_fail(err, "it does not only read");
        rc = -2;
    }
    sqlite3_finalize(st);
    store_guard_readonly(mem, 0);
    return rc;
}

/* The names of the tables and views r names, closed over the triggers
 * that write them and what views and triggers read, in name order: found
 * on the logical schema as on SQLite. */
static int pg_names(struct db *db, const struct schema_reads *reads, char ***names, size_t *nnames, int *unit,
                    char **err)
{
    *names = NULL;
    *nnames = 0;
    *unit = 0;
    sqlite3 *mem = pg_logical(db, err);
    if (!mem)
        return -1;
    struct edges e = {0};
    struct object *o = NULL;
    size_t n = 0;
    int rc = closed_set(mem, reads, 0, &o, &n, &e, err);
    if (rc == 0) {
        *names = xcalloc(n + 1, sizeof **names);
        if (!*names)
            rc = bd_fail(err, "out of memory");
        for (size_t i = 0; i < n && rc == 0; i++)
            if (o[i].in && strcmp(o[i].type, "trigger") != 0) {
                if (!((*names)[*nnames] = xstrdup(o[i].name)))
                    rc = bd_fail(err, "out of memory");
                else
                    (*nnames)++;
            }
        *unit = marked(o, n, "unit");
    }
    objects_free(o, n);
    edges_free(&e);
    return rc;
}

/* Appends each row of sql (one text parameter: names, when not NULL) to
 * h as "label c0|c1|...\n" (NULL as empty). */
static int hash_rows(struct db *db, struct sha256 *h, const char *label, const char *sql, const char *names, char **err)
{
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return bd_fail(err, "cannot read the schema's %ss: %s", label, db_errmsg(db));
    int rc = names ? db_bind_text(st, 1, names, -1) : SQLITE_OK;
    struct strbuf sb = {0};
    while (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW) {
        sb_reset(&sb);
        sb_puts(&sb, label);
        for (int c = 0; c < db_column_count(st); c++) {
            const char *t = (const char *)db_column_text(st, c);
            sb_puts(&sb, c ? "|" : " ");
            sb_puts(&sb, t ? t : "");
        }
        sb_putc(&sb, '\n');
        sha256_update(h, xsb_text(&sb), sb.len);
        rc = SQLITE_OK;
    }
    sb_free(&sb);
    if (rc != SQLITE_DONE)
        bd_fail(err, "cannot read the schema's %ss: %s", label, db_errmsg(db));
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* The relations of the set (one parameter: their names, comma-separated),
 * each by name: its kind (empty when the server has none of that name),
 * then the views' definitions, the tables' columns, constraints and
 * triggers, each kind in one statement (a round trip each). */
#define PG_RELS                                                                                                        \
    "(SELECT to_regclass(quote_ident(n)) FROM unnest(string_to_array(CAST(? AS TEXT), ',')) AS n)"
static const char *const pg_relation_sql[][2] = {
    {"relation", "SELECT n, CAST(c.relkind AS TEXT) FROM unnest(string_to_array(CAST(? AS TEXT), ',')) AS n "
                 "LEFT JOIN pg_class c ON c.oid = to_regclass(quote_ident(n)) ORDER BY n"},
    {"view", "SELECT c.relname, pg_get_viewdef(c.oid, true) FROM pg_class c WHERE c.oid IN " PG_RELS
             " AND c.relkind IN ('v', 'm') ORDER BY c.relname"},
    {"column", "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, "
               "pg_get_expr(d.adbin, d.adrelid) FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid "
               "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
               "WHERE c.oid IN " PG_RELS " AND c.relkind NOT IN ('v', 'm') AND a.attnum > 0 AND NOT a.attisdropped "
               "ORDER BY c.relname, a.attnum"},
    {"constraint", "SELECT c.relname, k.conname, pg_get_constraintdef(k.oid) FROM pg_class c "
                   "JOIN pg_constraint k ON k.conrelid = c.oid WHERE c.oid IN " PG_RELS
                   " ORDER BY c.relname, k.conname"},
    {"trigger", "SELECT c.relname, t.tgname, pg_get_triggerdef(t.oid) FROM pg_class c "
                "JOIN pg_trigger t ON t.tgrelid = c.oid WHERE c.oid IN " PG_RELS
                " AND NOT t.tgisinternal ORDER BY c.relname, t.tgname"},
};

/* benchdb's own functions (not an extension's) in the store's schema: what
 * the triggers run, and what views and triggers call. */
static const char pg_functions_sql[] =
    "SELECT CAST(CAST(p.oid AS regprocedure) AS TEXT), pg_get_functiondef(p.oid) FROM pg_proc p "
    "WHERE p.pronamespace = CAST(CAST(current_schema() AS regnamespace) AS oid) AND p.prokind IN ('f', 'p') "
    "AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = CAST('pg_proc' AS regclass) AND d.objid = p.oid "
    "AND d.deptype = 'e') ORDER BY 1";

int schema_hash_pg(struct db *db, const struct schema_reads *reads, char out[65], struct schema_reads *set, char **err)
{
    char **names;
    size_t n;
    int unit;
    if (pg_names(db, reads, &names, &n, &unit, err))
        return -1;
    for (size_t i = 0; set && i < n; i++)
        schema_reads_note(set, names[i]);
    struct sha256 h;
    sha256_init(&h);
    sha256_update(&h, "benchdb-schema-pg/1\n", 20);
    struct strbuf list = {0};
    for (size_t i = 0; i < n; i++)
        sb_printf(&list, "%s%s", i ? "," : "", names[i]);
    int rc = 0;
    for (size_t k = 0; k < sizeof pg_relation_sql / sizeof pg_relation_sql[0] && rc == 0; k++)
        rc = hash_rows(db, &h, pg_relation_sql[k][0], pg_relation_sql[k][1], xsb_text(&list), err);
    sb_free(&list);
    if (rc == 0)
        rc = hash_rows(db, &h, "function", pg_functions_sql, NULL, err);
    if (rc == 0 && unit)
        rc = hash_units(db, &h, err);
    if (rc == 0 && set && set->nomem)
        rc = bd_fail(err, "out of memory");
    unsigned char d[32];
    sha256_final(&h, d);
    sha256_hex(d, out);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int schema_hash_db(struct db *db, const struct schema_reads *r, int guard_on, char out[65], struct schema_reads *set,
                   char **err)
{
    /* Engine branch: SQLite's schema text, or on a server the schema of
     * benchdb's version with the server's own definitions (above). */
    return db_sqlite(db) ? schema_hash(db_sqlite(db), r, guard_on, out, set, err) : schema_hash_pg(db, r, out, set, err);
}

int schema_hash_of_sql(struct db *db, const char *sql, int guard_on, char out[65], char **err)
{
    struct schema_reads reads = {0};
    const struct store_guard_reads notes = {schema_reads_note, &reads};
    int rc = schema_pg_check(db, sql, &notes, err) ? -1 : 0;
    if (rc == 0 && reads.nomem)
        rc = bd_fail(err, "out of memory");
    if (rc == 0)
        rc = schema_hash_db(db, &reads, guard_on, out, NULL, err);
    schema_reads_free(&reads);
    return rc;
}
