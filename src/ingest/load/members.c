/* Where a results record's file comes from: a member of the same
 * container (kept in memory by pass 1), or a file beside a bare stream on
 * disk, which must stay inside the stream's directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/paths.h"
#include "ingest/decoders/run/fields.h"
#include "ingest/load/loader.h"
#include "ingest/sources/localfile.h"
#include "util/sha256.h"

void members_clear(struct members *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->v[i].path);
        if (!m->v[i].lent)
            free(m->v[i].data);
        free(m->v[i].display);
    }
    m->n = 0;
    idmap_clear(&m->index);
}

int members_add(struct ingester *g, struct pipe_item *it)
{
    struct members *m = &g->members;
    if (m->n == m->cap) {
        size_t ncap = m->cap ? 2 * m->cap : 64;
        struct member *nv = realloc(m->v, ncap * sizeof *nv);
        if (!nv)
            return ingest_report_oom(&g->rep);
        m->v = nv;
        m->cap = ncap;
    }
    struct member *x = &m->v[m->n];
    memset(x, 0, sizeof *x);
    if (sink_member(g->sink, it->text, it->sha, it->n, &x->id))
        return -1;
    if (idmap_put(&m->index, it->text, strlen(it->text), (int64_t)m->n))
        return ingest_report_oom(&g->rep);
    x->path = it->text;
    it->text = NULL;
    x->kept = (it->flags & MEMBER_KEPT) != 0;
    x->stream = (it->flags & MEMBER_STREAM) != 0;
    x->lent = (it->flags & MEMBER_LENT) != 0;
    x->data = it->buf;
    it->buf = NULL;
    x->len = it->n;
    m->n++;
    /* bundle_paths are in byte order (bundle.c sorts them): a binary
     * search, not a pass over every file for every member */
    size_t lo = 0, hi = g->bundle ? g->n_bundle : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(g->bundle_paths[mid], x->path);
        if (cmp == 0) /* gcc -fanalyzer reads a leak: x is m->v's, freed with it */
            return (x->display = strdup(g->bundle_displays[mid])) ? 0 : ingest_report_oom(&g->rep);
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* ---- in a container ---- */

static int member_get(void *arg, const char *path, struct run_file *out)
{
    struct ingester *g = arg;
    struct strbuf full = {0};
    if (path_join_inside(g->stream_dir, path, &full)) {
        sb_free(&full);
        json_t *v = json_string(path);
        int rc = !v ? ingest_report_oom(&g->rep) : run_wrong(&g->dec, "results", "path", "a relative path that stays inside the container", v);
        json_decref(v);
        return rc;
    }
    int64_t *ix = idmap_get(&g->members.index, full.buf, full.len);
    if (!ix) {
        ingest_report_fail(&g->rep, "results.path", "no member \"%s\" in this container", full.buf);
        sb_free(&full);
        return -1;
    }
    sb_free(&full);
    struct member *m = &g->members.v[*ix];
    if (!m->kept)
        return ingest_report_fail(&g->rep, "results.path",
                           "member \"%s\" is %s, which is not kept in memory (run streams are not; other members up "
                           "to %llu MiB together)",
                           m->path, m->stream ? "a run stream" : "too large",
                           (unsigned long long)(CONTAINER_KEEP_MAX >> 20));
    out->bytes = m->data ? m->data : (const unsigned char *)"";
    out->len = m->len;
    out->member_id = m->id;
    out->display = m->display;
    out->detected = g->bundle_detected && m->display != NULL;
    return 1;
}

struct run_files members_files(struct ingester *g)
{
    return (struct run_files){member_get, g};
}

/* ---- beside a bare stream ---- */

static int beside_get(void *arg, const char *path, struct run_file *out)
{
    struct ingester *g = arg;
    char *err = NULL;
    struct strbuf rel = {0};
    sb_reset(&g->beside);
    if (path_join_inside(NULL, path, &rel)) {
        sb_free(&rel);
        json_t *v = json_string(path);
        int rc = !v ? ingest_report_oom(&g->rep) : run_wrong(&g->dec, "results", "path", "a relative path that stays inside the stream's directory", v);
        json_decref(v);
        return rc;
    }
    int rc = localfile_read(g->stream_dir, rel.buf, &g->pipe->budget, &g->beside, &err);
    if (rc) {
        ingest_report_fail(&g->rep, "results.path", "%s", err ? err : "cannot read");
        free(err);
        sb_free(&rel);
        return -1;
    }
    /* recorded once per path, as written relative to the stream */
    int64_t *id = idmap_get(&g->beside_ids, rel.buf, rel.len);
    int64_t member = id ? *id : 0;
    if (!id) {
        char hex[65];
        sha256_hex_of(g->beside.buf ? g->beside.buf : "", g->beside.len, hex);
        if (sink_member(g->sink, rel.buf, hex, g->beside.len, &member) ||
            (idmap_put(&g->beside_ids, rel.buf, rel.len, member) && ingest_report_oom(&g->rep))) {
            sb_free(&rel);
            return -1;
        }
    }
    sb_free(&rel);
    out->bytes = (const unsigned char *)(g->beside.buf ? g->beside.buf : "");
    out->len = g->beside.len;
    out->member_id = member;
    out->display = NULL;
    return 1;
}

struct run_files beside_files(struct ingester *g)
{
    return (struct run_files){beside_get, g};
}
