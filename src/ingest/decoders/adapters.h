#ifndef BENCHDB_INGEST_DECODERS_ADAPTERS_H
#define BENCHDB_INGEST_DECODERS_ADAPTERS_H
/* The harness adapters' table (one folder per adapter under decoders/),
 * and loading one harness file with the adapter of its format: the file
 * is decompressed and parsed with sources/ and core/, its values go through
 * harness.h's checks to the sink. */
#include <jansson.h>
#include <stddef.h>

#include "ingest/decoders/harness.h"

typedef int (*harness_json_fn)(struct harness_ctx *c, json_t *doc);
typedef int (*harness_text_fn)(struct harness_ctx *c, const char *text, size_t len);

struct harness {
    const char *name;     /* as in --format and results.format */
    harness_json_fn json; /* one of the two, or both: text reads the file's */
    harness_text_fn text; /* bytes, json a document given parsed */
    /* files the harness writes beside the one read, which the adapter
     * reads too (NULL-terminated, or NULL): given on the command line, a
     * file brings them along; in a container they are its members */
    const char *const *companions;
    /* one file per benchmark (Criterion's sample.json): the files of one
     * run are one block, not successive blocks as repetitions are */
    int per_benchmark;
    /* the large arrays of a JSON format the parser reads flat (jsonflat.h),
     * or NULL: the whole document a tree */
    const struct json_flat_spec *flat;
};

/* The adapter named name, or NULL. */
const struct harness *harness_find(const char *name);
/* The i-th adapter of the table (0, 1, ...), NULL past the last. */
const struct harness *harness_at(size_t i);
/* Every adapter's name, in the table's order: "jmh, google-benchmark, ...".
 * The one list that messages, --help and the docs' tests name. */
const char *harness_list(void);

/* Loads one harness file's bytes (decompressed first when they start with
 * zstd, gzip, xz or bzip2 magic bytes) or, for a JSON format, an already
 * parsed document (doc != NULL). A file that gives no measured value is
 * refused, saying what its content looks like when that is not the format
 * tried. 0, or -1 with the error set. */
int harness_load(struct harness_ctx *c, const struct harness *h, const unsigned char *bytes, size_t len, json_t *doc);

#endif
