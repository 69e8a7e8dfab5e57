#ifndef BENCHDB_INGEST_CORE_JSONPARSE_H
#define BENCHDB_INGEST_CORE_JSONPARSE_H
/* The one checked JSON parser, for every line of a run stream (bare or a
 * container member) and every harness JSON file.
 *
 * The parser is benchdb's own (jsonread, over the tokens of jsonlex): one
 * pass over the buffer, no call per byte, building jansson json_t trees
 * with jansson's constructors, so that every reader works on json_t. It
 * accepts and refuses exactly what jansson 2.14's json_loadb does with
 * JSON_REJECT_DUPLICATES, with jansson's line, column and message
 * (unit/jsonparse_diff and fuzz/json compare the two), 3 to 7 times as
 * fast (bench/README.md, figure 3).
 *
 * jansson's allocator is wrapped: a failure is noted on the thread that
 * met it, and a document parsed while one failed is refused as out of
 * memory, whatever the constructors returned (jansson's own parser, which
 * benchdb used before, even mis-parsed under memory pressure: lex_save
 * dropped a byte it could not store).
 *
 * A document's tree lives in an arena of its own: its nodes are neither
 * allocated nor freed one by one, and the tree is dropped whole. All the
 * trees alive at once may take at most JSON_TREES_MAX bytes: a document
 * whose tree would pass that is refused (JSON_TOO_BIG), which bounds the
 * memory of any input (docs/reliability.md). */
#include <jansson.h>
#include <stddef.h>

#include "ingest/core/jsonerror.h"
#include "ingest/core/jsonflat.h"

#define JSON_TREES_MAX (128ull << 20)

struct json_arena;

struct json_doc {
    json_t *root;
    struct json_arena *arena;
    size_t bytes; /* the arena's size */
    struct json_flats flats; /* the arrays read flat (json_parse_flat), in the arena */
};

/* Parses s (n bytes) strictly (duplicate keys refused) into doc. */
enum json_parse_status json_parse(const char *s, size_t n, struct json_doc *doc, struct json_parse_error *e);
/* The same, the arrays spec names read flat into doc->flats (jsonflat.h):
 * the same checks and errors, their records in the arena (under the same
 * bound) instead of a json_t per element. */
enum json_parse_status json_parse_flat(const char *s, size_t n, const struct json_flat_spec *spec,
                                       struct json_doc *doc, struct json_parse_error *e);
/* The error as benchdb says it: "invalid JSON at column 12: ..." for a
 * line, "invalid JSON at line 3, column 12: ..." for a file (with_line);
 * malloc'd. */
char *json_parse_message(const struct json_parse_error *e, int with_line);
/* While a thread works on a document (possibly parsed on another thread),
 * it holds it: jansson freeing one of its nodes (a reference taken and
 * dropped) is then a no-op. Up to four documents at once per thread. */
void json_doc_hold(const struct json_doc *d);
/* Drops the tree (and the hold); no reference into it may outlive this. */
void json_doc_free(struct json_doc *d);

/* Installs the checked allocator for jansson (once, before parsing). */
void json_checked_install(void);
/* The same, wrapping m and f instead of malloc and free (tests inject
 * allocation failures with it). */
void json_checked_allocator(void *(*m)(size_t), void (*f)(void *));

#endif
