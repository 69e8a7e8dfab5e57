#include "ingest/core/jsonflat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t json_flat_width(const struct json_flat_spec *spec)
{
    size_t n = 0;
    while (n < JSON_FLAT_FIELDS_MAX && spec->fields[n])
        n++;
    return n;
}

struct json_flat_array *json_flat_new(size_t width, void *(*alloc)(size_t))
{
    struct json_flat_array *a = alloc(sizeof *a);
    if (a) {
        memset(a, 0, sizeof *a);
        a->width = width;
    }
    return a;
}

struct json_flat_value *json_flat_push(struct json_flat_array *a, void *(*alloc)(size_t))
{
    if (a->n == (a->n_chunks ? JSON_FLAT_FIRST + (a->n_chunks - 1) * JSON_FLAT_CHUNK : 0)) {
        if (a->n_chunks == a->cap_chunks) {
            /* from an arena, the old table is not freed: it is a few bytes a chunk */
            size_t cap = a->cap_chunks ? 2 * a->cap_chunks : 4;
            struct json_flat_value **c = alloc(cap * sizeof *c);
            if (!c)
                return NULL;
            if (a->n_chunks)
                memcpy(c, a->chunks, a->n_chunks * sizeof *c);
            if (a->owned)
                free(a->chunks);
            a->chunks = c;
            a->cap_chunks = cap;
        }
        size_t elems = a->n_chunks ? JSON_FLAT_CHUNK : JSON_FLAT_FIRST;
        struct json_flat_value *chunk = alloc(elems * a->width * sizeof *chunk);
        if (!chunk)
            return NULL;
        a->chunks[a->n_chunks++] = chunk;
    }
    struct json_flat_value *r = json_flat_at(a, a->n++);
    for (size_t i = 0; i < a->width; i++)
        r[i].type = JSON_FLAT_ABSENT;
    return r;
}

int json_flats_add(struct json_flats *f, struct json_flat_array *a, void *(*alloc)(size_t))
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 8;
        struct json_flat_array **na = alloc(cap * sizeof *na);
        if (!na)
            return -1;
        if (f->n)
            memcpy(na, f->a, f->n * sizeof *na);
        f->a = na; /* the old table stays in the arena */
        f->cap = cap;
    }
    a->index = f->n;
    f->a[f->n++] = a;
    return 0;
}

static int by_placeholder(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t)(*(struct json_flat_array *const *)x)->placeholder,
              b = (uintptr_t)(*(struct json_flat_array *const *)y)->placeholder;
    return (a > b) - (a < b);
}

int json_flats_index(struct json_flats *f, void *(*alloc)(size_t))
{
    if (f->n < 2) {
        f->by_placeholder = f->a; /* sorted already */
        return 0;
    }
    struct json_flat_array **s = alloc(f->n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, f->a, f->n * sizeof *s);
    qsort(s, f->n, sizeof *s, by_placeholder);
    f->by_placeholder = s;
    return 0;
}

json_t *json_flat_string(struct json_flat_array *a, const char *s, size_t len)
{
    for (size_t i = 0; i < a->n_strings; i++)
        if (a->string_len[i] == len && memcmp(a->string_text[i], s, len) == 0)
            return a->strings[i];
    json_t *v = json_stringn_nocheck(s, len);
    if (v && a->n_strings < sizeof a->strings / sizeof *a->strings) {
        a->string_text[a->n_strings] = json_string_value(v);
        a->string_len[a->n_strings] = len;
        a->strings[a->n_strings++] = v;
    }
    return v;
}

/* v among f's placeholders, sorted by address: log n comparisons. */
static const struct json_flat_array *search(const struct json_flats *f, const json_t *v,
                                            struct json_flats_cursor *cur)
{
    uintptr_t want = (uintptr_t)v;
    size_t lo = 0, hi = f->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uintptr_t p = (uintptr_t)f->by_placeholder[mid]->placeholder;
        cur->probes++;
        if (p == want)
            return f->by_placeholder[mid];
        if (p < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const struct json_flat_array *json_flats_find(const struct json_flats *f, const json_t *v,
                                              struct json_flats_cursor *cur)
{
    if (!f || !f->n || !json_is_array(v) || json_array_size(v) != 0)
        return NULL;
    const struct json_flat_array *a = NULL;
    cur->probes++;
    if (cur->next < f->n && f->a[cur->next]->placeholder == v) {
        a = f->a[cur->next];
    } else if (f->by_placeholder) {
        a = search(f, v, cur);
    } else {
        for (size_t i = 0; i < f->n && !a; i++, cur->probes++)
            if (f->a[i]->placeholder == v)
                a = f->a[i];
    }
    if (a)
        cur->next = a->index + 1;
    return a;
}

/* v's value into out (a tree's string or container borrowed). */
static void from_json(const json_t *v, struct json_flat_value *out)
{
    if (!v) {
        out->type = JSON_FLAT_ABSENT;
        return;
    }
    out->type = (int)json_typeof(v);
    if (json_is_integer(v))
        out->u.integer = json_integer_value(v);
    else if (json_is_real(v))
        out->u.real = json_real_value(v);
    else
        out->u.tree = (json_t *)v;
}

struct json_flat_array *json_flat_from_tree(const json_t *v, const char *const *fields)
{
    struct json_flat_spec spec = {NULL, fields};
    size_t width = 1 + json_flat_width(&spec);
    struct json_flat_array *a = json_flat_new(width, malloc);
    if (!a)
        return NULL;
    a->owned = 1;
    a->placeholder = v;
    for (size_t k = 0; k < json_array_size(v); k++) {
        struct json_flat_value *r = json_flat_push(a, malloc);
        if (!r) {
            json_flat_array_free(a);
            return NULL;
        }
        const json_t *e = json_array_get(v, k);
        if (!json_is_object(e)) {
            from_json(e, &r[0]);
            continue;
        }
        r[0].type = JSON_OBJECT;
        r[0].u.tree = NULL;
        for (size_t f = 0; f + 1 < width; f++)
            from_json(json_object_get(e, fields[f]), &r[1 + f]);
    }
    return a;
}

void json_flat_array_free(struct json_flat_array *a)
{
    if (!a || !a->owned)
        return;
    for (size_t i = 0; i < a->n_chunks; i++)
        free(a->chunks[i]);
    free(a->chunks);
    free(a);
}

json_t *json_flat_json(const struct json_flat_value *v)
{
    switch (v->type) {
    case JSON_FLAT_ABSENT:
        return NULL;
    case JSON_INTEGER:
        return json_integer(v->u.integer);
    case JSON_REAL:
        return json_real(v->u.real);
    case JSON_OBJECT:
        return v->u.tree ? json_incref(v->u.tree) : json_object(); /* a flat element: its kind is what is said */
    default:
        return json_incref(v->u.tree);
    }
}
