/* Allocation failures during ingest (docs/reliability.md): an input is
 * loaded into a fresh store (in memory, a copy of a template, opened
 * once a sweep and its memory put back for each run) with every
 * allocation of SQLite
 * (SQLITE_CONFIG_MALLOC) and jansson (through the checked allocator of
 * sources/jsonparse.c) failing in turn: the 1st, the 2nd, ... until a load
 * runs through without reaching the fault. Each run must end loaded with
 * exactly the rows of a load without faults, or failed with an "out of
 * memory" error and nothing stored; the store must pass integrity_check;
 * and no run may crash or (under ASan) leak: SQLite's allocations come
 * from a checked pool ("SQLite's allocations from a pool", below), where
 * a block left unfreed fails the run that left it, the rest from ASan's
 * heap, checked at exit. Inside SQLite's statement
 * compiles, every allocation fails in turn for the bare stream and only
 * the first of each compile for the other inputs (below, "Statement
 * compiles"). A run whose store is byte for
 * byte the template it started from (most refused runs: nothing written)
 * is the template, checked once before the sweep (integrity_check, its
 * rows): no query runs on it again. The inputs: the example
 * archive as a bare stream and in a plain tar (where a second copy of the
 * line reader once mis-parsed under faults), a zip holding a run stream
 * whose results record names a JMH file, and a harness file of each
 * format given on the command line into one run. The stream and the tar
 * are also loaded a second time (skipped, or failed with nothing
 * changed).
 *
 * One error is not "out of memory": SQLite 3.40's json_valid() answers 0
 * when its own parse runs out of memory, so a CHECK (json_valid(...)) on a
 * column benchdb filled with JSON it wrote itself fails as "CHECK
 * constraint failed: json_valid(...)". The archive is refused and nothing
 * stored, as it should be; only the message is SQLite's. Counted apart.
 *
 * Not injected: zstd's allocations and benchdb's own malloc calls (their
 * results are checked in the code, but no test fails them). */
// ctest: slow cost=20
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "ingest/ingest.h"
#include "ingest/core/jsonparse.h"
#include "sqlfn/benchstats.h"
#include "store/store.h"
#include "util/strbuf.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define NO_ASAN __attribute__((no_sanitize_address))
#else
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define NO_ASAN
#endif

/* ---- the faulty allocators: SQLite's on the loader's thread, jansson's
 * on the producer thread, one countdown for both ---- */

static sqlite3_mem_methods real;
static atomic_long countdown = -1; /* allocations left before one fails; -1: never */
static atomic_int failed;

/* Statement compiles. About four in five allocations of a load happen
 * inside sqlite3_prepare_v2 (Debian's SQLite has no lookaside: every node
 * of a parse tree is a malloc), and run n repeats the load up to
 * allocation n, so the sweep's cost grows with the square of them. A
 * failure anywhere inside one compile reaches benchdb the same way: the
 * prepare returns SQLITE_NOMEM (SQLite's own test suite fails each of its
 * parser's allocations). So one input, the bare stream, fails every
 * allocation inside every compile too; the others fail the first
 * allocation of each compile and every allocation outside them. The
 * linker routes benchdb's calls of sqlite3_prepare_v2 here
 * (-Wl,--wrap=sqlite3_prepare_v2, tests/CMakeLists.txt). */
static int whole_compiles;          /* fail inside compiles too: every allocation counts */
static _Thread_local int compiling; /* 1: in a compile, its first allocation not yet counted; 2: counted */

int __real_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail);
int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail);
int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st, const char **tail)
{
    int outer = compiling;
    if (!outer)
        compiling = 1;
    int rc = __real_sqlite3_prepare_v2(db, sql, n, st, tail);
    if (!outer)
        compiling = 0;
    return rc;
}

static int should_fail(void)
{
    if (atomic_load(&countdown) < 0)
        return 0;
    if (compiling && !whole_compiles) {
        if (compiling == 2)
            return 0; /* inside a compile whose first allocation was counted */
        compiling = 2;
    }
    if (atomic_fetch_sub(&countdown, 1) == 0) {
        atomic_store(&failed, 1);
        return 1;
    }
    return 0;
}

/* ---- the ingester's threads, lent ----
 * Each run opens an ingester, which starts its producer thread (and a
 * tar's second one) and joins it at close: under ASan a thread's start
 * and end cost more than a short load (its shadow cleared, and at its
 * end the unmapping of ASan's per-thread state, a TLB flush sent to the
 * other CPU: perf, about a fifth of the bare stream's sweep). So the linker routes
 * benchdb's pthread_create and pthread_join here
 * (-Wl,--wrap=pthread_create,--wrap=pthread_join, tests/CMakeLists.txt),
 * and a thread started once for the test runs the function instead: the
 * same function on a thread of its own, beside the loader's, as before,
 * and pthread_join waits for its return. What a new thread brought that a
 * lent one does not: zeroed thread-local variables. benchdb's on the
 * producer's side are jsonparse.c's: the failure flags reset by each
 * parse, the arena pointers set and restored around it or cleared when
 * its document is freed (no document outlives a run: the leak checks);
 * and the files of one ingester already share its threads (pipeline.c's
 * pipe_worker). Thread creation and joining allocate nothing that
 * should_fail counts. What does change is timing: a lent thread starts
 * sooner than a new one, so in the loads whose producer is cancelled
 * part way (an input loaded again) it gets further first, and those
 * sweeps' counts, which vary from run to run anyway, can be higher (the
 * bare stream's up to 60 where 47 to 49, docs/testing.md).
 * BENCHDB_OOM_LEND=0: a new thread each time. */
#define LENDERS 4
struct lender {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void *(*fn)(void *);
    void *arg, *ret;
    int state; /* 0: idle, 1: running fn, 2: fn returned, not yet joined */
};
static struct lender lenders[LENDERS];
static int n_lenders;
static pthread_mutex_t lenders_mu = PTHREAD_MUTEX_INITIALIZER;
static int lend_off; /* BENCHDB_OOM_LEND=0: a new thread each time, as benchdb starts them */

int __real_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int __real_pthread_join(pthread_t t, void **ret);
int __wrap_pthread_join(pthread_t t, void **ret);

static void *lender_main(void *arg)
{
    struct lender *l = arg;
    pthread_mutex_lock(&l->mu);
    for (;;) {
        while (l->state != 1)
            pthread_cond_wait(&l->cv, &l->mu);
        pthread_mutex_unlock(&l->mu);
        void *r = l->fn(l->arg);
        pthread_mutex_lock(&l->mu);
        l->ret = r;
        l->state = 2;
        pthread_cond_broadcast(&l->cv);
    }
    return NULL;
}

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    if (attr || lend_off)
        return __real_pthread_create(t, attr, fn, arg);
    pthread_mutex_lock(&lenders_mu);
    struct lender *l = NULL;
    for (int i = 0; i < n_lenders && !l; i++) {
        pthread_mutex_lock(&lenders[i].mu);
        if (lenders[i].state == 0)
            l = &lenders[i];
        else
            pthread_mutex_unlock(&lenders[i].mu);
    }
    if (!l && n_lenders < LENDERS) {
        struct lender *n = &lenders[n_lenders];
        pthread_mutex_init(&n->mu, NULL);
        pthread_cond_init(&n->cv, NULL);
        n->state = 0;
        if (__real_pthread_create(&n->thread, NULL, lender_main, n) == 0) {
            n_lenders++;
            l = n;
            pthread_mutex_lock(&l->mu);
        }
    }
    pthread_mutex_unlock(&lenders_mu);
    if (!l)
        return __real_pthread_create(t, attr, fn, arg);
    l->fn = fn;
    l->arg = arg;
    l->state = 1;
    *t = l->thread;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
    return 0;
}

int __wrap_pthread_join(pthread_t t, void **ret)
{
    pthread_mutex_lock(&lenders_mu);
    struct lender *l = NULL;
    for (int i = 0; i < n_lenders && !l; i++)
        if (pthread_equal(lenders[i].thread, t))
            l = &lenders[i];
    pthread_mutex_unlock(&lenders_mu);
    if (!l)
        return __real_pthread_join(t, ret);
    pthread_mutex_lock(&l->mu);
    while (l->state == 1)
        pthread_cond_wait(&l->cv, &l->mu);
    if (l->state != 2) { /* joined twice, or never lent: as pthread_join's ESRCH */
        pthread_mutex_unlock(&l->mu);
        return ESRCH;
    }
    if (ret)
        *ret = l->ret;
    l->state = 0;
    pthread_mutex_unlock(&l->mu);
    return 0;
}

/* ---- SQLite's allocations from a pool ----
 * Each run had a copy of the template opened (its schema read: every
 * table, index, trigger and view parsed, a few thousand allocations; now
 * once a sweep, "the opened store, kept", below) and loads the input up
 * to its fault, and under ASan each SQLite allocation cost a stack
 * capture and a chunk out of the quarantine, cold in the cache: about
 * half of the sweep. So while a run's store is opened and loaded,
 * SQLite's allocations come from a pool instead: a bump allocator, reset
 * for each run (at open_copy or reopen), whose blocks are checked as ASan checks its
 * heap. Only a block's own bytes are addressable (the 16 bytes before
 * each, its header, are poisoned: a redzone that catches an overflow of
 * the block before it, as ASan's 16-byte minimum does); a freed block
 * stays poisoned until the reset (a later use is reported as
 * use-after-poison, where the quarantine forgets a block after 16 MB); a
 * double or invalid free aborts; and a block still live when the store
 * has closed (what LeakSanitizer would report at exit) fails the run that
 * left it. SQLite itself (Debian's library) is not instrumented: ASan
 * sees its memory only through benchdb's code and the C library calls it
 * intercepts, and those see the same poison either way. What ASan's heap
 * adds, the stacks of a block's allocation and free, is there with
 * BENCHDB_OOM_POOL=0 (no pool). Which allocations fail is unchanged:
 * should_fail counts the same calls, whichever allocator then serves
 * them. benchdb's own and jansson's allocations stay on ASan's heap. */
#define POOL_BYTES ((size_t)512 << 20) /* reserved, not committed: a run uses a few MB */
#define POOL_HEAD 16                   /* size and state: the redzone between two blocks */
#define POOL_LIVE 0x6c697665UL
#define POOL_FREED 0x66726565UL
static unsigned char *pool;
static atomic_size_t pool_used;
static atomic_long pool_live; /* blocks handed out and not freed */
static atomic_int pooling;    /* 1: a run's store opened or loaded (the loader's and the producer's threads) */
static int pool_off;          /* BENCHDB_OOM_POOL=0 */

static int use_pool(void) { return pool && !pool_off && atomic_load(&pooling); }

static int in_pool(const void *p)
{
    return pool && (const unsigned char *)p >= pool + POOL_HEAD && (const unsigned char *)p < pool + POOL_BYTES;
}

NO_ASAN static size_t *pool_head(const void *p) { return (size_t *)((uintptr_t)p - POOL_HEAD); }
NO_ASAN static size_t pool_size(const void *p) { return pool_head(p)[0]; }

NO_ASAN static void *pool_malloc(int n)
{
    size_t need = POOL_HEAD + (((size_t)n + 15) & ~(size_t)15);
    size_t at = atomic_fetch_add(&pool_used, need);
    if (n < 0 || at + need > POOL_BYTES)
        return NULL; /* full: SQLite's allocator */
    unsigned char *b = pool + at;
    ((size_t *)b)[0] = (size_t)n;
    ((size_t *)b)[1] = POOL_LIVE;
    ASAN_UNPOISON_MEMORY_REGION(b + POOL_HEAD, (size_t)n);
    atomic_fetch_add(&pool_live, 1);
    return b + POOL_HEAD;
}

NO_ASAN static void pool_free(void *p)
{
    size_t *h = pool_head(p);
    if (((uintptr_t)p & 15) || h[1] != POOL_LIVE) {
        fprintf(stderr, "test_ingest_oom: %s of %p in SQLite's pool\n", h[1] == POOL_FREED ? "double free" : "invalid free",
                p);
        abort();
    }
    h[1] = POOL_FREED;
    ASAN_POISON_MEMORY_REGION(p, h[0]);
    atomic_fetch_sub(&pool_live, 1);
}

static void pool_check(long n)
{
    if (atomic_load(&pool_live) != 0)
        fail_msg("fault at allocation %ld: %ld blocks SQLite allocated were not freed when the store closed "
                 "(BENCHDB_OOM_POOL=0: LeakSanitizer's report, with their stacks)",
                 n, atomic_load(&pool_live));
}

/* Before each store is opened: all poisoned and handed out again. */
static void pool_reset(void)
{
    pool_check(-1);
    size_t used = atomic_load(&pool_used);
    ASAN_POISON_MEMORY_REGION(pool, used < POOL_BYTES ? used : POOL_BYTES);
    atomic_store(&pool_used, 0);
}

static atomic_long pool_spilled; /* allocations the pool could not serve while pooling */

static void *mem_malloc(int n)
{
    void *p = NULL;
    if (use_pool() && !(p = pool_malloc(n)))
        atomic_fetch_add(&pool_spilled, 1);
    return p ? p : real.xMalloc(n);
}
static void mem_free(void *p)
{
    if (in_pool(p))
        pool_free(p);
    else
        real.xFree(p);
}
static int mem_size(void *p) { return in_pool(p) ? (int)pool_size(p) : real.xSize(p); }
static void *mem_realloc(void *p, int n)
{
    if (!in_pool(p))
        return real.xRealloc(p, n);
    void *q = mem_malloc(n);
    if (q) {
        size_t old = pool_size(p);
        memcpy(q, p, old < (size_t)n ? old : (size_t)n);
        pool_free(p);
    }
    return q;
}

static void *faulty_malloc(int n) { return should_fail() ? NULL : mem_malloc(n); }
static void *faulty_realloc(void *p, int n) { return should_fail() ? NULL : mem_realloc(p, n); }
static void *faulty_json_malloc(size_t n) { return should_fail() ? NULL : malloc(n); }

/* ---- a store's whole content as text (archive times left out) ---- */

static char *content(sqlite3 *db)
{
    static const char *const sql[] = {
        "SELECT sha256, name, size, format, content_encoding, stored_size FROM archive ORDER BY id",
        "SELECT * FROM archive_member ORDER BY id",
        "SELECT * FROM archive_chunk ORDER BY archive_id, seq", "SELECT * FROM plan ORDER BY id",
        "SELECT * FROM host ORDER BY id", "SELECT * FROM variant ORDER BY id", "SELECT * FROM benchmark ORDER BY id",
        "SELECT * FROM run ORDER BY id", "SELECT * FROM series ORDER BY id", "SELECT * FROM sample ORDER BY 1, 2, 3",
        "SELECT * FROM gate ORDER BY rowid", "SELECT * FROM event ORDER BY rowid",
    };
    struct strbuf sb = {0};
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++) {
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(db, sql[i], -1, &st, NULL), SQLITE_OK);
        while (sqlite3_step(st) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(st); c++) {
                const unsigned char *t = sqlite3_column_text(st, c);
                sb_printf(&sb, "%s|", t ? (const char *)t : "NULL");
            }
            sb_putc(&sb, '\n');
        }
        sqlite3_finalize(st);
    }
    return sb_detach(&sb);
}

static long long count(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st;
    long long n = -1;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

static char dir[64];
static char pristine[128], errfile[128], archive[512];
static int err_fd = -1, saved_fd = -1; /* the error file, open; the real stderr */

/* What is loaded: an archive (ingester_archive) or, when harness is set,
 * one harness file of each format into one run (ingester_files, formats
 * detected): the first five formats ("*"), the Rust, Python and C++
 * harnesses' ("rust-py-cpp"; Criterion's sample.json brings its
 * benchmark.json and estimates.json along), or the JavaScript, .NET,
 * Bencher and CSV ones ("js-net"), each a ctest entry of its own. */
static const char *harness_format;
static const char *const harness_files[] = {
    "jmh/sample_mode.json", "google-benchmark/repetitions_with_date.json", "hyperfine/hyperfine-py_parameter_scan.json",
    "pyperf/pyperf_track_memory.json", "go-bench/config_and_allocs.txt",
};
static const char *const harness_files_js[] = {
    "tinybench/tinybench2_flat.json", "vitest/bencher_vitest_two.json", "benchmarkjs/benchmarkjs_suite.json",
    "benchmarkdotnet/launches_overhead_params.json", "bmf/bencher_report_v1_canonical.json", "csv/table.csv",
};
static const char *const harness_files2[] = {
    "criterion/run1/Fibonacci/Recursive/5/new/sample.json", "cargo-bench/libtest_padded_commas.txt",
    "pytest-benchmark/fib_run1.json", "asv/v2_params_samples.json", "catch2/catch2_v3_shape.xml",
    "nanobench/json_template_run1.json",
};
#define N_HARNESS (sizeof harness_files / sizeof *harness_files)
#define N_HARNESS2 (sizeof harness_files2 / sizeof *harness_files2)
#define N_HARNESS_JS (sizeof harness_files_js / sizeof *harness_files_js)
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define N_HARNESS_MAX MAX2(N_HARNESS, MAX2(N_HARNESS2, N_HARNESS_JS))

/* Loads the archive with the n-th allocation failing (n < 0: none);
 * returns the result, with the error text printed in *text. */
static int load(sqlite3 *db, long n, char **text)
{
    /* stderr into the error file, opened once (per run: emptied, not
     * created, opened and removed again), and the real one kept aside */
    fflush(stderr);
    if (err_fd < 0) {
        err_fd = open(errfile, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        saved_fd = dup(2);
        assert_true(err_fd >= 0 && saved_fd >= 0);
    }
    assert_int_equal(ftruncate(err_fd, 0), 0);
    assert_int_equal(lseek(err_fd, 0, SEEK_SET), 0);
    dup2(err_fd, 2);

    struct ingest_options opt = {.max_line_bytes = INGEST_DEFAULT_MAX_LINE, .max_bytes = INGEST_DEFAULT_MAX_BYTES,
                                 .notices = INGEST_NOTICES_QUIET};
    char *err = NULL;
    struct db *via = db_from_sqlite(db, 0); /* before failures are injected */
    assert_non_null(via);
    atomic_store(&failed, 0);
    atomic_store(&pooling, 1);
    atomic_store(&countdown, n);
    int r = -1; /* ingester_open failed */
    struct ingester *g = ingester_open(via, &opt, NULL, &err);
    if (g) {
        if (harness_format) {
            struct ingest_run run = {.plan = "oom", .run = "r", .host = "h", .variant = "v", .block = 1};
            int second = strcmp(harness_format, "rust-py-cpp") == 0, js = strcmp(harness_format, "js-net") == 0;
            const char *const *list = second ? harness_files2 : js ? harness_files_js : harness_files;
            size_t nf = second ? N_HARNESS2 : js ? N_HARNESS_JS : N_HARNESS;
            struct ingest_file f[N_HARNESS_MAX];
            char paths[N_HARNESS_MAX][512];
            for (size_t i = 0; i < nf; i++) {
                snprintf(paths[i], sizeof paths[i], "%s/tests/data/harness/%s", TEST_SRC_DIR, list[i]);
                f[i] = (struct ingest_file){paths[i], strrchr(list[i], '/') + 1};
            }
            r = (int)ingester_files(g, &run, f, nf, "harness files");
        } else {
            r = (int)ingester_archive(g, archive);
        }
        ingester_close(g);
    }
    atomic_store(&countdown, -1);
    atomic_store(&pooling, 0);
    db_close(via);

    fflush(stderr);
    dup2(saved_fd, 2);
    struct strbuf sb = {0};
    if (err)
        sb_printf(&sb, "%s\n", err);
    free(err);
    char buf[4096];
    ssize_t k;
    for (off_t at = 0; (k = pread(err_fd, buf, sizeof buf, at)) > 0; at += k)
        sb_append(&sb, buf, (size_t)k);
    *text = sb.buf ? sb_detach(&sb) : strdup("");
    return r;
}

/* Stores in memory, each a copy of a template image (a store_open'd
 * empty store, or one holding an archive): thousands of runs without
 * copying and opening files. */
static unsigned char *pristine_img, *tmpl_img;
static sqlite3_int64 pristine_size, tmpl_size;

static sqlite3 *open_copy(const unsigned char *img, sqlite3_int64 size)
{
    sqlite3 *db;
    pool_reset();
    pooling = 1;
    unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)size);
    assert_non_null(copy);
    memcpy(copy, img, (size_t)size);
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_deserialize(db, "main", copy, size, size,
                                         SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE),
                     SQLITE_OK);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    /* the functions the store's triggers call (run_cell_data's summaries), as store_open registers them */
    assert_int_equal(benchstats_register(db), SQLITE_OK);
    /* the schema read now, as store_open reads it, not under the faults */
    assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys = ON; SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL),
                     SQLITE_OK);
    pooling = 0;
    return db;
}

/* ---- the opened store, kept ----
 * open_copy does the same for every run of a sweep: the template's copy
 * deserialized and its schema read (every table, index, trigger and view
 * parsed, about 3,800 allocations), nearly a fifth of the bare stream's
 * sweep under ASan (perf). While it runs, every allocation of SQLite's comes
 * from the pool, reset to empty first, so all that it leaves (the
 * connection, its schema, its functions, its page cache, the store's
 * bytes) is in the pool's first bytes, and the same allocations in the
 * same order leave the same bytes each time. So a sweep opens its store
 * once and keeps those bytes (and which of them are addressable: the
 * blocks live then), and each run puts them back (keep_open, reopen):
 * the connection exactly as open_copy leaves it, before any run has
 * touched it, none of its schema's caches filled. That it is exactly
 * that is checked once per sweep: a second open_copy's pool is compared
 * byte for byte with the kept one. What is not in the pool is SQLite's
 * process-wide state, which an in-memory connection leaves alone (no
 * shared cache, its page cache its own, no VFS registered: Debian's
 * build has neither SQLITE_ENABLE_MEMORY_MANAGEMENT nor a page cache
 * buffer); a run's own changes to the pool are undone with the rest.
 * With BENCHDB_OOM_POOL=0, or when the pool could not hold the store,
 * every run opens its copy as before. */
struct live_block {
    size_t at, size;
};
static struct {
    sqlite3 *db;
    unsigned char *bytes;
    size_t used;
    struct live_block *live;
    long n_live;
} kept;

static void kept_free(void)
{
    free(kept.bytes);
    free(kept.live);
    memset(&kept, 0, sizeof kept);
}

/* The blocks live in the pool's first `used` bytes. */
NO_ASAN static long live_blocks(size_t used, struct live_block *out)
{
    long k = 0;
    for (size_t at = 0; at < used;) {
        const size_t *h = (const size_t *)(pool + at);
        if (h[1] != POOL_LIVE && h[1] != POOL_FREED)
            fail_msg("SQLite's pool: no block at offset %zu", at);
        if (h[1] == POOL_LIVE && out)
            out[k] = (struct live_block){at + POOL_HEAD, h[0]};
        k += h[1] == POOL_LIVE;
        at += POOL_HEAD + ((h[0] + 15) & ~(size_t)15);
    }
    return k;
}

/* The pool's first `used` bytes copied to `to` (from, when back): the
 * whole made addressable for the copy, then only the live blocks again. */
static void pool_copy(unsigned char *to, const unsigned char *from, size_t used)
{
    ASAN_UNPOISON_MEMORY_REGION(pool, used);
    memcpy(to, from, used);
    ASAN_POISON_MEMORY_REGION(pool, used);
    for (long i = 0; i < kept.n_live; i++)
        ASAN_UNPOISON_MEMORY_REGION(pool + kept.live[i].at, kept.live[i].size);
}

/* Whether the pool's first `used` bytes are `b`'s. */
NO_ASAN static int pool_same(const unsigned char *b, size_t used)
{
    for (size_t i = 0; i < used; i++)
        if (pool[i] != b[i])
            return 0;
    return 1;
}

/* db (open_copy's, untouched since) kept, and checked against a second
 * open_copy of the same image; returns the connection for the first run
 * (db itself when it cannot be kept). */
static sqlite3 *keep_open(sqlite3 *db, const unsigned char *img, sqlite3_int64 size)
{
    kept_free();
    if (!pool || pool_off || atomic_load(&pool_spilled))
        return db;
    size_t used = atomic_load(&pool_used);
    long n_live = live_blocks(used, NULL);
    assert_int_equal(n_live, atomic_load(&pool_live));
    kept.live = malloc((size_t)(n_live ? n_live : 1) * sizeof *kept.live);
    kept.bytes = malloc(used ? used : 1);
    assert_true(kept.live && kept.bytes);
    live_blocks(used, kept.live);
    kept.n_live = n_live;
    kept.used = used;
    kept.db = db;
    pool_copy(kept.bytes, pool, used);
    sqlite3_close(db);
    /* the same bytes from a second open, at the same place */
    sqlite3 *again = open_copy(img, size);
    if (again != kept.db || atomic_load(&pool_used) != used || atomic_load(&pool_live) != n_live ||
        live_blocks(used, NULL) != n_live || !pool_same(kept.bytes, used))
        fail_msg("a store opened twice from the same image: not the same bytes in SQLite's pool");
    return again;
}

/* The kept store back, as open_copy left it. */
static sqlite3 *reopen(void)
{
    pool_reset();
    pool_copy(pool, kept.bytes, kept.used);
    atomic_store(&pool_used, kept.used);
    atomic_store(&pool_live, kept.n_live);
    return kept.db;
}

/* After a run: the store's rows (content()), once it has passed
 * integrity_check. A store that is byte for byte the template it started
 * from is the template, whose integrity and rows run_faults checked before
 * the sweep: its rows are `before`, returned as they are, with no query run.
 * Most faulty runs end so (refused, nothing written), and the two checks
 * cost more than the load up to an early fault under the sanitizers. */
static char *checked_content(sqlite3 *db, const unsigned char *img, sqlite3_int64 size, char *before, long n)
{
    sqlite3_int64 now_size = -1;
    /* NOCOPY: the in-memory store's own bytes, no allocation. Only with no
     * transaction left open: its changes may still be in the page cache,
     * which the queries would read and the bytes do not show. */
    const unsigned char *now = sqlite3_serialize(db, "main", &now_size, SQLITE_SERIALIZE_NOCOPY);
    if (sqlite3_txn_state(db, NULL) == SQLITE_TXN_NONE && now && now_size == size &&
        memcmp(now, img, (size_t)size) == 0)
        return before;
    if (count(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'") != 0)
        fail_msg("fault at allocation %ld: integrity_check failed", n);
    return content(db);
}

/* Which allocations fail: every one in the sanitized build (the full
 * sweep, where a fault path's memory errors show), every one of the first
 * 64 and then one in BENCHDB_OOM_STRIDE in the plain build (tests/CMakeLists.txt
 * sets 7 there), so that the quick pass still reaches every phase of a load. */
static long oom_stride(void)
{
    const char *s = getenv("BENCHDB_OOM_STRIDE");
    long k = s ? strtol(s, NULL, 10) : 1;
    return k >= 1 ? k : 1;
}

static void run_faults(const char *what, int again)
{
    if (!pool) {
        pool = mmap(NULL, POOL_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        assert_true(pool != MAP_FAILED);
        ASAN_POISON_MEMORY_REGION(pool, POOL_BYTES);
    }
    sqlite3 *db = open_copy(pristine_img, pristine_size);
    /* The reference: a load without faults, into an empty store. */
    char *text;
    int ref = load(db, -1, &text);
    if (ref != INGEST_LOADED)
        fail_msg("%s: not loaded without faults: %s", what, text);
    free(text);
    char *want = content(db);
    sqlite3_free(tmpl_img);
    if (again) { /* from now on the archive is stored already */
        tmpl_img = sqlite3_serialize(db, "main", &tmpl_size, 0);
        assert_non_null(tmpl_img);
    } else {
        tmpl_img = NULL;
    }
    sqlite3_close(db);
    const unsigned char *img = again ? tmpl_img : pristine_img;
    sqlite3_int64 size = again ? tmpl_size : pristine_size;

    long n;
    int loaded = 0, refused = 0, json_valid = 0;
    db = open_copy(img, size);
    if (count(db, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check <> 'ok'") != 0)
        fail_msg("%s: the template fails integrity_check", what);
    char *before = content(db); /* the template's, every run's start */
    sqlite3_close(db);
    long stride = oom_stride(), tried = 0, untouched = 0;
    sqlite3 *first = keep_open(open_copy(img, size), img, size);
    for (n = 0;; n = n < 64 ? n + 1 : n + stride) {
        tried++;
        db = first ? first : kept.db ? reopen() : open_copy(img, size);
        first = NULL;
        int r = load(db, n, &text);
        int hit = atomic_load(&failed);
        char *got = checked_content(db, img, size, before, n);
        if (r == (again ? INGEST_SKIPPED : INGEST_LOADED)) {
            if (strcmp(got, again ? before : want) != 0 && getenv("OOM_DUMP")) {
                FILE *a = fopen("/tmp/oom_want.txt", "w"), *b = fopen("/tmp/oom_got.txt", "w");
                fputs(again ? before : want, a);
                fputs(got, b);
                fclose(a);
                fclose(b);
            }
            if (strcmp(got, again ? before : want) != 0)
                fail_msg("fault at allocation %ld: loaded, but the rows differ from a load without faults", n);
            loaded++;
        } else {
            if (r != INGEST_FAILED && r != -1)
                fail_msg("fault at allocation %ld: result %d", n, r);
            if (hit && strstr(text, "cannot store: CHECK constraint failed: ") && strstr(text, "json_valid("))
                json_valid++;
            else if (!strstr(text, "out of memory"))
                fail_msg("fault at allocation %ld: the error does not say out of memory: %s", n, text);
            if (strcmp(got, before) != 0)
                fail_msg("fault at allocation %ld: failed, but the store changed", n);
            refused++;
        }
        if (got != before)
            free(got);
        else
            untouched++;
        free(text);
        sqlite3_close(db);
        pool_check(n);
        if (!hit)
            break; /* ran through without reaching the fault: done */
    }
    kept_free();
    print_message("%s%s: %ld of %ld allocations failed in turn (every %s; %s): %d runs recovered, %d refused "
                  "(%d by SQLite's json_valid); %ld left the store byte for byte as it was\n",
                  what, again ? ", loaded again" : "", tried, n, stride == 1 ? "one" : "one of the first 64, then a stride",
                  whole_compiles ? "inside statement compiles too" : "of a statement compile, its first", loaded,
                  refused, json_valid, untouched);
    assert_true(n > (whole_compiles ? (again ? 20 : 500) : (again ? 10 : 100)));
    free(want);
    free(before);
}

static void use(const char *path, const char *format)
{
    whole_compiles = 0;
    snprintf(archive, sizeof archive, "%s", path);
    harness_format = format;
}

static char example[512], tar_path[256], zip_path[256];

static void test_stream(void **state)
{
    (void)state;
    use(example, NULL);
    whole_compiles = 1;
    run_faults("bare stream", 0);
    run_faults("bare stream", 1);
}

static void test_tar(void **state)
{
    (void)state;
    use(tar_path, NULL);
    run_faults("plain tar", 0);
    run_faults("plain tar", 1);
}

static void test_zip(void **state)
{
    (void)state;
    use(zip_path, NULL);
    run_faults("zip", 0);
}

static void test_harness(void **state)
{
    (void)state;
    use("harness files", "*");
    run_faults("a JMH, a Google Benchmark, a hyperfine, a pyperf and a Go file into one run", 0);
}

static void test_harness2(void **state)
{
    (void)state;
    use("harness files", "rust-py-cpp");
    run_faults("a Criterion, a cargo bench, a pytest-benchmark, an asv, a Catch2 and a nanobench file into one run", 0);
}

static void test_harness_js(void **state)
{
    (void)state;
    use("harness files", "js-net");
    run_faults("a tinybench, a Vitest, a Benchmark.js, a BenchmarkDotNet, a BMF and a CSV file into one run", 0);
}

static int setup(void **state)
{
    (void)state;
    /* In memory when /dev/shm is there: thousands of commits, no disk. */
    snprintf(dir, sizeof dir, "%s/benchdb-oom.XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir))
        return -1;
    snprintf(pristine, sizeof pristine, "%s/pristine.db", dir);
    snprintf(errfile, sizeof errfile, "%s/err", dir);
    snprintf(example, sizeof example, "%s/tests/data/ingest/good/example.jsonl", TEST_SRC_DIR);
    /* The example and a run whose results record names a JMH file, in a
     * plain tar and in a zip. */
    char cmd[2048];
    snprintf(tar_path, sizeof tar_path, "%s/c.tar", dir);
    snprintf(zip_path, sizeof zip_path, "%s/c.zip", dir);
    snprintf(cmd, sizeof cmd,
             "set -e; cd %s; mkdir -p c/jmh; cp %s c/example.jsonl; cp %s/tests/data/harness/jmh/sample_mode.json c/jmh/;"
             "printf '%%s\n' '{\"record\":\"run\",\"format\":\"benchdb-run/1\",\"plan\":\"c\",\"run\":\"r\",\"host\":\"h\"}'"
             " '{\"record\":\"results\",\"format\":\"jmh\",\"block\":1,\"variant\":\"v\",\"path\":\"jmh/sample_mode.json\"}'"
             " > c/r.jsonl; (cd c && tar -cf ../c.tar example.jsonl);"
             "(cd c && python3 -c 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], \"w\", zipfile.ZIP_DEFLATED) as z:\n"
             "    [z.write(p) for p in sys.argv[2:]]' ../c.zip r.jsonl jmh/sample_mode.json)",
             dir, example, TEST_SRC_DIR);
    if (system(cmd) != 0)
        return -1;
    sqlite3 *db;
    char *err = NULL;
    if (store_open(pristine, STORE_CREATE, &db, &err))
        return -1;
    pristine_img = sqlite3_serialize(db, "main", &pristine_size, 0);
    store_close(db);
    if (!pristine_img || pristine_size < 100)
        return -1;
    /* The image of a WAL store: read and written as a rollback-journal one
     * in memory (the header's read and write versions, 2 for WAL, set to 1). */
    pristine_img[18] = pristine_img[19] = 1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[160];
    if (err_fd >= 0) {
        close(err_fd);
        close(saved_fd);
        err_fd = saved_fd = -1;
    }
    kept_free();
    sqlite3_free(pristine_img);
    sqlite3_free(tmpl_img);
    if (pool) { /* its shadow cleared first: memory mapped there later is not poisoned */
        ASAN_UNPOISON_MEMORY_REGION(pool, POOL_BYTES);
        munmap(pool, POOL_BYTES);
    }
    pool = NULL;
    const char *names[] = {"pristine.db", "pristine.db-wal", "pristine.db-shm",
                           "err", "c.tar", "c.zip", "c/jmh/sample_mode.json", "c/example.jsonl", "c/r.jsonl", "c/jmh",
                           "c"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (unlink(path) != 0)
            rmdir(path);
    }
    rmdir(dir);
    return 0;
}

int main(int argc, char **argv)
{
    /* As benchdb's main() configures SQLite (src/main.c): no allocation
     * statistics, whose process-wide mutex every malloc and free takes. */
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real);
    sqlite3_mem_methods faulty = real;
    faulty.xMalloc = faulty_malloc;
    faulty.xRealloc = faulty_realloc;
    faulty.xFree = mem_free;
    faulty.xSize = mem_size;
    sqlite3_config(SQLITE_CONFIG_MALLOC, &faulty);
    pool_off = getenv("BENCHDB_OOM_POOL") && strcmp(getenv("BENCHDB_OOM_POOL"), "0") == 0;
    lend_off = getenv("BENCHDB_OOM_LEND") && strcmp(getenv("BENCHDB_OOM_LEND"), "0") == 0;
    sqlite3_initialize(); /* its global state from SQLite's allocator, never from the pool */
    json_checked_allocator(faulty_json_malloc, free);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_tar),
        cmocka_unit_test(test_zip),
        cmocka_unit_test(test_harness),
        cmocka_unit_test(test_harness2),
        cmocka_unit_test(test_harness_js),
    };
    /* One input (stream, tar, zip, harness, rust-py-cpp, js-net) when named: ctest runs them side by side. */
    if (argc > 1) {
        static const char *const parts[] = {"stream", "tar", "zip", "harness", "rust-py-cpp", "js-net"};
        for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
            if (strcmp(argv[1], parts[i]) == 0)
                return _cmocka_run_group_tests(argv[1], &tests[i], 1, setup, teardown);
        fprintf(stderr, "usage: test_ingest_oom [stream|tar|zip|harness|rust-py-cpp|js-net]\n");
        return 2;
    }
    return cmocka_run_group_tests(tests, setup, teardown);
}
