#ifndef BENCHDB_INGEST_SOURCES_CONTAINER_H
#define BENCHDB_INGEST_SOURCES_CONTAINER_H
/* Tar and zip containers, read with libarchive from decoded bytes (the
 * compression of a .tar.zst or .tgz is undone by decode.h, which counts
 * it), or (the tar load/bundle.c makes in memory) with ustar.h: one
 * regular file after another, never extracted to disk. Each
 * member's path is checked: leading '/' and "./" dropped, no climbing out
 * with "..", at most CONTAINER_PATH_MAX bytes, each path once, at most
 * max_members of them. */
#include <stdint.h>

#include "ingest/core/idmap.h"
#include "ingest/sources/blocks.h"
#include "util/strbuf.h"

#define CONTAINER_PATH_MAX 4096
#define CONTAINER_BLOCK (64u * 1024u)

struct archive;

struct container {
    uint64_t max_members;
    int checks;          /* pass 1: check paths, duplicates and the count */
    char format[8];      /* "tar" or "zip", once a member was read */
    struct strbuf path;  /* the current member's path */
    uint64_t members;    /* regular files so far */

    /* private */
    struct archive *a;
    struct blocks in;
    struct idmap seen;
    int data_eof;
    unsigned char *buf; /* zeros for a sparse member's holes, when it has any */
    /* the current member's data: the block libarchive gave and not yet
     * handed on (pend_n bytes at pend_off), and the offset handed on up to */
    const unsigned char *pend;
    size_t pend_n;
    int64_t pend_off, pos;
    int at_end;
    char *read_err; /* what went wrong reading the decoded bytes */
    /* container_open_mem: the tar, read mem_at so far; the current
     * member's name as read and its bytes (inside the tar) */
    const unsigned char *mem;
    size_t mem_len, mem_at;
    struct strbuf name;
    const unsigned char *mem_member;
    size_t mem_member_n;
    int mem_given;
};

/* Opens a container on in. checks: see above. -1 with *err. */
int container_open(struct container *c, struct blocks in, uint64_t max_members, int checks, char **err);
/* The same on a plain tar held whole in memory, the n bytes at tar (which
 * outlive c), read without libarchive (ustar.h: load/bundle.c's tar). in,
 * when in.next is not NULL, yields the same bytes (the archive as read,
 * stored and counted): it is read to its end first. A member's bytes are
 * then c->mem_member, c->mem_member_n of them, once container_next has
 * found it. */
int container_open_mem(struct container *c, struct blocks in, const unsigned char *tar, size_t n,
                       uint64_t max_members, int checks, char **err);
/* The next regular file: 1 with c->path set, 0 after the last, -1 with
 * *err set (and *err_member the member it concerns, malloc'd, or NULL). */
int container_next(struct container *c, char **err, char **err_member);
/* The current member's bytes, as libarchive holds them (no copy: a tar in
 * memory hands out pointers into that memory), a sparse member's holes as
 * zeros. */
struct blocks container_member(struct container *c);
void container_close(struct container *c);

#endif
