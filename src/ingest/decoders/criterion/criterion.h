#ifndef BENCHDB_INGEST_DECODERS_CRITERION_CRITERION_H
#define BENCHDB_INGEST_DECODERS_CRITERION_CRITERION_H
/* Criterion.rs (docs/formats.md): a benchmark's new/sample.json, with the
 * benchmark.json (its name) and estimates.json (Criterion's statistics)
 * beside it; and `cargo bench -- --output-format bencher` lines (also
 * libtest's #[bench] output). 0, or -1 with the error set. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/decoders/harness.h"

/* The files read with sample.json, from the same directory. */
extern const char *const criterion_companions[];
/* sample.json's times, read flat (core/jsonflat.h). */
struct json_flat_spec;
extern const struct json_flat_spec criterion_flat;

int harness_criterion(struct harness_ctx *c, json_t *doc);
int harness_cargo_bench(struct harness_ctx *c, const char *text, size_t len);

#endif
