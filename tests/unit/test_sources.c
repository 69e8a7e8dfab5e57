/* The sources layer alone: paths inside an archive, content sniffing (every
 * kind, through compression layers), decompression layers and their
 * budget (each layer counts what it produces), the zstd contexts kept
 * from one archive to the next, and the tar a bundle of harness files is
 * read from. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "ingest/core/paths.h"
#include "ingest/sources/decode.h"
#include "ingest/sources/kept.h"
#include "ingest/sources/sniff.h"
#include "ingest/sources/ustar.h"
#include "util/strbuf.h"

static void join(const char *dir, const char *path, const char *want)
{
    struct strbuf sb = {0};
    int rc = path_join_inside(dir, path, &sb);
    if (!want) {
        if (rc == 0)
            fail_msg("'%s' + '%s': expected a refusal, got '%s'", dir ? dir : "(null)", path, sb.buf);
    } else {
        if (rc != 0)
            fail_msg("'%s' + '%s': refused, expected '%s'", dir ? dir : "(null)", path, want);
        assert_string_equal(sb.buf, want);
    }
    sb_free(&sb);
}

static void test_join_path(void **state)
{
    (void)state;
    join(NULL, "a.json", "a.json");
    join("", "jmh/a.json", "jmh/a.json");
    join("run", "jmh/a.json", "run/jmh/a.json");
    join("run", "./jmh//a.json", "run/jmh/a.json");
    join("run", "../jmh/a.json", "jmh/a.json");
    join("run/x", "../../a.json", "a.json");
    join("run", "jmh/../../a.json", "a.json");
    join("run", "../../a.json", NULL); /* above the top */
    join(NULL, "../a.json", NULL);
    join("run", "/etc/passwd", NULL); /* absolute */
    join(NULL, ".", NULL);            /* names no file */
    join("run", "..", NULL);
}

/* ---- sniffing ---- */

static enum content_kind sniff(const void *p, size_t n)
{
    struct sniffed s;
    char *err = NULL;
    if (sniff_buffer(p, n, &s, &err))
        fail_msg("sniff failed: %s", err);
    return s.kind;
}

#define SNIFF(text) sniff(text, sizeof text - 1)

static void test_sniff_kinds(void **state)
{
    (void)state;
    unsigned char tar[1024] = "run.jsonl";
    memcpy(tar + 257, "ustar", 5);
    assert_int_equal(sniff(tar, sizeof tar), KIND_TAR);
    assert_int_equal(SNIFF("PK\x03\x04rest"), KIND_ZIP);
    assert_int_equal(SNIFF("PK\x05\x06"), KIND_ZIP);
    assert_int_equal(SNIFF(""), KIND_EMPTY);
    assert_int_equal(SNIFF(" \n\t\r\n"), KIND_EMPTY);
    assert_int_equal(SNIFF("{\"record\":\"run\",\"format\":\"benchdb-run/1\"}\n{\"record\":\"gate\"}\n"), KIND_RUN_STREAM);
    assert_int_equal(SNIFF("{\"plan\":\"p\",\"record\":\"run\"}"), KIND_RUN_STREAM); /* "record" anywhere at the top */
    assert_int_equal(SNIFF("{\"x\":1}"), KIND_JSON);
    assert_int_equal(SNIFF("{\"x\": 1"), KIND_JSON);
    /* JMH: an array of results; JMH writes [] when nothing ran */
    assert_int_equal(SNIFF("[\n  {\n    \"jmhVersion\" : \"1.29\",\n    \"benchmark\" : \"a.B.c\"}]"), KIND_JMH);
    assert_int_equal(SNIFF("[{\"benchmark\":\"a\",\"mode\":\"avgt\"}]"), KIND_JMH);
    assert_int_equal(SNIFF("[ ]"), KIND_JMH);
    assert_int_equal(SNIFF("[1,2]"), KIND_UNKNOWN);
    assert_int_equal(SNIFF("[{\"name\":\"x\"}]"), KIND_UNKNOWN);
    /* Google Benchmark: context first, or the row keys */
    assert_int_equal(SNIFF("{\"context\":{\"date\":\"x\"},\"benchmarks\":[]}"), KIND_GBENCH);
    assert_int_equal(SNIFF("{\"benchmarks\":[{\"name\":\"BM_a\",\"real_time\":1}]}"), KIND_GBENCH);
    /* pyperf: benchmarks with runs, or the suite's version and metadata */
    assert_int_equal(SNIFF("{\"benchmarks\":[{\"metadata\":{\"name\":\"x\"},\"runs\":[]}],\"version\":\"1.0\"}"),
                     KIND_PYPERF);
    assert_int_equal(SNIFF("{\"version\":\"1.0\",\"benchmarks\":[]}"), KIND_PYPERF);
    /* the keys of a later element or of a nested object do not count */
    assert_int_equal(SNIFF("{\"benchmarks\":[{\"name\":\"a\"},{\"runs\":[]}]}"), KIND_JSON);
    assert_int_equal(SNIFF("{\"a\":{\"record\":1}}"), KIND_JSON);
    /* hyperfine */
    assert_int_equal(SNIFF("{\"results\":[{\"command\":\"sleep 1\",\"times\":[1.0]}]}"), KIND_HYPERFINE);
    assert_int_equal(SNIFF("{\"results\":[]}"), KIND_JSON);
    /* Go benchmark text */
    assert_int_equal(SNIFF("goos: linux\ngoarch: amd64\n"), KIND_GOBENCH);
    assert_int_equal(SNIFF("PASS\nBenchmarkFib10-8   5000000   325 ns/op\nok\n"), KIND_GOBENCH);
    assert_int_equal(SNIFF("Benchmarking is fun\n"), KIND_UNKNOWN);
    assert_int_equal(SNIFF("BenchmarkX\n"), KIND_UNKNOWN); /* a name alone */
    assert_int_equal(SNIFF("# README\n\nSome text.\n"), KIND_UNKNOWN);
    assert_int_equal(SNIFF("\xff\xfe{\x00\"\x00"), KIND_UNKNOWN); /* UTF-16 */
    /* tinybench, Vitest, Benchmark.js, BenchmarkDotNet, Bencher Metric Format, CSV/TSV */
    assert_int_equal(SNIFF("[{\"name\":\"a\",\"result\":{\"mean\":1}}]"), KIND_TINYBENCH);
    assert_int_equal(SNIFF("{\"files\":[{\"filepath\":\"/a\",\"groups\":[]}]}"), KIND_VITEST);
    assert_int_equal(SNIFF("{\"files\":[]}"), KIND_JSON);
    assert_int_equal(SNIFF("[{\"name\":\"a\",\"stats\":{\"sample\":[1]}}]"), KIND_BENCHMARKJS);
    assert_int_equal(SNIFF("{\"0\":{\"name\":\"a\",\"stats\":{}},\"length\":1}"), KIND_BENCHMARKJS);
    assert_int_equal(SNIFF("{\"Title\":\"x\",\"Benchmarks\":[]}"), KIND_BDN);
    assert_int_equal(SNIFF("{\"b\":{\"latency\":{\"value\":1}}}"), KIND_BMF);
    assert_int_equal(SNIFF("{\"b\":[{\"measures\":{\"latency\":{\"value\":1}}}]}"), KIND_BMF);
    assert_int_equal(SNIFF("{\"b\":{\"latency\":{\"p99\":1}}}"), KIND_JSON);
    assert_int_equal(SNIFF("benchmark,value,unit\nsort,1,ns\n"), KIND_CSV);
    assert_int_equal(SNIFF("\xef\xbb\xbf\"unit\",\"benchmark\",\"value\"\r\n"), KIND_CSV);
    assert_int_equal(SNIFF("benchmark\tvalue\tunit\nBenchmarkX\t100\tns\n"), KIND_CSV);
    assert_int_equal(SNIFF("benchmark,value\nsort,1\n"), KIND_UNKNOWN);
    /* strings with braces and escaped quotes do not confuse the scanner */
    assert_int_equal(SNIFF("{\"s\":\"}{\\\"record\\\"\",\"results\":[{\"command\":\"x\"}]}"), KIND_HYPERFINE);
}

/* A NUL byte in a JSON document, where no token starts, left the scanner
 * standing on it for ever: these returned only once it passes it over. */
static void test_sniff_nul(void **state)
{
    (void)state;
    assert_int_equal(SNIFF("{\"iters\":[1,\0 2],\"times\":[1,2]}"), KIND_CRITERION);
    assert_int_equal(SNIFF("{\"a\":\0,\"record\":\"run\"}"), KIND_RUN_STREAM);
    assert_int_equal(SNIFF("{\"a\":1\0}"), KIND_JSON);
    assert_int_equal(SNIFF("[1,\0]"), KIND_UNKNOWN);
    assert_int_equal(SNIFF("[\0{\"benchmark\":\"a\"}]"), KIND_JMH);
}

/* An array's scalars are skipped eight bytes at a time, counting their
 * commas: the first element's keys decide a format, a later element's do
 * not. Scalars of every width put the element that decides at every
 * offset from an eight-byte boundary, and the commas before it on either
 * side of one. */
static void test_sniff_array_scalars(void **state)
{
    (void)state;
    char buf[512];
    for (int width = 1; width <= 9; width++) {
        for (int before = 0; before <= 11; before++) {
            for (int lead = 0; lead < 8; lead++) {
                /* JMH: a top-level array whose first element has its keys */
                int k = snprintf(buf, sizeof buf, "%*s[", lead, "");
                for (int e = 0; e < before; e++)
                    k += snprintf(buf + k, sizeof buf - (size_t)k, "%.*s,%s", width, "-123456789e0", e % 3 ? " " : "");
                k += snprintf(buf + k, sizeof buf - (size_t)k, "{\"benchmark\":\"a\"}, 1, 2]");
                assert_int_equal(sniff(buf, (size_t)k), before == 0 ? KIND_JMH : KIND_UNKNOWN);
                /* Google Benchmark: the first element of "benchmarks", one level down */
                k = snprintf(buf, sizeof buf, "{\"x\":[%*s1,2],\"benchmarks\":[", lead, "");
                for (int e = 0; e < before; e++)
                    k += snprintf(buf + k, sizeof buf - (size_t)k, "%.*s ,", width, "123456789012");
                k += snprintf(buf + k, sizeof buf - (size_t)k, "{\"real_time\":1},\"s,[{\",true]}");
                assert_int_equal(sniff(buf, (size_t)k), before == 0 ? KIND_GBENCH : KIND_JSON);
            }
        }
    }
    /* strings and nested arrays among the scalars end the skip */
    assert_int_equal(SNIFF("[1, \"{\", [2, 3], {\"benchmark\":\"a\"}]"), KIND_UNKNOWN);
    assert_int_equal(SNIFF("{\"iters\":[1.5, 2e3, null, true, -0], \"times\":[[1], \"]\"]}"), KIND_CRITERION);
    /* a string after scalars is read as one: its brackets close nothing */
    assert_int_equal(SNIFF("{\"iters\":[1, 2, 3, 4, 5, 6, \"]}, \\\"record\\\": [\", 2], \"times\":[1]}"), KIND_CRITERION);
}

static void test_sniff_compressed(void **state)
{
    (void)state;
    static const char gb[] = "{\"context\":{},\"benchmarks\":[]}";
    unsigned char z[4096];
    size_t zn = ZSTD_compress(z, sizeof z, gb, sizeof gb - 1, 1);
    assert_false(ZSTD_isError(zn));
    struct sniffed s;
    char *err = NULL;
    assert_int_equal(sniff_buffer(z, zn, &s, &err), 0);
    assert_int_equal(s.kind, KIND_GBENCH);
    assert_int_equal(s.depth, 1);
    assert_int_equal(s.outer, CODEC_ZSTD);
    /* a zstd-compressed tar is a tar */
    unsigned char tar[1024] = "run.jsonl";
    memcpy(tar + 257, "ustar", 5);
    zn = ZSTD_compress(z, sizeof z, tar, sizeof tar, 1);
    assert_int_equal(sniff_buffer(z, zn, &s, &err), 0);
    assert_int_equal(s.kind, KIND_TAR);
    /* corrupt data: an error, not a kind */
    memcpy(z + 4, "garbage!", 8);
    assert_int_equal(sniff_buffer(z, zn, &s, &err), -1);
    assert_non_null(strstr(err, "corrupt zstd stream"));
    free(err);
}

/* ---- decompression layers and the budget ---- */

/* gzip of data, made with the gzip command. */
static size_t gzip_of(const void *in, size_t n, unsigned char *out, size_t cap, int times)
{
    char path[] = "/tmp/benchdb-gz-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, in, n), (ssize_t)n);
    close(fd);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cat %s%s > %s.out", path, times == 2 ? " | gzip -c | gzip -c" : " | gzip -c", path);
    assert_int_equal(system(cmd), 0);
    char outp[64];
    snprintf(outp, sizeof outp, "%s.out", path);
    FILE *f = fopen(outp, "rb");
    assert_non_null(f);
    size_t k = fread(out, 1, cap, f);
    fclose(f);
    unlink(path);
    unlink(outp);
    return k;
}

static void test_decode_layers(void **state)
{
    (void)state;
    static char big[200000];
    memset(big, 'x', sizeof big);
    unsigned char gz[8192];
    size_t n = gzip_of(big, sizeof big, gz, sizeof gz, 2);
    assert_true(n < sizeof gz);
    struct strbuf out = {0};
    int depth = 0;
    char *err = NULL;
    struct budget b;
    budget_init(&b, 1u << 30);
    assert_int_equal(decode_buffer(gz, n, &b, &out, &depth, &err), 0);
    assert_int_equal(depth, 2); /* a gzip inside a gzip: both undone */
    assert_int_equal(out.len, sizeof big);
    assert_memory_equal(out.buf, big, sizeof big);
    /* each layer counts what it produces: the inner gzip and the data */
    uint64_t used = atomic_load(&b.used);
    assert_true(used > sizeof big && used < sizeof big + n + 4096);
    sb_free(&out);
    /* a budget the data passes: refused while decompressing */
    budget_init(&b, 100000);
    assert_int_equal(decode_buffer(gz, n, &b, &out, &depth, &err), -1);
    assert_string_equal(err, "more than 100000 bytes of data after decompression (the limit; raise it with --max-bytes)");
    free(err);
    sb_free(&out);
}

/* ---- zstd contexts kept across archives ---- */

/* Decodes n bytes at p with contexts from k, as a pipeline's decoder does;
 * the decoded bytes into out. */
static int decode_kept(struct source_kept *k, const unsigned char *p, size_t n, struct strbuf *out, char **err)
{
    struct membuf m = {p, n, 0};
    struct budget b;
    budget_init(&b, 1u << 30);
    struct decoder d;
    decoder_init(&d, membuf_blocks(&m), &b, 1);
    d.kept = k;
    struct blocks in = decoder_blocks(&d);
    const unsigned char *q;
    size_t len;
    int rc;
    while ((rc = blocks_next(in, &q, &len, err)) > 0)
        assert_int_equal(sb_append(out, q, len), 0);
    decoder_free(&d);
    return rc;
}

/* Text that compresses to several blocks: lines of numbers. */
static size_t lines_of_numbers(char *p, size_t cap, unsigned seed)
{
    size_t n = 0;
    for (unsigned i = 0; n + 32 < cap; i++)
        n += (size_t)snprintf(p + n, cap - n, "{\"i\":%u,\"v\":%u}\n", i, (i * 2654435761u) ^ seed);
    return n;
}

static void test_kept_contexts(void **state)
{
    (void)state;
    static char a[400000], c[400000];
    static unsigned char za[200000], zc[200000];
    size_t an = lines_of_numbers(a, sizeof a, 1), cn = lines_of_numbers(c, sizeof c, 2);
    size_t zan = ZSTD_compress(za, sizeof za, a, an, 3), zcn = ZSTD_compress(zc, sizeof zc, c, cn, 3);
    assert_false(ZSTD_isError(zan) || ZSTD_isError(zcn));
    assert_true(zan > 2000);
    struct source_kept k;
    kept_init(&k);
    struct strbuf out = {0};
    char *err = NULL;
    /* A frame cut half-way: the context is given back in the middle of it. */
    assert_int_equal(decode_kept(&k, zc, zcn / 2, &out, &err), -1);
    assert_non_null(strstr(err, "truncated zstd stream"));
    free(err);
    err = NULL;
    assert_true(out.len > 0 && out.len < cn); /* it had decoded part of the frame */
    assert_int_equal(k.ndctx, 1);
    /* Garbage half-way through a block: an error in the middle of a frame. */
    sb_free(&out);
    memcpy(zc + zcn / 2, "garbage! garbage! garbage!", 26);
    assert_int_equal(decode_kept(&k, zc, zcn, &out, &err), -1);
    assert_non_null(strstr(err, "corrupt zstd stream"));
    free(err);
    err = NULL;
    /* The next archive's frame, in the same context, decodes whole. */
    sb_free(&out);
    assert_int_equal(decode_kept(&k, za, zan, &out, &err), 0);
    assert_int_equal(out.len, an);
    assert_memory_equal(out.buf, a, an);
    assert_int_equal(k.created, 1);
    assert_int_equal(k.reused, 2);
    assert_int_equal(k.ndctx, 1);
    sb_free(&out);

    /* A context past KEPT_MAX_BYTES (a 16 MiB window) is freed, not kept. */
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    assert_non_null(cc);
    assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 24)));
    static unsigned char zw[200000];
    ZSTD_outBuffer ob = {zw, sizeof zw, 0};
    ZSTD_inBuffer ib = {a, an, 0}; /* streamed, no size known: the decoder must hold the whole window */
    assert_false(ZSTD_isError(ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_continue)));
    assert_int_equal(ib.pos, an);
    ZSTD_inBuffer none = {NULL, 0, 0};
    assert_int_equal(ZSTD_compressStream2(cc, &ob, &none, ZSTD_e_end), 0);
    ZSTD_freeCCtx(cc);
    assert_int_equal(decode_kept(&k, zw, ob.pos, &out, &err), 0);
    assert_memory_equal(out.buf, a, an);
    sb_free(&out);
    assert_int_equal(k.ndctx, 0);
    assert_int_equal(k.reused, 3);

    /* At most KEPT_MAX of each kind are kept. */
    ZSTD_DCtx *d[KEPT_MAX + 1];
    unsigned char *o[KEPT_MAX + 1];
    for (int i = 0; i <= KEPT_MAX; i++)
        assert_int_equal(kept_take_dctx(&k, 23, &d[i], &o[i]), 0);
    for (int i = 0; i <= KEPT_MAX; i++)
        kept_give_dctx(&k, d[i], o[i]);
    assert_int_equal(k.ndctx, KEPT_MAX);
    ZSTD_CCtx *cx[KEPT_MAX + 1];
    for (int i = 0; i <= KEPT_MAX; i++)
        assert_non_null(cx[i] = kept_take_cctx(&k));
    for (int i = 0; i <= KEPT_MAX; i++)
        kept_give_cctx(&k, cx[i]);
    assert_int_equal(k.ncctx, KEPT_MAX);
    kept_free(&k);
}

/* ---- ustar: the tar load/bundle.c writes, read back without libarchive ---- */

/* A ustar header as load/bundle.c writes one, at h. */
static void tar_header(unsigned char *h, const char *name, size_t size, char type)
{
    memset(h, 0, 512);
    snprintf((char *)h, 100, "%s", name);
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 124, 12, "%011zo", size);
    memset(h + 148, ' ', 8);
    h[156] = (unsigned char)type;
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    h[155] = ' ';
}

/* Appends an entry (header, data padded to 512) to t at *n. */
static void tar_put(unsigned char *t, size_t *n, const char *name, const void *data, size_t size, char type)
{
    tar_header(t + *n, name, size, type);
    memcpy(t + *n + 512, data, size);
    *n += 512 + (size + 511) / 512 * 512;
}

static void test_ustar_entries(void **state)
{
    (void)state;
    static unsigned char t[8192];
    memset(t, 0, sizeof t);
    size_t n = 0;
    char longname[160], pax[200];
    memset(longname, 'd', 150);
    memcpy(longname, "files/", 6);
    longname[150] = 0;
    /* "LEN path=...\n", LEN counting itself: 3 digits + 1 + 5 + 150 + 1 = 160 */
    int pl = snprintf(pax, sizeof pax, "160 path=%s\n", longname);
    assert_int_equal(pl, 160);
    tar_put(t, &n, "files/a.json", "{\"x\":1}", 7, '0');
    tar_put(t, &n, "files", "", 0, '5');
    tar_put(t, &n, "PaxHeader", pax, (size_t)pl, 'x');
    tar_put(t, &n, "ignored-by-pax", "abc", 3, '0');
    tar_put(t, &n, "empty", "", 0, '\0');
    size_t end = n;
    n += 1024; /* two zero blocks */

    size_t at = 0;
    char *err = NULL;
    struct ustar_entry e;
    assert_int_equal(ustar_next(t, n, &at, &e, &err), 1);
    assert_int_equal(e.type, '0');
    assert_int_equal(e.name_len, 12);
    assert_memory_equal(e.name, "files/a.json", 12);
    assert_int_equal(e.size, 7);
    assert_ptr_equal(e.data, t + 512); /* in place, not copied */
    assert_int_equal(ustar_next(t, n, &at, &e, &err), 1);
    assert_int_equal(e.type, '5');
    assert_int_equal(ustar_next(t, n, &at, &e, &err), 1);
    assert_int_equal(e.type, '0');
    assert_int_equal(e.name_len, 150);
    assert_memory_equal(e.name, longname, 150);
    assert_int_equal(e.size, 3);
    assert_memory_equal(e.data, "abc", 3);
    assert_int_equal(ustar_next(t, n, &at, &e, &err), 1);
    assert_int_equal(e.type, '0'); /* '\0': a regular file, as libarchive reads it */
    assert_int_equal(e.size, 0);
    assert_int_equal(at, end);
    assert_int_equal(ustar_next(t, n, &at, &e, &err), 0);
    assert_null(err);

    /* a damaged checksum */
    at = 0;
    t[0] ^= 1;
    assert_int_equal(ustar_next(t, n, &at, &e, &err), -1);
    assert_string_equal(err, "cannot read the container: a damaged tar header at byte 0");
    free(err);
    err = NULL;
    t[0] ^= 1;
    /* a member longer than what follows it */
    at = 0;
    assert_int_equal(ustar_next(t, 512 + 4, &at, &e, &err), -1);
    assert_string_equal(err, "cannot read the container: truncated (a member of 7 bytes, 4 left)");
    free(err);
    err = NULL;
    /* a kind benchdb does not write */
    size_t m = 0;
    tar_put(t, &m, "link", "", 0, '2');
    at = 0;
    assert_int_equal(ustar_next(t, n, &at, &e, &err), -1);
    assert_string_equal(err, "cannot read the container: a tar entry of type '2', which benchdb does not write");
    free(err);
    err = NULL;
    /* pax records whose length does not cover them: "0 " (which, after
     * a good record, once read that record's newline as its own and
     * looped for ever), "2 " (no room for the newline), a record without
     * its newline */
    static const char *const bad_pax[] = {"0 \n", "10 a=bbbb\n0 \n", "2 \n", "3 x\n"};
    for (size_t i = 0; i < sizeof bad_pax / sizeof *bad_pax; i++) {
        m = 0;
        tar_put(t, &m, "PaxHeader", bad_pax[i], strlen(bad_pax[i]), 'x');
        tar_put(t, &m, "f", "abc", 3, '0');
        memset(t + m, 0, 1024);
        at = 0;
        assert_int_equal(ustar_next(t, m + 1024, &at, &e, &err), -1);
        assert_string_equal(err, "cannot read the container: a damaged pax header");
        free(err);
        err = NULL;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_join_path),
        cmocka_unit_test(test_sniff_kinds),
        cmocka_unit_test(test_sniff_nul),
        cmocka_unit_test(test_sniff_array_scalars),
        cmocka_unit_test(test_sniff_compressed),
        cmocka_unit_test(test_decode_layers),
        cmocka_unit_test(test_kept_contexts),
        cmocka_unit_test(test_ustar_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
