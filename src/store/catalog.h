#ifndef BENCHDB_STORE_CATALOG_H
#define BENCHDB_STORE_CATALOG_H
/* What a store holds, asked of the engine's own catalogues (sqlite_schema
 * and pragmas on SQLite, pg_catalog on PostgreSQL), for benchdb sql's dot
 * commands and the names an "unknown name" error suggests
 * (docs/schema.md, "Finding your way in the store"). */
#include "store/db.h"
#include "util/strbuf.h"

enum store_catalog {
    /* name, type ('table' or 'view'); ?1 a LIKE pattern or NULL */
    STORE_CATALOG_TABLES,
    /* name: every column of every table and view */
    STORE_CATALOG_COLUMNS,
    /* name, type ('scalar' or 'aggregate'), narg (-1: any number): the
     * functions benchdb adds, with on SQLite the engine's own too (drop
     * those with store_function_is_builtin) */
    STORE_CATALOG_FUNCTIONS,
    /* name: every function a statement may call */
    STORE_CATALOG_ALL_FUNCTIONS,
};

/* The SQL that lists what on db's engine. */
const char *store_catalog_sql(struct db *db, enum store_catalog what);

/* 1 when name/narg is one of the engine's own functions rather than one
 * benchdb added (SQLite: a connection of the same library without
 * benchdb's has it), 0 when not, -1 when it cannot be told. On
 * PostgreSQL STORE_CATALOG_FUNCTIONS lists the extension's alone: 0. */
int store_function_is_builtin(struct db *db, const char *name, int narg);

/* Appends the definitions of table (a table or view; NULL: all) to sb, as
 * statements: SQLite's as stored, with the table's indexes and triggers;
 * PostgreSQL's made from the catalogues. Nothing appended: no such
 * relation. 0, or -1 (db_errmsg says why; an append that failed: out of
 * memory). */
int store_schema_text(struct db *db, const char *table, struct strbuf *sb);

#endif
