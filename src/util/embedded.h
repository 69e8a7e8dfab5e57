#ifndef BENCHDB_EMBEDDED_H
#define BENCHDB_EMBEDDED_H
#include <stddef.h>

/* A text file compiled into the binary (see cmake/Embed.cmake). data is
 * NUL-terminated; size excludes the terminator. */
struct embedded_file {
    const char *name;
    const char *data;
    size_t size;
};

extern const struct embedded_file embedded_migrations[];
extern const size_t embedded_migrations_count;
/* migrations/postgresql/NNNN_name.sql, for a store on PostgreSQL. */
extern const struct embedded_file embedded_pg_migrations[];
extern const size_t embedded_pg_migrations_count;
/* The SQLite store at version embedded_sqlite_schema_version (the
 * latest) in one step: the statements and rows the migrations leave, made
 * at build time by tools/gen/sqlite_schema_snapshot.c (store/migrations.c). */
extern const struct embedded_file embedded_sqlite_schema;
extern const int embedded_sqlite_schema_version;
extern const struct embedded_file embedded_queries[];
extern const size_t embedded_queries_count;

#endif
