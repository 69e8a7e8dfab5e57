#include "ingest/sources/container.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/paths.h"
#include "ingest/core/utf8.h"
#include "ingest/sources/la.h"
#include "ingest/sources/ustar.h"
#include "util/diag.h"

static la_ssize_t container_read(struct archive *a, void *arg, const void **buf)
{
    struct container *c = arg;
    const unsigned char *p;
    size_t n;
    char *err = NULL;
    int rc = blocks_next(c->in, &p, &n, &err);
    if (rc < 0) {
        archive_set_error(a, EIO, "%s", err ? err : "read error");
        free(c->read_err); /* said as it is, not as libarchive's */
        c->read_err = err;
        return -1;
    }
    if (rc == 0)
        return 0;
    *buf = p;
    return (la_ssize_t)n;
}

int container_open(struct container *c, struct blocks in, uint64_t max_members, int checks, char **err)
{
    memset(c, 0, sizeof *c);
    c->in = in;
    c->max_members = max_members;
    c->checks = checks;
    if (la_load(err))
        return -1;
    c->a = archive_read_new();
    if (!c->a)
        return bd_fail(err, "out of memory");
    archive_read_support_format_tar(c->a);
    archive_read_support_format_gnutar(c->a);
    archive_read_support_format_zip(c->a);
    if (archive_read_open(c->a, c, NULL, container_read, NULL) != ARCHIVE_OK)
        return c->read_err ? bd_fail(err, "%s", c->read_err)
                           : bd_fail(err, "not a tar or zip archive: %s", archive_error_string(c->a));
    return 0;
}

int container_open_mem(struct container *c, struct blocks in, const unsigned char *tar, size_t n,
                       uint64_t max_members, int checks, char **err)
{
    memset(c, 0, sizeof *c);
    c->max_members = max_members;
    c->checks = checks;
    c->mem = tar;
    c->mem_len = n;
    /* in's bytes are the tar's: read through for what reading them does
     * (the stored chunks, the budget), then parsed where they lie */
    uint64_t seen = 0;
    const unsigned char *b;
    size_t k;
    int got = 0;
    while (in.next && (got = blocks_next(in, &b, &k, err)) > 0)
        seen += k;
    if (in.next && got < 0)
        return -1;
    if (in.next && seen != n)
        return bd_fail(err, "changed while being read (%llu bytes, not %zu)", (unsigned long long)seen, n);
    return 0;
}

static int member_fail(char **err, char **err_member, const char *member, const char *what)
{
    if (err_member)
        *err_member = member ? strdup(member) : NULL;
    return bd_fail(err, "%s", what);
}

/* The member named name becomes the current one: its path checked (in
 * pass 1) and kept in c->path. 1, or -1 with *err. */
static int take_member(struct container *c, const char *name, char **err, char **err_member)
{
    c->data_eof = c->at_end = 0;
    c->pend_n = 0;
    c->pend_off = c->pos = 0;
    if (!name)
        return member_fail(err, err_member, NULL, "a member without a readable path");
    size_t len = strlen(name);
    if (c->checks && len > CONTAINER_PATH_MAX) {
        char shown[64];
        snprintf(shown, sizeof shown, "%.40s...", name);
        char *what = bd_strdupf("a member path of %zu bytes, more than the %d a path may have", len,
                                CONTAINER_PATH_MAX);
        member_fail(err, err_member, shown, what);
        free(what);
        return -1;
    }
    while (*name == '/')
        name++;
    if (path_join_inside(NULL, name, &c->path))
        return member_fail(err, err_member, name, "a member path that climbs out of the container");
    c->members++;
    if (!c->checks)
        return 1;
    /* The path is kept as text (archive_member.path): UTF-8, as the
     * store's text is (docs/archive-format.md). */
    size_t bad = utf8_bad_at(c->path.buf, c->path.len);
    if (bad < c->path.len) {
        char what[96], *msg;
        utf8_describe(c->path.buf, bad, "byte", what, sizeof what);
        msg = bd_strdupf("the member's path %s", what);
        member_fail(err, err_member, c->path.buf, msg ? msg : "out of memory");
        free(msg);
        return -1;
    }
    if (idmap_get(&c->seen, c->path.buf, c->path.len))
        return member_fail(err, err_member, c->path.buf, "the path appears twice in the container");
    if (c->members > c->max_members)
        return bd_fail(err, "more than %llu members (--max-members)", (unsigned long long)c->max_members);
    if (idmap_put(&c->seen, c->path.buf, c->path.len, 1))
        return bd_fail(err, "out of memory");
    return 1;
}

/* The next regular file of a tar in memory (ustar.h). */
static int mem_next(struct container *c, char **err, char **err_member)
{
    for (;;) {
        struct ustar_entry e;
        int r = ustar_next(c->mem, c->mem_len, &c->mem_at, &e, err);
        if (r <= 0)
            return r;
        snprintf(c->format, sizeof c->format, "tar");
        if (e.type != '0')
            continue;
        c->name.len = 0;
        if (sb_append(&c->name, e.name, e.name_len) || sb_putc(&c->name, 0))
            return bd_fail(err, "out of memory");
        c->mem_member = e.data;
        c->mem_member_n = e.size;
        c->mem_given = 0;
        /* a NUL inside a pax path ends it, as libarchive reads it */
        return take_member(c, c->name.buf, err, err_member);
    }
}

int container_next(struct container *c, char **err, char **err_member)
{
    struct archive_entry *e;
    if (err_member)
        *err_member = NULL;
    if (c->mem)
        return mem_next(c, err, err_member);
    for (;;) {
        int r = archive_read_next_header(c->a, &e);
        if (r == ARCHIVE_EOF)
            return 0;
        if (r != ARCHIVE_OK && r != ARCHIVE_WARN)
            return c->read_err ? bd_fail(err, "%s", c->read_err)
                               : bd_fail(err, "cannot read the container: %s", archive_error_string(c->a));
        int zip = (archive_format(c->a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP;
        snprintf(c->format, sizeof c->format, "%s", zip ? "zip" : "tar");
        if (archive_entry_filetype(e) != AE_IFREG)
            continue;
        return take_member(c, archive_entry_pathname(e), err, err_member);
    }
}

/* archive_read_data's output (holes as zeros, in order), without its copy
 * into a buffer of ours: the blocks libarchive gives, as they are. */
static int member_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    struct container *c = self;
    for (;;) {
        if (c->data_eof)
            return 0;
        if (c->pend_n == 0 && !c->at_end) {
            const void *b = NULL;
            size_t k = 0;
            la_int64_t off = 0;
            int r = archive_read_data_block(c->a, &b, &k, &off);
            if (r == ARCHIVE_EOF) {
                c->at_end = 1;
                k = 0; /* off: the member's end, past a trailing hole */
            } else if (r < ARCHIVE_OK) {
                return c->read_err ? bd_fail(err, "%s", c->read_err)
                                   : bd_fail(err, "cannot read: %s", archive_error_string(c->a));
            }
            c->pend = b;
            c->pend_n = k;
            c->pend_off = off;
            if (off < c->pos)
                return bd_fail(err, "cannot read: out-of-order sparse blocks");
        }
        if (c->pend_off > c->pos) { /* a hole: zeros */
            if (!c->buf && !(c->buf = calloc(1, CONTAINER_BLOCK)))
                return bd_fail(err, "out of memory");
            int64_t gap = c->pend_off - c->pos;
            *p = c->buf;
            *n = gap < (int64_t)CONTAINER_BLOCK ? (size_t)gap : CONTAINER_BLOCK;
            c->pos += (int64_t)*n;
            return 1;
        }
        if (c->pend_n) {
            *p = c->pend;
            *n = c->pend_n;
            c->pos += (int64_t)c->pend_n;
            c->pend_off += (int64_t)c->pend_n;
            c->pend_n = 0;
            return 1;
        }
        if (c->at_end)
            c->data_eof = 1;
    }
}

/* A member of a tar in memory: its bytes, as one block. */
static int mem_member_next(void *self, const unsigned char **p, size_t *n, char **err)
{
    (void)err;
    struct container *c = self;
    if (c->mem_given || c->mem_member_n == 0)
        return 0;
    c->mem_given = 1;
    *p = c->mem_member;
    *n = c->mem_member_n;
    return 1;
}

struct blocks container_member(struct container *c)
{
    return (struct blocks){c->mem ? mem_member_next : member_next, c};
}

void container_close(struct container *c)
{
    if (c->a)
        archive_read_free(c->a);
    c->a = NULL;
    idmap_free(&c->seen);
    sb_free(&c->path);
    sb_free(&c->name);
    free(c->buf);
    c->buf = NULL;
    free(c->read_err);
    c->read_err = NULL;
}
