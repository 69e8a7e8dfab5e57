/* One archive = one transaction. The archive's pipeline (a producer
 * thread) reads, hashes and parses it; this side hands each item to the
 * sink or to the record decoder and decides loaded, skipped or failed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/core/utf8.h"
#include "ingest/decoders/adapters.h"
#include "ingest/load/loader.h"
#include "store/dialect.h"
#include "util/diag.h"
#include "util/test_hold.h"

/* Why a file of this kind is not loaded as an archive. */
static int refuse_kind(struct ingester *g, enum content_kind k, int is_stdin)
{
    const char *harness = kind_harness(k);
    if (harness)
        return ingest_report_fail(&g->rep, NULL, "holds %s, which carry no run: load them with --plan P --run R --host H",
                           kind_describe(k));
    if (is_stdin && (k == KIND_TAR || k == KIND_ZIP))
        return ingest_report_fail(&g->rep, NULL, "holds %s: a container is read from a regular file, not standard input",
                           kind_describe(k));
    return ingest_report_fail(&g->rep, NULL, "not a format benchdb reads: expected a benchdb-run/1 stream (JSON Lines, "
                                      "optionally compressed), a tar or zip holding them, or harness output (%s) "
                                      "with --plan, --run and --host",
                       harness_list());
}

static void notice_skip(struct ingester *g, const char *sha, int64_t id, const char *name)
{
    ingest_report_notice(&g->rep, "%s: skipped: already stored as archive %lld \"%s\" (sha256 %.12s...)", g->shown,
                  (long long)id, name ? name : "?", sha);
}

/* 1 (and a notice) when an archive with this hash is stored, 0 when not,
 * -1 on a store error. */
static int stored_already(struct ingester *g, const char *sha)
{
    int64_t id = 0;
    char *name = NULL;
    int found = sink_find_archive(g->sink, sha, &id, &name);
    if (found > 0)
        notice_skip(g, sha, id, name);
    free(name);
    return found;
}

/* The archive's format as stored: a container's, or a bare run stream's. */
static const char *archive_format(struct ingester *g, const char *first_sha)
{
    return first_sha && pipe_job_for(g->pipe->sniffed.kind) == JOB_CONTAINER ? "tar" : RUN_STREAM_FORMAT;
}

/* In the transaction: the archive's lock, then its look-up, as
 * stored_already; where the store does both with the archive's row in one
 * call (sink_archive_open), so. */
static int lock_and_look_up(struct ingester *g, const char *sha, const char *name)
{
    int64_t id = 0;
    char *stored = NULL;
    int found = sink_archive_open(g->sink, sha, name, archive_format(g, sha), &id, &stored);
    if (found == 2)
        return sink_lock_archive(g->sink, sha) ? -1 : stored_already(g, sha);
    if (found > 0)
        notice_skip(g, sha, id, stored);
    free(stored);
    return found;
}

/* After an error in a stream read once (a pipe): reads the rest to learn
 * its hash; an archive already stored is skipped, not refused, whatever
 * its content would say now (e.g. its runs conflict with themselves). */
static int stored_anyway(struct ingester *g)
{
    if (!g->pipe_started)
        return 0;
    pipeline_stop(g->pipe); /* the reader is ours again */
    char sha[65], *err = NULL;
    if (g->pipe->sha[0]) {
        memcpy(sha, g->pipe->sha, sizeof sha);
    } else {
        if (rawfile_drain(&g->pipe->raw, &err)) {
            free(err);
            return 0;
        }
        rawfile_digest(&g->pipe->raw, sha);
    }
    /* the first error stays: the look-up's own is dropped */
    char *saved = g->rep.err, *saved_member = g->rep.err_member;
    uint64_t saved_line = g->rep.err_line;
    g->rep.err = g->rep.err_member = NULL;
    int found = stored_already(g, sha);
    free(g->rep.err);
    free(g->rep.err_member);
    g->rep.err = saved;
    g->rep.err_member = saved_member;
    g->rep.err_line = saved_line;
    return found > 0;
}

/* The items of the archive, after its row is inserted: 0 read to its end,
 * -1 failed. */
static int consume(struct ingester *g, int *reader_failed)
{
    int rc = 0;
    for (;;) {
        struct pipe_item it;
        pipeline_next(g->pipe, &it);
        enum pipe_kind kind = it.kind;
        switch (kind) {
        case PIPE_RECORD:
            g->rep.line = g->bundle ? 0 : it.line; /* a bundle's run stream is benchdb's, not the user's */
            json_doc_hold(&it.doc);
            rc = run_decoder_record(&g->dec, it.doc.root);
            break;
        case PIPE_CHUNK: rc = sink_chunk(g->sink, it.buf, it.size); break;
        case PIPE_MEMBER: rc = members_add(g, &it); break;
        case PIPE_MEMBERS_DONE:
            rc = sink_archive_format(g->sink, g->bundle ? "files" : g->pipe->container_format);
            break;
        case PIPE_STREAM: {
            struct members *m = &g->members;
            int64_t *ix = idmap_get(&m->index, it.text, strlen(it.text));
            free(g->stream_dir);
            const char *slash = strrchr(it.text, '/');
            g->stream_dir = slash ? strndup(it.text, (size_t)(slash - it.text)) : strdup("");
            g->rep.member = ix && !g->bundle ? m->v[*ix].path : NULL;
            g->rep.line = 0;
            g->streams++;
            run_decoder_stream(&g->dec);
            rc = !g->stream_dir ? ingest_report_oom(&g->rep)
                 : ix             ? sink_member_format(g->sink, m->v[*ix].id, RUN_STREAM_FORMAT)
                                  : 0;
            break;
        }
        case PIPE_STREAM_END:
            g->rep.line = 0;
            rc = run_decoder_stream_end(&g->dec);
            if (rc == 0)
                g->rep.member = NULL;
            break;
        case PIPE_ERROR: {
            *reader_failed = (it.flags & ERROR_READING) != 0;
            if (it.flags & ERROR_KIND) {
                g->rep.line = 0;
                rc = refuse_kind(g, it.content, 1);
                break;
            }
            g->rep.line = it.line;
            struct members *m = &g->members;
            int64_t *ix = it.member ? idmap_get(&m->index, it.member, strlen(it.member)) : NULL;
            if (ix && m->v[*ix].display) {
                g->rep.member = NULL;
                rc = ingest_report_fail(&g->rep, NULL, "%s", it.text ? it.text : "read error");
                ingest_report_blame_file(&g->rep, m->v[*ix].display);
            } else {
                const char *was = g->rep.member;
                g->rep.member = it.member && !g->bundle ? it.member : was;
                rc = ingest_report_fail(&g->rep, NULL, "%s", it.text ? it.text : "read error");
                g->rep.member = was;
            }
            break;
        }
        case PIPE_HASHED:
        case PIPE_END: break;
        }
        pipeline_release(g->pipe, &it);
        if (rc)
            return -1;
        if (kind == PIPE_ERROR)
            return -1;
        if (kind == PIPE_END)
            return 0;
        if (g->hooks.progress)
            g->hooks.progress(g->hooks.arg);
    }
}

/* ---- reading ahead: the next archive of the list ---- */

static struct pipeline *other_pipe(struct ingester *g)
{
    return g->pipe == &g->pipes[0] ? &g->pipes[1] : &g->pipes[0];
}

static struct pipe_worker *worker_of(struct ingester *g, const struct pipeline *p)
{
    return &g->workers[p == &g->pipes[0] ? 0 : 1];
}

static struct pipe_limits limits(const struct ingester *g)
{
    return (struct pipe_limits){g->opt.max_line_bytes, g->opt.max_bytes, g->opt.max_members, g->opt.max_ratio,
                                INGEST_RATIO_FREE};
}


void prefetch_cancel(struct ingester *g)
{
    if (!g->next_started)
        return;
    pipeline_free(other_pipe(g));
    close(g->next_fd);
    g->next_fd = -1;
    g->next_started = 0;
    free(g->ahead_path);
    g->ahead_path = NULL;
}

/* Starts hashing and reading the next archive on the other pipeline, if it
 * is a regular file (anything else is opened in its turn, as ever). */
static void prefetch(struct ingester *g)
{
    if (g->next_started || !g->next_path || strcmp(g->next_path, "-") == 0)
        return;
    /* O_NONBLOCK: opening a FIFO waits for its writer, which must not
     * hold up the archive being stored (and its write lock); a regular
     * file reads the same with it */
    int fd = open(g->next_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat sb;
    if (fd < 0)
        return;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return;
    }
    char *perr = NULL;
    struct pipe_limits lim = limits(g);
    if (pipeline_start(other_pipe(g), fd, &lim, 1, &g->kept, worker_of(g, other_pipe(g)), &perr)) {
        free(perr);
        pipeline_free(other_pipe(g));
        close(fd);
        return;
    }
    g->next_fd = fd;
    g->next_started = 1;
    g->ahead_path = g->next_path; /* the caller names the one after it with ingester_next */
    g->next_path = NULL;
}

/* ---- one archive ---- */

const char *ingest_empty_note(uint64_t bytes)
{
    return bytes == 0 ? "the file is empty: " : "";
}

const char *ingest_encoding_note(const void *p, size_t n)
{
    return utf16_note(p, n);
}

static void reset_archive(struct ingester *g)
{
    ingest_report_reset(&g->rep);
    sink_archive_reset(g->sink);
    members_clear(&g->members);
    idmap_clear(&g->beside_ids);
    free(g->stream_dir);
    g->stream_dir = NULL;
    g->streams = 0;
}

/* The body inside the transaction: 0 loaded, 1 skipped (a stream read once
 * whose hash is stored), -1 failed. */
static int load_body(struct ingester *g, const char *name, const char *first_sha, int *reader_failed)
{
    int container = first_sha && pipe_job_for(g->pipe->sniffed.kind) == JOB_CONTAINER;
    if (sink_archive_begin(g->sink, name, first_sha, archive_format(g, first_sha)))
        return -1;
    run_decoder_archive(&g->dec, &g->pipe->budget, container ? members_files(g) : beside_files(g));
    if (!container) { /* a bare stream is its own run stream; files beside it are read from its directory */
        const char *slash = strcmp(name, "-") == 0 ? NULL : strrchr(name, '/');
        g->stream_dir = slash ? strndup(name, (size_t)(slash - name)) : strdup("");
        if (!g->stream_dir)
            return ingest_report_oom(&g->rep);
        run_decoder_stream(&g->dec);
    }
    pipeline_go(g->pipe);
    prefetch(g);
    if (consume(g, reader_failed))
        return -1;
    g->rep.line = 0;
    g->rep.member = NULL;
    if (container && g->streams == 0)
        return ingest_report_fail(&g->rep, NULL,
                           "no run stream (a member named *.jsonl, optionally .zst, .gz, .xz or .bz2) in this container");
    uint64_t raw = atomic_load(&g->pipe->raw.bytes);
    if (!container && !g->dec.in_run)
        return ingest_report_fail(&g->rep, NULL, "%sno run record (an archive holds one or more runs, each opened by a "
                                  "run record)", ingest_empty_note(raw));
    const char *sha = g->pipe->sha;
    if (first_sha && !container && (strcmp(sha, first_sha) != 0 || raw != g->pipe->pre_size))
        return ingest_report_fail(&g->rep, NULL, "changed while being read (its SHA-256 differs between two reads)");
    if (!first_sha) {
        int found = stored_already(g, sha);
        if (found)
            return found < 0 ? -1 : 1;
    }
    return sink_archive_end(g->sink, sha, raw, g->pipe->chunks.compress, g->pipe->chunks.stored);
}

/* An archive stored: what it wrote, added to the command's totals. */
static void add_counts(struct ingest_totals *t, const struct sink_counts *here)
{
    t->loaded++;
    t->runs += here->runs + here->appended;
    t->series += here->series;
    t->samples += here->samples;
    t->warmups += here->warmups;
    t->gates += here->gates;
    t->events += here->events;
    t->rows += here->rows;
}

enum ingest_result load_archive(struct ingester *g, const char *path, int fd, int is_stdin, int ahead,
                                const char *bundle_shown)
{
    g->shown = bundle_shown ? bundle_shown : is_stdin ? "<stdin>" : path;
    g->rep.file = g->shown;
    g->bundle = bundle_shown != NULL;
    struct stat sb;
    int in_memory = g->bundle_tar != NULL; /* then fd is -1 */
    int have_stat = !is_stdin && !in_memory && fstat(fd, &sb) == 0;
    int seekable = in_memory || (have_stat && S_ISREG(sb.st_mode));
    int rc = 0, began = 0, reader_failed = 0;
    struct pipe_limits lim = limits(g);
    size_t bad = utf8_bad_at(g->shown, strlen(g->shown));
    if (have_stat && S_ISDIR(sb.st_mode)) {
        rc = ingest_report_fail(&g->rep, NULL, "is a directory");
    } else if (g->shown[bad]) { /* archive.name: text, which is UTF-8 */
        char what[96];
        utf8_describe(g->shown, bad, "byte", what, sizeof what);
        rc = ingest_report_fail(&g->rep, NULL, "its name %s, which the store keeps as the archive's name: rename the "
                                "file", what);
    } else if (!ahead) {
        char *perr = NULL;
        int started = in_memory ? pipeline_start_mem(g->pipe, g->bundle_tar, g->bundle_tar_len, g->bundle_sha,
                                                     g->bundle_known, g->n_bundle_known, &lim, &g->kept,
                                                     worker_of(g, g->pipe), &perr)
                                : pipeline_start(g->pipe, fd, &lim, seekable, &g->kept, worker_of(g, g->pipe), &perr);
        g->pipe_started = 1;
        if (started) {
            rc = ingest_report_fail(&g->rep, NULL, "%s", perr);
            free(perr);
        }
    }
    /* A regular file is hashed (and sniffed) first: a stored archive is
     * skipped unread, a file of another kind refused unread. */
    char first_sha[65] = "";
    if (rc == 0 && seekable) {
        struct pipe_item it;
        pipeline_next(g->pipe, &it); /* PIPE_HASHED, the producer's first */
        if (it.kind != PIPE_HASHED || g->pipe->pre_err)
            rc = ingest_report_fail(&g->rep, NULL, "%s", g->pipe->pre_err ? g->pipe->pre_err : it.text ? it.text : "read error");
        else
            memcpy(first_sha, g->pipe->pre_sha, sizeof first_sha);
        pipeline_release(g->pipe, &it);
        if (rc == 0 && pipe_job_for(g->pipe->sniffed.kind) == JOB_NONE) {
            rc = refuse_kind(g, g->pipe->sniffed.kind, 0);
        }
        if (rc == 0 && db_dialect(g->db)->look_up_before_begin)
            rc = stored_already(g, first_sha);
    }
    /* Another process storing the same archive is waited for, however
     * long, and the archive then looked up again. */
    struct claim claim = {-1, NULL};
    if (rc == 0 && seekable && claim_take(g, first_sha, &claim) == 1)
        rc = stored_already(g, first_sha);
    if (rc == 0) {
        rc = sink_begin(g->sink);
        began = rc == 0;
    }
    if (rc == 0 && seekable) /* another process may have stored it since the look-up above */
        rc = lock_and_look_up(g, first_sha, bundle_shown ? bundle_shown : path);
    if (rc == 0)
        test_hold("BENCHDB_TEST_INGEST_HOLD");
    if (rc == 0) {
        rc = load_body(g, bundle_shown ? bundle_shown : path, seekable ? first_sha : NULL, &reader_failed);
        if (rc < 0 && !seekable && !reader_failed && stored_anyway(g))
            rc = 1;
    }
    if (rc == 0 && sink_commit(g->sink))
        rc = -1;
    if (rc != 0 && began)
        sink_rollback(g->sink);
    claim_release(&claim);
    if (g->pipe_started)
        pipeline_free(g->pipe);
    g->pipe_started = 0; /* ingester_live: nothing in progress */

    const struct sink_counts *here = sink_counts(g->sink);
    if (rc < 0) {
        ingest_report_print_error(&g->rep);
        if (g->opt.notices != INGEST_NOTICES_NONE)
            bd_notice("note: %s: archive not stored (nothing from it was written)", g->shown);
        g->totals.failed++;
        reset_archive(g);
        return INGEST_FAILED;
    }
    if (rc > 0) {
        g->totals.skipped++;
        reset_archive(g);
        return INGEST_SKIPPED;
    }
    add_counts(&g->totals, here);
    reset_archive(g);
    return INGEST_LOADED;
}
