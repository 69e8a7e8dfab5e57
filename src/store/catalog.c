/* What a store holds, asked of each engine's own catalogues
 * (store/catalog.h): the engine's SQL for each question. */
#include "store/catalog.h"

#include <stdlib.h>
#include <string.h>

#include "store/db_internal.h"


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

static const char *const catalog_sql[][2] = {
    [STORE_CATALOG_TABLES] = {tables_sqlite, tables_pg},
    [STORE_CATALOG_COLUMNS] = {columns_sqlite, columns_pg},
    [STORE_CATALOG_FUNCTIONS] = {functions_sqlite, functions_pg},
    [STORE_CATALOG_ALL_FUNCTIONS] = {all_functions_sqlite, all_functions_pg},
};

const char *store_catalog_sql(struct db *db, enum store_catalog what)
{
    return catalog_sql[what][db->engine == DB_POSTGRESQL];
}

int store_function_is_builtin(struct db *db, const char *name, int narg)
{
    if (db->engine == DB_POSTGRESQL)
        return 0;
    /* Every aggregate of benchdb is a window function too, so name and
     * narg tell benchdb's apart from the library's own. */
    sqlite3 *bare = NULL;
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (sqlite3_open_v2(":memory:", &bare, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(bare, "SELECT 1 FROM pragma_function_list WHERE name = ?1 AND narg = ?2", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_bind_int(st, 2, narg) == SQLITE_OK) {
        int step = sqlite3_step(st);
        rc = step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(st);
    sqlite3_close(bare);
    return rc;
}

/* Appends the text of sql's rows (?1 bound to arg) to sb, one per line,
 * counting them in *n. */
static int lines(struct db *db, const char *sql, const char *arg, struct strbuf *sb, size_t *n)
{
    struct db_stmt *st;
    if (db_prepare(db, sql, &st) != SQLITE_OK)
        return -1;
    int rc = !arg || db_bind_text(st, 1, arg, -1) == SQLITE_OK ? SQLITE_ROW : SQLITE_ERROR;
    while (rc == SQLITE_ROW && (rc = db_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)db_column_text(st, 0);
        if (sb_printf(sb, "%s\n", t ? t : "")) {
            rc = SQLITE_NOMEM;
            break;
        }
        (*n)++;
    }
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
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

int store_schema_text(struct db *db, const char *table, struct strbuf *sb)
{
    size_t n = 0;
    if (db->engine != DB_POSTGRESQL)
        return lines(db, schema_sqlite, table, sb, &n);
    if (table)
        return schema_pg_one(db, table, sb);
    struct db_stmt *st;
    if (db_prepare(db, tables_pg, &st) != SQLITE_OK)
        return -1;
    /* the names first: schema_pg_one runs statements of its own */
    struct strbuf names = {0};
    int rc = db_bind_null(st, 1);
    while (rc == SQLITE_OK && (rc = db_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)db_column_text(st, 0);
        if (sb_append(&names, t ? t : "", t ? strlen(t) + 1 : 1)) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    db_finalize(st);
    rc = rc == SQLITE_DONE ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < names.len; i += strlen(names.buf + i) + 1)
        rc = schema_pg_one(db, names.buf + i, sb);
    sb_free(&names);
    return rc;
}
