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
/* Reads the next token into x->token (JT_INVALID once an error was met). */
int json_lex_next(struct json_lexer *x);
/* Notes the error fmt at the current place, unless one was noted already
 * (the first one met stands, as in jansson). */
void json_lex_fail(struct json_lexer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Notes that an allocation failed (JSON_NO_MEMORY). */
void json_lex_no_memory(struct json_lexer *x);

#endif
