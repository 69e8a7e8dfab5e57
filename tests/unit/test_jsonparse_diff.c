/* benchdb's JSON parser (core/jsonparse, core/jsonread, core/jsonlex)
 * against jansson's json_loadb with the flags benchdb used before
 * (JSON_REJECT_DUPLICATES), which it replaced and must equal: for every
 * input both give the same tree (same types, members in the same order,
 * the same strings byte for byte, integers, and reals bit for bit: -0.0
 * is not 0.0), or both refuse it at the same line and column with the
 * same text.
 *
 * The inputs: every file under tests/data, examples and the fuzz corpora
 * (a .zst one decompressed), each whole and each of its lines (a run
 * stream is parsed a line at a time); the edge cases below (numbers at
 * every limit, escapes, surrogates, NUL, control characters, bytes that
 * are not UTF-8, depth, trailing garbage, BOM); and mutants of both (a
 * fixed pseudo-random sequence of byte changes, insertions, deletions,
 * truncations and spliced tokens). Then every allocation of a parse fails
 * in turn: each run ends with the tree or "out of memory", nothing else,
 * and (under ASan) nothing leaks.
 *
 * Each input is also parsed with arrays read flat (core/jsonflat.h), with
 * every flat spec of the adapters' table (decoders/adapters.c: a reader
 * made flat is compared here without being listed) and synthetic ones
 * (any array at the root or one or two levels below it, and an either-key
 * step), which must refuse exactly what the tree parse refuses, with the
 * same line, column and text, and whose records must hold jansson's
 * values: every element's kind and scalar, every field named present or
 * absent as in jansson's object. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "ingest/core/jsonparse.h"
#include "ingest/decoders/adapters.h"

/* ---- the comparison ---- */

static int same_tree(json_t *a, json_t *b);

static int same_object(json_t *a, json_t *b)
{
    if (json_object_size(a) != json_object_size(b))
        return 0;
    void *i = json_object_iter(a), *j = json_object_iter(b);
    for (; i && j; i = json_object_iter_next(a, i), j = json_object_iter_next(b, j)) {
        size_t ka = json_object_iter_key_len(i), kb = json_object_iter_key_len(j);
        if (ka != kb || memcmp(json_object_iter_key(i), json_object_iter_key(j), ka) ||
            !same_tree(json_object_iter_value(i), json_object_iter_value(j)))
            return 0;
    }
    return !i && !j;
}

static int same_tree(json_t *a, json_t *b)
{
    if (json_typeof(a) != json_typeof(b))
        return 0;
    switch (json_typeof(a)) {
    case JSON_OBJECT:
        return same_object(a, b);
    case JSON_ARRAY:
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t k = 0; k < json_array_size(a); k++)
            if (!same_tree(json_array_get(a, k), json_array_get(b, k)))
                return 0;
        return 1;
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
    case JSON_INTEGER:
        return json_integer_value(a) == json_integer_value(b);
    case JSON_REAL: {
        double x = json_real_value(a), y = json_real_value(b);
        return !memcmp(&x, &y, sizeof x);
    }
    default:
        return 1;
    }
}

static long compared, accepted, flat_arrays;

/* ---- arrays read flat ---- */

static const char *const root_path[] = {NULL}, *const one_path[] = {"*", NULL}, *const two_path[] = {"*", "*", NULL},
                         *const either_path[] = {"*", "a|b|", "*", NULL};
static const char *const any_fields[] = {"a", "b", "k", "name", "value", "", "\xc3\xa9", NULL};
/* keys the parser compares a word or two at a time: 7 to 17 bytes, the
 * same length and differing in the first, the eighth or the last byte */
static const char *const long_fields[] = {"abcdefg",          "abcdefgh",          "abcdefgi",         "bbcdefgh",
                                          "abcdefghX",        "abcdefghijklmnop",  "abcdefghijklmnoq", "abcdefgxijklmnop",
                                          "abcdefghijklmnopq", "abcdefghijklmnopr", NULL};
static const struct json_flat_spec synthetic[] = {{root_path, any_fields},
                                                  {one_path, any_fields},
                                                  {two_path, any_fields},
                                                  {either_path, any_fields},
                                                  {root_path, long_fields}};

/* The specs every input is parsed with: the adapters' (the table's order),
 * then the synthetic ones. */
#define MAX_SPECS 64
static const struct json_flat_spec *specs[MAX_SPECS];
static size_t n_specs, n_adapter_specs;

static void collect_specs(void)
{
    const struct harness *h;
    for (size_t i = 0; (h = harness_at(i)); i++)
        if (h->flat && n_specs < MAX_SPECS)
            specs[n_specs++] = h->flat;
    n_adapter_specs = n_specs;
    for (size_t i = 0; i < sizeof synthetic / sizeof *synthetic && n_specs < MAX_SPECS; i++)
        specs[n_specs++] = &synthetic[i];
}

/* The spec's path as text ("Benchmarks/ * /Measurements"; "(root)"), for a failure. */
static const char *path_text(const struct json_flat_spec *spec)
{
    static char buf[256];
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; spec->path[i] && k < sizeof buf; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s", i ? "/" : "", spec->path[i]);
    return buf[0] ? buf : "(root)";
}

static int same_flat_value(const json_t *want, const struct json_flat_value *v)
{
    if (!want)
        return v->type == JSON_FLAT_ABSENT;
    if (v->type != (int)json_typeof(want))
        return 0;
    if (json_is_integer(want))
        return v->u.integer == json_integer_value(want);
    if (json_is_real(want)) {
        double x = json_real_value(want);
        return !memcmp(&x, &v->u.real, sizeof x);
    }
    return same_tree((json_t *)want, v->u.tree);
}

/* jansson's tree a against b, a tree whose flat arrays' placeholders
 * stand for arrays of records. */
static int same_with_flats(json_t *a, json_t *b, const struct json_doc *doc, size_t width,
                           const char *const *fields)
{
    struct json_flats_cursor cur = {0, 0};
    const struct json_flat_array *fa = json_flats_find(&doc->flats, b, &cur);
    if (fa) {
        flat_arrays++;
        if (!json_is_array(a) || json_array_size(a) != fa->n || fa->width != width)
            return 0;
        for (size_t k = 0; k < fa->n; k++) {
            const json_t *e = json_array_get(a, k);
            const struct json_flat_value *r = json_flat_at(fa, k);
            if (!json_is_object(e)) {
                if (!same_flat_value(e, &r[0]))
                    return 0;
                continue;
            }
            if (r[0].type != JSON_OBJECT || r[0].u.tree)
                return 0;
            for (size_t f = 0; f + 1 < width; f++)
                if (!same_flat_value(json_object_get(e, fields[f]), &r[1 + f]))
                    return 0;
        }
        return 1;
    }
    if (json_typeof(a) != json_typeof(b))
        return 0;
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t k = 0; k < json_array_size(a); k++)
            if (!same_with_flats(json_array_get(a, k), json_array_get(b, k), doc, width, fields))
                return 0;
        return 1;
    }
    if (json_is_object(a)) {
        if (json_object_size(a) != json_object_size(b))
            return 0;
        void *i = json_object_iter(a), *j = json_object_iter(b);
        for (; i && j; i = json_object_iter_next(a, i), j = json_object_iter_next(b, j)) {
            size_t ka = json_object_iter_key_len(i), kb = json_object_iter_key_len(j);
            if (ka != kb || memcmp(json_object_iter_key(i), json_object_iter_key(j), ka) ||
                !same_with_flats(json_object_iter_value(i), json_object_iter_value(j), doc, width, fields))
                return 0;
        }
        return !i && !j;
    }
    return same_tree(a, b);
}

static void show(const char *what, const char *s, size_t n);

/* The flat parse with spec against jansson's (want, or its error je). */
static void compare_flat(const char *what, const char *s, size_t n, const struct json_flat_spec *spec, json_t *want,
                         const json_error_t *je)
{
    struct json_doc doc;
    struct json_parse_error e;
    enum json_parse_status st = json_parse_flat(s, n, spec, &doc, &e);
    size_t width = 1;
    while (spec->fields[width - 1])
        width++;
    if (want && st == JSON_PARSED && same_with_flats(want, doc.root, &doc, width, spec->fields)) {
    } else if (!want && st == JSON_SYNTAX && e.line == je->line && e.column == je->column &&
               !strcmp(e.text, je->text)) {
    } else {
        show(what, s, n);
        fprintf(stderr, "jansson: %s (line %d, column %d: %s)\nflat (%s): %s (line %d, column %d: %s)\n",
                want ? "parsed" : "refused", want ? 0 : je->line, want ? 0 : je->column, want ? "" : je->text,
                path_text(spec),
                st == JSON_PARSED ? "parsed" : st == JSON_SYNTAX ? "refused" : "out of memory", e.line, e.column,
                e.text);
        fail_msg("%s: the flat parse differs", what);
    }
    if (st == JSON_PARSED)
        json_doc_free(&doc);
}

/* Which specs each input is also parsed with: every one, or (the
 * mutants, by the hundred thousand) one in turn. */
static int flat_all = 1;
static size_t flat_turn;

/* The input shown in a failure: printable ASCII as it is, the rest \xNN. */
static void show(const char *what, const char *s, size_t n)
{
    fprintf(stderr, "%s (%zu bytes): ", what, n);
    for (size_t i = 0; i < n && i < 400; i++)
        fprintf(stderr, (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? "%c" : "\\x%02x",
                (unsigned char)s[i]);
    fprintf(stderr, "\n");
}

static void compare(const char *what, const char *s, size_t n)
{
    json_error_t je;
    json_t *want = json_loadb(s ? s : "", n, JSON_REJECT_DUPLICATES, &je);
    struct json_doc doc;
    struct json_parse_error e;
    enum json_parse_status st = json_parse(s, n, &doc, &e);
    compared++;
    for (size_t k = 0; k < n_specs; k++)
        if (flat_all || k == flat_turn % n_specs)
            compare_flat(what, s, n, specs[k], want, &je);
    flat_turn++;
    if (want && st == JSON_PARSED && same_tree(want, doc.root)) {
        accepted++;
    } else if (!want && st == JSON_SYNTAX && e.line == je.line && e.column == je.column &&
               !strcmp(e.text, je.text)) {
    } else {
        show(what, s, n);
        fprintf(stderr, "jansson: %s (line %d, column %d: %s)\nbenchdb: %s (line %d, column %d: %s)\n",
                want ? "parsed" : "refused", want ? 0 : je.line, want ? 0 : je.column, want ? "" : je.text,
                st == JSON_PARSED ? "parsed" : st == JSON_SYNTAX ? "refused" : "out of memory", e.line, e.column,
                e.text);
        fail_msg("%s: the parsers differ", what);
    }
    json_decref(want);
    if (st == JSON_PARSED)
        json_doc_free(&doc);
}

/* ---- the edge cases ---- */

static const char *const edge[] = {
    "", " ", "\n\n  ", "[]", "{}", " [ ] ", "[", "]", "{", "}", "[1", "[1,", "[1,]", "[,1]", "[1 2]", "[1]x",
    "[1] ]", "[1]\n\n  x", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{1:2}", "{\"a\":1 \"b\":2}",
    "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":1,\"b\":2}}", "{\"a\":1,\"b\":{\"a\":1}}", "{\"\":1,\"\":2}", "1", "\"a\"",
    "true", "null", "[true,false,null]", "[tru]", "[True]", "[nulll]", "[nul]", "[truex]", "[true1]",
    "[true\"a\"]", "[-]", "[-a]", "[--1]", "[+1]", "[01]", "[-01]", "[00]", "[0]", "[-0]", "[-0.0]",
    "[0.0]", "[-0e0]", "[0e-5]", "[0.]", "[.5]", "[1.]", "[1.e5]", "[1e]", "[1e+]", "[1e-]", "[1E5]",
    "[1e05]", "[1.5e+3]", "[1x]", "[1.5x]", "[1e5x]", "[9223372036854775807]", "[9223372036854775808]",
    "[-9223372036854775808]", "[-9223372036854775809]", "[99999999999999999999]",
    "[123456789012345678901234567890]", "[-123456789012345678901234567890]", "[1e308]", "[1.7976931348623157e308]",
    "[1.7976931348623159e308]", "[1e309]", "[1e400]", "[-1e400]", "[1e-400]", "[-1e-400]", "[4.9e-324]",
    "[2.4703282292062327e-324]", "[2.4703282292062328e-324]", "[1e99999999999999]", "[1e-99999999999999]",
    "[0e99999999999]", "[0.1]", "[0.2]", "[0.3]", "[1.0000000000000002]", "[9007199254740993]",
    "[9007199254740993.0]", "[9007199254740992.0]", "[9007199254740993e0]", "[1e22]", "[1e23]", "[1e-22]",
    "[1e-23]", "[123456789012345678e-5]", "[1234567890123456789e3]", "[12345678901234567890e-3]",
    "[0.000000000000000000000000000001]", "[3.141592653589793238462643383279]", "[1.5e-07]",
    "[0.30000000000000004]", "[2.2250738585072011e-308]", "[2.2250738585072014e-308]",
    "[\"\"]", "[\"a\"]", "[\"a]", "[\"a\\\"]", "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]", "[\"\\x\"]", "[\"\\\"]",
    "[\"\\", "[\"\\u\"]", "[\"\\u12\"]", "[\"\\u12g4\"]", "[\"\\u00e9\"]", "[\"\\u00E9\"]", "[\"\\u20ac\"]",
    "[\"\\ud83d\\ude00\"]", "[\"\\uD83D\\uDE00\"]", "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\ud800x\"]",
    "[\"\\ud800\\n\"]", "[\"\\ud800\\u0041\"]", "[\"\\ud800\\ud800\"]", "[\"\\udfff\\ud800\"]",
    "[\"a\\ud800\\udc00b\\udc00\"]", "[\"\\ud800\\\\u1234\"]", "[\"\\u0000\"]", "[\"a\\u0000b\"]",
    "{\"\\u0000\":1}", "{\"a\\u0000\":1}", "{\"\\u0061\":1,\"a\":2}", "{\"a\":1,\"\\u0061\":2}",
    "{\"\\ud800\":1}", "[\"\\u0000\\ud800\"]", "[\"\t\"]", "[\"\n\"]", "[\"a\nb\"]", "[\"\x7f\"]", "[\"\x1f\"]",
    "[\"\xc3\xa9\"]", "[\"\xe2\x82\xac\"]", "[\"\xf0\x9f\x98\x80\"]", "[\"\xf4\x8f\xbf\xbf\"]",
    "[\"\xf4\x90\x80\x80\"]", "[\"\xc0\x80\"]", "[\"\xc1\xbf\"]", "[\"\xe0\x80\x80\"]", "[\"\xe0\x9f\xbf\"]",
    "[\"\xed\xa0\x80\"]", "[\"\xed\xbf\xbf\"]", "[\"\xf0\x80\x80\x80\"]", "[\"\xf5\x80\x80\x80\"]", "[\"\xff\"]",
    "[\"\x80\"]", "[\"\xc3\"]", "[\"\xc3", "[\"\xe2\x82\"]", "[\"\xf0\x9f\x98\"]", "[\"\xc3\x28\"]",
    "[\"\\u\xc3\xa9\"]", "[\"\\\xc3\xa9\"]", "[\"\\\n\"]", "[\"\\u00\n\"]", "[\"\\u0\xff\"]", "[\"\\\xff\"]",
    "\xef\xbb\xbf[]", "\xef\xbb\xbf", "[\xef\xbb\xbf]", "\xc3\xa9", "[\xc3\xa9]", "\xff", "[\xff]", "[1\xff]",
    "[1.\xff]", "[1e\xff]", "[-\xff]", "[tr\xff]", "[1]\xff", "[1] \xc3\xa9", "[1,\xe2\x82\xac]",
    "[\"ab\xc3\xa9\",\n\xff]", "[\"\xc3\xa9\xc3\xa9\xc3\xa9\",\n \"\xc3\xa9\\x\"]", "[\t1,\r2,\n3]", "[\v1]",
    "[\f1]", "[\x01]", "[/]", "[#]", "[']", "['a']", "[NaN]", "[nan]", "[Infinity]", "[-Infinity]", "[inf]",
    "[0x10]", "[1_000]", "[\"aaaaaaaaaaaaaaaaaa\\x\"]", "[\"aaaaaaaaaaaaaaaaaaa\\x\"]",
    "[\"aaaaaaaaaaaaaaaaaaaaaaaaa\\ud800\"]", "[\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "{\"aaaaaaaaaaaaaaaaaaaaaaaaaaa\":1,\"aaaaaaaaaaaaaaaaaaaaaaaaaaa\":2}", "[123456789012345678901]",
    "[12345678901234567890]", "[1234567890123456789]", "[-12345678901234567890]", "[1,\n2,\n3 4]",
    "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": x\n}", "[\"\\u00e9\xc3\xa9\\n\", 1e5, -0.5, {\"k\":\"v\"}]",
    /* elements of arrays read flat (specs: the root's, the root's members') */
    "[{\"a\":1,\"a\":2}]", "[{\"x\":1,\"x\":2}]", "[{\"a\":1,\"\\u0061\":2}]", "[{\"\\u0078\":1,\"x\":2}]",
    "[{\"a\\u0000\":1}]", "[{\"a\"}]", "[{\"a\":}]", "[{\"a\":1,}]", "[{,}]", "[{\"a\":1 \"b\":2}]", "[{\"a\":1]",
    "[{\"a\":[1,{\"b\":1,\"b\":2}]}]", "[{\"a\":{\"b\":[]}},{}]", "[{}]", "[{},]", "[1,\"s\",[],{},null,true,false,1.5]",
    "{\"x\":[{\"a\":1}],\"x\":[]}", "{\"x\":[],\"\\u0078\":[]}", "[{\"a\":\"\\u0000\"}]", "[{\"x\":\"\\u0000\"}]",
    "[{\"a\":tru}]", "[{\"a\":1e400}]", "[{\"b\":-0.0,\"a\":\"\\u00e9\",\"k\":[{}],\"\":null}]", "[{1:2}]",
    "[{\"a\":\"Workload\"},{\"a\":\"Workload\"},{\"a\":\"Actual\",\"b\":\"Workload\"}]", "[{\"a\":1},",
    "{\"a\":[{\"a\":1}],\"b\":{\"a\":[{\"b\":2},{\"b\":3,\"b\":4}]}}", "[[{\"a\":1,\"a\":1}]]",
    "[{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,\"k3\":1}]", "[{\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,\"k25\":1}]", "[{\"\\u006b0\":0,\"\\u006b1\":1,\"\\u006b2\":2,\"\\u006b3\":3,\"\\u006b4\":4,\"\\u006b5\":5,\"\\u006b6\":6,\"\\u006b7\":7,\"\\u006b8\":8,\"\\u006b9\":9,\"\\u006b10\":10,\"\\u006b11\":11,\"\\u006b12\":12,\"\\u006b13\":13,\"\\u006b14\":14,\"\\u006b15\":15,\"\\u006b16\":16,\"\\u006b17\":17,\"\\u006b18\":18,\"\\u006b19\":19,\"k3\":1}]", "[{\"\\u006b0\":0,\"\\u006b1\":1,\"\\u006b2\":2,\"\\u006b3\":3,\"\\u006b4\":4,\"\\u006b5\":5,\"\\u006b6\":6,\"\\u006b7\":7,\"\\u006b8\":8,\"\\u006b9\":9,\"\\u006b10\":10,\"\\u006b11\":11,\"\\u006b12\":12,\"\\u006b13\":13,\"\\u006b14\":14,\"\\u006b15\":15,\"\\u006b16\":16,\"\\u006b17\":17,\"\\u006b18\":18,\"\\u006b19\":19,\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,}]", "[{\"\\u006b0\":0,\"\\u006b1\":1,\"\\u006b2\":2,\"\\u006b3\":3,\"\\u006b4\":4,\"\\u006b5\":5,\"\\u006b6\":6,\"\\u006b7\":7,\"\\u006b8\":8,\"\\u006b9\":9,\"\\u006b10\":10,\"\\u006b11\":11,\"\\u006b12\":12,\"\\u006b13\":13,\"\\u006b14\":14,\"\\u006b15\":15,\"\\u006b16\":16,\"\\u006b17\":17,\"\\u006b18\":18,\"\\u006b19\":19,\"\\u006b19\":1}]",
    "{\"Benchmarks\":[{\"Measurements\":[{\"IterationMode\":\"Workload\",\"IterationMode\":1}]}]}",
    /* fields matched by length and words: keys sharing a length or a prefix
     * with a field, a field repeated (as itself, escaped), at 7 to 17 bytes */
    "{\"Benchmarks\":[{\"Measurements\":[{\"IterationIndex\":1,\"IterationStage\":\"A\",\"IterationStagf\":2,\"IterationStage\":3}]}]}",
    "{\"Benchmarks\":[{\"Measurements\":[{\"IterationStage\":\"A\",\"IterationIndex\":1,\"IterationIndex\":2}]}]}",
    "{\"Benchmarks\":[{\"Measurements\":[{\"IterationMod\\u0065\":\"Workload\",\"LaunchIndex\":1,\"Nanoseconds\":2.5,\"Operations\":4}]}]}",
    "{\"Benchmarks\":[{\"Measurements\":[{\"IterationMode\":\"Workload\",\"\\u0049terationMode\":\"Workload\"}]}]}",
    "{\"Benchmarks\":[{\"Measurements\":[{\"Nanoseconds\":1,\"NanosecondS\":2,\"nanoseconds\":3,\"Nanoseconds\":4}]}]}",
    "[{\"abcdefg\":1,\"abcdefgh\":2,\"abcdefgi\":3,\"bbcdefgh\":4,\"abcdefghX\":5,\"abcdefghijklmnop\":6,"
    "\"abcdefghijklmnoq\":7,\"abcdefgxijklmnop\":8,\"abcdefghijklmnopq\":9,\"abcdefghijklmnopr\":10}]",
    "[{\"abcdefgh\":1,\"abcdefgi\":2,\"abcdefgh\":3}]", "[{\"abcdefghijklmnoq\":1,\"abcdefghijklmnop\":2,\"abcdefghijklmnoq\":3}]",
    "[{\"abcdefghijklmnopq\":1,\"abcdefghijklmnopr\":2,\"abcdefghijklmnop\\u0071\":3}]",
    "[{\"abcdefgj\":1,\"abcdefghijklmnoz\":2,\"zbcdefghijklmnop\":3,\"abcdefghijklmnopz\":4,\"abcdefghijklmnopqr\":5}]",
    "[{\"abcdefg\\u0068\":1,\"abcdefgh\":2}]", "[{\"abcdefgh\":\"x\",\"abcdefghX\":\"x\",\"abcdefgh\\u0058\":\"y\"}]",
    "[{\"x1\":1,\"x2\":2,\"x3\":3,\"x4\":4,\"x5\":5,\"x6\":6,\"x7\":7,\"x8\":8,\"x9\":9,\"x10\":10,\"x11\":11,\"x12\":12,"
    "\"x13\":13,\"x14\":14,\"x15\":15,\"x16\":16,\"x17\":17,\"abcdefgh\":1,\"x3\":0}]",
    "[{\"x1\":1,\"x2\":2,\"x3\":3,\"x4\":4,\"x5\":5,\"x6\":6,\"x7\":7,\"x8\":8,\"x9\":9,\"x10\":10,\"x11\":11,\"x12\":12,"
    "\"x13\":13,\"x14\":14,\"x15\":15,\"x16\":16,\"x17\":17,\"abcdefgh\":1,\"abcdefgh\":0}]",
    /* an element's keys foreseen from the last element's: the same, in
     * another order, longer or shorter by a byte, escaped, repeated,
     * absent, cut short by the end of the text */
    "[{\"abcdefgh\":1,\"b\":2},{\"abcdefgh\":3,\"b\":4},{\"b\":5,\"abcdefgh\":6},{\"abcdefghX\":7,\"b\":8}]",
    "[{\"abcdefgh\":1,\"b\":2},{\"abcdefg\":3,\"b\":4},{\"abcdefg\\u0068\":5,\"b\":6},{\"abcdefgh\":7,\"abcdefgh\":8}]",
    "[{\"abcdefgh\":1,\"b\":2},{\"abcdefgh\":3,\"abcdefgh\":4}]", "[{\"a\":1,\"b\":2},{\"a\":3,\"a\":4}]",
    "[{\"a\":1,\"b\":2},{\"b\":3,\"b\":4}]", "[{\"a\":1,\"b\":2},{}, {\"a\":1,\"b\":2,\"c\":3},{\"a\":1}]",
    "[{\"a\":1,\"b\":2},{\"a\":1, \"b\":2},{\"a\":1,  \"b\":2},{\"a\":1,\n\"b\":2},{ \"a\":1,\"b\" :2}]",
    "[{\n  \"a\": 1,\n  \"b\": 2\n},\n{\n  \"a\": 1,\n  \"b\": 2\n},{\n\t\"a\":1,\r\n \"c\":2},{\n\n    \"a\":1,\n    \"b\" 2}]",
    "[{\n  \"a\": 1,\n  \"b\": 2\n},\n{\n  \"a\": 1,\n  \"b\": 2,\n  \"b\": 3\n}]", "[{\n \"a\":1},{\n \"a\"\n:\n1\n,\n\"a\"}]",
    "[{\n  \"a\": 1,\n  \"b\": 2\n},\n{\n  \"a\": 1,\n  \xff\"b\": 2\n}]", "[{\n  \"a\": 1\n},\n{\n  \"a\": 1,\n  ",
    "[{\"a\":1,\"b\":2},{\"a\":1,\"b", "[{\"a\":1,\"b\":2},{\"a\":1,\"b\"", "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":",
    "[{\"a\":1,\"b\":2},{\"a\":1,\"\\u0000\":2}]", "[{\"\\u0000\":1,\"b\":2},{\"\\u0000\":1,\"b\":2}]",
    "[{\"\xc3\xa9\":1,\"b\":2},{\"\xc3\xa9\":1,\"b\":2},{\"\xc3\xa8\":1,\"b\":2},{\"\xc3\":1}]",
    "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2}],[{\"a\":1,\"b\":2}]", "[{\"a\":{\"a\":1,\"a\":2}},{\"a\":{\"b\":1}}]",
    "{\"Benchmarks\":[{\"Measurements\":[{\"IterationMode\":\"Workload\",\"Nanoseconds\":1},{\"IterationMode\":\"Workload\","
    "\"Nanoseconds\":2}]},{\"Measurements\":[{\"IterationMode\":\"Workload\",\"Nanoseconds\":3,\"Nanoseconds\":4}]}]}",
    /* strings scanned 8 bytes at a time: what ends or breaks the run at
     * every place in a word and across words */
    "[\"1234567\\\"\",\"12345678\\\"\",\"123456789\\\"\",\"123456789012345\\\"\",\"1234567890123456\\\"\"]",
    "[\"1234567\\n\",\"12345678\\n\",\"123456789\\u00e9\",\"1234567\\u0000\",\"123456789012345\\\\\"]",
    "[\"1234567\x7f\",\"12345678\x7f\",\"1234567\xc3\xa9\",\"12345678\xc3\xa9\",\"123456\xe2\x82\xac\",\"1234567\xe2\x82\xac\"]",
    "[\"1234567\xf0\x9f\x98\x80\",\"123456789abcdef\xf0\x9f\x98\x80\",\"1234567\x1f\",\"12345678\t\",\"123456789\x01\"]",
    "[\"1234567\xc3\",\"12345678\xff\"]", "[\"123456789012345\xc3\x28\"]", "[\"1234567\n\"]",
    "[\"12345678901234567890123456789012\"]", "[\"12345678\"]", "[\"1234567\"]", "[\"123456789\"]",
    "[\"\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"]", "[\"1234567",
    "[\"12345678", "[\"123456789", "[\"1234567\\", "[\"12345678\\u00",
    /* numbers read 8 digits at a time: runs of 1 to 20 digits, bytes next
     * to '0' and '9' (0x2F '/', 0x3A ':') right after them, leading zeros */
    "[1234567,12345678,123456789,1234567890123456,12345678901234567,123456789012345678,1234567890123456789]",
    "[-1234567,-12345678,-123456789,-9223372036854775808,-92233720368547758080]",
    "[0.1234567,0.12345678,0.123456789,0.1234567890123456,0.12345678901234567,0.123456789012345678901]",
    "[12345678.12345678,1234567.123456789,123456789.1234567,12345678901.23456789,1234567890123456789.5]",
    "[0.00000000123456789,0.000000001234567890123456789,100000000.00000001,9007199254740993.0,9007199254740992.5]",
    "[12345678e2,12345678E-2,1234567.8e1,12345678.e1,12345678.x]", "[12345678/]", "[1234567:]", "[12345678:1]",
    "{\"a\":12345678:}", "[12345678", "[1234567", "[123456789", "[0.12345678", "[1234567890123456789",
    "[20144.135867447578,26964.12788743259,0.000000000000000000000000001234567,1234567800000000000000000000]",
    "[4503599627370497.5,9007199254740991,9007199254740992,9007199254740993,18014398509481985]",
    "{\"results\":[{\"measurements\":[{\"elapsed\":1,\"el\\u0061psed\":2}]}]}",
};

/* Strings with NUL bytes in them (the table above cannot hold them). */
static const struct {
    const char *s;
    size_t n;
} with_nul[] = {
    {"\0", 1},         {"[\0]", 3},       {"[1\0]", 4},          {"[1\0\0]", 5},         {"[true\0]", 7},
    {"[1\0,2]", 6},    {"[1\0 ]", 5},     {"[\"a\0\"]", 6},      {"[1]\0", 4},           {"[1.5\0]", 6},
    {"[1e5\0]", 6},    {"[-\0]", 4},      {"[1.\0]", 5},         {"[\"\\\0\"]", 6},      {"[\"\\u0\0\"]", 8},
    {"[1\0\n2]", 6},   {"[1\0\0\0]", 6},  {"{\"a\":1\0}", 8},    {"[1\0,\n 2\0, x]", 13}, {"[nul\0]", 6},
    {"[99999999999999999999\0]", 23},   {"[1\0", 3},          {"[1\0\0", 4},          {"[[1\0]]", 6},
};

/* n nested arrays (or objects), with something at the bottom. */
static char *nested(int n, int objects, const char *bottom)
{
    size_t len = strlen(bottom), size = (size_t)n * 6 + len + 1, k = 0;
    char *s = malloc(size);
    assert_non_null(s);
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, size - k, "%s", objects ? "{\"a\":" : "[");
    memcpy(s + k, bottom, len);
    k += len;
    for (int i = 0; i < n; i++)
        s[k++] = objects ? '}' : ']';
    s[k] = 0;
    return s;
}

static void test_edge_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
        compare("edge case", edge[i], strlen(edge[i]));
    for (size_t i = 0; i < sizeof with_nul / sizeof *with_nul; i++)
        compare("edge case with NUL", with_nul[i].s, with_nul[i].n);
    compare("no text at all", NULL, 0);
    /* jansson's depth limit (2048) counts every value, a number at the
     * bottom of the deepest array included */
    const int depth[] = {2046, 2047, 2048, 2049, 2050, 5000};
    const char *bottom[] = {"", "1", "\"a\"", "[]", "{}", "x"};
    for (size_t i = 0; i < sizeof depth / sizeof *depth; i++)
        for (size_t j = 0; j < sizeof bottom / sizeof *bottom; j++)
            for (int objects = 0; objects < 2; objects++) {
                char *s = nested(depth[i], objects, bottom[j]);
                compare("deep nesting", s, strlen(s));
                free(s);
            }
}

/* ---- the files ---- */

struct seeds {
    char **s;
    size_t *n, count, size;
};

static void keep_seed(struct seeds *k, const char *s, size_t n)
{
    if (n > 4096 || n == 0)
        return;
    if (k->count == k->size) {
        size_t size = k->size ? 2 * k->size : 256;
        char **s2 = realloc(k->s, size * sizeof *s2);
        assert_non_null(s2);
        k->s = s2;
        size_t *n2 = realloc(k->n, size * sizeof *n2);
        assert_non_null(n2);
        k->n = n2;
        k->size = size;
    }
    k->s[k->count] = malloc(n);
    assert_non_null(k->s[k->count]);
    memcpy(k->s[k->count], s, n);
    k->n[k->count++] = n;
}

static struct seeds seeds;
static long files;

static void compare_file(const char *path, char *s, size_t n)
{
    compare(path, s, n);
    keep_seed(&seeds, s, n);
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(s + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - s - at) : n - at;
        compare(path, s + at, len);
        keep_seed(&seeds, s + at, len);
        at += len + 1;
    }
    files++;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)size + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *n = (size_t)size;
    return s;
}

/* A .zst file's content (its frames one after the other), or NULL when it
 * does not decompress. */
static char *unzstd(const char *s, size_t n, size_t *out_n)
{
    ZSTD_DStream *z = ZSTD_createDStream();
    size_t cap = 1 << 20, used = 0;
    char *out = malloc(cap);
    assert_true(z && out);
    ZSTD_inBuffer in = {s, n, 0};
    while (in.pos < in.size) {
        if (used == cap) {
            char *more = realloc(out, cap *= 2);
            assert_non_null(more);
            out = more;
        }
        ZSTD_outBuffer o = {out, cap, used};
        if (ZSTD_isError(ZSTD_decompressStream(z, &o, &in)) || cap > (64u << 20)) {
            free(out);
            out = NULL;
            break;
        }
        used = o.pos;
    }
    ZSTD_freeDStream(z);
    *out_n = used;
    return out;
}

static void walk(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' || !strcmp(de->d_name, "node_modules"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || S_ISLNK(st.st_mode))
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path);
            continue;
        }
        size_t n, zn;
        char *s = slurp(path, &n), *z;
        compare_file(path, s, n);
        if (n > 4 && !memcmp(s, "\x28\xb5\x2f\xfd", 4) && (z = unzstd(s, n, &zn))) {
            compare_file(path, z, zn);
            free(z);
        }
        free(s);
    }
    closedir(d);
}

static void test_files(void **state)
{
    (void)state;
    const char *dirs[] = {"tests/data", "examples", "tests/fuzz/corpus"};
    long before = compared, ok = accepted;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", TEST_SRC_DIR, dirs[i]);
        walk(dir);
    }
    printf("%ld files: %ld texts compared, %ld of them JSON both parsers accept\n", files, compared - before,
           accepted - ok);
    printf("%ld arrays read flat matched jansson's\n", flat_arrays);
    /* the walk reached the data: hundreds of files, most of them JSON */
    assert_true(files > 500);
    assert_true(flat_arrays > 1000);
    assert_true(accepted - ok > 2000);
}

/* ---- the mutants ---- */

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char interesting[] = "\"\\u0123456789-+.eE[]{}:, \n\t\rtfnabDdCc\x00\x01\x1f\x7f\x80\xbf\xc0\xc2"
                                  "\xc3\xa9\xe0\xe2\xed\xef\xf0\xf4\xf5\xff";
static const char *const tokens[] = {"\\ud800", "\\udc00", "\\u0000", "\\ud83d\\ude00", "1e400", "-0",
                                     "9223372036854775808", "-9223372036854775809", "1.7976931348623159e308",
                                     "true", "nul", "\\", "\"", "0.1", "4.9e-324", "[[[[", "]]]]", "{\"a\":1}"};

/* One mutant of s[0..n) into out (room for n + 128 bytes): its length. */
static size_t mutate(const char *s, size_t n, char *out)
{
    memcpy(out, s, n);
    int edits = 1 + (int)(next() % 3);
    for (int k = 0; k < edits; k++) {
        size_t at = n ? next() % (n + 1) : 0, len;
        const char *t;
        unsigned what = (unsigned)(next() % 6);
        char c = interesting[next() % (sizeof interesting - 1)];
        switch (what) {
        case 0: /* change a byte */
            if (at < n)
                out[at] = c;
            break;
        case 1: /* insert one */
            memmove(out + at + 1, out + at, n - at);
            out[at] = c;
            n++;
            break;
        case 2: /* delete one */
            if (at < n) {
                memmove(out + at, out + at + 1, n - at - 1);
                n--;
            }
            break;
        case 3: /* cut the end */
            n = at;
            break;
        case 4: /* splice a token */
            t = tokens[next() % (sizeof tokens / sizeof *tokens)];
            len = strlen(t);
            memmove(out + at + len, out + at, n - at);
            memcpy(out + at, t, len);
            n += len;
            break;
        default: /* flip a bit */
            if (at < n)
                out[at] ^= (char)(1u << (next() % 8));
        }
    }
    return n;
}

static void test_mutants(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
        keep_seed(&seeds, edge[i], strlen(edge[i]));
    assert_true(seeds.count > 1000);
    char out[4096 + 128];
    long n = getenv("BENCHDB_SANITIZED") && !strcmp(getenv("BENCHDB_SANITIZED"), "1") ? 100000 : 400000;
    long ok = accepted;
    flat_all = 0;
    for (long i = 0; i < n; i++) {
        size_t k = next() % seeds.count;
        compare("mutant", out, mutate(seeds.s[k], seeds.n[k], out));
    }
    flat_all = 1;
    printf("%ld mutants, %ld of them JSON both parsers accept\n", n, accepted - ok);
    for (size_t k = 0; k < seeds.count; k++)
        free(seeds.s[k]);
    free(seeds.s);
    free(seeds.n);
}

/* ---- reals: the fast paths of core/decimal against strtod ---- */

/* Arrays of 1,000 reals each, both parsers: doubles of random bits
 * printed in full (17 digits), to 16 and 15 digits; decimals of random
 * digits and exponents around the fast paths' limits (19 digits, 10^+-27);
 * and exact halfway points between doubles, which the extended path
 * must leave to strtod. */
static void test_reals(void **state)
{
    (void)state;
    size_t size = 1000 * 48 + 16;
    char *s = malloc(size);
    assert_non_null(s);
    for (int chunk = 0; chunk < 300; chunk++) {
        size_t k = 0;
        s[k++] = '[';
        for (int i = 0; i < 1000; i++) {
            uint64_t bits = next();
            double d;
            memcpy(&d, &bits, sizeof d);
            int kind = (int)(next() % 5);
            if (kind < 3 && !isfinite(d))
                d = 1.5;
            if (kind < 3 && chunk % 2)
                d = ldexp((double)(next() >> 11), (int)(next() % 140) - 100); /* near the fast range */
            if (kind < 3) {
                k += (size_t)snprintf(s + k, size - k, "%.*g,", 17 - kind, d);
            } else if (kind == 3) {
                uint64_t m = next() % 10000000000000000000u;
                int e = (int)(next() % 61) - 30;
                k += (size_t)snprintf(s + k, size - k, "%llue%d,", (unsigned long long)m, e);
            } else {
                /* halfway between 2^53 + 2j and 2^53 + 2j + 2, times 10^e */
                uint64_t m = (UINT64_C(1) << 53) + 2 * (next() % 1000000) + 1;
                k += (size_t)snprintf(s + k, size - k, "%llu0e-1,", (unsigned long long)m);
            }
        }
        s[k - 1] = ']';
        compare("reals", s, k);
    }
    free(s);
    /* the extended path's result exactly halfway between two doubles while
     * the decimal is not: rounding it again would miss strtod's double by
     * one (found by search: 40 such among 200 million random decimals of
     * up to 19 digits times 10^-27 to 10^27) */
    const char *halfway[] = {"[6365511109849448437e7]", "[6013445100834028244e-8]", "[4396505295853472142e21]",
                             "[9291570835603484484e21]", "[4808059449824332677e2]",  "[4457080461516593933e-7]",
                             "[4720942045199634955e15]", "[52403519559951800e-17]",  "[6118987222146238327e-8]",
                             "[4933580487567229006e13]", "[0.52403519559951800]",    "[-60134451008.34028244]"};
    for (size_t i = 0; i < sizeof halfway / sizeof *halfway; i++)
        compare("halfway", halfway[i], strlen(halfway[i]));
}

#if defined(__x86_64__) || defined(__i386__)
/* The same with the x87 unit rounding to 53 bits, as a thread may set it
 * (and as valgrind computes long doubles): the parser must see that its
 * extended path is not extended there and leave the reals to strtod. */
static void test_reals_x87_53_bits(void **state)
{
    unsigned short cw, cw53;
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    cw53 = (unsigned short)((cw & ~0x300u) | 0x200u);
    __asm__ volatile("fldcw %0" : : "m"(cw53));
    test_reals(state);
    __asm__ volatile("fldcw %0" : : "m"(cw));
}
#endif

/* ---- allocation failures ---- */

static long fail_at = -1;

static void *faulty(size_t n)
{
    if (fail_at >= 0 && fail_at-- == 0)
        return NULL;
    return malloc(n);
}

static void test_no_memory(void **state)
{
    (void)state;
    const char *docs[] = {"{\"a\\u00e9\":[1,2.5,\"x\\ny\"],\"b\":{\"c\":null},\"d\":\"\\ud83d\\ude00\"}",
                          "[1.7976931348623157e308, 0.1e-5, 123456789012345678901e-5, \"\\t\", "
                          "0.1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
                          "00000000000000000000000000000000000000000000000000000000000000000000000000000001]",
                          /* read flat (BenchmarkDotNet's spec): a record, a string made once, a decoded key, a tree */
                          "{\"Benchmarks\":[{\"Measurements\":[{\"IterationMode\":\"Workload\",\"Nanoseconds\":1},"
                          "{\"Iteration\\u004dode\":\"Workload\",\"x\":{\"y\":[1]},\"Operations\":\"a\\nb\"}, 5]}]}"};
    const struct json_flat_spec *bdn = harness_find("benchmarkdotnet")->flat;
    assert_non_null(bdn);
    json_checked_allocator(faulty, free);
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        int reached_end = 0;
        for (long k = 0; k < 1000 && !reached_end; k++) {
            fail_at = k;
            struct json_doc doc;
            struct json_parse_error e;
            enum json_parse_status st = i == 2 ? json_parse_flat(docs[i], strlen(docs[i]), bdn, &doc, &e)
                                               : json_parse(docs[i], strlen(docs[i]), &doc, &e);
            reached_end = fail_at >= 0;
            if (st == JSON_PARSED) {
                assert_true(reached_end);
                json_doc_free(&doc);
            } else {
                assert_int_equal(st, JSON_NO_MEMORY);
                assert_false(reached_end);
            }
        }
        assert_true(reached_end);
        fail_at = -1;
    }
    json_checked_allocator(NULL, NULL);
}

int main(void)
{
    json_checked_install();
    collect_specs();
    printf("%zu flat specs: %zu of the adapters' table, %zu synthetic\n", n_specs, n_adapter_specs,
           n_specs - n_adapter_specs);
    if (n_adapter_specs == 0 || n_specs == MAX_SPECS) /* the table read, and no spec left out */
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_mutants),
        cmocka_unit_test(test_reals),
#if defined(__x86_64__) || defined(__i386__)
        cmocka_unit_test(test_reals_x87_53_bits),
#endif
        cmocka_unit_test(test_no_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
