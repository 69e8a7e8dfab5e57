#ifndef BENCHDB_INGEST_DECODERS_CATCH2_CATCH2_H
#define BENCHDB_INGEST_DECODERS_CATCH2_CATCH2_H
/* The Catch2 adapter (docs/formats.md): the XML reporter's output
 * (--reporter xml, Catch2 2.x and 3.x) as series of the current run; the
 * JSON reporter's is recognised and refused, since it writes no benchmark
 * results. 0, or -1 with the error set. */
#include <stddef.h>

#include "ingest/decoders/harness.h"

int harness_catch2(struct harness_ctx *c, const char *text, size_t len);

#endif
