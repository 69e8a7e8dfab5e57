#ifndef BENCHDB_INGEST_DECODERS_PYPERF_PYPERF_H
#define BENCHDB_INGEST_DECODERS_PYPERF_PYPERF_H
/* The pyperf adapter (docs/formats.md): one file's values as series of the
 * current run. 0, or -1 with the error set. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/decoders/harness.h"

int harness_pyperf(struct harness_ctx *c, json_t *doc);

#endif
