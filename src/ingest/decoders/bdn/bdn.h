#ifndef BENCHDB_INGEST_DECODERS_BDN_BDN_H
#define BENCHDB_INGEST_DECODERS_BDN_BDN_H
/* The BenchmarkDotNet adapter (docs/formats.md): one full JSON export's
 * values as series of the current run. 0, or -1 with the error set. */
#include <jansson.h>

#include "ingest/decoders/harness.h"

int harness_bdn(struct harness_ctx *c, json_t *doc);
/* Its Measurements, which the parser reads flat (core/jsonflat.h). */
extern const struct json_flat_spec bdn_flat;

#endif
