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
        char expected[256];
        snprintf(expected, sizeof expected, "one of %s", harness_names);
        return run_wrong(d, "results", "format", expected, json_object_get(rec, "format"));
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

    struct harness_ctx c = {.sink = d->sink, .rep = d->rep, .budget = d->budget, .block = block, .variant = variant};
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
    struct run_file f = {0};
    int found = d->files.get ? d->files.get(d->files.arg, path, &f) : 0;
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
    return rc;
}
