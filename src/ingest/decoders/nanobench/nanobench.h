#ifndef BENCHDB_INGEST_DECODERS_NANOBENCH_NANOBENCH_H
#define BENCHDB_INGEST_DECODERS_NANOBENCH_NANOBENCH_H
/* The nanobench adapter (docs/formats.md): the output of nanobench's
 * templates::json() as series of the current run. 0, or -1 with the error
 * set. */
#include <jansson.h>

#include "ingest/decoders/harness.h"

int harness_nanobench(struct harness_ctx *c, json_t *doc);
/* Its measurements, which the parser reads flat (core/jsonflat.h). */
extern const struct json_flat_spec nanobench_flat;

#endif
