/* One ingest session: what a command opens once and closes at its end. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest/core/rfc3339.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/adapters.h"
#include "ingest/decoders/gbench/gbench.h"
#include "ingest/load/loader.h"
#include "ingest/sink/remove.h"
#include "ingest/core/jsonparse.h"
#include "ingest/sources/sniff.h"
#include "util/diag.h"
#include "util/text.h"

struct ingester *ingester_open(struct db *db, const struct ingest_options *opt, const struct ingest_hooks *hooks,
                               char **err)
{
    struct ingester *g = calloc(1, sizeof *g);
    if (!g) {
        bd_fail(err, "out of memory");
        return NULL;
    }
    g->pipe = &g->pipes[0];
    g->next_fd = -1;
    kept_init(&g->kept);
    pipe_worker_init(&g->workers[0]);
    pipe_worker_init(&g->workers[1]);
    g->db = db;
    g->opt = *opt;
    if (!g->opt.max_members)
        g->opt.max_members = INGEST_DEFAULT_MAX_MEMBERS;
    if (!g->opt.max_series)
        g->opt.max_series = INGEST_DEFAULT_MAX_SERIES;
    if (!g->opt.max_ratio)
        g->opt.max_ratio = INGEST_DEFAULT_MAX_RATIO;
    if (hooks)
        g->hooks = *hooks;
    g->rep.quiet = opt->notices != INGEST_NOTICES_ALL;
    g->rep.before_message = g->hooks.before_message;
    g->rep.hook_arg = g->hooks.arg;
    g->sink = sink_open(db, &g->rep, err);
    if (!g->sink) {
        pipe_worker_free(&g->workers[0]);
        pipe_worker_free(&g->workers[1]);
        kept_free(&g->kept);
        free(g);
        return NULL;
    }
    sink_set_replace(g->sink, opt->replace);
    sink_set_max_series(g->sink, g->opt.max_series);
    run_decoder_init(&g->dec, g->sink, &g->rep);
    g->dec.failures_only_ok = opt->failures_only_ok;
    json_object_seed(0); /* once, before the producer threads parse objects */
    json_checked_install();
    return g;
}

void ingester_close(struct ingester *g)
{
    if (!g)
        return;
    prefetch_cancel(g);
    free(g->next_path);
    sink_close(g->sink);
    run_decoder_free(&g->dec);
    members_clear(&g->members);
    free(g->members.v);
    idmap_free(&g->members.index);
    idmap_free(&g->beside_ids);
    sb_free(&g->beside);
    free(g->stream_dir);
    ingest_report_free(&g->rep);
    /* after prefetch_cancel: no pipeline runs on a worker or holds a context */
    pipe_worker_free(&g->workers[0]);
    pipe_worker_free(&g->workers[1]);
    kept_free(&g->kept);
    free(g);
}

void ingester_next(struct ingester *g, const char *path)
{
    free(g->next_path);
    g->next_path = path ? strdup(path) : NULL; /* out of memory: no reading ahead, nothing else */
}

enum ingest_result ingester_archive(struct ingester *g, const char *path)
{
    int is_stdin = strcmp(path, "-") == 0;
    sink_set_conflict_hint(g->sink, NULL);
    /* The next archive, if its reading began while the last was stored. */
    int ahead = g->next_started && strcmp(g->ahead_path, path) == 0;
    if (!ahead)
        prefetch_cancel(g);
    int fd;
    if (ahead) {
        g->pipe = g->pipe == &g->pipes[0] ? &g->pipes[1] : &g->pipes[0];
        g->pipe_started = 1;
        fd = g->next_fd;
        g->next_fd = -1;
        g->next_started = 0;
        free(g->ahead_path);
        g->ahead_path = NULL;
    } else {
        fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    }
    if (fd < 0) {
        free(g->next_path);
        g->next_path = NULL;
        ingest_report_before_message(&g->rep);
        bd_error("%s: cannot open: %s", path, strerror(errno));
        g->totals.failed++;
        return INGEST_FAILED;
    }
    /* next_path (ingester_next, named before this call) is read ahead while
     * this one is stored, and forgotten after it */
    enum ingest_result r = load_archive(g, path, fd, is_stdin, ahead, NULL);
    free(g->next_path);
    g->next_path = NULL;
    if (!is_stdin)
        close(fd);
    return r;
}

const struct ingest_totals *ingester_totals(const struct ingester *g)
{
    return &g->totals;
}

void ingester_live(const struct ingester *g, uint64_t *bytes, uint64_t *rows)
{
    *bytes = g->pipe_started ? atomic_load(&g->pipe->raw.bytes) : 0;
    *rows = g->totals.rows + sink_rows(g->sink);
}

/* ---- what a file holds ---- */

struct source_kept *ingest_kept_new(void)
{
    struct source_kept *k = malloc(sizeof *k);
    if (k)
        kept_init(k);
    return k;
}

void ingest_kept_free(struct source_kept *kept)
{
    if (!kept)
        return;
    kept_free(kept);
    free(kept);
}

int ingest_classify(const char *path, struct source_kept *kept, enum ingest_kind *kind, const char **harness,
                    char **err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return bd_fail(err, "cannot open: %s", strerror(errno));
    struct sniffed sn;
    int rc = sniff_fd_kept(fd, kept, &sn, err);
    close(fd);
    if (rc)
        return -1;
    *harness = kind_harness(sn.kind);
    int archive = sn.kind == KIND_RUN_STREAM || sn.kind == KIND_TAR || sn.kind == KIND_ZIP;
    *kind = *harness ? INGEST_KIND_HARNESS : archive ? INGEST_KIND_ARCHIVE : INGEST_KIND_UNKNOWN;
    if (sn.kind == KIND_CRITERION_PART)
        *kind = INGEST_KIND_COMPANION;
    return 0;
}

int ingest_walk_takes(const char *path, const char *harness)
{
    if (strcmp(harness, "criterion") != 0)
        return 1;
    /* target/criterion/NAME/new/sample.json: new/ is the latest run;
     * base/ (and any --save-baseline name) a copy of an earlier one */
    size_t n = strlen(path);
    return n >= 16 && strcmp(path + n - 16, "/new/sample.json") == 0;
}

int ingest_classify_buffer(const void *p, size_t n, enum ingest_kind *kind, const char **harness, int *compressed,
                           char **err)
{
    struct sniffed sn;
    if (sniff_buffer(p, n, &sn, err))
        return -1;
    *harness = kind_harness(sn.kind);
    int archive = sn.kind == KIND_RUN_STREAM || sn.kind == KIND_TAR || sn.kind == KIND_ZIP;
    *kind = *harness ? INGEST_KIND_HARNESS : archive ? INGEST_KIND_ARCHIVE : INGEST_KIND_UNKNOWN;
    *compressed = sn.depth > 0;
    return 0;
}

int ingest_text_check(const char *s, char *what, size_t size)
{
    size_t n = strlen(s), at = utf8_bad_at(s, n);
    if (at == n)
        return 0;
    utf8_describe(s, at, "byte", what, size);
    return -1;
}

int ingest_file_host(const char *path, char **host, char **err)
{
    *host = NULL;
    size_t len = 0;
    /* A harness file is held whole anyway (docs/formats.md, "Files"). */
    char *text = file_read_text(path, INGEST_HARNESS_PEEK_MAX, "a harness file", &len, err);
    if (!text)
        return -1;
    enum ingest_kind kind;
    const char *harness = NULL;
    int compressed = 0, rc = ingest_classify_buffer(text, len, &kind, &harness, &compressed, err);
    if (rc == 0 && harness && strcmp(harness, "google-benchmark") == 0 && !compressed)
        gbench_host_name(text, len, host);
    free(text);
    return rc;
}

int ingest_time_valid(const char *s)
{
    return rfc3339_valid(s);
}

const char *ingest_harness_at(size_t i)
{
    const struct harness *h = harness_at(i);
    return h ? h->name : NULL;
}

const char *ingest_harness_list(void)
{
    return harness_list();
}

int ingest_harness_known(const char *name)
{
    return harness_find(name) != NULL;
}

/* ---- removing ---- */

int ingest_remove(struct db *db, long long archive, const char *plan, const char *run, int dry_run,
                  struct ingest_removal *out, char **err)
{
    struct removal_target t = {archive > 0 ? REMOVE_ARCHIVE : run ? REMOVE_RUN : REMOVE_PLAN, archive, plan, run};
    struct removal r;
    int rc = remove_stored(db, &t, dry_run, &r, err);
    *out = (struct ingest_removal){r.archives, r.runs, r.series, r.samples, r.gates, r.events, r.members, r.chunks,
                                   r.plans};
    return rc;
}
