#ifndef BENCHDB_FUZZ_STORE_H
#define BENCHDB_FUZZ_STORE_H
#include <sqlite3.h>
#include <stdint.h>

/* Helpers shared by the ingest fuzz targets (not a target: no fuzz_ prefix). */

/* The single integer an SQL query returns, or -1. */
int64_t fuzz_count(sqlite3 *db, const char *sql);

/* A fresh in-memory store per input, copied from a template that
 * store_open made once (migrating a new store for every input would
 * dominate the time); foreign keys and DEFENSIVE on, as store_open sets. */
sqlite3 *fuzz_fresh_store(void);

#endif
