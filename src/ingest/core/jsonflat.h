#ifndef BENCHDB_INGEST_CORE_JSONFLAT_H
#define BENCHDB_INGEST_CORE_JSONFLAT_H
/* A document's large arrays read flat: the elements of an array named by
 * a path (a harness's one object per measured value: BenchmarkDotNet's
 * Measurements, nanobench's measurements) kept as records of the few
 * fields a reader takes, not as a json_t object each (a hash table per
 * element: the tree was six times the text, and building it most of
 * these files' ingest; bench/README.md, figure 3); an array of numbers
 * (tinybench's, Vitest's and pytest-benchmark's samples) as 16 bytes a
 * number, not a json_t each.
 *
 * The parser (jsonread) fills them while it reads the document, which it
 * checks exactly as when it builds the whole tree: the same refusals,
 * the same line, column and text (unit/jsonparse_diff compares the two).
 * In the tree, such an array is an empty array (a placeholder) that
 * json_flats_find turns into its records. An array that came as a tree
 * (a document inside a run stream) is made into the same records by
 * json_flat_from_tree, so that a reader has one way to read both. */
#include <jansson.h>
#include <stddef.h>

/* Which arrays, and which fields of their elements. */
struct json_flat_spec {
    /* keys from the root to the array, NULL-terminated; "*" stands for
     * any key or any element of an array, "a|b" for either key (a key
     * with a '|' in it cannot be named): {"Benchmarks", "*", "Measurements", NULL},
     * {"*", "result", "latency|throughput", "samples", NULL} */
    const char *const *path;
    /* the keys kept of each element, NULL-terminated (at most JSON_FLAT_FIELDS_MAX) */
    const char *const *fields;
};
#define JSON_FLAT_FIELDS_MAX 15

/* A value as read. Numbers and literals inline; a string, an object or
 * an array as a json_t the tree (or the parse's arena) owns. */
#define JSON_FLAT_ABSENT (-1)
struct json_flat_value {
    int type; /* a json_type, or JSON_FLAT_ABSENT (the element has no such key) */
    union {
        json_int_t integer;
        double real;
        json_t *tree; /* JSON_STRING, JSON_OBJECT, JSON_ARRAY, JSON_TRUE, JSON_FALSE, JSON_NULL */
    } u;
};

/* Elements in chunks, so that the array grows without moving: a first
 * small one (most arrays in hand-made files are short), then large ones. */
#define JSON_FLAT_FIRST 16
#define JSON_FLAT_CHUNK 1024

/* An array's elements: element k is json_flat_at(a, k), width values: [0]
 * the element itself (an object: type JSON_OBJECT, tree NULL; anything
 * else: its value), [1 + f] its field spec->fields[f]. */
struct json_flat_array {
    size_t n, width;
    struct json_flat_value **chunks;
    size_t n_chunks, cap_chunks;
    const json_t *placeholder; /* what the tree holds in its place */
    /* strings met in its fields (a mode, a stage: a few distinct ones),
     * made once each; their texts and lengths at hand, to compare without
     * a call into jansson */
    json_t *strings[8];
    const char *string_text[8];
    size_t string_len[8];
    size_t n_strings;
    int owned;    /* from json_flat_from_tree: json_flat_array_free frees it */
    size_t index; /* its place in the document's json_flats */
};

/* The arrays of one document, in the order the parser met them, and the
 * same sorted by their placeholders' addresses (json_flats_index), so
 * that a lookup out of that order, or of an array not read flat, costs
 * log n comparisons, not n. */
struct json_flats {
    struct json_flat_array **a;
    size_t n, cap;
    struct json_flat_array **by_placeholder; /* n of them, or NULL: not indexed */
};

/* Where json_flats_find looks first (zeroed before a document's first
 * lookup): the array after the one it found last, since a reader looks
 * its arrays up in the document's order. probes: the placeholders it
 * compared, every lookup together (tests count them). */
struct json_flats_cursor {
    size_t next;
    size_t probes;
};

static inline struct json_flat_value *json_flat_at(const struct json_flat_array *a, size_t k)
{
    if (k < JSON_FLAT_FIRST)
        return a->chunks[0] + k * a->width;
    k -= JSON_FLAT_FIRST;
    return a->chunks[1 + k / JSON_FLAT_CHUNK] + (k % JSON_FLAT_CHUNK) * a->width;
}

/* The number of fields of spec kept (its width less one): those past
 * JSON_FLAT_FIELDS_MAX are not. */
size_t json_flat_width(const struct json_flat_spec *spec);
/* A new array of width values an element, from alloc (NULL when it failed). */
struct json_flat_array *json_flat_new(size_t width, void *(*alloc)(size_t));
/* Element n (all its values JSON_FLAT_ABSENT) appended; NULL when alloc failed. */
struct json_flat_value *json_flat_push(struct json_flat_array *a, void *(*alloc)(size_t));
/* Registers a in f; -1 when alloc failed. */
int json_flats_add(struct json_flats *f, struct json_flat_array *a, void *(*alloc)(size_t));
/* Sorts f's arrays by placeholder into f->by_placeholder (once they are
 * all in); -1 when alloc failed. */
int json_flats_index(struct json_flats *f, void *(*alloc)(size_t));
/* The string s[0..len) as a json_t: one of a's (made from alloc's memory
 * by jansson's constructor) or a new one; NULL when memory ran out. */
json_t *json_flat_string(struct json_flat_array *a, const char *s, size_t len);

/* The records of the array v, if the parser read it flat (v is its
 * placeholder), else NULL: at once when v is the one cur expects, else by
 * a binary search of f->by_placeholder (f not indexed: by a scan). */
const struct json_flat_array *json_flats_find(const struct json_flats *f, const json_t *v,
                                              struct json_flats_cursor *cur);
/* The array v (a tree) as records of fields (NULL-terminated), malloc'd
 * (json_flat_array_free); NULL when memory ran out. */
struct json_flat_array *json_flat_from_tree(const json_t *v, const char *const *fields);
void json_flat_array_free(struct json_flat_array *a);
/* The value as a new json_t reference (for messages, for a detail), NULL
 * when absent or when memory ran out. */
json_t *json_flat_json(const struct json_flat_value *v);

#endif
