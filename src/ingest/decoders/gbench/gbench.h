#ifndef BENCHDB_INGEST_DECODERS_GBENCH_GBENCH_H
#define BENCHDB_INGEST_DECODERS_GBENCH_GBENCH_H
/* The gbench adapter (docs/formats.md): one file's values as series of the
 * current run. 0, or -1 with the error set. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/decoders/harness.h"

int harness_gbench(struct harness_ctx *c, json_t *doc);

/* The host a Google Benchmark file names (context.host_name): 1 with
 * *host malloc'd, or 0 when it names none (or is not such JSON). */
int gbench_host_name(const char *text, size_t len, char **host);

#endif
