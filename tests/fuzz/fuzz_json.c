/* libFuzzer target: benchdb's JSON parser (core/jsonparse) against
 * jansson's json_loadb, which it replaced (JSON_REJECT_DUPLICATES, the
 * flags benchdb used): the input is one JSON text. Both must give the
 * same tree (types, members in order, strings byte for byte, integers,
 * reals bit for bit), or both refuse it at the same line and column with
 * the same text; anything else aborts. The same input is also parsed with
 * arrays read flat (core/jsonflat.h), with every flat spec of the adapters'
 * table (decoders/adapters.c: a reader made flat is fuzzed without being
 * listed here) and synthetic ones (arrays at the root and one or two
 * levels below it, an either-key step): it must be accepted or refused as
 * jansson does, at the same line and column with the same text.
 * unit/jsonparse_diff does the same for the files of the repository, edge
 * cases and their mutants, and compares the flat records' values with
 * jansson's too. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/core/jsonflat.h"
#include "ingest/core/jsonparse.h"
#include "ingest/decoders/adapters.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(json_t *a, json_t *b)
{
    if (json_typeof(a) != json_typeof(b))
        return 0;
    if (json_is_object(a)) {
        void *i = json_object_iter(a), *j = json_object_iter(b);
        for (; i && j; i = json_object_iter_next(a, i), j = json_object_iter_next(b, j))
            if (json_object_iter_key_len(i) != json_object_iter_key_len(j) ||
                memcmp(json_object_iter_key(i), json_object_iter_key(j), json_object_iter_key_len(i)) ||
                !same(json_object_iter_value(i), json_object_iter_value(j)))
                return 0;
        return !i && !j;
    }
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t k = 0; k < json_array_size(a); k++)
            if (!same(json_array_get(a, k), json_array_get(b, k)))
                return 0;
        return 1;
    }
    if (json_is_string(a))
        return json_string_length(a) == json_string_length(b) &&
               !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
    if (json_is_integer(a))
        return json_integer_value(a) == json_integer_value(b);
    if (json_is_real(a)) {
        double x = json_real_value(a), y = json_real_value(b);
        return !memcmp(&x, &y, sizeof x);
    }
    return 1;
}

static const char *const root_path[] = {NULL}, *const one_path[] = {"*", NULL}, *const two_path[] = {"*", "*", NULL},
                         *const either_path[] = {"*", "a|b|", "*", NULL};
static const char *const any_fields[] = {"a", "b", "k", "name", "value", NULL};
static const struct json_flat_spec synthetic[] = {
    {root_path, any_fields}, {one_path, any_fields}, {two_path, any_fields}, {either_path, any_fields}};

/* Every adapter's flat spec (the table's order), then the synthetic ones. */
#define MAX_SPECS 64
static const struct json_flat_spec *specs[MAX_SPECS];
static size_t n_specs;

static void collect_specs(void)
{
    const struct harness *h;
    for (size_t i = 0; (h = harness_at(i)); i++)
        if (h->flat && n_specs < MAX_SPECS)
            specs[n_specs++] = h->flat;
    if (n_specs == 0) /* the table's specs not reached: nothing would be fuzzed flat */
        abort();
    for (size_t i = 0; i < sizeof synthetic / sizeof *synthetic && n_specs < MAX_SPECS; i++)
        specs[n_specs++] = &synthetic[i];
    if (n_specs == MAX_SPECS)
        abort();
}

/* The flat parse with each spec accepts and refuses as jansson did (want,
 * or its error je). */
static void same_flat(const char *s, size_t size, const json_t *want, const json_error_t *je)
{
    for (size_t k = 0; k < n_specs; k++) {
        struct json_doc doc;
        struct json_parse_error e;
        enum json_parse_status st = json_parse_flat(s, size, specs[k], &doc, &e);
        if (want) {
            if (st != JSON_PARSED)
                abort();
            json_doc_free(&doc);
        } else if (st != JSON_SYNTAX || e.line != je->line || e.column != je->column || strcmp(e.text, je->text)) {
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int installed;
    if (!installed) {
        json_checked_install();
        collect_specs();
        installed = 1;
    }
    const char *s = (const char *)data;
    json_error_t je;
    json_t *want = json_loadb(s, size, JSON_REJECT_DUPLICATES, &je);
    struct json_doc doc;
    struct json_parse_error e;
    enum json_parse_status st = json_parse(s, size, &doc, &e);
    same_flat(s, size, want, &je);
    if (want) {
        if (st != JSON_PARSED || !same(want, doc.root))
            abort();
        json_doc_free(&doc);
        json_decref(want);
    } else if (st != JSON_SYNTAX || e.line != je.line || e.column != je.column || strcmp(e.text, je.text)) {
        abort();
    }
    return 0;
}
