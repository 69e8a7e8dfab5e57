#ifndef BENCHDB_INGEST_DECODERS_GOBENCH_GOBENCH_H
#define BENCHDB_INGEST_DECODERS_GOBENCH_GOBENCH_H
/* The gobench adapter (docs/formats.md): one file's values as series of the
 * current run. 0, or -1 with the error set. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/decoders/harness.h"

int harness_gobench(struct harness_ctx *c, const char *text, size_t len);

#endif
