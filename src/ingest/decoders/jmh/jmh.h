#ifndef BENCHDB_INGEST_DECODERS_JMH_JMH_H
#define BENCHDB_INGEST_DECODERS_JMH_JMH_H
/* The jmh adapter (docs/formats.md): one file's values as series of the
 * current run. 0, or -1 with the error set. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/decoders/harness.h"

int harness_jmh(struct harness_ctx *c, json_t *doc);

#endif
