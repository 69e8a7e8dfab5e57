#ifndef BENCHDB_INGEST_SOURCES_SNIFF_H
#define BENCHDB_INGEST_SOURCES_SNIFF_H
/* Content sniffing, in one place: what a file holds, told by its bytes and
 * never by its name. Compression (zstd, gzip, xz, bzip2: decode.h) is
 * undone first; then a tar header, zip's magic bytes, a JSON document's
 * first keys (a benchdb-run/1 record, or the shape of a harness's result
 * file), an XML root element, a CSV/TSV header or benchmark text lines say what it is. Only the first SNIFF_BYTES decoded bytes are looked at. */
#include <stddef.h>

#include "ingest/sources/blocks.h"
#include "ingest/sources/decode.h"

#define SNIFF_BYTES (1u << 20)

enum content_kind {
    KIND_UNKNOWN,    /* none of the below */
    KIND_EMPTY,      /* nothing, or only blank lines */
    KIND_RUN_STREAM, /* benchdb-run/1 JSON Lines */
    KIND_JSON,       /* JSON objects of no format benchdb knows (read as a run stream, which says what is wrong) */
    KIND_TAR,
    KIND_ZIP,
    KIND_JMH,
    KIND_GBENCH,
    KIND_HYPERFINE,
    KIND_PYPERF,
    KIND_GOBENCH,
    /* Rust, Python and C++ harnesses */
    KIND_CRITERION,      /* Criterion.rs's sample.json */
    KIND_CRITERION_PART, /* Criterion.rs's benchmark.json or estimates.json: read with sample.json */
    KIND_CARGO_BENCH,    /* cargo bench's bencher lines */
    KIND_PYTEST,         /* pytest-benchmark's JSON */
    KIND_ASV,            /* an asv results file */
    KIND_CATCH2,         /* Catch2's XML (or JSON) reporter */
    KIND_NANOBENCH,      /* nanobench's JSON template */
    /* JavaScript, .NET, Bencher's format and plain tables */
    KIND_TINYBENCH,
    KIND_VITEST,
    KIND_BENCHMARKJS,
    KIND_BDN,
    KIND_BMF,
    KIND_CSV,
};

/* What the decoded bytes p[0..n) hold; whole says n is all of them. */
enum content_kind sniff_content(const unsigned char *p, size_t n, int whole);

struct sniffed {
    enum content_kind kind;
    int depth;                 /* compression layers undone first */
    enum codec outer;          /* the outermost, or CODEC_NONE */
};
/* Sniffs a stream: decodes up to SNIFF_BYTES of it, with zstd contexts
 * from kept (kept.h; NULL: new ones). -1 with *err when it cannot be read
 * or decompressed. */
struct source_kept;
int sniff_blocks(struct blocks in, struct source_kept *kept, struct sniffed *out, char **err);
/* Sniffs the file on fd from its start (pread: the offset is kept). */
int sniff_fd(int fd, struct sniffed *out, char **err);
int sniff_fd_kept(int fd, struct source_kept *kept, struct sniffed *out, char **err);
/* Sniffs bytes held in memory. */
int sniff_buffer(const unsigned char *p, size_t n, struct sniffed *out, char **err);

/* The harness format a kind is ("jmh", "google-benchmark", ...), or NULL. */
const char *kind_harness(enum content_kind k);
/* The kind of a harness format name (KIND_UNKNOWN for none). */
enum content_kind kind_of_harness(const char *format);
/* What a kind is, for messages: "JMH results (JSON)", "a tar archive"... */
const char *kind_describe(enum content_kind k);

#endif
