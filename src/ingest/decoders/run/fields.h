#ifndef BENCHDB_INGEST_DECODERS_RUN_FIELDS_H
#define BENCHDB_INGEST_DECODERS_RUN_FIELDS_H
/* Checking one field of a benchdb-run/1 record (records.c, results.c). */
#include <jansson.h>

#include "ingest/decoders/run/run.h"

/* rec.key: 1 when present (and not null, for an optional field), 0 when
 * absent, -1 (error set: required field missing, or null) when required. */
int run_get_field(struct run_decoder *d, json_t *obj, const char *rec, const char *key, int required,
                  const char *expected, json_t **out);
/* Fails with "rec.key: expected EXPECTED, got V"; returns -1. */
int run_wrong(struct run_decoder *d, const char *rec, const char *key, const char *expected, const json_t *v);
/* A non-empty string; *out is NULL when optional and absent. */
int run_get_name(struct run_decoder *d, json_t *obj, const char *rec, const char *key, int required, const char **out);
/* An integer >= min; *present tells whether it was there. */
int run_get_int(struct run_decoder *d, json_t *obj, const char *rec, const char *key, int required, long long min,
                long long *out, int *present);

#endif
