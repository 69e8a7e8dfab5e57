/* core/jsonflat's lookups and the path's either-key step.
 *
 * A reader finds each array read flat from its placeholder in the tree
 * (json_flats_find). Looked up in the document's order, each is found at
 * once; out of that order (a reader that takes a benchmark's throughput
 * before its latency, or the same array twice), or for an empty array
 * that was not read flat, the lookup once scanned the arrays one by one:
 * n comparisons each, n^2 over a file of n benchmarks (10,000 tinybench
 * tasks: 100 million). The cursor counts the placeholders compared, so
 * the bound is checked by count, not by time: at most 2 + log2(n) a
 * lookup, whatever the order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/jsonflat.h"
#include "ingest/core/jsonparse.h"
#include "util/strbuf.h"

#define N 10000

static const char *const no_fields[] = {NULL};
static const char *const data_path[] = {"benchmarks", "*", "stats", "data", NULL};
static const struct json_flat_spec data_spec = {data_path, no_fields};

/* {"benchmarks": [{"stats": {"data": [i, 0.5]}, "other": []}, ...]}: n
 * arrays read flat, n empty ones that are not. */
static void parse_benchmarks(struct json_doc *doc, struct strbuf *text, size_t n)
{
    assert_int_equal(sb_puts(text, "{\"benchmarks\": ["), 0);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(sb_printf(text, "%s{\"stats\": {\"data\": [%zu, 0.5]}, \"other\": []}", i ? "," : "", i), 0);
    assert_int_equal(sb_puts(text, "]}"), 0);
    struct json_parse_error e;
    assert_int_equal(json_parse_flat(text->buf, text->len, &data_spec, doc, &e), JSON_PARSED);
    assert_int_equal(doc->flats.n, n);
}

static json_t *data_of(const struct json_doc *doc, size_t i, const char *key)
{
    json_t *b = json_array_get(json_object_get(doc->root, "benchmarks"), i);
    return strcmp(key, "data") == 0 ? json_object_get(json_object_get(b, "stats"), "data") : json_object_get(b, key);
}

/* Benchmark i's data found, with its two values. */
static void found(const struct json_doc *doc, size_t i, struct json_flats_cursor *cur)
{
    const struct json_flat_array *a = json_flats_find(&doc->flats, data_of(doc, i, "data"), cur);
    assert_non_null(a);
    assert_int_equal(a->n, 2);
    assert_int_equal(json_flat_at(a, 0)->type, JSON_INTEGER);
    assert_int_equal(json_flat_at(a, 0)->u.integer, (json_int_t)i);
    assert_int_equal(json_flat_at(a, 1)->type, JSON_REAL);
}

static size_t log2_ceil(size_t n)
{
    size_t k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

static void test_lookups_in_any_order(void **state)
{
    (void)state;
    struct strbuf text = {0};
    struct json_doc doc;
    parse_benchmarks(&doc, &text, N);
    size_t bound = N * (2 + log2_ceil(N));

    struct json_flats_cursor cur = {0, 0};
    for (size_t i = 0; i < N; i++) /* the document's order: one comparison each */
        found(&doc, i, &cur);
    assert_int_equal(cur.probes, N);

    cur = (struct json_flats_cursor){0, 0};
    for (size_t i = N; i-- > 0;) /* backwards: the scan's worst case, N^2 / 2 */
        found(&doc, i, &cur);
    printf("%d lookups backwards: %zu comparisons (bound %zu)\n", N, cur.probes, bound);
    assert_true(cur.probes <= bound);

    cur = (struct json_flats_cursor){0, 0};
    for (size_t i = 0; i < N; i++) { /* each twice, as a reader that checks, then reads */
        found(&doc, i, &cur);
        found(&doc, i, &cur);
    }
    printf("%d lookups twice each: %zu comparisons (bound %zu)\n", N, cur.probes, 2 * bound);
    assert_true(cur.probes <= 2 * bound);

    cur = (struct json_flats_cursor){0, 0};
    for (size_t i = 0; i < N; i++) /* empty arrays not read flat: not found, each */
        assert_null(json_flats_find(&doc.flats, data_of(&doc, i, "other"), &cur));
    printf("%d misses: %zu comparisons (bound %zu)\n", N, cur.probes, bound);
    assert_true(cur.probes <= bound);

    json_doc_free(&doc);
    sb_free(&text);
}

/* Without the index (flats registered by hand), the lookup still finds
 * every array: by a scan. */
static void test_unindexed_scan(void **state)
{
    (void)state;
    struct strbuf text = {0};
    struct json_doc doc;
    parse_benchmarks(&doc, &text, 50);
    struct json_flats copy = doc.flats;
    copy.by_placeholder = NULL;
    struct json_flats_cursor cur = {0, 0};
    for (size_t i = 50; i-- > 0;)
        assert_non_null(json_flats_find(&copy, data_of(&doc, i, "data"), &cur));
    assert_null(json_flats_find(&copy, data_of(&doc, 7, "other"), &cur));
    json_doc_free(&doc);
    sb_free(&text);
}

/* "latency|throughput": either key is a step of the path; another key,
 * a key that only starts like one, or an alternative's prefix is not. */
static void test_either_key_step(void **state)
{
    (void)state;
    static const char *const path[] = {"*", "result", "latency|throughput", "samples", NULL};
    static const struct json_flat_spec spec = {path, no_fields};
    const char *text = "[{\"result\": {\"latency\": {\"samples\": [1, 2]}, \"throughput\": {\"samples\": [3]},"
                       " \"other\": {\"samples\": [4]}, \"latencyx\": {\"samples\": [5]}, \"lat\": {\"samples\": [6]},"
                       " \"latency|throughput\": {\"samples\": [7]}}}]";
    struct json_doc doc;
    struct json_parse_error e;
    assert_int_equal(json_parse_flat(text, strlen(text), &spec, &doc, &e), JSON_PARSED);
    assert_int_equal(doc.flats.n, 2);
    json_t *res = json_object_get(json_array_get(doc.root, 0), "result");
    struct json_flats_cursor cur = {0, 0};
    const struct json_flat_array *lat =
        json_flats_find(&doc.flats, json_object_get(json_object_get(res, "latency"), "samples"), &cur);
    const struct json_flat_array *thr =
        json_flats_find(&doc.flats, json_object_get(json_object_get(res, "throughput"), "samples"), &cur);
    assert_true(lat && lat->n == 2 && json_flat_at(lat, 1)->u.integer == 2);
    assert_true(thr && thr->n == 1 && json_flat_at(thr, 0)->u.integer == 3);
    static const char *const others[] = {"other", "latencyx", "lat", "latency|throughput"};
    for (size_t k = 0; k < sizeof others / sizeof *others; k++) /* trees, as they came */
        assert_int_equal(json_array_size(json_object_get(json_object_get(res, others[k]), "samples")), 1);
    json_doc_free(&doc);
}

int main(void)
{
    json_checked_install();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookups_in_any_order),
        cmocka_unit_test(test_unindexed_scan),
        cmocka_unit_test(test_either_key_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
