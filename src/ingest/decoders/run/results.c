/* The results record of benchdb-run/1: a harness file's values as samples
 * of the current run. The file is inline (data), or named by path and
 * found by the caller: a member of the same container or a file beside a
 * bare stream. docs/archive-format.md, docs/formats.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/decoders/adapters.h"
#include "ingest/decoders/harness.h"
#include "ingest/decoders/run/fields.h"
#include "ingest/decoders/run/run.h"
#include "util/diag.h"

/* The companions of the file at path (adapters.h), copied: each one
 * found into held[i], comp[i] naming it (bytes NULL when absent). */
static int companions(struct run_decoder *d, const struct harness *h, const char *path, struct harness_companion *comp,
                      struct strbuf *held, size_t *nc)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    for (size_t i = 0; h->companions && h->companions[i] && i < 4; i++) {
        struct strbuf p = {0};
        struct run_file cf = {0};
        comp[i].name = h->companions[i];
        *nc = i + 1;
        if (sb_append(&p, path, dir) || sb_puts(&p, h->companions[i])) {
            sb_free(&p);
            return ingest_report_oom(d->rep);
        }
        /* quietly absent: the adapter says what it misses */
        int found = d->files.get ? d->files.get(d->files.arg, p.buf, &cf) : 0;
        sb_free(&p);
        if (found < 0 && d->rep->err && strstr(d->rep->err, "out of memory"))
            return -1;
        if (found < 0) {
            ingest_report_clear_error(d->rep);
            continue;
        }
        if (found && (sb_append(&held[i], (const char *)cf.bytes, cf.len) || sb_putc(&held[i], 0)))
            return ingest_report_oom(d->rep);
        if (found) {
            comp[i].bytes = (const unsigned char *)held[i].buf;
            comp[i].len = cf.len;
        }
    }
    return 0;
}

/* What data must be for a text format ("a string (the csv text)"). */
static const char *text_format_wanted(const char *name)
{
    return strcmp(name, "csv") == 0 ? "a string (the csv text)" : "a string (the go-bench text)";
}

int run_results_record(struct run_decoder *d, json_t *rec)
{
    const char *format, *variant, *path;
    long long block = 0;
    int has;
    if (run_get_name(d, rec, "results", "format", 1, &format))
        return -1;
    const struct harness *h = harness_find(format);
    if (!h) {
        char *expected = bd_strdupf("one of %s", harness_list());
        int rc = run_wrong(d, "results", "format", expected, json_object_get(rec, "format"));
        free(expected);
        return rc;
    }
    if (run_get_int(d, rec, "results", "block", 1, 1, &block, &has) ||
        run_get_name(d, rec, "results", "variant", 1, &variant) ||
        run_get_name(d, rec, "results", "path", 0, &path))
        return -1;
    json_t *data = json_object_get(rec, "data");
    if (json_is_null(data))
        data = NULL;
    if (!path == !data)
        return ingest_report_fail(d->rep, "results", "expected either \"path\" or \"data\" (one of the two)");

    struct harness_ctx c = {.sink = d->sink, .rep = d->rep, .budget = d->budget, .block = block, .variant = variant,
                            .failures_only_ok = d->failures_only_ok};
    int rc;
    if (data) {
        c.prefix = "results.data";
        if (json_is_string(data))
            rc = harness_load(&c, h, (const unsigned char *)json_string_value(data), json_string_length(data), NULL);
        else if (h->json)
            rc = harness_load(&c, h, NULL, 0, data);
        else
            rc = run_wrong(d, "results", "data", text_format_wanted(h->name), data);
        harness_ctx_free(&c);
        return rc;
    }
    /* the files the harness writes beside this one, first (a file beside a
     * bare stream is read into one buffer, which the next read reuses) */
    struct harness_companion comp[4] = {{0}};
    struct strbuf held[4] = {{0}};
    size_t nc = 0;
    rc = companions(d, h, path, comp, held, &nc);
    c.companions = comp;
    c.n_companions = nc;
    struct run_file f = {0};
    int found = rc ? -1 : d->files.get ? d->files.get(d->files.arg, path, &f) : 0;
    if (found <= 0) {
        for (size_t i = 0; i < nc; i++)
            sb_free(&held[i]);
    }
    if (found == 0)
        return ingest_report_fail(d->rep, "results.path", "no file \"%s\"", path);
    if (found < 0)
        return -1;
    struct strbuf where = {0};
    if (!f.display && sb_printf(&where, "results[%s]", path)) {
        sb_free(&where);
        return ingest_report_oom(d->rep);
    }
    c.prefix = where.buf;
    c.member_id = f.member_id;
    c.detected = f.detected;
    rc = harness_load(&c, h, f.bytes, f.len, NULL);
    if (rc && f.display)
        ingest_report_blame_file(d->rep, f.display);
    if (rc == 0 && f.member_id)
        rc = sink_member_format(d->sink, f.member_id, h->name);
    harness_ctx_free(&c);
    sb_free(&where);
    for (size_t i = 0; i < nc; i++)
        sb_free(&held[i]);
    return rc;
}
