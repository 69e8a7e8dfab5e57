#include "ingest/sources/sniff.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "util/diag.h"
#include "util/text.h"

/* ---- the first keys of a JSON document ---- */

/* Keys that tell the formats apart: at the top of an object (TOP_), in the
 * first element of its "benchmarks" or "results" array (EL_), or in the
 * first element of a top-level array (ARR_). */
#define F(n) ((uint64_t)1 << (n))
enum {
    TOP_RECORD = 0, TOP_CONTEXT, TOP_BENCHMARKS, TOP_RESULTS, TOP_VERSION, TOP_METADATA,
    EL_GBENCH,    /* real_time, cpu_time, run_type, time_unit, iterations, run_name */
    EL_PYPERF,    /* runs */
    EL_HYPERFINE, /* command, times, mean */
    ARR_JMH,      /* benchmark, jmhVersion, primaryMetric, mode */
    ARR_EMPTY,    /* [] */
    /* Rust, Python and C++ harnesses */
    TOP_ITERS, TOP_TIMES,            /* Criterion.rs's sample.json */
    TOP_CRITERION_PART,              /* group_id, full_id, median_abs_dev: benchmark.json, estimates.json */
    TOP_PYTEST,                      /* machine_info, commit_info */
    EL_PYTEST,                       /* fullname, stats, extra_info */
    TOP_ASV, TOP_COMMIT_HASH,        /* result_columns, env_name; commit_hash */
    TOP_CATCH2,                      /* test-run, test-cases (Catch2's JSON reporter) */
    EL_NANOBENCH,                    /* measurements, epochs, complexityN, clockResolutionMultiple */
    /* tinybench, Vitest, Benchmark.js, BenchmarkDotNet, BMF */
    TOP_FILES,       /* "files" */
    EL_VITEST,       /* files[0]: filepath, groups */
    ARR_TINYBENCH,   /* [0]: result */
    ARR_BENCHMARKJS, /* [0]: stats, cycles */
    OBJ_BENCHMARKJS, /* "0": {stats...}: a serialised Benchmark.Suite */
    TOP_BDN,         /* "Benchmarks", "HostEnvironmentInfo" */
    BMF_V0,          /* {NAME: {MEASURE: {"value"...}}} */
    BMF_V1,          /* {NAME: [{"measures"...}]} */
};

static int key_is(const char *k, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(k, name, n) == 0;
}

static int any_key(const char *k, size_t n, const char *const *names)
{
    for (; *names; names++)
        if (key_is(k, n, *names))
            return 1;
    return 0;
}

#define PEEK_DEPTH 8

/* An object or array open around the scanner. */
struct peek_frame {
    char type;    /* '{' or '[' */
    size_t index; /* elements so far */
    int want_key; /* an object expecting a key */
    int top_key;  /* at depth 1: the key whose value this is: 1 benchmarks, 2 results, 3 files, 4 "0" */
};

/* The flags of a key k (len bytes) of the top-level object. */
static uint64_t top_key_flags(const char *k, size_t len)
{
    static const char *const crit_part[] = {"group_id", "full_id", "median_abs_dev", NULL};
    static const char *const pytest_top[] = {"machine_info", "commit_info", NULL};
    static const char *const asv_top[] = {"result_columns", "env_name", NULL};
    static const char *const catch2_top[] = {"test-run", "test-cases", NULL};
    uint64_t found = 0;
    found |= key_is(k, len, "record") ? F(TOP_RECORD) : 0;
    found |= key_is(k, len, "context") ? F(TOP_CONTEXT) : 0;
    found |= key_is(k, len, "benchmarks") ? F(TOP_BENCHMARKS) : 0;
    found |= key_is(k, len, "results") ? F(TOP_RESULTS) : 0;
    found |= key_is(k, len, "version") ? F(TOP_VERSION) : 0;
    found |= key_is(k, len, "metadata") ? F(TOP_METADATA) : 0;
    found |= key_is(k, len, "iters") ? F(TOP_ITERS) : 0;
    found |= key_is(k, len, "times") ? F(TOP_TIMES) : 0;
    found |= any_key(k, len, crit_part) ? F(TOP_CRITERION_PART) : 0;
    found |= any_key(k, len, pytest_top) ? F(TOP_PYTEST) : 0;
    found |= any_key(k, len, asv_top) ? F(TOP_ASV) : 0;
    found |= key_is(k, len, "commit_hash") ? F(TOP_COMMIT_HASH) : 0;
    found |= any_key(k, len, catch2_top) ? F(TOP_CATCH2) : 0;
    found |= key_is(k, len, "files") ? F(TOP_FILES) : 0;
    found |= key_is(k, len, "Benchmarks") || key_is(k, len, "HostEnvironmentInfo") ? F(TOP_BDN) : 0;
    return found;
}

/* The flags of a key k (len bytes) of the object at depth (1 the top),
 * inside the frames st. */
static uint64_t key_flags(const struct peek_frame *st, int depth, const char *k, size_t len)
{
    static const char *const gbench[] = {"real_time", "cpu_time", "run_type", "time_unit", "iterations",
                                         "run_name", NULL};
    static const char *const hyper[] = {"command", "times", "mean", NULL};
    static const char *const jmh[] = {"benchmark", "jmhVersion", "primaryMetric", "mode", NULL};
    static const char *const pytest_el[] = {"fullname", "stats", "extra_info", NULL};
    static const char *const nanobench_el[] = {"measurements", "epochs", "complexityN", "clockResolutionMultiple",
                                               NULL};
    uint64_t found = 0;
    if (depth == 1) {
        found |= top_key_flags(k, len);
    } else if (depth == 2 && st[0].type == '[' && st[0].index == 0) {
        found |= any_key(k, len, jmh) ? F(ARR_JMH) : 0;
        found |= key_is(k, len, "result") ? F(ARR_TINYBENCH) : 0;
        found |= key_is(k, len, "stats") || key_is(k, len, "cycles") ? F(ARR_BENCHMARKJS) : 0;
    } else if (depth == 2 && st[0].type == '{' && st[1].type == '{' && st[1].top_key == 4) {
        found |= key_is(k, len, "stats") ? F(OBJ_BENCHMARKJS) : 0;
    } else if (depth == 3 && st[0].type == '{' && st[1].type == '[' && st[1].index == 0) {
        if (st[1].top_key == 1) {
            found |= any_key(k, len, gbench) ? F(EL_GBENCH) : 0;
            found |= key_is(k, len, "runs") ? F(EL_PYPERF) : 0;
            found |= any_key(k, len, pytest_el) ? F(EL_PYTEST) : 0;
        } else if (st[1].top_key == 2) {
            found |= any_key(k, len, hyper) ? F(EL_HYPERFINE) : 0;
            found |= any_key(k, len, nanobench_el) ? F(EL_NANOBENCH) : 0;
        } else if (st[1].top_key == 3) {
            found |= key_is(k, len, "groups") || key_is(k, len, "filepath") ? F(EL_VITEST) : 0;
        }
    }
    /* Bencher Metric Format: the first benchmark's first measure */
    if (depth == 3 && st[0].type == '{' && st[0].index == 0 && st[1].index == 0 && st[2].type == '{') {
        found |= st[1].type == '{' && key_is(k, len, "value") ? F(BMF_V0) : 0;
        found |= st[1].type == '[' && key_is(k, len, "measures") ? F(BMF_V1) : 0;
    }
    return found;
}

/* What ends a number or literal. A switch, not strchr: the scan walks every
 * byte of a Criterion sample.json or a pytest-benchmark file's first MiB. */
static int ends_literal(unsigned char c)
{
    switch (c) {
    case ' ': case '\t': case '\r': case '\n': case ',': case ':': case ']': case '}': case 0:
        return 1;
    default:
        return 0;
    }
}

/* From p[i], inside an array, to the next byte that opens or closes a
 * value or starts a string ('"', '[', ']', '{', '}'), or to n: what lies
 * between is numbers, literals, spaces and commas, and changes nothing the
 * scanner keeps but the array's element count, to which its commas are
 * added. Sixteen bytes at a time where the processor has SSE2 (every
 * x86-64), else a byte at a time: a Criterion sample.json is 200 KB of
 * numbers, scanned whole by the directory walk and again by the bundle,
 * which a byte at a time cost 4% of its ingest (bench/README.md, figure 3). */
#ifdef __SSE2__
/* The bits set in a 16-bit mask, a few at most (a comma every few bytes):
 * __builtin_popcount is a call into libgcc where the x86-64 baseline has
 * no POPCNT instruction, which cost as much as the scan. */
static size_t bits_set(unsigned m)
{
    size_t n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}
#endif

static size_t skip_scalars(const unsigned char *p, size_t i, size_t n, size_t *commas)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), open_a = _mm_set1_epi8('['), close_a = _mm_set1_epi8(']'),
                  open_o = _mm_set1_epi8('{'), close_o = _mm_set1_epi8('}'), comma = _mm_set1_epi8(',');
    for (; n - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, open_a)),
                                    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, close_a), _mm_cmpeq_epi8(v, open_o)),
                                                 _mm_cmpeq_epi8(v, close_o)));
        unsigned sm = (unsigned)_mm_movemask_epi8(stop), cm = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma));
        if (sm) {
            int k = __builtin_ctz(sm); /* the first stop's byte */
            *commas += bits_set(cm & ((1u << k) - 1));
            return i + (size_t)k;
        }
        *commas += bits_set(cm);
    }
#endif
    for (; i < n; i++) {
        unsigned char c = p[i];
        if (c == '"' || c == '[' || c == ']' || c == '{' || c == '}')
            break;
        *commas += c == ',';
    }
    return i;
}

/* Scans the first JSON value of p[0..n) for the keys above. */
static uint64_t json_peek(const unsigned char *p, size_t n)
{
    struct peek_frame st[PEEK_DEPTH];
    int depth = 0, pending_top_key = 0;
    uint64_t found = 0;
    size_t i = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':') {
            if (c == ',' && depth > 0 && depth <= PEEK_DEPTH) {
                st[depth - 1].index++;
                if (st[depth - 1].type == '{')
                    st[depth - 1].want_key = 1;
            }
            i++;
            continue;
        }
        if (c == '{' || c == '[') {
            if (depth < PEEK_DEPTH) {
                st[depth] = (struct peek_frame){(char)c, 0, c == '{', depth == 1 ? pending_top_key : 0};
                if (depth == 0 && c == '[') {
                    size_t j = i + 1;
                    while (j < n && (p[j] == ' ' || p[j] == '\t' || p[j] == '\r' || p[j] == '\n'))
                        j++;
                    if (j < n && p[j] == ']')
                        found |= F(ARR_EMPTY);
                }
            }
            depth++;
            i++;
            continue;
        }
        if (c == '}' || c == ']') {
            if (depth == 0)
                break;
            depth--;
            i++;
            if (depth == 0)
                break; /* the first value is complete */
            continue;
        }
        if (c == '"') {
            size_t start = ++i;
            while (i < n && p[i] != '"')
                i += p[i] == '\\' ? 2 : 1;
            if (i >= n)
                break;
            const char *k = (const char *)p + start;
            size_t len = i - start;
            i++;
            if (depth >= 1 && depth <= PEEK_DEPTH && st[depth - 1].type == '{' && st[depth - 1].want_key) {
                st[depth - 1].want_key = 0;
                found |= key_flags(st, depth, k, len);
                if (depth == 1)
                    pending_top_key = key_is(k, len, "benchmarks") ? 1 : key_is(k, len, "results") ? 2
                                      : key_is(k, len, "files") ? 3 : key_is(k, len, "0") ? 4 : 0;
            }
            continue;
        }
        /* a number or literal: in an array, with the scalars after it */
        if (depth > 0 && depth <= PEEK_DEPTH && st[depth - 1].type == '[') {
            i = skip_scalars(p, i, n, &st[depth - 1].index);
            continue;
        }
        /* (a NUL byte, which ends a literal without starting one, is
         * passed over alone: the loop stood still on it, for ever) */
        do
            i++;
        while (i < n && !ends_literal(p[i]));
    }
    return found;
}

/* ---- Go benchmark text ---- */

static int gobench_line(const unsigned char *s, size_t n)
{
    static const char *const config[] = {"goos:", "goarch:", "pkg:", "cpu:", NULL};
    for (int k = 0; config[k]; k++) {
        size_t m = strlen(config[k]);
        if (n >= m && memcmp(s, config[k], m) == 0)
            return 1;
    }
    /* BenchmarkName[-N] ITERATIONS VALUE UNIT */
    if (n < 10 || memcmp(s, "Benchmark", 9) != 0 || islower(s[9]))
        return 0;
    size_t i = 9;
    while (i < n && s[i] != ' ' && s[i] != '\t')
        i++;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t d = i;
    while (i < n && isdigit(s[i]))
        i++;
    return i > d && i < n && (s[i] == ' ' || s[i] == '\t');
}

/* ---- cargo bench's bencher lines ---- */

/* "test NAME ... bench: N ns/iter (+/- M)" (libtest's and Criterion.rs's
 * --output-format bencher) */
static int cargo_bench_line(const unsigned char *s, size_t n)
{
    if (n < 5 || memcmp(s, "test ", 5) != 0)
        return 0;
    for (size_t i = 5; i + 13 <= n; i++)
        if (memcmp(s + i, " ... bench: ", 12) == 0)
            return 1;
    return 0;
}

static int looks_lines(const unsigned char *p, size_t n, int (*line)(const unsigned char *, size_t))
{
    for (size_t i = 0; i < n;) {
        const unsigned char *nl = memchr(p + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (p + i)) : n - i;
        if (line(p + i, len))
            return 1;
        i += len + 1;
    }
    return 0;
}

/* ---- a CSV/TSV table (docs/formats.md, "csv") ---- */

/* Its first line is a header naming the columns benchmark, value and unit
 * (any order, among others), separated by tabs when the line has one, else
 * by commas; a field may be in double quotes. A UTF-8 byte order mark
 * before it is allowed. */
static int looks_csv(const unsigned char *p, size_t n)
{
    if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
        p += 3;
        n -= 3;
    }
    const unsigned char *nl = memchr(p, '\n', n);
    size_t len = nl ? (size_t)(nl - p) : n;
    if (len && p[len - 1] == '\r')
        len--;
    char sep = memchr(p, '\t', len) ? '\t' : ',';
    int have = 0; /* 1 benchmark, 2 value, 4 unit */
    for (size_t i = 0; i <= len;) {
        const unsigned char *e = memchr(p + i, sep, len - i);
        size_t end = e ? (size_t)(e - p) : len, a = i, b = end;
        if (b - a >= 2 && p[a] == '"' && p[b - 1] == '"')
            a++, b--;
        have |= key_is((const char *)p + a, b - a, "benchmark") ? 1 : 0;
        have |= key_is((const char *)p + a, b - a, "value") ? 2 : 0;
        have |= key_is((const char *)p + a, b - a, "unit") ? 4 : 0;
        i = end + 1;
    }
    return have == 7;
}

/* ---- Catch2's XML reporter: the root element <Catch> (2.x) or
 * <Catch2TestRun> (3.x), after the XML declaration ---- */

static int looks_catch2_xml(const unsigned char *p, size_t n)
{
    size_t m = n < 4096 ? n : 4096;
    for (size_t i = 0; i + 7 <= m; i++)
        if (p[i] == '<' && memcmp(p + i + 1, "Catch", 5) == 0 &&
            (p[i + 6] == ' ' || p[i + 6] == '>' || p[i + 6] == '\n' ||
             (i + 14 <= m && memcmp(p + i + 6, "2TestRun", 8) == 0)))
            return 1;
    return 0;
}

enum content_kind sniff_content(const unsigned char *p, size_t n, int whole)
{
    if (n >= 262 && memcmp(p + 257, "ustar", 5) == 0)
        return KIND_TAR;
    if (n >= 4 && (memcmp(p, "PK\x03\x04", 4) == 0 || memcmp(p, "PK\x05\x06", 4) == 0))
        return KIND_ZIP;
    size_t i = utf8_bom_len(p, n); /* a byte order mark, read as no byte (docs/formats.md, "Text") */
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    if (i == n)
        return whole || n == 0 ? KIND_EMPTY : KIND_UNKNOWN;
    if (p[i] == '{') {
        uint64_t f = json_peek(p + i, n - i);
        if (f & F(TOP_RECORD))
            return KIND_RUN_STREAM;
        /* before pyperf's rule: pytest-benchmark's files have "version" and "benchmarks" too */
        if ((f & F(TOP_BENCHMARKS)) && (f & (F(TOP_PYTEST) | F(EL_PYTEST))))
            return KIND_PYTEST;
        if ((f & F(TOP_ASV)) || ((f & F(TOP_COMMIT_HASH)) && (f & F(TOP_RESULTS))))
            return KIND_ASV;
        if ((f & F(TOP_ITERS)) && (f & F(TOP_TIMES)))
            return KIND_CRITERION;
        if (f & F(TOP_CRITERION_PART))
            return KIND_CRITERION_PART;
        if ((f & F(TOP_CATCH2)) && (f & F(TOP_METADATA)))
            return KIND_CATCH2;
        if ((f & F(TOP_RESULTS)) && (f & F(EL_NANOBENCH)))
            return KIND_NANOBENCH;
        if ((f & F(TOP_CONTEXT)) || ((f & F(TOP_BENCHMARKS)) && (f & F(EL_GBENCH))))
            return KIND_GBENCH;
        if ((f & F(TOP_BENCHMARKS)) && ((f & F(EL_PYPERF)) || (f & (F(TOP_VERSION) | F(TOP_METADATA)))))
            return KIND_PYPERF;
        if ((f & F(TOP_RESULTS)) && (f & F(EL_HYPERFINE)))
            return KIND_HYPERFINE;
        if ((f & F(TOP_FILES)) && (f & F(EL_VITEST)))
            return KIND_VITEST;
        if (f & F(TOP_BDN))
            return KIND_BDN;
        if (f & F(OBJ_BENCHMARKJS))
            return KIND_BENCHMARKJS;
        if (f & (F(BMF_V0) | F(BMF_V1)))
            return KIND_BMF;
        return KIND_JSON;
    }
    if (p[i] == '[') {
        uint64_t f = json_peek(p + i, n - i);
        if (f & (F(ARR_JMH) | F(ARR_EMPTY)))
            return KIND_JMH;
        if (f & F(ARR_TINYBENCH))
            return KIND_TINYBENCH;
        return f & F(ARR_BENCHMARKJS) ? KIND_BENCHMARKJS : KIND_UNKNOWN;
    }
    if (p[i] == '<')
        return looks_catch2_xml(p + i, n - i) ? KIND_CATCH2 : KIND_UNKNOWN;
    if (looks_lines(p + i, n - i, cargo_bench_line))
        return KIND_CARGO_BENCH;
    if (looks_csv(p + i, n - i))
        return KIND_CSV;
    return looks_lines(p + i, n - i, gobench_line) ? KIND_GOBENCH : KIND_UNKNOWN;
}

/* ---- reading the first bytes ---- */

int sniff_blocks(struct blocks in, struct source_kept *kept, struct sniffed *out, char **err)
{
    struct budget b;
    budget_init(&b, UINT64_MAX); /* only SNIFF_BYTES are read */
    struct decoder d;
    decoder_init(&d, in, &b, 0);
    d.kept = kept;
    struct blocks dec = decoder_blocks(&d);
    /* The first 64 KiB decide nearly always (a run record, a harness
     * file's first keys); JSON or text that did not is read further, up to
     * SNIFF_BYTES. */
    size_t have = 0, cap = 64u * 1024u;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return bd_fail(err, "out of memory");
    int rc = 0, whole = 0;
    enum content_kind kind = KIND_UNKNOWN;
    /* Each look reads the buffer from its start (a Criterion sample.json
     * is scanned to its end for "times", after "iters"): looked at again
     * only once it has doubled, and the last look's answer kept when
     * nothing came after it. */
    size_t looked = 0;
    for (;;) {
        const unsigned char *p;
        size_t n;
        rc = blocks_next(dec, &p, &n, err);
        if (rc <= 0) {
            whole = rc == 0;
            break;
        }
        size_t take = n < SNIFF_BYTES - have ? n : SNIFF_BYTES - have;
        if (have + take > cap) {
            size_t ncap = cap * 4 < SNIFF_BYTES ? cap * 4 : SNIFF_BYTES;
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) {
                rc = bd_fail(err, "out of memory");
                break;
            }
            buf = nb;
            cap = ncap;
            if (have + take > cap)
                take = cap - have;
        }
        memcpy(buf + have, p, take);
        have += take;
        if (have == SNIFF_BYTES)
            break;
        if (have >= 64u * 1024u && have >= 2 * looked) {
            kind = sniff_content(buf, have, 0);
            looked = have;
            if (kind != KIND_JSON && kind != KIND_UNKNOWN && kind != KIND_EMPTY)
                break;
        }
    }
    if (rc >= 0) {
        /* whole changes the answer only for blanks (empty, or unknown so far) */
        int same = looked == have && kind != KIND_UNKNOWN && kind != KIND_EMPTY;
        out->kind = same ? kind : sniff_content(buf, have, whole);
        out->depth = d.depth;
        out->outer = d.depth ? d.codecs[0] : CODEC_NONE;
    }
    free(buf);
    decoder_free(&d);
    return rc < 0 ? -1 : 0;
}

struct pread_src {
    int fd;
    off_t off;
    unsigned char buf[65536];
};

static int pread_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct pread_src *s = self;
    ssize_t k;
    do
        k = pread(s->fd, s->buf, sizeof s->buf, s->off);
    while (k < 0 && errno == EINTR);
    if (k < 0)
        return bd_fail(err, "read error: %s", strerror(errno));
    if (k == 0)
        return 0;
    s->off += k;
    *p = s->buf;
    *n = (size_t)k;
    return 1;
}

int sniff_fd_kept(int fd, struct source_kept *kept, struct sniffed *out, char **err)
{
    struct pread_src *s = malloc(sizeof *s);
    if (!s)
        return bd_fail(err, "out of memory");
    s->fd = fd;
    s->off = 0;
    int rc = sniff_blocks((struct blocks){pread_next, s}, kept, out, err);
    free(s);
    return rc;
}

int sniff_fd(int fd, struct sniffed *out, char **err)
{
    return sniff_fd_kept(fd, NULL, out, err);
}

int sniff_buffer(const unsigned char *p, size_t n, struct sniffed *out, char **err)
{
    struct membuf m = {p, n, 0};
    return sniff_blocks(membuf_blocks(&m), NULL, out, err);
}

/* ---- names ---- */

static const struct {
    enum content_kind kind;
    const char *harness, *describe;
} kinds[] = {
    {KIND_UNKNOWN, NULL, "not a format benchdb reads"},
    {KIND_EMPTY, NULL, "empty"},
    {KIND_RUN_STREAM, NULL, "a benchdb-run/1 stream"},
    {KIND_JSON, NULL, "JSON of no format benchdb reads"},
    {KIND_TAR, NULL, "a tar archive"},
    {KIND_ZIP, NULL, "a zip archive"},
    {KIND_JMH, "jmh", "JMH results (jmh)"},
    {KIND_GBENCH, "google-benchmark", "Google Benchmark results (google-benchmark)"},
    {KIND_HYPERFINE, "hyperfine", "hyperfine results (hyperfine)"},
    {KIND_PYPERF, "pyperf", "pyperf results (pyperf)"},
    {KIND_GOBENCH, "go-bench", "Go benchmark output (go-bench)"},
    /* Rust, Python and C++ harnesses */
    {KIND_CRITERION, "criterion", "Criterion.rs's sample.json (criterion)"},
    {KIND_CRITERION_PART, NULL, "a Criterion.rs file read with the sample.json beside it (benchmark.json, estimates.json)"},
    {KIND_CARGO_BENCH, "cargo-bench", "cargo bench's bencher lines (cargo-bench)"},
    {KIND_PYTEST, "pytest-benchmark", "pytest-benchmark results (pytest-benchmark)"},
    {KIND_ASV, "asv", "asv results (asv)"},
    {KIND_CATCH2, "catch2", "Catch2 reporter output (catch2)"},
    {KIND_NANOBENCH, "nanobench", "nanobench results (nanobench)"},
    {KIND_TINYBENCH, "tinybench", "tinybench results (tinybench)"},
    {KIND_VITEST, "vitest", "Vitest bench results (vitest)"},
    {KIND_BENCHMARKJS, "benchmarkjs", "Benchmark.js results (benchmarkjs)"},
    {KIND_BDN, "benchmarkdotnet", "BenchmarkDotNet results (benchmarkdotnet)"},
    {KIND_BMF, "bmf", "Bencher Metric Format JSON (bmf)"},
    {KIND_CSV, "csv", "a CSV/TSV table (csv)"},
};

const char *kind_harness(enum content_kind k)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (kinds[i].kind == k)
            return kinds[i].harness;
    return NULL;
}

enum content_kind kind_of_harness(const char *format)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (kinds[i].harness && strcmp(kinds[i].harness, format) == 0)
            return kinds[i].kind;
    return KIND_UNKNOWN;
}

const char *kind_describe(enum content_kind k)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (kinds[i].kind == k)
            return kinds[i].describe;
    return "?";
}
