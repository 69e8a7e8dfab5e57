#include "ingest/core/jsonread.h"

#include "ingest/core/jsonlex.h"

static json_t *read_value(struct json_lexer *x, size_t depth);

/* One member, its key the current token: checked (no NUL, no duplicate:
 * benchdb parses strictly), then its value set without a second check. */
static int read_member(struct json_lexer *x, json_t *o, size_t depth)
{
    const char *key = x->str;
    size_t len = x->len;
    char *owned = x->owned;
    x->owned = NULL; /* the key outlives the tokens of its value */
    int ok = 0;
    if (x->has_nul) {
        json_lex_fail(x, "NUL byte in object key not supported");
    } else if (json_object_getn(o, key, len)) {
        json_lex_fail(x, "duplicate object key");
    } else if (json_lex_next(x) != ':') {
        json_lex_fail(x, "':' expected");
    } else {
        json_lex_next(x);
        json_t *v = read_value(x, depth + 1);
        if (v && json_object_setn_new_nocheck(o, key, len, v))
            json_lex_no_memory(x);
        ok = v && !x->failed;
    }
    if (owned)
        x->release(owned);
    return ok;
}

static json_t *read_object(struct json_lexer *x, size_t depth)
{
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
        if (!read_member(x, o, depth))
            return NULL;
        if (json_lex_next(x) != ',')
            break;
        json_lex_next(x);
    }
    if (x->token != '}') {
        json_lex_fail(x, "'}' expected");
        return NULL;
    }
    return o;
}

static json_t *read_array(struct json_lexer *x, size_t depth)
{
    json_t *a = json_array();
    if (!a) {
        json_lex_no_memory(x);
        return NULL;
    }
    if (json_lex_next(x) == ']')
        return a;
    while (x->token != JT_EOF) {
        json_t *v = read_value(x, depth + 1);
        if (!v)
            return NULL;
        if (json_array_append_new(a, v)) {
            json_lex_no_memory(x);
            return NULL;
        }
        if (json_lex_next(x) != ',')
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
 * array included. */
static json_t *read_value(struct json_lexer *x, size_t depth)
{
    json_t *v;
    if (depth > JSON_PARSER_MAX_DEPTH) {
        json_lex_fail(x, "maximum parsing depth reached");
        return NULL;
    }
    switch (x->token) {
    case '{':
        return read_object(x, depth);
    case '[':
        return read_array(x, depth);
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

json_t *json_read(const char *s, size_t n, void *(*alloc)(size_t), void (*release)(void *),
                  struct json_parse_error *e)
{
    struct json_lexer x;
    json_lex_init(&x, s, n, alloc, release, e);
    json_t *root = NULL;
    json_lex_next(&x);
    if (x.token != '[' && x.token != '{') {
        json_lex_fail(&x, "'[' or '{' expected");
    } else {
        root = read_value(&x, 1);
        if (root && json_lex_next(&x) != JT_EOF)
            json_lex_fail(&x, "end of file expected");
    }
    json_lex_close(&x);
    return x.failed ? NULL : root;
}
