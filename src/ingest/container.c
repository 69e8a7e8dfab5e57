/* Tar and zip containers (plain or gzip, zstd, xz, bzip2 compressed), read
 * with libarchive as streams, never extracted to disk. Two passes over the
 * file: the first stores its bytes as chunks, hashes every member, records
 * it in archive_member and keeps in memory the members that are not run
 * streams (for results records, up to CONTAINER_BUFFER bytes together);
 * the second reads each run stream (*.jsonl, *.jsonl.zst) record by
 * record. docs/archive-format.md. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "ingest/chunks.h"
#include "ingest/loader.h"
#include "util/diag.h"
#include "util/sha256.h"

#define CONTAINER_BUFFER (256ull << 20) /* member bytes kept for results records */
#define CONTAINER_IN (256u * 1024u)

struct member {
    char *path;
    int64_t id;
    char sha[65];
    uint64_t size;
    unsigned char *data; /* when kept */
    int kept, stream;
};

struct container {
    struct ingester *g;
    int fd;
    struct member *m;
    size_t n, cap;
    uint64_t kept_bytes, data_bytes;
    unsigned char *in;
    struct chunk_writer w;
    int chunking;
    struct sha256 raw;
    uint64_t raw_bytes;
    /* the run stream being read */
    struct archive *outer;
    struct sha256 msha;
    unsigned char *mbuf;
};

static int has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

int container_sniff(int fd)
{
    unsigned char b[512];
    ssize_t n = pread(fd, b, sizeof b, 0);
    if (n < 4)
        return 0;
    if ((b[0] == 0x1f && b[1] == 0x8b) || memcmp(b, "PK\x03\x04", 4) == 0 || memcmp(b, "PK\x05\x06", 4) == 0 ||
        (n >= 6 && memcmp(b, "\xfd" "7zXZ\0", 6) == 0) || memcmp(b, "BZh", 3) == 0)
        return 1;
    if (n >= 262 && memcmp(b + 257, "ustar", 5) == 0)
        return 1;
    if (!(b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd))
        return 0;
    /* zstd: a tar when its first 512 bytes decompress to a tar header (a
     * zstd block gives output only once whole: up to 128 KiB of input). */
    unsigned char in[16384], out[512];
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (!d)
        return 0;
    ZSTD_outBuffer ob = {out, sizeof out, 0};
    off_t off = 0;
    int bad = 0;
    while (!bad && ob.pos < ob.size && off < (1 << 20)) {
        ssize_t k = pread(fd, in, sizeof in, off);
        if (k <= 0)
            break;
        off += k;
        ZSTD_inBuffer ib = {in, (size_t)k, 0};
        while (ob.pos < ob.size && ib.pos < ib.size) {
            size_t r = ZSTD_decompressStream(d, &ob, &ib);
            if (ZSTD_isError(r) || r == 0) {
                bad = 1;
                break;
            }
        }
    }
    ZSTD_freeDCtx(d);
    return ob.pos >= 262 && memcmp(out + 257, "ustar", 5) == 0;
}

/* ---- pass 1: bytes, members ---- */

static la_ssize_t raw_read(struct archive *a, void *arg, const void **buf)
{
    struct container *c = arg;
    ssize_t k;
    do
        k = read(c->fd, c->in, CONTAINER_IN);
    while (k < 0 && errno == EINTR);
    if (k < 0) {
        archive_set_error(a, errno, "read error: %s", strerror(errno));
        return -1;
    }
    if (c->chunking && k > 0) {
        char *err = NULL;
        sha256_update(&c->raw, c->in, (size_t)k);
        c->raw_bytes += (uint64_t)k;
        if (chunks_write(&c->w, c->in, (size_t)k, &err)) {
            archive_set_error(a, EIO, "%s", err ? err : "cannot store");
            free(err);
            return -1;
        }
    }
    *buf = c->in;
    return k;
}

static int emit(void *arg, unsigned char *buf, size_t len, char **err)
{
    struct ingester *g = arg;
    int rc = ingest_chunk(g, buf, len);
    free(buf);
    return rc ? bd_fail(err, "%s", g->err ? g->err : "cannot store") : 0;
}

static int member_fail(struct container *c, const char *path, const char *fmt, const char *what)
{
    struct ingester *g = c->g;
    free(g->err_member);
    g->err_member = strdup(path);
    return ingest_fail(g, NULL, fmt, what);
}

static struct member *find(struct container *c, const char *path)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->m[i].path, path) == 0)
            return &c->m[i];
    return NULL;
}

static int read_member(struct container *c, struct archive *a, struct member *m)
{
    struct ingester *g = c->g;
    struct sha256 h;
    sha256_init(&h);
    struct strbuf keep = {0};
    int keeping = !m->stream;
    char buf[65536];
    la_ssize_t k;
    while ((k = archive_read_data(a, buf, sizeof buf)) > 0) {
        sha256_update(&h, buf, (size_t)k);
        m->size += (uint64_t)k;
        c->data_bytes += (uint64_t)k;
        if (c->data_bytes > g->opt.max_bytes) {
            sb_free(&keep);
            char lim[32];
            snprintf(lim, sizeof lim, "%llu", (unsigned long long)g->opt.max_bytes);
            return member_fail(c, m->path, "the container holds more than %s bytes after decompression "
                                           "(--max-bytes)", lim);
        }
        if (keeping && c->kept_bytes + keep.len + (uint64_t)k > CONTAINER_BUFFER) {
            keeping = 0; /* too large to keep: a results record naming it is refused */
            sb_free(&keep);
        }
        if (keeping && sb_append(&keep, buf, (size_t)k)) {
            sb_free(&keep);
            return ingest_fail(g, NULL, "out of memory");
        }
    }
    if (k < 0) {
        sb_free(&keep);
        return member_fail(c, m->path, "cannot read: %s", archive_error_string(a));
    }
    unsigned char d[32];
    sha256_final(&h, d);
    sha256_hex(d, m->sha);
    if (keeping) {
        m->kept = 1;
        m->data = keep.buf ? (unsigned char *)sb_detach(&keep) : NULL;
        c->kept_bytes += m->size;
    }
    sqlite3_stmt *st = g->st[S_MEMBER_INSERT];
    sqlite3_bind_int64(st, 1, g->archive_id);
    sqlite3_bind_text(st, 2, m->path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, m->sha, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)m->size);
    if (ingest_step(g, st))
        return -1;
    m->id = sqlite3_last_insert_rowid(g->db);
    g->here.rows++;
    return 0;
}

/* The archive's format column: tar or zip, with the compression. */
static void format_name(struct archive *a, char *out, size_t n)
{
    int zip = (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP;
    const char *filter = archive_filter_count(a) > 1 ? archive_filter_name(a, 0) : NULL;
    snprintf(out, n, "%s%s%s", zip ? "zip" : "tar", filter ? "+" : "", filter ? filter : "");
}

static struct archive *open_reader(void)
{
    struct archive *a = archive_read_new();
    if (a) {
        archive_read_support_filter_all(a);
        archive_read_support_format_tar(a);
        archive_read_support_format_gnutar(a);
        archive_read_support_format_zip(a);
    }
    return a;
}

static int pass_members(struct container *c, const char *sha, uint64_t size)
{
    struct ingester *g = c->g;
    uint64_t max_members = g->opt.max_members ? g->opt.max_members : INGEST_DEFAULT_MAX_MEMBERS;
    struct archive *a = open_reader();
    if (!a)
        return ingest_fail(g, NULL, "out of memory");
    struct archive_entry *e;
    struct strbuf path = {0};
    char fmt[64] = "tar";
    int rc = 0, r;
    if (archive_read_open(a, c, NULL, raw_read, NULL) != ARCHIVE_OK) {
        rc = ingest_fail(g, NULL, "not a tar or zip archive: %s", archive_error_string(a));
        goto out;
    }
    while (rc == 0 && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        format_name(a, fmt, sizeof fmt);
        if (archive_entry_filetype(e) != AE_IFREG)
            continue;
        const char *name = archive_entry_pathname(e);
        while (name && *name == '/')
            name++;
        if (!name || ingest_join_path(NULL, name, &path)) {
            rc = member_fail(c, name ? name : "?", "%s", "a member path that climbs out of the container");
            break;
        }
        if (find(c, path.buf)) {
            rc = member_fail(c, path.buf, "%s", "the path appears twice in the container");
            break;
        }
        if (c->n == max_members) {
            char lim[32];
            snprintf(lim, sizeof lim, "%llu", (unsigned long long)max_members);
            rc = ingest_fail(g, NULL, "more than %s members (--max-members)", lim);
            break;
        }
        if (c->n == c->cap) {
            size_t ncap = c->cap ? 2 * c->cap : 16;
            struct member *nm = realloc(c->m, ncap * sizeof *nm);
            if (!nm) {
                rc = ingest_fail(g, NULL, "out of memory");
                break;
            }
            c->m = nm;
            c->cap = ncap;
        }
        struct member *m = &c->m[c->n];
        memset(m, 0, sizeof *m);
        m->path = strdup(path.buf);
        if (!m->path) {
            rc = ingest_fail(g, NULL, "out of memory");
            break;
        }
        c->n++;
        m->stream = has_suffix(m->path, ".jsonl") || has_suffix(m->path, ".jsonl.zst");
        if (read_member(c, a, m))
            rc = -1;
        else if (idmap_put(&g->members, m->path, strlen(m->path), m->id))
            rc = ingest_fail(g, NULL, "out of memory");
    }
    if (rc == 0 && r != ARCHIVE_EOF)
        rc = ingest_fail(g, NULL, "cannot read the container: %s", archive_error_string(a));
    /* The rest of the file (zip directory, tar padding) is stored too. */
    const void *rest;
    la_ssize_t k = 0;
    while (rc == 0 && (k = raw_read(a, c, &rest)) > 0)
        ;
    if (rc == 0 && k < 0)
        rc = ingest_fail(g, NULL, "%s", archive_error_string(a));
    if (rc == 0) {
        char *err = NULL;
        if (chunks_finish(&c->w, &err))
            rc = ingest_fail(g, NULL, "%s", err ? err : "cannot store");
        free(err);
    }
    if (rc == 0) {
        unsigned char d[32];
        char hex[65];
        sha256_final(&c->raw, d);
        sha256_hex(d, hex);
        if (strcmp(hex, sha) != 0 || c->raw_bytes != size)
            rc = ingest_fail(g, NULL, "changed while being read (its SHA-256 differs between two reads)");
    }
    if (rc == 0) {
        sqlite3_stmt *st = g->st[S_ARCHIVE_SET_FORMAT];
        sqlite3_bind_text(st, 1, fmt, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, g->archive_id);
        rc = ingest_step(g, st);
    }
out:
    sb_free(&path);
    archive_read_free(a);
    return rc;
}

/* ---- pass 2: the run streams ---- */

static int member_get(void *arg, const char *path, const unsigned char **buf, size_t *len, int64_t *id)
{
    struct container *c = arg;
    struct member *m = find(c, path);
    if (!m)
        return 0;
    if (!m->kept) {
        char lim[32];
        snprintf(lim, sizeof lim, "%llu MiB", (unsigned long long)(CONTAINER_BUFFER >> 20));
        return ingest_fail(c->g, "results.path", "member \"%s\" is %s, which is not kept in memory (run streams "
                                                 "are not; other members up to %s together)",
                           path, m->stream ? "a run stream" : "too large", lim);
    }
    *buf = m->data ? m->data : (const unsigned char *)"";
    *len = m->size;
    *id = m->id;
    return 1;
}

/* The stream member's bytes, from the container, hashed on the way. */
static la_ssize_t member_read(struct archive *b, void *arg, const void **buf)
{
    struct container *c = arg;
    la_ssize_t k = archive_read_data(c->outer, c->mbuf, CONTAINER_IN);
    if (k < 0) {
        archive_set_error(b, EIO, "%s", archive_error_string(c->outer));
        return -1;
    }
    sha256_update(&c->msha, c->mbuf, (size_t)k);
    *buf = c->mbuf;
    return k;
}

/* jansson quotes the offending bytes: shown as \xNN to keep one line. */
static void json_error_line(struct ingester *g, const json_error_t *je)
{
    char text[4 * sizeof je->text];
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)je->text; *p; p++) {
        if (*p < 0x20 || *p >= 0x7f)
            k += (size_t)snprintf(text + k, sizeof text - k, "\\x%02x", *p);
        else
            text[k++] = (char)*p;
    }
    text[k] = 0;
    ingest_fail(g, NULL, "invalid JSON at column %d: %s", je->column, text);
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

static int one_line(struct container *c, struct strbuf *line)
{
    struct ingester *g = c->g;
    g->line++;
    size_t n = line->len;
    if (n && line->buf[n - 1] == '\r')
        n--;
    if (is_blank(line->buf ? line->buf : "", n))
        return 0;
    json_error_t je;
    json_t *rec = json_loadb(line->buf, n, JSON_REJECT_DUPLICATES, &je);
    if (!rec) {
        json_error_line(g, &je);
        return -1;
    }
    int rc = ingest_record(g, rec);
    json_decref(rec);
    return rc;
}

static int read_stream(struct container *c, struct archive *a, struct member *m)
{
    struct ingester *g = c->g;
    struct archive *b = archive_read_new();
    if (!b)
        return ingest_fail(g, NULL, "out of memory");
    archive_read_support_filter_all(b);
    archive_read_support_format_raw(b);
    archive_read_support_format_empty(b);
    c->outer = a;
    sha256_init(&c->msha);
    free(g->err_member);
    g->err_member = strdup(m->path);
    g->line = 0;
    g->run_id = 0; /* each stream opens its own runs */
    struct strbuf dir = {0}, line = {0};
    const char *slash = strrchr(m->path, '/');
    sb_append(&dir, m->path, slash ? (size_t)(slash - m->path) : 0);
    sb_putc(&dir, 0);
    g->stream_dir = dir.buf;
    g->member_get = member_get;
    g->member_arg = c;
    struct archive_entry *e;
    int rc = 0;
    uint64_t data = 0;
    if (archive_read_open(b, c, NULL, member_read, NULL) != ARCHIVE_OK) {
        rc = ingest_fail(g, NULL, "cannot read: %s", archive_error_string(b));
    } else if (archive_read_next_header(b, &e) == ARCHIVE_OK) {
        char buf[65536];
        la_ssize_t k;
        while (rc == 0 && (k = archive_read_data(b, buf, sizeof buf)) > 0) {
            data += (uint64_t)k;
            for (la_ssize_t i = 0; rc == 0 && i < k;) {
                const char *nl = memchr(buf + i, '\n', (size_t)(k - i));
                size_t take = nl ? (size_t)(nl - (buf + i)) : (size_t)(k - i);
                if (line.len + take > g->opt.max_line_bytes) {
                    g->line++;
                    char lim[32];
                    snprintf(lim, sizeof lim, "%llu", (unsigned long long)g->opt.max_line_bytes);
                    rc = ingest_fail(g, NULL, "line longer than %s bytes (--max-line-bytes)", lim);
                    break;
                }
                if (sb_append(&line, buf + i, take)) {
                    rc = ingest_fail(g, NULL, "out of memory");
                    break;
                }
                i += (la_ssize_t)take;
                if (nl) {
                    i++;
                    rc = one_line(c, &line);
                    sb_reset(&line);
                }
            }
        }
        if (rc == 0 && k < 0) {
            g->line = 0;
            rc = ingest_fail(g, NULL, "cannot read: %s", archive_error_string(b));
        }
        if (rc == 0 && line.len)
            rc = one_line(c, &line);
    }
    if (rc == 0) {
        /* whatever the raw reader left unread still belongs to the member */
        char rest[4096];
        while (archive_read_data(a, rest, sizeof rest) > 0)
            ;
        g->line = 0;
        if (g->run_id == 0)
            rc = ingest_fail(g, NULL, "no run record (a run stream holds one or more runs, each opened by a run "
                                      "record)");
    }
    (void)data;
    archive_read_free(b);
    if (rc == 0) {
        unsigned char d[32];
        char hex[65];
        sha256_final(&c->msha, d);
        sha256_hex(d, hex);
        if (strcmp(hex, m->sha) != 0)
            rc = ingest_fail(g, NULL, "changed while being read (its SHA-256 differs between two reads)");
    }
    g->stream_dir = NULL;
    g->member_get = NULL;
    sb_free(&dir);
    sb_free(&line);
    if (rc == 0) {
        free(g->err_member);
        g->err_member = NULL;
    }
    return rc;
}

static int pass_streams(struct container *c)
{
    struct ingester *g = c->g;
    if (lseek(c->fd, 0, SEEK_SET) != 0)
        return ingest_fail(g, NULL, "cannot seek: %s", strerror(errno));
    struct archive *a = open_reader();
    if (!a)
        return ingest_fail(g, NULL, "out of memory");
    c->chunking = 0;
    struct archive_entry *e;
    size_t i = 0, streams = 0;
    int rc = 0, r;
    if (archive_read_open(a, c, NULL, raw_read, NULL) != ARCHIVE_OK)
        rc = ingest_fail(g, NULL, "cannot read the container: %s", archive_error_string(a));
    while (rc == 0 && i < c->n && (r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        if (archive_entry_filetype(e) != AE_IFREG)
            continue;
        struct member *m = &c->m[i++];
        if (!m->stream)
            continue;
        streams++;
        rc = read_stream(c, a, m);
    }
    if (rc == 0 && i < c->n)
        rc = ingest_fail(g, NULL, "changed while being read (fewer members on the second read)");
    if (rc == 0 && streams == 0)
        rc = ingest_fail(g, NULL, "no run stream (a member named *.jsonl or *.jsonl.zst) in this container");
    archive_read_free(a);
    return rc;
}

int load_container(struct ingester *g, int fd, const char *path, const char *sha, uint64_t size)
{
    struct container c = {.g = g, .fd = fd, .chunking = 1};
    char *err = NULL;
    c.in = malloc(CONTAINER_IN);
    c.mbuf = malloc(CONTAINER_IN);
    if (!c.in || !c.mbuf || chunks_init(&c.w, emit, g, &err)) {
        free(c.in);
        free(c.mbuf);
        free(err);
        return ingest_fail(g, NULL, "out of memory");
    }
    /* A compressed container (gzip, zstd, xz, bzip2, zip) is kept as it is;
     * a plain tar is compressed with zstd. */
    unsigned char head[512];
    ssize_t hn = pread(fd, head, sizeof head, 0);
    int plain = hn >= 262 && memcmp(head + 257, "ustar", 5) == 0;
    chunks_begin(&c.w, plain);
    sha256_init(&c.raw);
    int rc = ingest_archive_row(g, path, sha, "tar");
    if (rc == 0)
        rc = pass_members(&c, sha, size);
    if (rc == 0)
        rc = pass_streams(&c);
    if (rc == 0)
        rc = ingest_archive_done(g, sha, size, plain, c.w.stored);
    for (size_t i = 0; i < c.n; i++) {
        free(c.m[i].path);
        free(c.m[i].data);
    }
    free(c.m);
    free(c.in);
    free(c.mbuf);
    chunks_free(&c.w);
    return rc;
}
