#ifndef BENCHDB_INGEST_CORE_JSONTEXT_H
#define BENCHDB_INGEST_CORE_JSONTEXT_H
#include <jansson.h>
#include <stddef.h>

#include "util/strbuf.h"

/* JSON text as benchdb writes and describes it: the canonical form of
 * params, attributes and details, values named in messages, nesting. */

/* What a JSON value is, for "got ..." in messages: numbers and short
 * strings as themselves (strings quoted, cut at 40 bytes), else its kind
 * ("an object", "an array"). Writes at most n bytes to buf. */
void json_describe(const json_t *v, char *buf, size_t n);

/* Appends the canonical text of v to sb: compact, object keys sorted by
 * their bytes, strings escaped minimally (", \, control characters),
 * integers as integers, reals in their shortest round-trip form with a
 * ".0" or exponent so that they stay reals. The same value always gives
 * the same text. Returns 0, or -1 when memory ran out. */
int json_canonical(const json_t *v, struct strbuf *sb);

/* How deeply v nests: 0 for a scalar, 1 for an array or object of
 * scalars, and so on. */
int json_depth(const json_t *v);
/* The deepest nesting SQLite's json_valid() accepts, and so the store's
 * JSON columns hold. */
#define JSON_STORE_DEPTH_MAX 2000

#endif
