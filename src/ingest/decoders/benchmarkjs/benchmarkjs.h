#ifndef BENCHDB_INGEST_DECODERS_BENCHMARKJS_BENCHMARKJS_H
#define BENCHDB_INGEST_DECODERS_BENCHMARKJS_BENCHMARKJS_H
/* The Benchmark.js adapter (docs/formats.md): one file's values as series
 * of the current run. 0, or -1 with the error set. */
#include <jansson.h>

#include "ingest/decoders/harness.h"

int harness_benchmarkjs(struct harness_ctx *c, json_t *doc);

#endif
