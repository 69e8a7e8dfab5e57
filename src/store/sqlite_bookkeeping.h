#ifndef BENCHDB_STORE_SQLITE_BOOKKEEPING_H
#define BENCHDB_STORE_SQLITE_BOOKKEEPING_H

/* The table an SQLite store records its migrations in, created before
 * each step (store/migrations.c) and, the same way, before each migration
 * replayed by tools/gen/sqlite_schema_snapshot.c, so that its row of
 * sqlite_schema is the same text in both. */
#define STORE_SQLITE_BOOKKEEPING                                                                                       \
    "CREATE TABLE IF NOT EXISTS schema_migration (\n"                                                                  \
    "  version    INTEGER PRIMARY KEY,\n"                                                                              \
    "  name       TEXT NOT NULL,\n"                                                                                    \
    "  sha256     TEXT NOT NULL,\n"                                                                                    \
    "  applied_at TEXT NOT NULL\n"                                                                                     \
    ")"

#endif
