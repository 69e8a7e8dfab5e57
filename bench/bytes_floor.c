/* What a file's bytes alone cost on this machine, by CPU time: the
 * per-byte work every harness file's ingest does whatever its format
 * (figure 3's "bound by their bytes"): the file read into memory (one
 * read into a buffer taken at its size in huge pages, as load/bundle.c
 * reads it), one
 * SHA-256 pass (util/sha256, the SHA extensions where the processor has
 * them) and the two-state pass that takes the tar's and the file's hash
 * together (sha256_update2), the zstd compression of the stored bytes
 * (level CHUNK_ZSTD_LEVEL with a checksum, in 1 MiB output pieces, as
 * sources/chunks.c does) and a memchr pass for newlines (a lower bound of
 * any scan of the text). Each the best of 5 passes.
 *
 * usage: bytes_floor FILE...
 * Prints per file: MB, then each step's CPU ms and MB/s. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "ingest/sources/chunks.h"
#include "util/hugepage.h"
#include "util/sha256.h"

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static unsigned char *slurp(const char *path, size_t *n)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return NULL;
    unsigned char *b = malloc((size_t)st.st_size + 1);
    mem_advise_huge(b, (size_t)st.st_size + 1); /* as strbuf.c does for the bundle's tar */
    size_t have = 0;
    ssize_t k;
    while (b && (k = read(fd, b + have, (size_t)st.st_size + 1 - have)) > 0)
        have += (size_t)k;
    close(fd);
    *n = have;
    return b;
}

static size_t sink; /* keeps each pass's result alive */

static void read_pass(const char *path, size_t n)
{
    (void)n;
    size_t got;
    unsigned char *b = slurp(path, &got);
    sink += got;
    free(b);
}

static void sha_pass(const unsigned char *b, size_t n)
{
    unsigned char d[32];
    struct sha256 s;
    sha256_init(&s);
    sha256_update(&s, b, n);
    sha256_final(&s, d);
    sink += d[0];
}

static void sha2_pass(const unsigned char *b, size_t n)
{
    unsigned char d[32];
    struct sha256 s, t;
    sha256_init(&s);
    sha256_init(&t);
    sha256_update2(&s, &t, b, n);
    sha256_final(&s, d);
    sink += d[0];
    sha256_final(&t, d);
    sink += d[0];
}

static ZSTD_CCtx *cctx;
static unsigned char piece[CHUNK_MAX];

static void zstd_pass(const unsigned char *b, size_t n)
{
    ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, CHUNK_ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    ZSTD_inBuffer in = {b, n, 0};
    size_t r;
    do {
        ZSTD_outBuffer out = {piece, sizeof piece, 0};
        r = ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end);
        if (ZSTD_isError(r)) {
            fprintf(stderr, "zstd: %s\n", ZSTD_getErrorName(r));
            exit(1);
        }
        sink += out.pos;
    } while (r != 0);
}

static void memchr_pass(const unsigned char *b, size_t n)
{
    const unsigned char *p = b, *end = b + n;
    size_t lines = 0;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        lines++;
        p++;
    }
    sink += lines;
}

static double best(void (*f)(const unsigned char *, size_t), const unsigned char *b, size_t n)
{
    double m = 1e9;
    for (int i = 0; i < 5; i++) {
        double t = cpu();
        f(b, n);
        t = cpu() - t;
        m = t < m ? t : m;
    }
    return m;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bytes_floor FILE...\n");
        return 2;
    }
    cctx = ZSTD_createCCtx();
    for (int i = 1; i < argc; i++) {
        size_t n;
        unsigned char *b = slurp(argv[i], &n);
        if (!b) {
            perror(argv[i]);
            return 1;
        }
        double rd = 1e9;
        for (int k = 0; k < 5; k++) {
            double t = cpu();
            read_pass(argv[i], n);
            t = cpu() - t;
            rd = t < rd ? t : rd;
        }
        struct {
            const char *what;
            double s;
        } r[] = {{"read", rd},
                 {"sha256", best(sha_pass, b, n)},
                 {"sha256 x2 (one pass)", best(sha2_pass, b, n)},
                 {"zstd", best(zstd_pass, b, n)},
                 {"memchr", best(memchr_pass, b, n)}};
        printf("%s: %.1f MB", argv[i], (double)n / 1e6);
        for (size_t k = 0; k < sizeof r / sizeof *r; k++)
            printf("; %s %.2f ms %.0f MB/s", r[k].what, r[k].s * 1e3, (double)n / r[k].s / 1e6);
        printf("\n");
        free(b);
    }
    ZSTD_freeCCtx(cctx);
    return sink == 0; /* never 0 for a non-empty file: keeps the passes from being optimised away */
}
