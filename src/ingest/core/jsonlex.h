#ifndef BENCHDB_INGEST_CORE_JSONLEX_H
#define BENCHDB_INGEST_CORE_JSONLEX_H
/* The tokens of a JSON text, for jsonread (the parser) only.
 *
 * One pass over the buffer, a token at a time, with no call per byte.
 * What it accepts and refuses, and where and how it says so, is what
 * jansson 2.14's lexer does (jsonparse.h: the parser replaced jansson's,
 * the trees and the messages stay): the error is the first one jansson
 * would meet, its line and column counted as jansson counts them (code
 * points since the last newline read), its text jansson's, with the
 * token read so far ("near '...'", when it is at most 20 bytes). */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ingest/core/jsonerror.h"

enum json_token {
    JT_INVALID = -1,
    JT_EOF = 0,
    /* '{', '}', '[', ']', ':', ',' stand for themselves */
    JT_STRING = 256,
    JT_INTEGER,
    JT_REAL,
    JT_TRUE,
    JT_FALSE,
    JT_NULL
};

struct json_lexer {
    const unsigned char *p, *end;
    const unsigned char *tok;        /* the current token's first byte: its text is tok..p */
    const unsigned char *line_start; /* the byte after the last newline read */
    int line, line_nuls;             /* line_nuls: NUL bytes jansson dropped on this line */
    int token;
    int after_word; /* the token ended by a look at the next byte (a number, a word) */
    int failed;     /* an error was met (e->status says which) */
    int utf8_error; /* it was bytes that are not UTF-8 */
    /* the token's value */
    json_int_t integer;
    double real;
    const char *str; /* a string's bytes: in the buffer, or in owned */
    size_t len;
    char *owned; /* a string with escapes, decoded (the caller takes it) */
    int has_nul; /* a \u0000 in the string */
    void *(*alloc)(size_t);
    void (*release)(void *);
    struct json_parse_error *e;
};

/* Starts reading s[0..n); owned strings come from alloc and go to release. */
void json_lex_init(struct json_lexer *x, const char *s, size_t n, void *(*alloc)(size_t), void (*release)(void *),
                   struct json_parse_error *e);
/* Drops the string the caller did not take (x->owned). */
void json_lex_close(struct json_lexer *x);
/* json_lex_next's whole path: any token, from any state. */
int json_lex_scan(struct json_lexer *x);
/* The token that starts at p, where whitespace was skipped to (no string
 * left to drop, no error met, no NUL after a word): json_lex_scan's
 * second half. */
int json_lex_at(struct json_lexer *x, const unsigned char *p);

/* Reads the next token into x->token (JT_INVALID once an error was met).
 * Most of a document's tokens come after no whitespace or one space: the
 * space is skipped here, and ':', ',' and the brackets read, inline; any
 * other token from there by json_lex_at; what is not that simple (a
 * string to drop, a NUL after a number or a word, more whitespace, an
 * error met) by json_lex_scan. */
static inline int json_lex_next(struct json_lexer *x)
{
    const unsigned char *p = x->p, *end = x->end;
    if (x->owned || x->failed || (x->after_word && p < end && *p == 0))
        return json_lex_scan(x);
    x->after_word = 0;
    p += p < end && *p == ' ';
    if (p == end)
        return json_lex_scan(x);
    switch (*p) {
    case ':':
    case ',':
    case '{':
    case '}':
    case '[':
    case ']':
        x->tok = p;
        x->p = p + 1;
        return x->token = *p;
    case ' ':
    case '\n':
    case '\t':
    case '\r':
        return json_lex_scan(x);
    default:
        return json_lex_at(x, p);
    }
}

/* The next token, where the grammar all but says it is c (':' after a
 * key, ',' after a value): read inline when it is, after at most one
 * space, with one well-guessed branch; else as json_lex_next reads it. */
static inline int json_lex_expect(struct json_lexer *x, unsigned char c)
{
    const unsigned char *p = x->p, *end = x->end;
    if (!x->owned && !x->failed) {
        p += p < end && *p == ' ';
        if (p < end && *p == c) { /* c is no NUL: the NUL after a word is not in the way */
            x->after_word = 0;
            x->tok = p;
            x->p = p + 1;
            return x->token = c;
        }
    }
    return json_lex_next(x);
}

/* Whether the len bytes at a and b are the same: keys are short, and
 * most of 8 to 16 bytes, which two words each compare (overlapping),
 * without a call. */
static inline int json_same_bytes(const void *a, const void *b, size_t len)
{
    const unsigned char *s = a, *t = b;
    if (len >= 8 && len <= 16) {
        uint64_t s0, s1, t0, t1;
        memcpy(&s0, s, 8);
        memcpy(&t0, t, 8);
        memcpy(&s1, s + len - 8, 8);
        memcpy(&t1, t + len - 8, 8);
        return ((s0 ^ t0) | (s1 ^ t1)) == 0;
    }
    if (len < 8) {
        for (size_t i = 0; i < len; i++)
            if (s[i] != t[i])
                return 0;
        return 1;
    }
    return memcmp(s, t, len) == 0;
}

/* Skips the whitespace before the next token (counting lines), unless an
 * error was met or a string is left to drop: json_lex_scan's first step,
 * for a caller that looks at the token's bytes before reading it. */
void json_lex_space(struct json_lexer *x);

/* Reads the next token when it is the string "s" (s[0..len) the bytes of
 * a string without escapes read before in this text, so that the same
 * bytes make the same token), after at most one space, without scanning
 * it again: 1; else 0, nothing read. */
static inline int json_lex_known(struct json_lexer *x, const char *s, size_t len)
{
    const unsigned char *p = x->p, *end = x->end;
    if (x->owned || x->failed || x->after_word)
        return 0;
    p += p < end && *p == ' ';
    if ((size_t)(end - p) < len + 2 || p[0] != '"' || p[len + 1] != '"' || !json_same_bytes(p + 1, s, len))
        return 0;
    x->tok = p;
    x->p = p + len + 2;
    x->str = (const char *)p + 1;
    x->len = len;
    x->has_nul = 0;
    x->token = JT_STRING;
    return 1;
}

/* Notes the error fmt at the current place, unless one was noted already
 * (the first one met stands, as in jansson). */
void json_lex_fail(struct json_lexer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Notes that an allocation failed (JSON_NO_MEMORY). */
void json_lex_no_memory(struct json_lexer *x);

#endif
