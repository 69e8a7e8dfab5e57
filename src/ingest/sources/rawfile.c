#include "ingest/sources/rawfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/diag.h"

/* The buffer for reading fd, at most `most` bytes: a regular file's
 * size and one byte (which sees the end) when that is less, so that a
 * small archive costs a small buffer (under AddressSanitizer a block of
 * 128 KB or more is mapped and unmapped on its own: the allocation sweep
 * of tests/unit/test_ingest_oom.c paid that for every run). A file that
 * grows meanwhile is read whole all the same, by more reads. */
static size_t buffer_size(int fd, size_t most)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 && (uint64_t)st.st_size < most - 4096)
        return (size_t)st.st_size + 4096;
    return most;
}

int rawfile_init(struct rawfile *r, int fd, rawfile_tee_fn tee, void *tee_arg)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->tee = tee;
    r->tee_arg = tee_arg;
    atomic_init(&r->bytes, 0);
    sha256_init(&r->sha);
    r->hashing = 1;
    r->cap = buffer_size(fd, RAWFILE_BLOCK);
    r->buf = malloc(r->cap);
    return r->buf ? 0 : -1;
}

int rawfile_init_mem(struct rawfile *r, const void *p, size_t n, rawfile_tee_fn tee, void *tee_arg)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->tee = tee;
    r->tee_arg = tee_arg;
    atomic_init(&r->bytes, 0);
    sha256_init(&r->sha);
    r->hashing = 1;
    r->mem = p ? p : (const void *)"";
    r->mem_len = n;
    return 0;
}

void rawfile_free(struct rawfile *r)
{
    free(r->buf);
    r->buf = NULL;
}

/* One read() into buf + have: bytes read, 0 at the end, -1 on error. */
static ssize_t read_some(struct rawfile *r, size_t have, char **err)
{
    ssize_t k;
    do
        k = read(r->fd, r->buf + have, r->cap - have);
    while (k < 0 && errno == EINTR);
    if (k < 0)
        return bd_fail(err, "read error: %s", strerror(errno));
    if (k == 0)
        r->eof = 1;
    return k;
}

/* The rest of a buffer in memory as one block, pointing into it: a
 * container's members then lie whole in the block libarchive reads, which
 * hands out pointers to them instead of copying the ones cut across two
 * blocks. */
static size_t next_mem(struct rawfile *r, const unsigned char **b)
{
    size_t have = r->mem_len - r->mem_at;
    *b = r->mem + r->mem_at;
    r->mem_at += have;
    r->eof = r->mem_at == r->mem_len;
    return have;
}

static int next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct rawfile *r = self;
    const unsigned char *b = r->buf;
    size_t have = r->mem ? next_mem(r, &b) : 0;
    /* The first block: at least 4 bytes (the zstd magic) unless the file is shorter. */
    int first = atomic_load(&r->bytes) == 0;
    while (!r->mem && !r->eof && (have == 0 || (first && have < 4))) {
        ssize_t k = read_some(r, have, err);
        if (k < 0)
            return -1;
        have += (size_t)k;
    }
    if (have == 0)
        return 0;
    if (r->hashing)
        sha256_update(&r->sha, b, have);
    atomic_fetch_add(&r->bytes, have);
    if (r->tee && r->tee(r->tee_arg, b, have, err))
        return -1;
    *p = b;
    *n = have;
    return 1;
}

struct blocks rawfile_blocks(struct rawfile *r)
{
    return (struct blocks){next, r};
}

int rawfile_drain(struct rawfile *r, char **err)
{
    while (r->mem && !r->eof) {
        const unsigned char *b;
        size_t k = next_mem(r, &b);
        if (r->hashing)
            sha256_update(&r->sha, b, k);
        atomic_fetch_add(&r->bytes, (uint64_t)k);
    }
    while (!r->eof) {
        ssize_t k = read_some(r, 0, err);
        if (k < 0)
            return -1;
        sha256_update(&r->sha, r->buf, (size_t)k);
        atomic_fetch_add(&r->bytes, (uint64_t)k);
    }
    return 0;
}

void rawfile_digest(struct rawfile *r, char hex[65])
{
    unsigned char d[32];
    sha256_final(&r->sha, d);
    sha256_hex(d, hex);
}

int hash_fd(int fd, char hex[65], uint64_t *size, char **err)
{
    size_t BUF = buffer_size(fd, 1u << 20);
    unsigned char *buf = malloc(BUF);
    if (!buf)
        return bd_fail(err, "out of memory");
    struct sha256 s;
    sha256_init(&s);
    uint64_t total = 0;
    for (;;) {
        ssize_t n = read(fd, buf, BUF);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(buf);
            return bd_fail(err, "read error: %s", strerror(errno));
        }
        if (n == 0)
            break;
        sha256_update(&s, buf, (size_t)n);
        total += (uint64_t)n;
    }
    free(buf);
    unsigned char d[32];
    sha256_final(&s, d);
    sha256_hex(d, hex);
    *size = total;
    return 0;
}
