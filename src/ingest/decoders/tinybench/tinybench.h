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

#endif
