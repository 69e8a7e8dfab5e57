#ifndef BENCHDB_INGEST_DECODERS_TINYBENCH_TINYBENCH_H
#define BENCHDB_INGEST_DECODERS_TINYBENCH_TINYBENCH_H
/* The tinybench and Vitest bench adapters (docs/formats.md): one file's
 * values as series of the current run. 0, or -1 with the error set. */
#include <jansson.h>

#include "ingest/decoders/harness.h"

/* An array of tasks' {name, result}, as tinybench's bench.tasks are saved. */
int harness_tinybench(struct harness_ctx *c, json_t *doc);
/* vitest bench --outputJson: files[].groups[].benchmarks[]. */
int harness_vitest(struct harness_ctx *c, json_t *doc);
/* Their samples, which the parser reads flat (core/jsonflat.h): tinybench
 * 3 and later's latency and throughput samples (tinybench 2's, directly
 * in the result, are read as a tree), Vitest's benchmarks' samples. */
extern const struct json_flat_spec tinybench_flat, vitest_flat;

#endif
