#ifndef BENCHDB_INGEST_DECODERS_CSV_CSV_H
#define BENCHDB_INGEST_DECODERS_CSV_CSV_H
/* The CSV/TSV adapter (docs/formats.md, "csv"): one table's values as
 * series of the current run. 0, or -1 with the error set. */
#include <stddef.h>

#include "ingest/decoders/harness.h"

int harness_csv(struct harness_ctx *c, const char *text, size_t len);

#endif
