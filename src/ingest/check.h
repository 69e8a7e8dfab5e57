#ifndef BENCHDB_INGEST_CHECK_H
#define BENCHDB_INGEST_CHECK_H
#include <stdio.h>

#include "store/db.h"

/* 'benchdb check': verifies a store. Prints one line per check to out
 * ("check: ...") and one "error: ..." line per problem to stderr; returns
 * the number of problems, or -1 when the store could not be read at all.
 *   1. PRAGMA integrity_check and PRAGMA foreign_key_check (on PostgreSQL,
 *      in one read-only transaction: the extension benchstats at the
 *      expected version, every foreign key enforced and no row referring
 *      to a missing one; store_check_pg_server);
 *   2. every archive's chunks: numbered 0, 1, ... without gaps, their sizes
 *      adding up to stored_size, the bytes (decompressed when the
 *      content_encoding is zstd) hashing to the archive's sha256 and size;
 *   3. every series' n and total against its measured sample rows (count,
 *      iterations 1..n, compensated sum equal within a relative 1e-12);
 *   4. sample rows whose series does not exist;
 * and, from src/store, the schema version (a damaged schema_migration
 * table) first and every JSON column last (store_check_schema,
 * store_check_json). */
int store_check(struct db *db, FILE *out);

#endif
