/* Harness files as samples of a run: the results record of benchdb-run/1
 * (a file beside the stream, a member of the same container, or inline
 * data) and --format on a bare file, whose run comes from the command
 * line. docs/archive-format.md, docs/formats.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/chunks.h"
#include "ingest/format.h"
#include "ingest/formats.h"
#include "ingest/loader.h"
#include "util/diag.h"
#include "util/sha256.h"

/* Joins dir and a relative path, resolving "." and ".." lexically into
 * out; -1 when path is absolute or climbs above the top. */
int ingest_join_path(const char *dir, const char *path, struct strbuf *out)
{
    sb_reset(out);
    if (path[0] == '/')
        return -1;
    struct strbuf all = {0};
    if ((dir && *dir && (sb_puts(&all, dir) || sb_putc(&all, '/'))) || sb_puts(&all, path)) {
        sb_free(&all);
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *part = strtok_r(all.buf, "/", &save); part && rc == 0; part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0)
            continue;
        if (strcmp(part, "..") == 0) {
            size_t k = out->len;
            while (k > 0 && out->buf[k - 1] != '/')
                k--;
            if (!out->len)
                rc = -1;
            else
                out->len = k ? k - 1 : 0;
            if (out->buf)
                out->buf[out->len] = 0;
            continue;
        }
        if ((out->len && sb_putc(out, '/')) || sb_puts(out, part))
            rc = -1;
    }
    sb_free(&all);
    return rc == 0 && out->len ? 0 : -1;
}

/* Reads a whole file (at most limit bytes). */
static int slurp_fd(int fd, uint64_t limit, struct strbuf *out, char **err)
{
    char buf[65536];
    ssize_t k;
    while ((k = read(fd, buf, sizeof buf)) != 0) {
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return bd_fail(err, "cannot read: %s", strerror(errno));
        }
        if (out->len + (size_t)k > limit)
            return bd_fail(err, "more than %llu bytes (--max-bytes)", (unsigned long long)limit);
        if (sb_append(out, buf, (size_t)k))
            return bd_fail(err, "out of memory");
    }
    return 0;
}

static void sha_hex(const void *p, size_t n, char hex[65])
{
    struct sha256 h;
    unsigned char d[32];
    sha256_init(&h);
    sha256_update(&h, p, n);
    sha256_final(&h, d);
    sha256_hex(d, hex);
}

/* The archive_member row of a file beside the stream, once per path. */
static int beside_member(struct ingester *g, const char *path, const void *bytes, size_t n, int64_t *id)
{
    int64_t *hit = idmap_get(&g->members, path, strlen(path));
    if (hit) {
        *id = *hit;
        return 0;
    }
    char hex[65];
    sha_hex(bytes, n, hex);
    sqlite3_stmt *st = g->st[S_MEMBER_INSERT];
    sqlite3_bind_int64(st, 1, g->archive_id);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, hex, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)n);
    if (ingest_step(g, st))
        return -1;
    *id = sqlite3_last_insert_rowid(g->db);
    if (idmap_put(&g->members, path, strlen(path), *id))
        return ingest_fail(g, NULL, "out of memory");
    return 0;
}

static void ctx_free(struct fmt_ctx *c)
{
    sb_free(&c->field);
    sb_free(&c->params);
    sb_free(&c->detail);
}

int ingest_results_record(struct ingester *g, json_t *rec)
{
    const char *format, *variant, *path;
    long long block = 0;
    int has;
    if (ingest_get_name(g, rec, "results", "format", 1, &format))
        return -1;
    const struct fmt_adapter *a = fmt_find(format);
    if (!a) {
        char expected[96];
        snprintf(expected, sizeof expected, "one of %s", fmt_names);
        return ingest_wrong(g, "results", "format", expected, json_object_get(rec, "format"));
    }
    if (ingest_get_int(g, rec, "results", "block", 1, 1, &block, &has) ||
        ingest_get_name(g, rec, "results", "variant", 1, &variant) ||
        ingest_get_name(g, rec, "results", "path", 0, &path))
        return -1;
    json_t *data = json_object_get(rec, "data");
    if (json_is_null(data))
        data = NULL;
    if (!path == !data)
        return ingest_fail(g, "results", "expected either \"path\" or \"data\" (one of the two)");

    struct fmt_ctx c = {.g = g, .block = block, .variant = variant};
    struct strbuf where = {0}, full = {0}, bytes = {0};
    int rc = 0;
    if (data) {
        c.prefix = "results.data";
        if (json_is_string(data))
            rc = fmt_ingest(&c, a, (const unsigned char *)json_string_value(data), json_string_length(data), NULL);
        else if (a->json)
            rc = fmt_ingest(&c, a, NULL, 0, data);
        else
            rc = ingest_wrong(g, "results", "data", "a string (the go-bench text)", data);
        ctx_free(&c);
        return rc;
    }
    const unsigned char *buf = NULL;
    size_t len = 0;
    int64_t member = 0;
    if (g->member_get) {
        /* In a container: a member, relative to the stream's directory. */
        if (ingest_join_path(g->stream_dir, path, &full)) {
            rc = ingest_wrong(g, "results", "path", "a relative path that stays inside the container",
                              json_object_get(rec, "path"));
        } else {
            int found = g->member_get(g->member_arg, full.buf, &buf, &len, &member);
            if (found == 0)
                rc = ingest_fail(g, "results.path", "no member \"%s\" in this container", full.buf);
            else if (found < 0)
                rc = -1;
        }
    } else {
        /* A file beside the stream (standard input: beside the working directory). */
        const char *slash = strcmp(g->shown, "<stdin>") == 0 ? NULL : strrchr(g->shown, '/');
        struct strbuf dir = {0};
        if (slash)
            sb_append(&dir, g->shown, (size_t)(slash - g->shown));
        if (path[0] == '/' || !dir.buf)
            sb_puts(&full, path);
        else
            sb_printf(&full, "%s/%s", dir.buf, path);
        sb_free(&dir);
        char *err = NULL;
        FILE *f = fopen(full.buf, "rb");
        if (!f) {
            rc = ingest_fail(g, "results.path", "cannot open \"%s\": %s", full.buf, strerror(errno));
        } else {
            if (slurp_fd(fileno(f), g->opt.max_bytes, &bytes, &err))
                rc = ingest_fail(g, "results.path", "\"%s\": %s", full.buf, err);
            fclose(f);
            free(err);
            buf = (const unsigned char *)(bytes.buf ? bytes.buf : "");
            len = bytes.len;
            /* recorded as written, relative to the stream */
            struct strbuf rel = {0};
            if (rc == 0)
                rc = beside_member(g, ingest_join_path(NULL, path, &rel) ? path : rel.buf, buf, len, &member);
            sb_free(&rel);
        }
    }
    if (rc == 0) {
        sb_printf(&where, "results[%s]", path);
        c.prefix = where.buf;
        g->member_id = member;
        rc = fmt_ingest(&c, a, buf, len, NULL);
        g->member_id = 0;
    }
    ctx_free(&c);
    sb_free(&where);
    sb_free(&full);
    sb_free(&bytes);
    return rc;
}

/* ---- --format on a bare file ---- */

static int emit(void *arg, unsigned char *buf, size_t len, char **err)
{
    struct ingester *g = arg;
    int rc = ingest_chunk(g, buf, len);
    free(buf);
    return rc ? bd_fail(err, "%s", g->err ? g->err : "cannot store") : 0;
}

/* Stores bytes as the archive's chunks: zstd-compressed unless they
 * already are zstd. *stored is the number of bytes kept. */
static int store_bytes(struct ingester *g, const unsigned char *p, size_t n, int *compressed, uint64_t *stored)
{
    struct chunk_writer w;
    char *err = NULL;
    if (chunks_init(&w, emit, g, &err)) {
        free(err);
        return ingest_fail(g, NULL, "out of memory");
    }
    *compressed = !(n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd);
    chunks_begin(&w, *compressed);
    int rc = chunks_write(&w, p, n, &err) || chunks_finish(&w, &err) ? -1 : 0;
    *stored = w.stored;
    chunks_free(&w);
    if (rc && !g->err)
        ingest_fail(g, NULL, "%s", err ? err : "cannot store");
    free(err);
    return rc;
}

int load_foreign(struct ingester *g, int fd, const char *path, const char *sha, uint64_t size)
{
    const struct fmt_adapter *a = g->foreign;
    struct strbuf bytes = {0};
    char *err = NULL;
    if (size > g->opt.max_bytes || slurp_fd(fd, g->opt.max_bytes, &bytes, &err)) {
        ingest_fail(g, NULL, "%s", err ? err : "larger than --max-bytes");
        free(err);
        sb_free(&bytes);
        return -1;
    }
    const unsigned char *buf = (const unsigned char *)(bytes.buf ? bytes.buf : "");
    char hex[65];
    sha_hex(buf, bytes.len, hex);
    int compressed = 0;
    uint64_t stored = 0;
    int rc = 0;
    if (strcmp(hex, sha) != 0 || bytes.len != size)
        rc = ingest_fail(g, NULL, "changed while being read (its SHA-256 differs between two reads)");
    if (rc == 0)
        rc = ingest_archive_row(g, path, sha, a->name);
    if (rc == 0)
        rc = store_bytes(g, buf, bytes.len, &compressed, &stored);
    g->line = 0;
    if (rc == 0)
        rc = ingest_record(g, g->foreign_run);
    if (rc == 0) {
        struct fmt_ctx c = {.g = g, .block = g->foreign_block, .variant = g->foreign_variant};
        rc = fmt_ingest(&c, a, buf, bytes.len, NULL);
        ctx_free(&c);
    }
    if (rc == 0)
        rc = ingest_archive_done(g, sha, size, compressed, stored);
    sb_free(&bytes);
    return rc;
}

const char ingest_format_names[] = "jmh, google-benchmark, hyperfine, pyperf, go-bench";

int ingest_format_known(const char *name)
{
    return fmt_find(name) != NULL;
}

enum ingest_result ingester_foreign(struct ingester *g, const char *path, const struct ingest_foreign *f)
{
    json_t *run = json_pack("{s:s,s:s,s:s,s:s,s:s}", "record", "run", "format", ARCHIVE_FORMAT, "plan", f->plan,
                            "run", f->run, "host", f->host);
    json_t *attrs = json_object();
    if (!run || !attrs) {
        json_decref(run);
        json_decref(attrs);
        bd_error("out of memory");
        return INGEST_FAILED;
    }
    if (f->position)
        json_object_set_new(run, "position", json_integer(f->position));
    for (size_t i = 0; i < f->n_attrs; i++) {
        const char *eq = strchr(f->attrs[i], '=');
        char *key = strndup(f->attrs[i], eq ? (size_t)(eq - f->attrs[i]) : strlen(f->attrs[i]));
        if (key)
            json_object_set_new(attrs, key, json_string(eq ? eq + 1 : ""));
        free(key);
    }
    json_object_set_new(run, "attributes", attrs);
    g->foreign = fmt_find(f->format);
    g->foreign_run = run;
    g->foreign_block = f->block;
    g->foreign_variant = f->variant;
    enum ingest_result r = g->foreign ? ingester_archive(g, path) : INGEST_FAILED;
    g->foreign = NULL;
    g->foreign_run = NULL;
    json_decref(run);
    return r;
}
