/* Streaming reader: raw bytes -> hash + sink -> zstd -> lines. */
#include "ingest/reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/diag.h"

static const unsigned char zstd_magic[4] = {0x28, 0xB5, 0x2F, 0xFD};

int reader_init(struct reader *r, int fd, uint64_t max_line, uint64_t max_bytes,
                reader_sink_fn sink, void *sink_arg)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->max_line = max_line;
    r->max_bytes = max_bytes;
    r->sink = sink;
    r->sink_arg = sink_arg;
    sha256_init(&r->sha);
    r->in = malloc(READER_IN_SIZE);
    return r->in ? 0 : -1;
}

void reader_free(struct reader *r)
{
    free(r->in);
    free(r->out);
    ZSTD_freeDCtx(r->dctx);
    sb_free(&r->line);
    r->in = r->out = NULL;
    r->dctx = NULL;
}

/* Appends what one read() gives to the raw buffer: returns the number of
 * bytes read (0 at the end), or -1 with *err set. */
static ssize_t read_raw(struct reader *r, char **err)
{
    if (r->eof)
        return 0;
    if (r->in_pos == r->in_len)
        r->in_pos = r->in_len = 0;
    ssize_t n;
    do
        n = read(r->fd, r->in + r->in_len, READER_IN_SIZE - r->in_len);
    while (n < 0 && errno == EINTR);
    if (n < 0)
        return bd_fail(err, "read error: %s", strerror(errno));
    if (n == 0) {
        r->eof = 1;
        return 0;
    }
    sha256_update(&r->sha, r->in + r->in_len, (size_t)n);
    r->raw_bytes += (uint64_t)n;
    if (r->sinking && r->sink(r->sink_arg, r->in + r->in_len, (size_t)n, err))
        return -1;
    r->in_len += (size_t)n;
    return n;
}

static int start(struct reader *r, char **err)
{
    r->started = 1;
    while (r->in_len < sizeof zstd_magic && !r->eof)
        if (read_raw(r, err) < 0)
            return -1;
    if (r->in_len >= sizeof zstd_magic && memcmp(r->in, zstd_magic, sizeof zstd_magic) == 0) {
        r->zstd = 1;
        r->dctx = ZSTD_createDCtx();
        r->out = malloc(ZSTD_DStreamOutSize());
        if (!r->dctx || !r->out)
            return bd_fail(err, "out of memory");
    }
    /* The sink sees the first bytes only now, when r->zstd is known. */
    r->sinking = r->sink != NULL;
    if (r->sinking && r->in_len > 0 && r->sink(r->sink_arg, r->in, r->in_len, err))
        return -1;
    return 0;
}

static int count_data(struct reader *r, size_t n, char **err)
{
    r->data_bytes += n;
    if (r->data_bytes > r->max_bytes)
        return bd_fail(err, "more than %llu bytes of data%s (the limit; raise it with --max-bytes)",
                       (unsigned long long)r->max_bytes, r->zstd ? " after decompression" : "");
    return 0;
}

/* Makes new data available: 1 when there is some, 0 at the end, -1 on error. */
static int fill_data(struct reader *r, char **err)
{
    if (!r->started && start(r, err))
        return -1;
    if (!r->zstd) {
        if (r->in_pos == r->in_len && read_raw(r, err) < 0)
            return -1;
        if (r->in_pos == r->in_len)
            return 0;
        r->data = r->in + r->in_pos;
        r->data_pos = 0;
        r->data_len = r->in_len - r->in_pos;
        r->in_pos = r->in_len;
        return count_data(r, r->data_len, err) ? -1 : 1;
    }
    size_t outsize = ZSTD_DStreamOutSize();
    for (;;) {
        if (r->in_pos == r->in_len && !r->zflush) {
            if (r->eof) {
                if (r->zret != 0)
                    return bd_fail(err, "truncated zstd stream: the last frame ends early, after %llu bytes",
                                   (unsigned long long)r->raw_bytes);
                return 0;
            }
            if (read_raw(r, err) < 0)
                return -1;
            continue;
        }
        ZSTD_inBuffer ib = {r->in, r->in_len, r->in_pos};
        ZSTD_outBuffer ob = {r->out, outsize, 0};
        r->zret = ZSTD_decompressStream(r->dctx, &ob, &ib);
        if (ZSTD_isError(r->zret))
            return bd_fail(err, "corrupt zstd stream (%s) within the first %llu bytes",
                           ZSTD_getErrorName(r->zret), (unsigned long long)r->raw_bytes);
        r->in_pos = ib.pos;
        r->zflush = ob.pos == ob.size && r->zret != 0; /* 0: the frame is complete and flushed */
        if (ob.pos > 0) {
            r->data = r->out;
            r->data_pos = 0;
            r->data_len = ob.pos;
            return count_data(r, ob.pos, err) ? -1 : 1;
        }
    }
}

static int too_long(struct reader *r, char **err, uint64_t *err_line)
{
    *err_line = r->lineno + 1;
    return bd_fail(err, "line longer than %llu bytes (the limit; raise it with --max-line-bytes)",
                   (unsigned long long)r->max_line);
}

/* Sets the line out of p[0..n), without a trailing '\r'. */
static int finish_line(struct reader *r, const char *p, size_t n, const char **line, size_t *len,
                       char **err, uint64_t *err_line)
{
    if (n > 0 && p[n - 1] == '\r')
        n--;
    if (n > r->max_line)
        return too_long(r, err, err_line);
    r->lineno++;
    *line = p;
    *len = n;
    return 1;
}

int reader_next_line(struct reader *r, const char **line, size_t *len, char **err, uint64_t *err_line)
{
    *err_line = 0;
    sb_reset(&r->line);
    int partial = 0;
    for (;;) {
        if (r->data_pos == r->data_len) {
            int rc = fill_data(r, err);
            if (rc < 0)
                return -1;
            if (rc == 0)
                return partial ? finish_line(r, r->line.buf, r->line.len, line, len, err, err_line) : 0;
        }
        const unsigned char *p = r->data + r->data_pos;
        size_t avail = r->data_len - r->data_pos;
        const unsigned char *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        /* Never hold more than the limit (plus a '\r'), whatever the line. */
        if ((uint64_t)r->line.len + take > r->max_line + 1)
            return too_long(r, err, err_line);
        r->data_pos += take + (nl ? 1 : 0);
        if (nl && !partial) /* the whole line is in the buffer: no copy */
            return finish_line(r, (const char *)p, take, line, len, err, err_line);
        if (sb_append(&r->line, p, take))
            return bd_fail(err, "out of memory");
        partial = 1;
        if (nl)
            return finish_line(r, r->line.buf, r->line.len, line, len, err, err_line);
    }
}

int reader_drain(struct reader *r, char **err)
{
    r->sinking = 0;
    r->zstd = 0; /* only the hash is wanted now: no decompression */
    r->in_pos = r->in_len = 0;
    while (!r->eof) {
        if (read_raw(r, err) < 0)
            return -1;
        r->in_pos = r->in_len;
    }
    return 0;
}

void reader_digest(struct reader *r, char hex[65])
{
    unsigned char d[32];
    sha256_final(&r->sha, d);
    sha256_hex(d, hex);
}

int hash_fd(int fd, char hex[65], uint64_t *size, char **err)
{
    enum { BUF = 1 << 20 };
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
