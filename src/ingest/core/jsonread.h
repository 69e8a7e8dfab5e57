#ifndef BENCHDB_INGEST_CORE_JSONREAD_H
#define BENCHDB_INGEST_CORE_JSONREAD_H
/* benchdb's JSON parser (jsonparse's, which wraps it in an arena): the
 * text s[0..n) to a jansson tree, built with jansson's constructors, so
 * every reader keeps working on json_t. It accepts and refuses what
 * json_loadb(s, n, JSON_REJECT_DUPLICATES) does, with jansson's line,
 * column and text (jsonlex.h). */
#include <jansson.h>
#include <stddef.h>

#include "ingest/core/jsonerror.h"
#include "ingest/core/jsonflat.h"

/* The tree, or NULL with e set (JSON_SYNTAX, or JSON_NO_MEMORY when an
 * allocation failed). Its nodes come from jansson's allocator; on failure
 * those already made are left to it (jsonparse's arena drops them whole).
 * A string with escapes is decoded into scratch memory from alloc. */
json_t *json_read(const char *s, size_t n, void *(*alloc)(size_t), void (*release)(void *),
                  struct json_parse_error *e);
/* The same, the arrays spec names read flat into flats (jsonflat.h; their
 * records from jansson's allocator too), the rest as a tree. */
json_t *json_read_flat(const char *s, size_t n, const struct json_flat_spec *spec, struct json_flats *flats,
                       void *(*alloc)(size_t), void (*release)(void *), struct json_parse_error *e);

#endif
