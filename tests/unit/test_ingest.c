/* The ingest building blocks: RFC 3339 syntax, canonical JSON, the UTF-8
 * check, the text readers' decimals, value descriptions in messages, the id map, the unit list against the store's
 * unit table, and the streaming reader (line ends, lines split across
 * buffers, limits, zstd frames, truncation, the sink seeing the original
 * bytes). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zstd.h>

#include "compare/units.h"
#include "ingest/core/idmap.h"
#include "ingest/core/jsontext.h"
#include "ingest/core/rfc3339.h"
#include "store/unit_rows.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/harness.h"
#include "ingest/sources/decode.h"
#include "ingest/sources/lines.h"
#include "ingest/sources/rawfile.h"
#include "store/store.h"
#include "util/sha256.h"

/* The reading path of a bare stream, as the pipeline's producer builds it:
 * file bytes (hashed, passed to a tee) -> decompression -> lines. */
struct reader {
    struct rawfile raw;
    struct decoder dec;
    struct lines ln;
    struct budget budget;
};

static int reader_init(struct reader *r, int fd, uint64_t max_line, uint64_t max_bytes, rawfile_tee_fn tee, void *arg)
{
    memset(r, 0, sizeof *r);
    budget_init(&r->budget, max_bytes);
    if (rawfile_init(&r->raw, fd, tee, arg))
        return -1;
    decoder_init(&r->dec, rawfile_blocks(&r->raw), &r->budget, 1);
    lines_init(&r->ln, decoder_blocks(&r->dec), max_line);
    return 0;
}

static int reader_next_line(struct reader *r, const char **line, size_t *len, char **err, uint64_t *err_line)
{
    return lines_next(&r->ln, line, len, err, err_line);
}

static void reader_free(struct reader *r)
{
    lines_free(&r->ln);
    decoder_free(&r->dec);
    rawfile_free(&r->raw);
}

/* ---- RFC 3339 ---- */

static void test_rfc3339(void **state)
{
    (void)state;
    const char *good[] = {"2026-10-21T03:57:00Z", "2026-10-21t03:57:00z", "2026-10-21T03:57:00.123456Z",
                          "2026-10-21T03:57:00+09:00", "2026-10-21T03:57:00-00:30", "2024-02-29T00:00:00Z",
                          "2016-12-31T23:59:60Z", "2000-02-29T12:00:00Z"};
    const char *bad[] = {"", "2026-10-21", "2026-10-21 03:57:00Z", "2026-10-21T03:57Z", "2026-10-21T03:57:00",
                         "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-04-31T00:00:00Z",
                         "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-10-21T24:00:00Z",
                         "2026-10-21T23:60:00Z", "2026-10-21T23:59:61Z", "2026-10-21T03:57:00.Z",
                         "2026-10-21T03:57:00+0900", "2026-10-21T03:57:00+24:00", "2026-10-21T03:57:00Zx",
                         "26-10-21T03:57:00Z", "2026-1-21T03:57:00Z", "2026-10-21T03:57:00 Z"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_true(rfc3339_valid(good[i]));
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (rfc3339_valid(bad[i]))
            fail_msg("accepted '%s'", bad[i]);
    }
}

/* ---- canonical JSON ---- */

static char *canon(const char *text)
{
    json_error_t je;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &je);
    assert_non_null(v);
    struct strbuf sb = {0};
    assert_int_equal(json_canonical(v, &sb), 0);
    json_decref(v);
    return sb_detach(&sb);
}

static void expect_canon(const char *in, const char *out)
{
    char *got = canon(in);
    assert_string_equal(got, out);
    /* Stable: the canonical text is its own canonical text. */
    char *again = canon(got);
    assert_string_equal(again, got);
    free(got);
    free(again);
}

static void test_canonical(void **state)
{
    (void)state;
    expect_canon("{}", "{}");
    expect_canon("{ \"b\" : 1, \"a\" : \"x\" }", "{\"a\":\"x\",\"b\":1}");
    expect_canon("{\"B\":1,\"a\":2,\"_\":3,\"aa\":4}", "{\"B\":1,\"_\":3,\"a\":2,\"aa\":4}"); /* byte order */
    expect_canon("{\"n\":1.0,\"m\":1,\"x\":0.1,\"y\":1e300,\"z\":-2.5E-3}",
                 "{\"m\":1,\"n\":1.0,\"x\":0.1,\"y\":1e+300,\"z\":-0.0025}");
    expect_canon("{\"t\":true,\"f\":false,\"n\":null}", "{\"f\":false,\"n\":null,\"t\":true}");
    expect_canon("{\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\\u00e9/\"}", "{\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\xc3\xa9/\"}");
    expect_canon("[3,{\"b\":[],\"a\":{}},\"x\"]", "[3,{\"a\":{},\"b\":[]},\"x\"]");
    expect_canon("123456789012345678", "123456789012345678");
    expect_canon("0.30000000000000004", "0.30000000000000004");
    /* integers written without printf, reals of zero without it too: the extremes, signs and zero */
    expect_canon("[0,-7,10,-10,9223372036854775807,-9223372036854775808]",
                 "[0,-7,10,-10,9223372036854775807,-9223372036854775808]");
    expect_canon("[0.0,-0.0,0e5,1000000.0,1e15,1e-7]", "[0.0,-0.0,0.0,1000000.0,1e+15,1e-07]");
}

/* utf8_bad_at passes ASCII eight bytes at a time: a bad byte, a NUL or a
 * sequence cut short is found at every offset within and across those
 * blocks, and valid sequences anywhere pass. */
static void test_utf8_blocks(void **state)
{
    (void)state;
    char s[64];
    for (size_t n = 1; n <= 40; n++)
        for (size_t at = 0; at < n; at++) {
            memset(s, 'a', n);
            s[at] = 0;
            assert_int_equal(utf8_bad_at(s, n), at);
            s[at] = (char)0xFF;
            assert_int_equal(utf8_bad_at(s, n), at);
            s[at] = (char)0x80; /* a continuation byte alone */
            assert_int_equal(utf8_bad_at(s, n), at);
            s[at] = (char)0xC3; /* the first byte of "\xC3\xA9" (U+00E9) */
            if (at + 1 < n) {
                s[at + 1] = (char)0xA9;
                assert_int_equal(utf8_bad_at(s, n), n);
            } else {
                assert_int_equal(utf8_bad_at(s, n), at); /* cut short by the end */
            }
        }
    assert_int_equal(utf8_bad_at("", 0), 0);
}

/* harness_decimal's fast path gives strtod's double, bit for bit, on
 * plain decimals of up to 19 digits (random digits, signs and points,
 * leading and trailing points and zeros): every one of up to 15 digits,
 * those of 16 to 19 below 2^53. It leaves everything else to strtod. */
static void test_decimal_fast(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ull; /* xorshift64 */
    char s[32];
    long taken = 0;
    for (int t = 0; t < 200000; t++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int digits = 1 + (int)(x % 19), dot = (int)((x >> 8) % (uint64_t)(digits + 2)) - 1, neg = (x >> 16) & 1;
        uint64_t r = x >> 20;
        size_t n = 0;
        if (neg)
            s[n++] = '-';
        for (int i = 0; i < digits; i++) {
            if (i == dot)
                s[n++] = '.';
            s[n++] = (char)('0' + (i == 0 && (r & 1) ? 0 : (int)((r >> (i % 40)) % 10)));
            r = r * 6364136223846793005ull + 1442695040888963407ull;
        }
        if (dot == digits)
            s[n++] = '.';
        s[n] = 0;
        double fast, slow = strtod(s, NULL);
        /* up to 15 digits always (below 2^53); up to 19 when below 2^53 */
        if (!harness_decimal(s, n, &fast)) {
            if (digits <= 15)
                fail_msg("left \"%s\" to strtod", s);
            continue;
        }
        taken++;
        if (memcmp(&fast, &slow, sizeof fast) != 0)
            fail_msg("%s: %.17g, strtod %.17g", s, fast, slow);
    }
    assert_true(taken > 200000 * 15 / 19);
    double v;
    const char *const left[] = {"", "-", ".", "-.", "1e5", "+1", "1.2.3", " 1", "1 ", "0x10", "inf", "nan",
                                "9007199254740993", "12345678901234567890", "0.00000000000000000000001", "1,5"};
    for (size_t i = 0; i < sizeof left / sizeof *left; i++)
        if (harness_decimal(left[i], strlen(left[i]), &v))
            fail_msg("took \"%s\"", left[i]);
    assert_int_equal(harness_decimal("-0", 2, &v), 1);
    assert_true(v == 0 && signbit(v));
    assert_int_equal(harness_decimal("999999999999999", 15, &v), 1);
    assert_true(v == 999999999999999.0);
    assert_int_equal(harness_decimal("9007199254740992", 16, &v), 1); /* 2^53 */
    assert_true(v == 9007199254740992.0);
    assert_int_equal(harness_decimal("0.000000000000000001", 20, &v), 1); /* 19 digits */
    assert_true(v == 1e-18);
}

static void expect_describe(const char *in, const char *out)
{
    json_error_t je;
    json_t *v = json_loads(in, JSON_DECODE_ANY, &je);
    assert_non_null(v);
    char buf[96];
    json_describe(v, buf, sizeof buf);
    assert_string_equal(buf, out);
    json_decref(v);
}

static void test_describe(void **state)
{
    (void)state;
    expect_describe("-1", "-1");
    expect_describe("-1.0", "-1.0");
    expect_describe("2.5e-7", "2.5e-07");
    expect_describe("\"x\"", "\"x\"");
    expect_describe("null", "null");
    expect_describe("true", "true");
    expect_describe("[]", "an empty array");
    expect_describe("[1]", "an array");
    expect_describe("{}", "an object");
    expect_describe("\"0123456789012345678901234567890123456789xyz\"",
                    "\"0123456789012345678901234567890123456789\"...");
    /* Never cut inside a UTF-8 sequence: 39 ASCII bytes then a 2-byte é. */
    expect_describe("\"012345678901234567890123456789012345678\\u00e9z\"",
                    "\"012345678901234567890123456789012345678\"...");
}

/* ---- id map ---- */

static void test_idmap(void **state)
{
    (void)state;
    struct idmap m = {0};
    assert_null(idmap_get(&m, "a", 1));
    char key[32];
    for (int i = 0; i < 20000; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        assert_int_equal(idmap_put(&m, key, (size_t)n, i * 3), 0);
    }
    assert_int_equal(m.count, 20000);
    for (int i = 0; i < 20000; i++) {
        int n = snprintf(key, sizeof key, "k%d", i);
        int64_t *v = idmap_get(&m, key, (size_t)n);
        assert_non_null(v);
        assert_int_equal(*v, i * 3);
    }
    assert_null(idmap_get(&m, "k20000", 6));
    assert_null(idmap_get(&m, "k1", 1)); /* a prefix is another key */
    /* Keys with NUL bytes (name NUL params) and binary keys. */
    assert_int_equal(idmap_put(&m, "a\0b", 3, 7), 0);
    assert_int_equal(idmap_put(&m, "a\0c", 3, 8), 0);
    assert_int_equal(*idmap_get(&m, "a\0b", 3), 7);
    assert_int_equal(*idmap_get(&m, "a\0c", 3), 8);
    assert_int_equal(idmap_put(&m, "a\0b", 3, 9), 0); /* replace */
    assert_int_equal(*idmap_get(&m, "a\0b", 3), 9);
    idmap_clear(&m);
    assert_int_equal(m.count, 0);
    assert_null(idmap_get(&m, "k5", 2));
    assert_int_equal(idmap_put(&m, "k5", 2, 1), 0);
    assert_int_equal(*idmap_get(&m, "k5", 2), 1);
    idmap_free(&m);
}

/* ---- units against the store ---- */

static void test_units_match_store(void **state)
{
    (void)state;
    char dir[] = "/tmp/benchdb-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/s.db", dir);
    sqlite3 *db;
    char *err = NULL;
    assert_int_equal(store_open(path, STORE_CREATE, &db, &err), 0);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT name, kind <> 'other', kind, factor, direction FROM unit", -1, &st,
                                        NULL),
                     SQLITE_OK);
    int n = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *u = (const char *)sqlite3_column_text(st, 0);
        if (store_unit_find(u) < 0)
            fail_msg("unit table has '%s', the loader does not", u);
        /* compare's own list (comparing files needs no store): the same
         * kind, factor and direction as the table */
        const char *kind, *direction;
        double factor;
        if (cmp_unit_info(u, &kind, &direction, &factor) != 0)
            fail_msg("unit table has '%s', compare's list (src/compare/units.c) does not", u);
        const char *want_dir = (const char *)sqlite3_column_text(st, 4);
        assert_string_equal(kind, (const char *)sqlite3_column_text(st, 2));
        assert_true(factor == sqlite3_column_double(st, 3));
        if (!want_dir != !direction || (want_dir && strcmp(want_dir, direction) != 0))
            fail_msg("unit '%s': direction %s in the table, %s in compare's list", u, want_dir ? want_dir : "NULL",
                     direction ? direction : "NULL");
        /* times and throughputs (a primary metric's units) first, and listed */
        int primary = sqlite3_column_int(st, 1);
        assert_int_equal(store_unit_find(u) < store_unit_primary_count, primary);
        if (primary)
            assert_non_null(strstr(store_unit_primary_list, u));
        n++;
    }
    sqlite3_finalize(st);
    assert_int_equal(n, store_unit_count);
    store_close(db);
    unlink(path);
    char wal[80];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
    rmdir(dir);
}

/* ---- the reader ---- */

struct collected {
    unsigned char *buf;
    size_t len;
    int first_zstd; /* the first bytes the tee saw are zstd's magic */
    int calls;
    struct reader *r;
};

static int collect(void *arg, const unsigned char *data, size_t n, char **err)
{
    (void)err;
    struct collected *c = arg;
    if (c->calls++ == 0)
        c->first_zstd = codec_of(data, n) == CODEC_ZSTD;
    c->buf = realloc(c->buf, c->len + n);
    memcpy(c->buf + c->len, data, n);
    c->len += n;
    return 0;
}

static FILE *file_of(const void *data, size_t n)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fflush(f);
    rewind(f);
    return f;
}

/* Reads all lines into one "|"-joined string; returns the reader's result
 * (0 at a clean end, -1 on error with *err). */
static int read_lines(const void *data, size_t n, uint64_t max_line, uint64_t max_bytes, char *out, size_t outsize,
                      char **err, uint64_t *err_line, struct collected *c)
{
    FILE *f = file_of(data, n);
    struct reader r;
    struct collected local = {0};
    if (!c)
        c = &local;
    c->r = &r;
    assert_int_equal(reader_init(&r, fileno(f), max_line, max_bytes, collect, c), 0);
    const char *line;
    size_t len;
    int rc;
    out[0] = 0;
    size_t k = 0;
    while ((rc = reader_next_line(&r, &line, &len, err, err_line)) > 0) {
        k += (size_t)snprintf(out + k, outsize - k, "%s%llu:%.*s", k ? "|" : "", (unsigned long long)r.ln.lineno,
                              (int)len, line);
    }
    if (rc == 0) {
        /* The sink saw exactly the original bytes, and the hash covers them. */
        assert_int_equal(c->len, n);
        assert_memory_equal(c->buf, data, n);
        char a[65], b[65];
        rawfile_digest(&r.raw, a);
        sha256_hex_of(data, n, b);
        assert_string_equal(a, b);
    }
    reader_free(&r);
    fclose(f);
    free(local.buf);
    return rc;
}

static void test_reader_lines(void **state)
{
    (void)state;
    char out[4096], *err = NULL;
    uint64_t el;
    const char *in = "a\nbb\r\n\r\n\nccc\r\nlast";
    assert_int_equal(read_lines(in, strlen(in), 100, 1000, out, sizeof out, &err, &el, NULL), 0);
    assert_string_equal(out, "1:a|2:bb|3:|4:|5:ccc|6:last");
    in = "x\n";
    assert_int_equal(read_lines(in, strlen(in), 100, 1000, out, sizeof out, &err, &el, NULL), 0);
    assert_string_equal(out, "1:x");
    assert_int_equal(read_lines("", 0, 100, 1000, out, sizeof out, &err, &el, NULL), 0);
    assert_string_equal(out, "");
    /* A line of exactly the limit, with CRLF, is accepted; one byte more is not. */
    in = "abcd\r\nabcde\n";
    assert_int_equal(read_lines(in, strlen(in), 4, 1000, out, sizeof out, &err, &el, NULL), -1);
    assert_string_equal(err, "line longer than 4 bytes (the limit; raise it with --max-line-bytes)");
    assert_int_equal(el, 2);
    free(err);
    err = NULL;
    /* The data limit. */
    in = "abc\ndef\n";
    assert_int_equal(read_lines(in, strlen(in), 100, 8, out, sizeof out, &err, &el, NULL), 0);
    assert_int_equal(read_lines(in, strlen(in), 100, 7, out, sizeof out, &err, &el, NULL), -1);
    assert_string_equal(err, "more than 7 bytes of data (the limit; raise it with --max-bytes)");
    assert_int_equal(el, 0);
    free(err);
}

/* Lines crossing the reader's buffer boundary, a "\r\n" split between two
 * reads, and a line much longer than a buffer. */
static void test_reader_long_lines(void **state)
{
    (void)state;
    size_t n = 3 * RAWFILE_BLOCK + 100;
    char *data = malloc(n);
    memset(data, 'x', n);
    data[RAWFILE_BLOCK - 1] = '\r';
    data[RAWFILE_BLOCK] = '\n';
    data[2 * RAWFILE_BLOCK + 10] = '\n';
    data[n - 1] = '\n';
    FILE *f = file_of(data, n);
    struct reader r;
    assert_int_equal(reader_init(&r, fileno(f), n, n, NULL, NULL), 0);
    const char *line;
    size_t len;
    char *err = NULL;
    uint64_t el;
    assert_int_equal(reader_next_line(&r, &line, &len, &err, &el), 1);
    assert_int_equal(len, RAWFILE_BLOCK - 1);
    assert_int_equal(reader_next_line(&r, &line, &len, &err, &el), 1);
    assert_int_equal(len, RAWFILE_BLOCK + 9);
    assert_int_equal(reader_next_line(&r, &line, &len, &err, &el), 1);
    assert_int_equal(len, n - 1 - (2 * RAWFILE_BLOCK + 11));
    assert_int_equal(line[0], 'x');
    assert_int_equal(reader_next_line(&r, &line, &len, &err, &el), 0);
    assert_int_equal(r.ln.lineno, 3);
    reader_free(&r);
    fclose(f);
    free(data);
}

static size_t zcompress(const char *in, size_t n, unsigned char *out, size_t cap)
{
    size_t z = ZSTD_compress(out, cap, in, n, 3);
    assert_false(ZSTD_isError(z));
    return z;
}

static void test_reader_zstd(void **state)
{
    (void)state;
    const char *a = "{\"a\":1}\n{\"b\":", *b = "2}\r\nlast\n";
    unsigned char z[512];
    size_t za = zcompress(a, strlen(a), z, sizeof z);
    size_t zb = zcompress(b, strlen(b), z + za, sizeof z - za);
    char out[256], *err = NULL;
    uint64_t el;
    struct collected c = {0};
    /* Two frames, a line split across them; the sink sees compressed bytes. */
    assert_int_equal(read_lines(z, za + zb, 100, 1000, out, sizeof out, &err, &el, &c), 0);
    assert_string_equal(out, "1:{\"a\":1}|2:{\"b\":2}|3:last");
    assert_int_equal(c.first_zstd, 1);
    free(c.buf);
    /* Truncated: the second frame cut short. */
    assert_int_equal(read_lines(z, za + zb - 3, 100, 1000, out, sizeof out, &err, &el, NULL), -1);
    char want[128];
    snprintf(want, sizeof want, "truncated zstd stream: the last frame ends early, after %zu bytes", za + zb - 3);
    assert_string_equal(err, want);
    free(err);
    err = NULL;
    /* The data limit counts decompressed bytes. */
    assert_int_equal(read_lines(z, za + zb, 100, 10, out, sizeof out, &err, &el, NULL), -1);
    assert_string_equal(err, "more than 10 bytes of data after decompression (the limit; raise it with --max-bytes)");
    free(err);
    err = NULL;
    /* Garbage after a frame. */
    memcpy(z + za, "garbage!", 8);
    assert_int_equal(read_lines(z, za + 8, 100, 1000, out, sizeof out, &err, &el, NULL), -1);
    assert_non_null(strstr(err, "corrupt zstd stream (Unknown frame descriptor)"));
    free(err);
    err = NULL;
    /* Plain text: the sink is told it is not zstd. */
    c = (struct collected){0};
    assert_int_equal(read_lines("ab\n", 3, 100, 1000, out, sizeof out, &err, &el, &c), 0);
    assert_int_equal(c.first_zstd, 0);
    free(c.buf);
    /* Fewer than 4 bytes: not zstd. */
    assert_int_equal(read_lines("\x28\xb5", 2, 100, 1000, out, sizeof out, &err, &el, NULL), 0);
}

/* A frame whose decompressed size is a multiple of the output buffer:
 * the frame's end coincides with a full buffer (no false truncation). */
static void test_reader_zstd_exact_buffer(void **state)
{
    (void)state;
    size_t n = 4 * ZSTD_DStreamOutSize();
    char *data = malloc(n);
    for (size_t i = 0; i < n; i++)
        data[i] = (i % 100 == 99) ? '\n' : (char)('a' + i % 26);
    data[n - 1] = '\n';
    size_t cap = ZSTD_compressBound(n);
    unsigned char *z = malloc(cap);
    size_t zn = zcompress(data, n, z, cap);
    FILE *f = file_of(z, zn);
    struct reader r;
    assert_int_equal(reader_init(&r, fileno(f), 1000, n, NULL, NULL), 0);
    const char *line;
    size_t len;
    char *err = NULL;
    uint64_t el;
    int rc;
    size_t total = 0;
    while ((rc = reader_next_line(&r, &line, &len, &err, &el)) > 0)
        total += len + 1;
    assert_int_equal(rc, 0);
    assert_int_equal(total, n);
    assert_int_equal(r.dec.out_bytes, n);
    reader_free(&r);
    fclose(f);
    free(z);
    free(data);
}

/* Drain after a refused line: the digest still covers every byte, without
 * decompressing the rest (here the rest is not even valid zstd). */
static void test_reader_drain(void **state)
{
    (void)state;
    const char *a = "{\"a\":1}\nline two\n";
    unsigned char z[256];
    size_t za = zcompress(a, strlen(a), z, sizeof z);
    memcpy(z + za, "not zstd", 8);
    size_t n = za + 8;
    FILE *f = file_of(z, n);
    struct reader r;
    assert_int_equal(reader_init(&r, fileno(f), 100, 1000, NULL, NULL), 0);
    const char *line;
    size_t len;
    char *err = NULL;
    uint64_t el;
    assert_int_equal(reader_next_line(&r, &line, &len, &err, &el), 1);
    assert_int_equal(rawfile_drain(&r.raw, &err), 0);
    char a_hex[65], b_hex[65];
    rawfile_digest(&r.raw, a_hex);
    sha256_hex_of(z, n, b_hex);
    assert_string_equal(a_hex, b_hex);
    assert_int_equal(atomic_load(&r.raw.bytes), n);
    reader_free(&r);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc3339),         cmocka_unit_test(test_canonical), cmocka_unit_test(test_utf8_blocks), cmocka_unit_test(test_decimal_fast),
        cmocka_unit_test(test_describe),        cmocka_unit_test(test_idmap),
        cmocka_unit_test(test_units_match_store), cmocka_unit_test(test_reader_lines),
        cmocka_unit_test(test_reader_long_lines), cmocka_unit_test(test_reader_zstd),
        cmocka_unit_test(test_reader_zstd_exact_buffer), cmocka_unit_test(test_reader_drain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
