/* The JSON parse alone, by CPU time: benchdb's parser (core/jsonparse)
 * against jansson's json_loadb (JSON_REJECT_DUPLICATES, the flags benchdb
 * used), which it replaced, on the same bytes. jansson allocates from
 * blocks sized and grown as benchdb's arena did for it (the first 4 times
 * the text, each next one twice the last), dropped whole after each
 * document, so that both sides pay the same for memory.
 *
 * usage: json_parse [--lines] [--only-benchdb] [--flat FORMAT] FILE...
 * (a .zst file is decompressed first; --lines: each line a document, as a
 * run stream is parsed; --only-benchdb: benchdb's side alone, for a
 * profiler; --flat: benchdb's side reads the arrays FORMAT's adapter
 * names flat, as its ingest does: bdn, nanobench, tinybench, vitest,
 * pytest)
 * Prints per file: MB, documents, the best of 5 passes' CPU seconds and
 * MB/s of each side, and the ratio. */
#define _GNU_SOURCE
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zstd.h>

#include "ingest/core/jsonparse.h"
#include "ingest/decoders/bdn/bdn.h"
#include "ingest/decoders/nanobench/nanobench.h"
#include "ingest/decoders/pytestbench/pytestbench.h"
#include "ingest/decoders/tinybench/tinybench.h"

/* The spec of --flat, NULL: the whole tree. */
static const struct json_flat_spec *flat;

static const struct json_flat_spec *flat_named(const char *name)
{
    static const struct {
        const char *name;
        const struct json_flat_spec *spec;
    } specs[] = {{"bdn", &bdn_flat},
                 {"nanobench", &nanobench_flat},
                 {"tinybench", &tinybench_flat},
                 {"vitest", &vitest_flat},
                 {"pytest", &pytest_flat}};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        if (!strcmp(specs[i].name, name))
            return specs[i].spec;
    fprintf(stderr, "json_parse: --flat: no format %s (bdn, nanobench, tinybench, vitest, pytest)\n", name);
    exit(2);
}

struct block {
    struct block *next;
    size_t size, used;
    max_align_t data[];
};
static struct block *blocks;

static void *bump_alloc(size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (!blocks || blocks->size - blocks->used < n) {
        size_t size = blocks ? 2 * blocks->size : 0;
        size = size > (16u << 20) ? 16u << 20 : size;
        size = size < n ? n : size;
        struct block *b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        *b = (struct block){blocks, size, 0};
        blocks = b;
    }
    void *p = (char *)blocks->data + blocks->used;
    blocks->used += n;
    return p;
}

static void bump_free(void *p)
{
    (void)p;
}

/* A new document: a first block of 4 times its text, as the arena's. */
static void bump_reset(size_t len)
{
    while (blocks) {
        struct block *next = blocks->next;
        free(blocks);
        blocks = next;
    }
    size_t first = len < (4u << 20) ? 4 * len + 1024 : 16u << 20;
    blocks = malloc(sizeof *blocks + first);
    if (!blocks)
        exit(1);
    *blocks = (struct block){NULL, first, 0};
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 20, len = 0, k;
    char *s = malloc(cap);
    while (s && (k = fread(s + len, 1, cap - len, f)) > 0)
        if ((len += k) == cap) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                exit(1);
            s = t;
        }
    fclose(f);
    if (!s)
        exit(1);
    if (len > 4 && !memcmp(s, "\x28\xb5\x2f\xfd", 4)) {
        unsigned long long out = ZSTD_getFrameContentSize(s, len);
        size_t size = out == ZSTD_CONTENTSIZE_UNKNOWN || out == ZSTD_CONTENTSIZE_ERROR ? 256u << 20 : out;
        char *d = malloc(size);
        size_t got = d ? ZSTD_decompress(d, size, s, len) : 0;
        if (!d || ZSTD_isError(got)) {
            fprintf(stderr, "%s: cannot decompress\n", path);
            exit(1);
        }
        free(s);
        s = d;
        len = got;
    }
    *n = len;
    return s;
}

/* One pass over the documents of s: CPU seconds. */
static double pass(const char *s, size_t n, int lines, int ours)
{
    double t0 = cpu();
    for (size_t at = 0; at < n;) {
        const char *nl = lines ? memchr(s + at, '\n', n - at) : NULL;
        size_t len = nl ? (size_t)(nl - s - at) : n - at;
        if (len) {
            if (ours) {
                struct json_doc doc;
                struct json_parse_error e;
                if (json_parse_flat(s + at, len, flat, &doc, &e) != JSON_PARSED)
                    exit(2);
                json_doc_free(&doc);
            } else {
                json_error_t je;
                bump_reset(len);
                if (!json_loadb(s + at, len, JSON_REJECT_DUPLICATES, &je)) {
                    fprintf(stderr, "jansson: %s\n", je.text);
                    exit(2);
                }
            }
        }
        at += len + 1;
    }
    return cpu() - t0;
}

int main(int argc, char **argv)
{
    int lines = 0, only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lines")) {
            lines = 1;
            continue;
        }
        if (!strcmp(argv[i], "--flat") && i + 1 < argc) {
            flat = flat_named(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--only-benchdb")) {
            only = 1;
            continue;
        }
        size_t n;
        char *s = slurp(argv[i], &n);
        double best[2] = {1e9, 1e9};
        for (int rep = 0; rep < 5; rep++)
            for (int ours = only; ours < 2; ours++) {
                if (ours)
                    json_checked_install();
                else
                    json_set_alloc_funcs(bump_alloc, bump_free);
                double t = pass(s, n, lines, ours);
                if (t < best[ours])
                    best[ours] = t;
            }
        if (only)
            printf("%s: %.1f MB; benchdb%s %.4f s %.0f MB/s\n", argv[i], n / 1e6, flat ? " (flat)" : "", best[1],
                   n / 1e6 / best[1]);
        else
            printf("%s: %.1f MB; jansson %.4f s %.0f MB/s; benchdb%s %.4f s %.0f MB/s; %.2fx\n", argv[i], n / 1e6,
                   best[0], n / 1e6 / best[0], flat ? " (flat)" : "", best[1], n / 1e6 / best[1], best[0] / best[1]);
        free(s);
    }
    bump_reset(0);
    return 0;
}
