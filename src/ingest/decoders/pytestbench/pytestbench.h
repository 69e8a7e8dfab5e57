#ifndef BENCHDB_INGEST_DECODERS_PYTESTBENCH_PYTESTBENCH_H
#define BENCHDB_INGEST_DECODERS_PYTESTBENCH_PYTESTBENCH_H
/* The pytest-benchmark adapter (docs/formats.md): one --benchmark-json
 * file's values as series of the current run. 0, or -1 with the error set. */
#include <jansson.h>

#include "ingest/decoders/harness.h"

int harness_pytest_benchmark(struct harness_ctx *c, json_t *doc);
/* Its stats.data, which the parser reads flat (core/jsonflat.h). */
extern const struct json_flat_spec pytest_flat;

#endif
