/* The failures the harnesses reported, read back from a store for
 * `compare` (compare_files.h): events benchmark-error, benchmark-skipped
 * and exit-code of the compared sides' runs (docs/formats.md), each said
 * as "NAME in SIDE (WHAT)" with the answer (compare/failures.c). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/compare_files.h"
#include "store/db.h"
#include "util/diag.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The benchmark as compare's rows name it: without "Benchmark", its
 * params as "/KEY=VALUE" (pkg left out), procs as "-N". */
static void put_name(struct strbuf *sb, const char *name, json_t *params)
{
    sb_puts(sb, strncmp(name, "Benchmark", 9) == 0 && name[9] ? name + 9 : name);
    const char *k;
    json_t *v;
    json_object_foreach(params, k, v) {
        if ((strcmp(k, "procs") == 0 && json_is_integer(v)) || (strcmp(k, "pkg") == 0 && json_is_string(v)))
            continue;
        char *t = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        sb_printf(sb, "/%s=%s", k, json_is_string(v) ? json_string_value(v) : t ? t : "?");
        free(t);
    }
    json_t *procs = json_object_get(params, "procs");
    if (json_is_integer(procs))
        sb_printf(sb, "-%lld", (long long)json_integer_value(procs));
}

/* The harness's message: a string, or an object's "message". */
static const char *message(json_t *detail)
{
    static const char *const keys[] = {"error_message", "skip_message", "failed", "error"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        json_t *v = json_object_get(detail, keys[i]);
        if (json_is_object(v))
            v = json_object_get(v, "message");
        if (json_is_string(v) && *json_string_value(v))
            return json_string_value(v);
    }
    return NULL;
}

/* hyperfine's exit codes: "exit code 137 in 2 of 2 runs". */
static void put_exit_codes(struct strbuf *sb, json_t *codes)
{
    size_t bad = 0, n = json_array_size(codes), shown = 0;
    struct strbuf list = {0};
    for (size_t i = 0; i < n; i++) {
        json_t *x = json_array_get(codes, i);
        if (json_is_integer(x) && json_integer_value(x) == 0)
            continue;
        bad++;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = json_equal(json_array_get(codes, j), x);
        if (!seen && shown++ < 5) {
            char *t = json_dumps(x, JSON_ENCODE_ANY);
            sb_printf(&list, "%s%s", shown > 1 ? ", " : "", json_is_null(x) ? "none (killed)" : t ? t : "?");
            free(t);
        }
    }
    sb_printf(sb, "exit code%s %s%s in %zu of %zu runs", shown > 1 ? "s" : "", xsb_text(&list),
              shown > 5 ? ", ..." : "", bad, n);
    sb_free(&list);
}

static void put_what(struct strbuf *sb, const char *event, json_t *detail)
{
    if (strcmp(event, "exit-code") == 0) {
        put_exit_codes(sb, json_object_get(detail, "exit_codes"));
    } else if (strcmp(event, "benchmark-skipped") == 0) {
        const char *msg = message(detail);
        sb_puts(sb, "skipped");
        if (msg)
            sb_printf(sb, ": %s", msg);
    } else {
        const char *msg = message(detail);
        json_t *state = json_object_get(detail, "state");
        sb_puts(sb, "error");
        if (msg)
            sb_printf(sb, ": %s", msg);
        else if (json_is_string(state)) /* tinybench's Error object stringifies to {} */
            sb_printf(sb, ", state %s", json_string_value(state));
    }
}

/* The params in an event's detail: an object, or its JSON text (as
 * asv's and Catch2's events keep the cell's params). */
static json_t *params_of(json_t *detail)
{
    json_t *p = json_object_get(detail, "params");
    if (!p)
        p = json_object_get(detail, "parameters");
    if (json_is_string(p))
        return json_loads(json_string_value(p), 0, NULL);
    return json_is_object(p) ? json_incref(p) : NULL;
}

/* The expression naming a run's side for --by (NULL: events are a run's,
 * and no side of this kind holds runs: variants). */
static const char *side_expr(const char *by)
{
    if (strcmp(by, "run") == 0)
        return "r.name";
    if (strcmp(by, "host") == 0)
        return "h.name";
    if (strcmp(by, "source") == 0)
        return "r.source";
    if (strcmp(by, "attr") == 0)
        return "CAST(r.attributes ->> CAST(?2 AS TEXT) AS TEXT)";
    return strcmp(by, "plan") == 0 ? "p.name" : NULL;
}

int compare_read_failures(struct db *db, const char *plan, const char *by, const char *key,
                          const char *const *sides, int nsides, struct cmp_failures *f, char **err)
{
    const char *expr = side_expr(by);
    if (!expr)
        return 0;
    char *sql = bd_strdupf("SELECT %s, e.name, CAST(e.value AS TEXT), CAST(e.detail AS TEXT) FROM event e "
                           "JOIN run r ON r.id = e.run_id JOIN plan p ON p.id = r.plan_id "
                           "JOIN host h ON h.id = r.host_id "
                           "WHERE e.name IN ('benchmark-error', 'benchmark-skipped', 'exit-code')%s "
                           "ORDER BY e.id",
                           expr, plan && strcmp(by, "plan") != 0 ? " AND p.name = ?1" : "");
    if (!sql)
        return bd_fail(err, "out of memory");
    struct db_stmt *st = NULL;
    int rc = db_prepare(db, sql, &st);
    free(sql);
    if (rc != SQLITE_OK)
        return bd_fail(err, "%s", db_errmsg(db));
    if (plan && strcmp(by, "plan") != 0)
        db_bind_text(st, 1, plan, -1);
    if (strcmp(by, "attr") == 0)
        db_bind_text(st, 2, key ? key : "", -1);
    struct strbuf name = {0}, what = {0};
    while ((rc = db_step(st)) == SQLITE_ROW) {
        const char *side = (const char *)db_column_text(st, 0), *value = (const char *)db_column_text(st, 2);
        const char *shown = NULL;
        for (int s = 0; side && !shown && s < nsides; s++)
            shown = strcmp(side, sides[s]) == 0 ? sides[s] : NULL;
        if (!shown)
            continue;
        const char *text = (const char *)db_column_text(st, 3);
        json_t *detail = text ? json_loads(text, 0, NULL) : NULL, *params = params_of(detail);
        sb_reset(&name);
        sb_reset(&what);
        put_name(&name, value ? value : "?", params);
        put_what(&what, (const char *)db_column_text(st, 1), detail);
        cmp_failures_add(f, shown, xsb_text(&name), xsb_text(&what));
        json_decref(params);
        json_decref(detail);
    }
    sb_free(&name);
    sb_free(&what);
    db_finalize(st);
    return rc == SQLITE_DONE ? 0 : bd_fail(err, "%s", db_errmsg(db));
}
