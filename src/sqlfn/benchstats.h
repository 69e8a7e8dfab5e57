#ifndef BENCHDB_BENCHSTATS_H
#define BENCHDB_BENCHSTATS_H
#include <sqlite3.h>

/* Registers every benchdb SQL function on db; returns an SQLite result code. */
int benchstats_register(sqlite3 *db);

#endif
