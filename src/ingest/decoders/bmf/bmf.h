#ifndef BENCHDB_INGEST_DECODERS_BMF_BMF_H
#define BENCHDB_INGEST_DECODERS_BMF_BMF_H
/* The Bencher Metric Format adapter (docs/formats.md): one file's values
 * as series of the current run. 0, or -1 with the error set. */
#include <jansson.h>

#include "ingest/decoders/harness.h"

int harness_bmf(struct harness_ctx *c, json_t *doc);

#endif
