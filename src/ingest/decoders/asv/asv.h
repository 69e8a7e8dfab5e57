#ifndef BENCHDB_INGEST_DECODERS_ASV_ASV_H
#define BENCHDB_INGEST_DECODERS_ASV_ASV_H
/* The asv adapter (docs/formats.md): one results/MACHINE/COMMIT-ENV.json
 * file's values as series of the current run. 0, or -1 with the error set. */
#include <jansson.h>

#include "ingest/decoders/harness.h"

int harness_asv(struct harness_ctx *c, json_t *doc);
/* The file's bytes: asv writes with Python's json, which spells a skipped
 * result NaN and an open interval -Infinity/Infinity; those become the
 * strings "NaN", "Infinity", "-Infinity" before parsing. */
int harness_asv_text(struct harness_ctx *c, const char *text, size_t len);

#endif
