#include "ingest/core/jsonread.h"

#include <stdint.h>
#include <string.h>

#include "ingest/core/jsonlex.h"

/* The parse: the tokens, and the arrays read flat (jsonflat.h). */
struct reader {
    struct json_lexer x;
    const struct json_flat_spec *spec; /* NULL: the whole tree */
    size_t steps;                      /* the spec's path length */
    size_t width;                      /* 1 + its fields */
    size_t field_len[JSON_FLAT_FIELDS_MAX];
    /* the keys of the last object read flat, in their order, when they
     * were plain (s in the text; else NULL), with their fields (or -1):
     * the next element's keys are most likely the same, which a compare
     * of their bytes tells (json_lex_known) */
    struct {
        const char *s;
        size_t len;
        int field;
    } last[16];
    struct json_flats *flats;
    void *(*keep)(size_t); /* jansson's allocator: what lives as long as the tree */
};

/* Where a value is in the spec's path: the number of its steps matched
 * so far, or NO_PATH once it has left the path. */
#define NO_PATH ((size_t)-1)

static json_t *read_value(struct reader *r, size_t depth, size_t at);

/* Whether key is one of a path step's keys ("a", or "a|b": either). */
static int step_names(const char *s, const char *key, size_t len)
{
    for (;;) {
        const char *bar = strchr(s, '|');
        size_t n = bar ? (size_t)(bar - s) : strlen(s);
        if (n == len && memcmp(s, key, len) == 0)
            return 1;
        if (!bar)
            return 0;
        s = bar + 1;
    }
}

/* The step a member key (or, key NULL, an array element) takes from at. */
static size_t step(const struct reader *r, size_t at, const char *key, size_t len)
{
    if (at == NO_PATH || at >= r->steps)
        return NO_PATH;
    const char *s = r->spec->path[at];
    if (s[0] == '*' && s[1] == 0)
        return at + 1;
    return key && step_names(s, key, len) ? at + 1 : NO_PATH;
}

/* One member, its key the current token: checked (no NUL, no duplicate:
 * benchdb parses strictly), then its value set without a second check. */
static int read_member(struct reader *r, json_t *o, size_t depth, size_t at)
{
    struct json_lexer *x = &r->x;
    const char *key = x->str;
    size_t len = x->len;
    char *owned = x->owned;
    x->owned = NULL; /* the key outlives the tokens of its value */
    int ok = 0;
    if (x->has_nul) {
        json_lex_fail(x, "NUL byte in object key not supported");
    } else if (json_object_getn(o, key, len)) {
        json_lex_fail(x, "duplicate object key");
    } else if (json_lex_expect(x, ':') != ':') {
        json_lex_fail(x, "':' expected");
    } else {
        json_lex_next(x);
        json_t *v = read_value(r, depth + 1, step(r, at, key, len));
        if (v && json_object_setn_new_nocheck(o, key, len, v))
            json_lex_no_memory(x);
        ok = v && !x->failed;
    }
    if (owned)
        x->release(owned);
    return ok;
}

static json_t *read_object(struct reader *r, size_t depth, size_t at)
{
    struct json_lexer *x = &r->x;
    json_t *o = json_object();
    if (!o) {
        json_lex_no_memory(x);
        return NULL;
    }
    if (json_lex_next(x) == '}')
        return o;
    for (;;) {
        if (x->token != JT_STRING) {
            json_lex_fail(x, "string or '}' expected");
            return NULL;
        }
        if (!read_member(r, o, depth, at))
            return NULL;
        if (json_lex_expect(x, ',') != ',')
            break;
        json_lex_next(x);
    }
    if (x->token != '}') {
        json_lex_fail(x, "'}' expected");
        return NULL;
    }
    return o;
}

static json_t *read_array(struct reader *r, size_t depth, size_t at)
{
    struct json_lexer *x = &r->x;
    json_t *a = json_array();
    if (!a) {
        json_lex_no_memory(x);
        return NULL;
    }
    if (json_lex_next(x) == ']')
        return a;
    while (x->token != JT_EOF) {
        json_t *v = read_value(r, depth + 1, step(r, at, NULL, 0));
        if (!v)
            return NULL;
        if (json_array_append_new(a, v)) {
            json_lex_no_memory(x);
            return NULL;
        }
        if (json_lex_expect(x, ',') != ',')
            break;
        json_lex_next(x);
    }
    if (x->token != ']') {
        json_lex_fail(x, "']' expected");
        return NULL;
    }
    return a;
}

/* ---- an array read flat: the same tokens, the same checks ---- */

/* The value that starts with the current token into *out (kept: a
 * field the spec names; else only checked). Objects and arrays are read
 * as trees (any key of theirs checked for duplicates as ever). */
static int flat_value(struct reader *r, struct json_flat_array *fa, size_t depth, struct json_flat_value *out,
                      int kept)
{
    struct json_lexer *x = &r->x;
    if (x->token == '{' || x->token == '[') {
        json_t *v = read_value(r, depth, NO_PATH);
        if (!v)
            return 0;
        out->type = (int)json_typeof(v);
        out->u.tree = v;
        return 1;
    }
    if (depth > JSON_PARSER_MAX_DEPTH) {
        json_lex_fail(x, "maximum parsing depth reached");
        return 0;
    }
    switch (x->token) {
    case JT_STRING:
        if (x->has_nul) {
            json_lex_fail(x, "\\u0000 is not allowed without JSON_ALLOW_NUL");
            return 0;
        }
        if (kept) {
            out->type = JSON_STRING;
            if (!(out->u.tree = json_flat_string(fa, x->str, x->len))) {
                json_lex_no_memory(x);
                return 0;
            }
        }
        return 1;
    case JT_INTEGER:
        out->type = JSON_INTEGER;
        out->u.integer = x->integer;
        return 1;
    case JT_REAL:
        out->type = JSON_REAL;
        out->u.real = x->real;
        return 1;
    case JT_TRUE:
        out->type = JSON_TRUE;
        out->u.tree = json_true();
        return 1;
    case JT_FALSE:
        out->type = JSON_FALSE;
        out->u.tree = json_false();
        return 1;
    case JT_NULL:
        out->type = JSON_NULL;
        out->u.tree = json_null();
        return 1;
    case JT_INVALID:
        json_lex_fail(x, "invalid token");
        return 0;
    default:
        json_lex_fail(x, "unexpected token");
        return 0;
    }
}

/* The keys an element has had, for the duplicate check: a few compared
 * in a row, more than that in a jansson object used as a set. */
#define FEW_KEYS 16
struct keys {
    struct {
        const char *s;
        size_t len;
    } k[FEW_KEYS];
    char *owned[FEW_KEYS]; /* decoded keys (with escapes), released after the element */
    size_t n, n_owned;
    json_t *set;
};

/* Whether key is one already seen; else it is noted (its text taken
 * into the arena when it is a decoded copy); -1 when memory ran out. */
static int key_seen(struct keys *ks, const char *key, size_t len)
{
    if (ks->set) {
        if (json_object_getn(ks->set, key, len))
            return 1;
        return json_object_setn_new_nocheck(ks->set, key, len, json_null()) ? -1 : 0;
    }
    for (size_t i = 0; i < ks->n; i++)
        if (ks->k[i].len == len && json_same_bytes(ks->k[i].s, key, len))
            return 1;
    if (ks->n == FEW_KEYS) {
        if (!(ks->set = json_object()))
            return -1;
        for (size_t i = 0; i < ks->n; i++)
            if (json_object_setn_new_nocheck(ks->set, ks->k[i].s, ks->k[i].len, json_null()))
                return -1;
        return json_object_setn_new_nocheck(ks->set, key, len, json_null()) ? -1 : 0;
    }
    ks->k[ks->n].s = key;
    ks->k[ks->n++].len = len;
    return 0;
}

/* The field index of key, or -1. */
static int field_of(const struct reader *r, const char *key, size_t len)
{
    for (size_t f = 0; f + 1 < r->width; f++)
        if (r->field_len[f] == len && json_same_bytes(r->spec->fields[f], key, len))
            return (int)f;
    return -1;
}

/* The next token, where an object's member i's key is expected: when it
 * is the key the last element had there, its field (or -1) without a
 * scan of its bytes or a match against the fields; else NO_KEY, the
 * token read as ever. */
#define NO_KEY (-2)
static int next_key(struct reader *r, size_t i)
{
    struct json_lexer *x = &r->x;
    if (i < sizeof r->last / sizeof *r->last && r->last[i].s) {
        if (json_lex_known(x, r->last[i].s, r->last[i].len))
            return r->last[i].field;
        /* a pretty-printed text: a newline and an indentation first */
        if (x->p < x->end && (*x->p == '\n' || *x->p == '\r' || *x->p == '\t')) {
            json_lex_space(x);
            if (json_lex_known(x, r->last[i].s, r->last[i].len))
                return r->last[i].field;
        }
    }
    json_lex_next(x);
    return NO_KEY;
}

/* Whether the element's key (its field f, or -1) was met before in it: a
 * field by its bit in *fields, any other key among the others (no field
 * is one of them); -1 when memory ran out. */
static int member_seen(struct keys *ks, unsigned *fields, int f, const char *key, size_t len)
{
    if (f < 0)
        return key_seen(ks, key, len);
    int seen = (*fields >> f) & 1;
    *fields |= 1u << f;
    return seen;
}

/* An element that is an object, its fields into rec: read_object's and
 * read_member's tokens and checks, in their order. */
static int flat_object(struct reader *r, struct json_flat_array *fa, size_t depth, struct json_flat_value *rec)
{
    struct json_lexer *x = &r->x;
    struct keys ks;
    ks.n = ks.n_owned = 0;
    ks.set = NULL;
    unsigned fields = 0;
    rec[0].type = JSON_OBJECT;
    rec[0].u.tree = NULL;
    int ok = 1;
    size_t i = 0; /* the member's place */
    int f = next_key(r, i);
    if (f == NO_KEY && x->token == '}')
        return 1;
    for (;;) {
        if (x->token != JT_STRING) {
            json_lex_fail(x, "string or '}' expected");
            ok = 0;
            break;
        }
        const char *key = x->str;
        size_t len = x->len;
        char *owned = x->owned;
        x->owned = NULL; /* the key outlives the tokens of its value */
        if (f == NO_KEY)
            f = x->has_nul ? -1 : field_of(r, key, len);
        if (i < sizeof r->last / sizeof *r->last) {
            r->last[i].s = owned || x->has_nul ? NULL : key;
            r->last[i].len = len;
            r->last[i].field = f;
        }
        int seen = x->has_nul ? 0 : member_seen(&ks, &fields, f, key, len);
        /* a decoded key the list points to lives until the element ends */
        int listed = owned && !x->has_nul && f < 0 && seen == 0 && !ks.set;
        if (listed)
            ks.owned[ks.n_owned++] = owned;
        if (x->has_nul) {
            json_lex_fail(x, "NUL byte in object key not supported");
        } else if (seen < 0) {
            json_lex_no_memory(x);
        } else if (seen) {
            json_lex_fail(x, "duplicate object key");
        } else if (json_lex_expect(x, ':') != ':') {
            json_lex_fail(x, "':' expected");
        } else {
            json_lex_next(x);
            struct json_flat_value scratch;
            flat_value(r, fa, depth + 1, f >= 0 ? &rec[1 + f] : &scratch, f >= 0);
        }
        if (owned && !listed)
            x->release(owned);
        if (x->failed) {
            ok = 0;
            break;
        }
        if (json_lex_expect(x, ',') != ',')
            break;
        f = next_key(r, ++i);
    }
    if (ok && x->token != '}') {
        json_lex_fail(x, "'}' expected");
        ok = 0;
    }
    for (size_t i = 0; i < ks.n_owned; i++)
        x->release(ks.owned[i]);
    return ok;
}

/* The array the spec names, its first token current: its elements into
 * a flat array, an empty array in the tree in its place. */
static json_t *flat_array(struct reader *r, size_t depth)
{
    struct json_lexer *x = &r->x;
    json_t *a = json_array();
    struct json_flat_array *fa = a ? json_flat_new(r->width, r->keep) : NULL;
    if (!fa || json_flats_add(r->flats, fa, r->keep)) {
        json_lex_no_memory(x);
        return NULL;
    }
    fa->placeholder = a;
    if (json_lex_next(x) == ']')
        return a;
    while (x->token != JT_EOF) {
        struct json_flat_value *rec = json_flat_push(fa, r->keep);
        if (!rec) {
            json_lex_no_memory(x);
            return NULL;
        }
        if (depth + 1 > JSON_PARSER_MAX_DEPTH) {
            json_lex_fail(x, "maximum parsing depth reached");
            return NULL;
        }
        if (!(x->token == '{' ? flat_object(r, fa, depth + 1, rec) : flat_value(r, fa, depth + 1, &rec[0], 1)))
            return NULL;
        if (json_lex_expect(x, ',') != ',')
            break;
        json_lex_next(x);
    }
    if (x->token != ']') {
        json_lex_fail(x, "']' expected");
        return NULL;
    }
    return a;
}

/* The value that starts with the current token, depth deep (the outer
 * one 1): jansson's limit is on every value, a number in the deepest
 * array included. at: where it is in the spec's path. */
static json_t *read_value(struct reader *r, size_t depth, size_t at)
{
    struct json_lexer *x = &r->x;
    json_t *v;
    if (depth > JSON_PARSER_MAX_DEPTH) {
        json_lex_fail(x, "maximum parsing depth reached");
        return NULL;
    }
    switch (x->token) {
    case '{':
        return read_object(r, depth, at);
    case '[':
        return r->spec && at == r->steps ? flat_array(r, depth) : read_array(r, depth, at);
    case JT_STRING:
        if (x->has_nul) {
            json_lex_fail(x, "\\u0000 is not allowed without JSON_ALLOW_NUL");
            return NULL;
        }
        v = json_stringn_nocheck(x->str, x->len);
        break;
    case JT_INTEGER:
        v = json_integer(x->integer);
        break;
    case JT_REAL:
        v = json_real(x->real);
        break;
    case JT_TRUE:
        return json_true();
    case JT_FALSE:
        return json_false();
    case JT_NULL:
        return json_null();
    case JT_INVALID:
        json_lex_fail(x, "invalid token");
        return NULL;
    default:
        json_lex_fail(x, "unexpected token");
        return NULL;
    }
    if (!v)
        json_lex_no_memory(x);
    return v;
}

json_t *json_read_flat(const char *s, size_t n, const struct json_flat_spec *spec, struct json_flats *flats,
                       void *(*alloc)(size_t), void (*release)(void *), struct json_parse_error *e)
{
    struct reader r;
    memset(&r, 0, sizeof r);
    json_lex_init(&r.x, s, n, alloc, release, e);
    r.spec = spec;
    r.steps = NO_PATH;
    if (spec) {
        while (spec->path[r.steps + 1])
            r.steps++;
        r.steps++;
        r.width = 1 + json_flat_width(spec);
        for (size_t f = 0; f + 1 < r.width; f++)
            r.field_len[f] = strlen(spec->fields[f]);
        r.flats = flats;
        json_get_alloc_funcs(&r.keep, NULL);
    }
    struct json_lexer *x = &r.x;
    json_t *root = NULL;
    json_lex_next(x);
    if (x->token != '[' && x->token != '{') {
        json_lex_fail(x, "'[' or '{' expected");
    } else {
        root = read_value(&r, 1, spec ? 0 : NO_PATH);
        if (root && json_lex_next(x) != JT_EOF)
            json_lex_fail(x, "end of file expected");
        if (root && !x->failed && spec && json_flats_index(flats, r.keep))
            json_lex_no_memory(x);
    }
    json_lex_close(x);
    return x->failed ? NULL : root;
}

json_t *json_read(const char *s, size_t n, void *(*alloc)(size_t), void (*release)(void *),
                  struct json_parse_error *e)
{
    return json_read_flat(s, n, NULL, NULL, alloc, release, e);
}
