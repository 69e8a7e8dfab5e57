/* Harness files given on the command line, loaded into one run as one
 * archive: the files and a generated run stream naming them
 * (benchdb-run.jsonl: the run record from the command line, one results
 * record per file) are written into a tar, which is then loaded like any
 * container. The tar is made the same way every time (sorted members,
 * fixed headers), so its SHA-256, the archive's identity, changes exactly
 * when a file's bytes, its name, the format it is read as or the run it
 * goes to change: the same files into another run load again, the same
 * command twice is skipped. docs/archive-format.md. The tar is made in
 * memory (the files are held there while they load anyway), each file
 * read straight into it, and read from there: hashed once, as it is
 * written, never copied, written to a file or read back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/core/jsontext.h"
#include "ingest/core/paths.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/adapters.h"
#include "ingest/load/loader.h"
#include "ingest/sources/localfile.h"
#include "ingest/sources/sniff.h"
#include "util/diag.h"
#include "util/sha256.h"

#define MANIFEST "benchdb-run.jsonl"

/* ---- a tar written the same way every time ---- */

/* The tar and the SHA-256 of what was written to it: the archive's
 * identity, so that load_archive need not hash it before reading it (the
 * harness files' bytes were read once already, here); and each file's own
 * SHA-256 (its member's), taken in the same pass (sha256_update2), so
 * that reading the tar back need not hash the files again. */
struct tarw {
    struct strbuf tar;
    struct sha256 sha;
    struct mem_hash *files;
    size_t n_files, cap_files;
};

static int tw_write(struct tarw *w, const void *p, size_t n)
{
    if (sb_append(&w->tar, p, n))
        return -1;
    sha256_update(&w->sha, p, n);
    return 0;
}

static void octal(char *field, size_t width, unsigned long long v)
{
    snprintf(field, width, "%0*llo", (int)width - 1, v);
}

static int tar_block(struct tarw *f, const unsigned char *b)
{
    return tw_write(f, b, 512);
}

static void tar_header_fill(unsigned char *h, const char *name, unsigned long long size, char type)
{
    memset(h, 0, 512);
    snprintf((char *)h, 100, "%s", name);
    octal((char *)h + 100, 8, 0644);
    octal((char *)h + 108, 8, 0);
    octal((char *)h + 116, 8, 0);
    octal((char *)h + 124, 12, size);
    octal((char *)h + 136, 12, 0);
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

static int tar_header(struct tarw *f, const char *name, unsigned long long size, char type)
{
    unsigned char h[512];
    tar_header_fill(h, name, size, type);
    return tar_block(f, h);
}

static int tar_data(struct tarw *f, const void *p, size_t n)
{
    static const unsigned char zero[512];
    if (n && tw_write(f, p, n))
        return -1;
    size_t pad = (512 - n % 512) % 512;
    return pad && tw_write(f, zero, pad) ? -1 : 0;
}

/* A path longer than ustar's 100 bytes goes in a pax header before its
 * member's. */
static int tar_long_path(struct tarw *f, const char *path)
{
    size_t len = strlen(path);
    if (len < 100)
        return 0;
    /* "LEN path=PATH\n", LEN counting its own digits */
    size_t base = len + 7, total = 0;
    char num[32];
    for (size_t digits = 1; digits < 20; digits++) {
        total = base + digits;
        snprintf(num, sizeof num, "%zu", total);
        if (strlen(num) == digits)
            break;
    }
    char *rec = bd_strdupf("%s path=%s\n", num, path);
    int rc = tar_header(f, "PaxHeader", strlen(rec), 'x') || tar_data(f, rec, strlen(rec));
    free(rec);
    return rc ? -1 : 0;
}

/* A member of n bytes at p. */
static int tar_member(struct tarw *f, const char *path, const void *p, size_t n)
{
    return tar_long_path(f, path) || tar_header(f, path, n, '0') || tar_data(f, p, n) ? -1 : 0;
}

/* A member whose bytes are read straight into the tar (a harness file
 * can be large: no copy of it is made on the way): tar_file_begin leaves
 * room for the header, the caller appends the bytes to f->tar, and
 * tar_file_end writes the header in front of them and hashes both, in the
 * tar's order (nothing else is written in between). */
static int tar_file_begin(struct tarw *f, const char *path, size_t *header_at)
{
    static const unsigned char room[512];
    if (tar_long_path(f, path))
        return -1;
    *header_at = f->tar.len;
    return sb_append(&f->tar, room, sizeof room);
}

static int tar_file_end(struct tarw *f, const char *path, size_t header_at)
{
    static const unsigned char zero[512];
    unsigned char *h = (unsigned char *)f->tar.buf + header_at;
    size_t n = f->tar.len - header_at - 512, pad = (512 - n % 512) % 512;
    tar_header_fill(h, path, n, '0');
    if (f->n_files == f->cap_files) {
        size_t cap = f->cap_files ? 2 * f->cap_files : 8;
        struct mem_hash *nf = realloc(f->files, cap * sizeof *nf);
        if (!nf)
            return -1;
        f->files = nf;
        f->cap_files = cap;
    }
    struct mem_hash *mh = &f->files[f->n_files++];
    struct sha256 own;
    unsigned char d[32];
    sha256_init(&own);
    sha256_update(&f->sha, h, 512); /* the tar's blocks and the file's line up (512 bytes a header) */
    sha256_update2(&f->sha, &own, h + 512, n);
    sha256_final(&own, d);
    sha256_hex(d, mh->sha);
    mh->at = header_at + 512;
    mh->n = n;
    return pad && tw_write(f, zero, pad) ? -1 : 0;
}

static int tar_end(struct tarw *f)
{
    static const unsigned char zero[512];
    return tar_block(f, zero) || tar_block(f, zero) ? -1 : 0;
}

/* ---- the files ---- */

static int take_total(void *arg, size_t n, char **err)
{
    uint64_t *total = arg;
    *total += n;
    if (*total <= CONTAINER_KEEP_MAX)
        return 0;
    return bd_fail(err, "the files of one run hold more than %llu MiB together (the most held in memory while they load)",
                   (unsigned long long)(CONTAINER_KEEP_MAX >> 20));
}

/* Reads a whole file given on the command line ("-": standard input),
 * together with the run's other files at most CONTAINER_KEEP_MAX bytes
 * (they are held in memory while loaded). */
static int read_file(const char *path, uint64_t *total, struct strbuf *out, char **err)
{
    int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return bd_fail(err, "cannot open: %s", strerror(errno));
    struct stat st;
    int rc = 0;
    int have = fstat(fd, &st) == 0;
    if (have && S_ISDIR(st.st_mode))
        rc = bd_fail(err, "is a directory");
    /* a regular file's room taken at once (read_to_end asks for 64 KiB
     * more at each read, the last one included): no regrowth, and one
     * allocation to put in huge pages (strbuf.c) */
    if (rc == 0 && have && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= CONTAINER_KEEP_MAX &&
        sb_reserve(out, (size_t)st.st_size + 65536 + 2 * 512))
        rc = bd_fail(err, "out of memory");
    if (rc == 0)
        rc = read_to_end(fd, out, take_total, total, err);
    if (!is_stdin)
        close(fd);
    return rc;
}

/* The file at path read into the tar as member (counted with the run's
 * files); *at and *n say where its bytes are in f->tar. */
static int tar_file(struct tarw *f, const char *path, const char *member, uint64_t *total, size_t *at, size_t *n,
                    char **err)
{
    size_t h;
    if (tar_file_begin(f, member, &h))
        return bd_fail(err, "out of memory");
    if (read_file(path, total, &f->tar, err))
        return -1;
    *at = h + 512;
    *n = f->tar.len - *at;
    return tar_file_end(f, member, h) ? bd_fail(err, "out of memory") : 0;
}

/* The format a file is read as: --format, or what its content is. */
static int file_format(const struct ingest_run *run, const char *bytes, size_t n, const char **format, char **err)
{
    if (run->harness_format) {
        *format = run->harness_format;
        return 0;
    }
    struct sniffed sn;
    if (sniff_buffer((const unsigned char *)bytes, n, &sn, err))
        return -1;
    *format = kind_harness(sn.kind);
    if (*format)
        return 0;
    if (sn.kind == KIND_RUN_STREAM || sn.kind == KIND_TAR || sn.kind == KIND_ZIP)
        return bd_fail(err, "%s carries its own runs: load it without --plan, --run and --host", kind_describe(sn.kind));
    if (sn.kind == KIND_CRITERION_PART)
        return bd_fail(err, "%s: give the sample.json beside it (or the directory), which brings it along",
                       kind_describe(sn.kind));
    return bd_fail(err, "%s%s harness output benchdb reads (%s; --format reads it as one of them)",
                   utf16_note(bytes, n), sn.kind == KIND_EMPTY ? "an empty file, no" : "not", harness_list());
}

/* The files the harness writes beside f (adapters.h), as members beside
 * its member: each that exists, read (counted with the run's files). */
static int add_companions(struct tarw *tmp, const struct harness *h, const char *path, const char *member,
                          uint64_t *total, char **err)
{
    if (!h || !h->companions || strcmp(path, "-") == 0)
        return 0;
    const char *ps = strrchr(path, '/'), *ms = strrchr(member, '/');
    int pl = ps ? (int)(ps - path) + 1 : 0, ml = ms ? (int)(ms - member) + 1 : 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && h->companions[i]; i++) {
        char *p = bd_strdupf("%.*s%s", pl, path, h->companions[i]);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
            char *m = bd_strdupf("%.*s%s", ml, member, h->companions[i]);
            size_t at, n;
            rc = tar_file(tmp, p, m, total, &at, &n, err);
            free(m);
        }
        free(p);
    }
    return rc;
}

struct entry {
    const struct ingest_file *file;
    char *member;  /* files/NAME */
    const char *display;
    const char *format;
};

static int by_member(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->member, ((const struct entry *)b)->member);
}

/* The generated run stream: the run record, then a results record per file. */
static int manifest(const struct ingest_run *run, const struct entry *e, size_t n, struct strbuf *out)
{
    json_t *rec = json_pack("{s:s,s:s,s:s,s:s,s:s}", "record", "run", "format", RUN_STREAM_FORMAT, "plan", run->plan,
                            "run", run->run, "host", run->host);
    int rc = rec ? 0 : -1;
    if (rc == 0 && run->position)
        rc = json_object_set_new(rec, "position", json_integer(run->position));
    if (rc == 0 && run->source)
        rc = json_object_set_new(rec, "source", json_string(run->source));
    if (rc == 0 && run->started_at)
        rc = json_object_set_new(rec, "started_at", json_string(run->started_at));
    if (rc == 0 && run->append)
        rc = json_object_set_new(rec, "append", json_true());
    if (rc == 0 && run->n_attrs) {
        json_t *attrs = json_object();
        for (size_t i = 0; attrs && i < run->n_attrs; i++) {
            const char *eq = strchr(run->attrs[i], '=');
            char *key = strndup(run->attrs[i], eq ? (size_t)(eq - run->attrs[i]) : strlen(run->attrs[i]));
            if (!key || json_object_set_new(attrs, key, json_string(eq ? eq + 1 : "")))
                rc = -1;
            free(key);
        }
        rc = rc || !attrs || json_object_set_new(rec, "attributes", attrs) ? -1 : 0;
    }
    if (rc == 0)
        rc = json_canonical(rec, out) || sb_putc(out, '\n');
    json_decref(rec);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        /* Files of one format are the run's successive blocks, in the
         * members' order: repetitions of one harness (base_r1.json,
         * base_r2.json) load side by side instead of colliding; a
         * format of one file per benchmark (Criterion's) is one block. */
        long long nth = 0;
        const struct harness *h = harness_find(e[i].format);
        for (size_t k = 0; k < i && !(h && h->per_benchmark); k++)
            nth += strcmp(e[k].format, e[i].format) == 0;
        json_t *r = json_pack("{s:s,s:s,s:I,s:s,s:s}", "record", "results", "format", e[i].format, "block",
                              (json_int_t)(run->block + nth), "variant", run->variant, "path", e[i].member);
        rc = !r || json_canonical(r, out) || sb_putc(out, '\n') ? -1 : 0;
        json_decref(r);
    }
    return rc;
}

/* The run's names and texts, which the store keeps as text: UTF-8 without
 * NUL (the command line checks its options; this says which field when
 * a caller did not). 0, or -1 with what is wrong in what. */
static int run_text(const struct ingest_run *run, char *what, size_t size)
{
    const char *const fields[] = {"plan", "run", "host", "source", "variant"};
    const char *values[] = {run->plan, run->run, run->host, run->source, run->variant};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        size_t n = values[i] ? strlen(values[i]) : 0, at = values[i] ? utf8_bad_at(values[i], n) : 0;
        if (at < n) {
            char d[96];
            utf8_describe(values[i], at, "byte", d, sizeof d);
            snprintf(what, size, "the run's %s %s", fields[i], d);
            return -1;
        }
    }
    for (size_t i = 0; i < run->n_attrs; i++) {
        size_t n = strlen(run->attrs[i]), at = utf8_bad_at(run->attrs[i], n);
        if (at < n) {
            char d[96];
            utf8_describe(run->attrs[i], at, "byte", d, sizeof d);
            snprintf(what, size, "the run's attribute %zu (KEY=VALUE) %s", i + 1, d);
            return -1;
        }
    }
    return 0;
}

static enum ingest_result refuse(struct ingester *g, const char *where, const char *what)
{
    g->rep.file = where;
    ingest_report_fail(&g->rep, NULL, "%s", what);
    ingest_report_print_error(&g->rep);
    ingest_report_reset(&g->rep);
    g->totals.failed++;
    return INGEST_FAILED;
}

enum ingest_result ingester_files(struct ingester *g, const struct ingest_run *run, const struct ingest_file *files,
                                  size_t n, const char *shown)
{
    prefetch_cancel(g);
    struct entry *e = calloc(n ? n : 1, sizeof *e);
    struct tarw tw = {0};
    struct tarw *tmp = &tw;
    sha256_init(&tw.sha);
    struct strbuf text = {0};
    const char **paths = calloc(n ? n : 1, sizeof *paths), **displays = calloc(n ? n : 1, sizeof *displays);
    char *err = NULL;
    enum ingest_result r = INGEST_FAILED;
    if (!e || !paths || !displays) {
        r = refuse(g, shown, "out of memory");
        goto out;
    }
    char what[256];
    if (run_text(run, what, sizeof what)) {
        r = refuse(g, shown, what);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        e[i].file = &files[i];
        e[i].display = strcmp(files[i].path, "-") == 0 ? "<stdin>" : files[i].path;
        size_t len = strlen(files[i].name), at = utf8_bad_at(files[i].name, len);
        if (at < len) { /* the archive keeps it as a member's path, which is text */
            char d[96];
            utf8_describe(files[i].name, at, "byte", d, sizeof d);
            snprintf(what, sizeof what, "its name %s, which the archive keeps the file under: rename the file", d);
            r = refuse(g, e[i].display, what);
            goto out;
        }
        /* a member named like a run stream would be read as one */
        int streamlike = strstr(files[i].name, ".jsonl") != NULL;
        e[i].member = bd_strdupf("files/%s%s", files[i].name, streamlike ? ".file" : "");
    }
    qsort(e, n, sizeof *e, by_member);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && strcmp(e[i].member, e[i - 1].member) == 0) {
            r = refuse(g, e[i].display, "given twice (or under the same name as another file)");
            goto out;
        }
        size_t at, len;
        if (tar_file(tmp, e[i].file->path, e[i].member, &total, &at, &len, &err) ||
            file_format(run, tw.tar.buf + at, len, &e[i].format, &err)) {
            r = refuse(g, e[i].display, err);
            goto out;
        }
        if (add_companions(tmp, harness_find(e[i].format), e[i].file->path, e[i].member, &total, &err)) {
            r = refuse(g, e[i].display, err);
            goto out;
        }
        paths[i] = e[i].member;
        displays[i] = e[i].display;
    }
    if (manifest(run, e, n, &text)) {
        r = refuse(g, shown, "out of memory");
        goto out;
    }
    if (tar_member(tmp, MANIFEST, text.buf, text.len) || tar_end(tmp)) {
        r = refuse(g, shown, "out of memory");
        goto out;
    }
    g->bundle_paths = paths;
    g->bundle_displays = displays;
    g->n_bundle = n;
    g->bundle_detected = run->harness_format == NULL;
    sink_set_conflict_hint(g->sink, run->append        ? NULL
                                    : run->stored_hint ? run->stored_hint
                                                       : "; to add these files to it, pass --append");
    unsigned char digest[32];
    sha256_final(&tw.sha, digest);
    sha256_hex(digest, g->bundle_sha);
    g->bundle_tar = (const unsigned char *)tw.tar.buf;
    g->bundle_tar_len = tw.tar.len;
    g->bundle_known = tw.files;
    g->n_bundle_known = tw.n_files;
    r = load_archive(g, shown, -1, 0, 0, shown);
    g->bundle_tar = NULL;
    g->bundle_tar_len = 0;
    g->bundle_known = NULL;
    g->n_bundle_known = 0;
    g->bundle_sha[0] = 0;
    g->bundle_paths = g->bundle_displays = NULL;
    g->n_bundle = 0;
    g->bundle_detected = 0;
out:
    for (size_t i = 0; e && i < n; i++)
        free(e[i].member);
    free(e);
    free(paths);
    free(displays);
    free(err);
    sb_free(&text);
    sb_free(&tw.tar);
    free(tw.files);
    return r;
}
