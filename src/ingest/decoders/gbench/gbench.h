#ifndef BENCHDB_INGEST_DECODERS_GBENCH_GBENCH_H
#define BENCHDB_INGEST_DECODERS_GBENCH_GBENCH_H
/* The gbench adapter (docs/formats.md): one file's values as series of the
 * current run. 0, or -1 with the error set. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/decoders/harness.h"

int harness_gbench(struct harness_ctx *c, json_t *doc);
/* The file's bytes: Google Benchmark's JSON reporter writes a counter (or
 * time) that is not finite as the bare word NaN, Infinity or -Infinity
 * (FormatKV), which JSON has not; read as the strings "NaN"... */
int harness_gbench_text(struct harness_ctx *c, const char *text, size_t len);

/* The host a Google Benchmark file names (context.host_name): 1 with
 * *host malloc'd, or 0 when it names none (or is not such JSON). */
int gbench_host_name(const char *text, size_t len, char **host);

#endif
