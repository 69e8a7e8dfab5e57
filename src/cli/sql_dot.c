/* benchdb sql's dot commands, as the sqlite3 shell has them (.tables,
 * .schema, and .functions: the SQL functions benchdb adds), on either
 * engine; and the names an "unknown table/column/function" error
 * suggests (docs/schema.md, "Finding your way"). */
#include "cli/sql_dot.h"

#include <stdlib.h>
#include <string.h>

#include "util/natural.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/text.h"

/* ---- the catalogues, per engine ---- */

static const char tables_sqlite[] =
    "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
    "AND (CAST(?1 AS TEXT) IS NULL OR name LIKE ?1) ORDER BY name";
static const char tables_pg[] =
    "SELECT CAST(c.relname AS TEXT) AS name, CASE WHEN c.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END AS type "
    "FROM pg_class c WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'v', 'm', 'p') "
    "AND (CAST(?1 AS TEXT) IS NULL OR c.relname LIKE ?1) ORDER BY 1";

/* benchdb's functions (not the engine's own): name, type, narg (-1: any
 * number). On PostgreSQL those of the extension benchstats, without the
 * aggregates' helper functions. */
static const char functions_sqlite[] =
    "SELECT DISTINCT name, CASE type WHEN 's' THEN 'scalar' ELSE 'aggregate' END AS type, "
    "narg FROM pragma_function_list ORDER BY name, narg";
static const char functions_pg[] =
    "SELECT DISTINCT CAST(p.proname AS TEXT) AS name, "
    "CASE p.prokind WHEN 'f' THEN 'scalar' ELSE 'aggregate' END AS type, "
    "CAST(CASE WHEN p.provariadic <> 0 THEN -1 ELSE p.pronargs END AS BIGINT) AS narg "
    "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'benchstats' "
    "AND p.oid NOT IN (SELECT CAST(aggtransfn AS oid) FROM pg_aggregate UNION SELECT CAST(aggfinalfn AS oid) "
    "FROM pg_aggregate UNION SELECT CAST(aggminvtransfn AS oid) FROM pg_aggregate "
    "UNION SELECT CAST(aggcombinefn AS oid) FROM pg_aggregate) ORDER BY 1, 3";
/* Every function a statement may call, for a suggestion. */
static const char all_functions_sqlite[] = "SELECT DISTINCT name FROM pragma_function_list";
static const char all_functions_pg[] =
    "SELECT DISTINCT CAST(p.proname AS TEXT) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
    "WHERE n.nspname IN ('benchstats', 'pg_catalog') AND p.proname NOT LIKE '\\_%' ESCAPE '\\'";
static const char columns_sqlite[] =
    "SELECT DISTINCT p.name FROM sqlite_schema s, pragma_table_info(s.name) p "
    "WHERE s.type IN ('table', 'view') AND s.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'";
static const char columns_pg[] =
    "SELECT DISTINCT CAST(a.attname AS TEXT) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
    "WHERE c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'v', 'm', 'p') "
    "AND a.attnum > 0 AND NOT a.attisdropped";

/* .schema on SQLite: the statements as stored, a table's with its indexes
 * and triggers. */
static const char schema_sqlite[] =
    "SELECT sql || ';' FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
    "AND (CAST(?1 AS TEXT) IS NULL OR tbl_name = ?1) "
    "ORDER BY CASE WHEN CAST(?1 AS TEXT) IS NULL THEN rowid END, "
    "CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, name";
/* On PostgreSQL the definition is made from the catalogues: one line per
 * column (type, NOT NULL, default), then constraints, indexes, triggers; a
 * view's query. ?1: the relation. */
static const char schema_pg_view[] =
    "SELECT 'CREATE VIEW ' || c.relname || ' AS' || chr(10) || pg_get_viewdef(c.oid, true) FROM pg_class c "
    "WHERE c.relname = ?1 AND c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('v', 'm')";
static const char schema_pg_columns[] =
    "SELECT '  ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || "
    "CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') "
    "FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid "
    "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
    "WHERE c.relname = ?1 AND c.relnamespace = CAST(current_schema() AS regnamespace) AND c.relkind IN ('r', 'p') "
    "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";
static const char schema_pg_constraints[] =
    "SELECT '  CONSTRAINT ' || k.conname || ' ' || pg_get_constraintdef(k.oid) FROM pg_constraint k "
    "JOIN pg_class c ON c.oid = k.conrelid WHERE c.relname = ?1 AND c.relnamespace = CAST(current_schema() AS "
    "regnamespace) ORDER BY CASE k.contype WHEN 'p' THEN 0 WHEN 'u' THEN 1 WHEN 'c' THEN 2 ELSE 3 END, k.conname";
static const char schema_pg_after[] =
    "SELECT pg_get_indexdef(i.indexrelid) || ';' FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
    "WHERE c.relname = ?1 AND c.relnamespace = CAST(current_schema() AS regnamespace) AND NOT EXISTS "
    "(SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) "
    "UNION ALL SELECT pg_get_triggerdef(t.oid) || ';' FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
    "WHERE c.relname = ?1 AND c.relnamespace = CAST(current_schema() AS regnamespace) AND NOT t.tgisinternal";

static int is_pg(struct db *db) { return db_engine(db) == DB_POSTGRESQL; }

/* The first column of sql's rows (?1 bound to arg when not NULL) into
 * names; 0, or -1 on an error. */
static int load_names(struct db *db, const char *sql, const char *arg, struct sql_names *names)
{
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return -1;
    if (arg && db_bind_text(st, 1, arg, -1) != SQLITE_OK) {
        db_finalize(st);
        return -1;
    }
    int rc;
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)db_column_text(st, 0);
        char **v = realloc(names->v, (names->n + 1) * sizeof *v);
        if (!v) {
            rc = SQLITE_NOMEM;
            break;
        }
        names->v = v;
        if (!(v[names->n] = strdup(t ? t : ""))) {
            rc = SQLITE_NOMEM;
            break;
        }
        names->n++;
    }
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

void sql_names_free(struct sql_names *names)
{
    for (size_t i = 0; i < names->n; i++)
        free(names->v[i]);
    free(names->v);
    memset(names, 0, sizeof *names);
}

/* ---- the dot commands ---- */

static int collect(struct db *db, const char *sql, const char *arg, struct rowset *rs);

/* benchdb's functions on SQLite: those of the store's connection that a
 * connection of the same library without them lacks (every aggregate of
 * benchdb is a window function too). */
static int functions_of_benchdb(struct db *db, struct rowset *rs)
{
    sqlite3 *bare = NULL;
    sqlite3_stmt *st = NULL;
    int rc = collect(db, functions_sqlite, NULL, rs);
    if (rc == 0 && (sqlite3_open_v2(":memory:", &bare, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) != SQLITE_OK ||
                    sqlite3_prepare_v2(bare, "SELECT 1 FROM pragma_function_list WHERE name = ?1 AND narg = ?2", -1,
                                       &st, NULL) != SQLITE_OK))
        rc = -1;
    unsigned char *keep = rc ? NULL : calloc(rs->nrow + 1, 1);
    for (size_t r = 0; keep && r < rs->nrow; r++) {
        sqlite3_bind_value(st, 1, rowset_cell(rs, r, 0));
        sqlite3_bind_value(st, 2, rowset_cell(rs, r, 2));
        keep[r] = sqlite3_step(st) != SQLITE_ROW;
        sqlite3_reset(st);
    }
    if (keep)
        rowset_keep(rs, keep);
    else
        rc = -1;
    free(keep);
    sqlite3_finalize(st);
    sqlite3_close(bare);
    return rc;
}

/* The rows of sql (?1 bound to arg when not NULL). */
static int collect(struct db *db, const char *sql, const char *arg, struct rowset *rs)
{
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return -1;
    int rc = arg ? db_bind_text(st, 1, arg, -1) : SQLITE_OK;
    if (rc == SQLITE_OK)
        rc = rowset_collect_db(rs, st);
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Appends the text of sql's rows to sb, one per line. */
static int lines(struct db *db, const char *sql, const char *arg, struct strbuf *sb, size_t *n)
{
    struct rowset rs = {0};
    int rc = collect(db, sql, arg, &rs);
    for (size_t r = 0; rc == 0 && r < rs.nrow; r++) {
        const char *t = (const char *)sqlite3_value_text(rowset_cell(&rs, r, 0));
        rc = sb_printf(sb, "%s\n", t ? t : "");
        (*n)++;
    }
    rowset_free(&rs);
    return rc;
}

/* One relation's definition on PostgreSQL. */
static int schema_pg_one(struct db *db, const char *name, struct strbuf *sb)
{
    size_t n = 0, cols = 0;
    struct strbuf body = {0};
    int rc = lines(db, schema_pg_view, name, sb, &n);
    if (rc == 0 && n) {
        sb->len--; /* the view's query ends with ';' already */
        return sb_puts(sb, "\n");
    }
    rc = rc || lines(db, schema_pg_columns, name, &body, &cols) || lines(db, schema_pg_constraints, name, &body, &cols);
    if (rc == 0 && cols) {
        /* Lines joined by ",\n", as a CREATE TABLE reads. */
        rc = sb_printf(sb, "CREATE TABLE %s (\n", name);
        for (size_t i = 0; rc == 0 && i < body.len; i++)
            rc = body.buf[i] == '\n' && i + 1 < body.len ? sb_puts(sb, ",\n") : sb_putc(sb, body.buf[i]);
        rc = rc || sb_puts(sb, ");\n") || lines(db, schema_pg_after, name, sb, &n);
    }
    sb_free(&body);
    return rc;
}

static int schema_text(struct db *db, const char *table, struct strbuf *sb)
{
    size_t n = 0;
    if (!is_pg(db))
        return lines(db, schema_sqlite, table, sb, &n);
    if (table)
        return schema_pg_one(db, table, sb);
    struct sql_names all = {0};
    int rc = load_names(db, tables_pg, NULL, &all);
    for (size_t i = 0; rc == 0 && i < all.n; i++)
        rc = schema_pg_one(db, all.v[i], sb);
    sql_names_free(&all);
    return rc;
}

/* "; did you mean 'x'?" or "; KINDS: a, b, ..." for name among names. */
static void hint_names(struct strbuf *sb, const char *name, struct sql_names *names, const char *kinds)
{
    natural_sort((const char **)names->v, names->n);
    const char *near = suggest_closest(name, (const char *const *)names->v, names->n);
    if (near) {
        sb_printf(sb, "; did you mean '%s'?", near);
        return;
    }
    enum { SHOWN = 10 };
    const char *nearest[SHOWN];
    size_t k = suggest_nearest(name, (const char *const *)names->v, names->n, nearest, SHOWN);
    sb_printf(sb, "; %s%s: ", names->n > SHOWN ? "the nearest " : "", kinds);
    sb_put_name_list(sb, nearest, k, SHOWN);
}

int sql_dot_command(struct db *db, const char *text, const struct out_opts *out, int *rc)
{
    const char *s = text;
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    if (*s != '.')
        return 0;
    char cmd[32] = "", arg[256] = "";
    int n = sscanf(s, ".%31s %255s", cmd, arg);
    const char *a = n == 2 ? arg : NULL;
    struct rowset rs = {0};
    struct report rep = {0};
    struct strbuf sb = {0};
    *rc = EXIT_FAIL;
    if (strcmp(cmd, "tables") == 0) {
        if (collect(db, is_pg(db) ? tables_pg : tables_sqlite, a, &rs))
            bd_error("sql: .tables: %s", db_errmsg(db));
        else if (report_print(&rep, &rs, out, stdout, stderr))
            bd_error("sql: cannot write the output");
        else
            *rc = EXIT_OK;
    } else if (strcmp(cmd, "functions") == 0) {
        if (is_pg(db) ? collect(db, functions_pg, NULL, &rs) : functions_of_benchdb(db, &rs))
            bd_error("sql: .functions: %s", db_errmsg(db));
        else if (report_print(&rep, &rs, out, stdout, stderr))
            bd_error("sql: cannot write the output");
        else
            *rc = EXIT_OK;
    } else if (strcmp(cmd, "schema") == 0) {
        struct sql_names tables = {0};
        if (schema_text(db, a, &sb))
            bd_error("sql: .schema: %s", db_errmsg(db));
        else if (!sb.len && a) {
            struct strbuf msg = {0};
            sb_printf(&msg, "sql: .schema: no table or view named '%s'", a);
            if (load_names(db, is_pg(db) ? tables_pg : tables_sqlite, NULL, &tables) == 0)
                hint_names(&msg, a, &tables, "tables and views");
            *rc = bd_usage_error("sql", "%s", msg.buf);
            sb_free(&msg);
        } else if (sb.len && fwrite(sb.buf, 1, sb.len, stdout) != sb.len)
            bd_error("sql: cannot write the output");
        else
            *rc = EXIT_OK;
        sql_names_free(&tables);
    } else
        *rc = bd_usage_error("sql", "sql: unknown command '.%s': benchdb sql knows .tables [PATTERN], .schema [TABLE] "
                                    "and .functions", cmd);
    rowset_free(&rs);
    report_free(&rep);
    sb_free(&sb);
    return 1;
}

/* ---- suggestions for "no such ..." ---- */

/* The name an error message is about, after prefix (SQLite: "no such
 * table: main.x") or between quotes after prefix (PostgreSQL: relation
 * "x" does not exist). malloc'd, or NULL. */
static char *name_after(const char *msg, const char *prefix, int quoted)
{
    const char *p = strstr(msg, prefix);
    if (!p)
        return NULL;
    p += strlen(prefix);
    if (quoted) {
        const char *e = strchr(p, '"');
        return e ? strndup(p, (size_t)(e - p)) : NULL;
    }
    size_t n = strcspn(p, " (\n");
    return n ? strndup(p, n) : NULL;
}

void sql_error_hint(struct db *db, const char *msg, struct strbuf *hint)
{
    static const struct {
        const char *prefix, *needs;
        int quoted;
        int kind; /* 0 table, 1 column, 2 function */
    } forms[] = {
        {"no such table: ", "", 0, 0},  {"no such column: ", "", 0, 1}, {"no such function: ", "", 0, 2},
        {"relation \"", "does not exist", 1, 0}, {"column \"", "does not exist", 1, 1},
        {"column ", "does not exist", 0, 1},      {"function ", "does not exist", 0, 2},
    };
    static const char *const kinds[] = {"tables and views", "columns", "functions"};
    char *name = NULL;
    int kind = -1;
    for (size_t i = 0; !name && i < sizeof forms / sizeof *forms; i++)
        if (strstr(msg, forms[i].needs) && (name = name_after(msg, forms[i].prefix, forms[i].quoted)) != NULL)
            kind = forms[i].kind;
    if (!name)
        return;
    /* A qualified name: suggest for its last part (r.nam, main.runs). */
    const char *base = strrchr(name, '.') ? strrchr(name, '.') + 1 : name;
    struct sql_names names = {0};
    const char *sql = kind == 0   ? (is_pg(db) ? tables_pg : tables_sqlite)
                      : kind == 1 ? (is_pg(db) ? columns_pg : columns_sqlite)
                                  : (is_pg(db) ? all_functions_pg : all_functions_sqlite);
    if (load_names(db, sql, NULL, &names) == 0 && names.n)
        hint_names(hint, base, &names, kinds[kind]);
    sql_names_free(&names);
    free(name);
}
