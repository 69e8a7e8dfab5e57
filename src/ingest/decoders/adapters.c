/* The adapters' table, and loading one harness file with one of them. */
#include "ingest/decoders/adapters.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/jsonparse.h"
#include "ingest/core/utf8.h"
#include "ingest/decoders/bdn/bdn.h"
#include "ingest/decoders/benchmarkjs/benchmarkjs.h"
#include "ingest/decoders/bmf/bmf.h"
#include "ingest/decoders/csv/csv.h"
#include "ingest/decoders/gbench/gbench.h"
#include "ingest/decoders/gobench/gobench.h"
#include "ingest/decoders/hyperfine/hyperfine.h"
#include "ingest/decoders/jmh/jmh.h"
#include "ingest/decoders/pyperf/pyperf.h"
#include "ingest/decoders/asv/asv.h"
#include "ingest/decoders/catch2/catch2.h"
#include "ingest/decoders/criterion/criterion.h"
#include "ingest/decoders/nanobench/nanobench.h"
#include "ingest/decoders/pytestbench/pytestbench.h"
#include "ingest/decoders/tinybench/tinybench.h"
#include "ingest/sources/decode.h"
#include "ingest/sources/sniff.h"
#include "util/diag.h"
#include "util/text.h"

/* One entry per format: a format joins by its entry here and its kind in
 * sources/sniff.c; every list of formats (messages, --help, the tests)
 * comes from this table. */
static const struct harness adapters[] = {
    {"jmh", harness_jmh, NULL, NULL, 0, NULL},
    {"google-benchmark", harness_gbench, harness_gbench_text, NULL, 0, NULL},
    {"hyperfine", harness_hyperfine, NULL, NULL, 0, NULL},
    {"pyperf", harness_pyperf, NULL, NULL, 0, NULL},
    {"go-bench", NULL, harness_gobench, NULL, 0, NULL},
    /* Rust, Python and C++ harnesses */
    {"criterion", harness_criterion, NULL, criterion_companions, 1, &criterion_flat},
    {"cargo-bench", NULL, harness_cargo_bench, NULL, 0, NULL},
    {"pytest-benchmark", harness_pytest_benchmark, NULL, NULL, 0, &pytest_flat},
    {"asv", harness_asv, harness_asv_text, NULL, 0, NULL},
    {"catch2", NULL, harness_catch2, NULL, 0, NULL},
    {"nanobench", harness_nanobench, NULL, NULL, 0, &nanobench_flat},
    /* JavaScript, .NET, Bencher's format and plain tables */
    {"tinybench", harness_tinybench, NULL, NULL, 0, &tinybench_flat},
    {"vitest", harness_vitest, NULL, NULL, 0, &vitest_flat},
    {"benchmarkjs", harness_benchmarkjs, NULL, NULL, 0, NULL},
    {"benchmarkdotnet", harness_bdn, NULL, NULL, 0, &bdn_flat},
    {"bmf", harness_bmf, NULL, NULL, 0, NULL},
    {"csv", NULL, harness_csv, NULL, 0, NULL},
};
#define N_ADAPTERS (sizeof adapters / sizeof adapters[0])

const struct harness *harness_find(const char *name)
{
    for (size_t i = 0; i < N_ADAPTERS; i++)
        if (strcmp(adapters[i].name, name) == 0)
            return &adapters[i];
    return NULL;
}

const struct harness *harness_at(size_t i)
{
    return i < N_ADAPTERS ? &adapters[i] : NULL;
}

static char list[N_ADAPTERS * 32];
static pthread_once_t list_once = PTHREAD_ONCE_INIT;

static void make_list(void)
{
    size_t at = 0;
    for (size_t i = 0; i < N_ADAPTERS && at < sizeof list; i++)
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", adapters[i].name);
}

const char *harness_list(void)
{
    pthread_once(&list_once, make_list);
    return list;
}

/* ---- loading a file ---- */

/* " (its content looks like ...)" when the content is not what h reads. */
static void content_hint(const struct harness *h, int c_detected, const unsigned char *bytes, size_t len, char *out,
                         size_t n)
{
    struct sniffed sn;
    char *err = NULL;
    out[0] = 0;
    if (!bytes || sniff_buffer(bytes, len, &sn, &err)) {
        free(err);
        return;
    }
    if (sn.kind == kind_of_harness(h->name)) {
        /* taken for this format by its content: say so, with what it was taken for */
        if (c_detected)
            snprintf(out, n, " (recognised by its content)");
        return;
    }
    if (sn.kind == KIND_EMPTY)
        snprintf(out, n, " (the file is empty)");
    else if (*utf16_note(bytes, len))
        snprintf(out, n, " (its content is UTF-16 text, which benchdb does not read: save it as UTF-8)");
    else if (sn.kind == KIND_UNKNOWN || sn.kind == KIND_JSON)
        snprintf(out, n, " (its content is not a format benchdb reads)");
    else
        snprintf(out, n, " (its content looks like %s)", kind_describe(sn.kind));
}

static int parse_and_run(struct harness_ctx *c, const struct harness *h, const unsigned char *bytes, size_t len)
{
    size_t bom = utf8_bom_len(bytes, len); /* read as no byte (docs/formats.md, "Text") */
    bytes += bom;
    len -= bom;
    if (h->text)
        return h->text(c, (const char *)bytes, len);
    struct json_doc doc;
    struct json_parse_error je;
    if (json_parse_flat((const char *)bytes, len, h->flat, &doc, &je) != JSON_PARSED) {
        char *msg = json_parse_message(&je, 1);
        int rc = je.status == JSON_NO_MEMORY ? ingest_report_fail(c->rep, NULL, "%s", msg) : harness_fail(c, NULL, "%s", msg);
        free(msg);
        return rc;
    }
    json_doc_hold(&doc);
    c->flats = &doc.flats;
    c->flat_cursor = (struct json_flats_cursor){0, 0};
    int rc = h->json(c, doc.root);
    c->flats = NULL;
    json_doc_free(&doc);
    return rc;
}

int harness_load(struct harness_ctx *c, const struct harness *h, const unsigned char *bytes, size_t len, json_t *doc)
{
    c->values = c->aggregates = c->events = 0;
    c->first_event[0] = 0;
    c->sink_error = 0;
    int rc;
    struct strbuf plain = {0};
    const unsigned char *raw = bytes;
    size_t raw_len = len;
    if (doc) {
        char what[96];
        snprintf(what, sizeof what, "a string (%s output is text)", h->name);
        rc = h->json ? h->json(c, doc) : harness_wrong(c, NULL, what, doc);
    } else {
        rc = 0;
        if (codec_of(bytes, len) != CODEC_NONE) {
            char *err = NULL;
            if (decode_buffer(bytes, len, c->budget, &plain, NULL, &err)) {
                rc = harness_fail(c, NULL, "%s", err ? err : "cannot decompress");
                free(err);
            } else {
                bytes = (const unsigned char *)(plain.buf ? plain.buf : "");
                len = plain.len;
            }
        }
        if (rc == 0)
            rc = parse_and_run(c, h, bytes, len);
    }
    if (rc == 0 && c->values == 0) {
        char hint[160];
        content_hint(h, 0, raw, raw_len, hint, sizeof hint);
        if (c->aggregates)
            rc = harness_fail(c, NULL,
                              "only aggregate rows (mean, median, stddev...: %llu of them), no repetitions: each "
                              "repetition's value is what benchdb stores; run the benchmark without "
                              "--benchmark_report_aggregates_only (or --benchmark_display_aggregates_only) to keep them",
                              (unsigned long long)c->aggregates);
        else if (c->events && c->failures_only_ok)
            rc = 0; /* compare: the failures stored as events are the answer */
        else if (c->events) /* every benchmark failed: what the harness said, not a format's puzzle */
            rc = harness_fail(c, NULL,
                              "no measured values read as %s: the harness reported every benchmark it ran failed "
                              "or skipped (%llu event%s, the first: %s)",
                              h->name, (unsigned long long)c->events, c->events == 1 ? "" : "s", c->first_event);
        else
            rc = harness_fail(c, NULL, "no measured values read as %s%s", h->name, hint);
    } else if (rc != 0 && c->rep->err && !doc && !c->sink_error) {
        /* an error reading a file that is something else: say so */
        char hint[160];
        content_hint(h, c->detected, raw, raw_len, hint, sizeof hint);
        if (hint[0]) {
            char *err = c->rep->err;
            c->rep->err = bd_strdupf("%s; read as %s%s", err, h->name, hint);
            free(err);
        }
    }
    sb_free(&plain);
    return rc;
}
