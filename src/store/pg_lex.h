#ifndef BENCHDB_STORE_PG_LEX_H
#define BENCHDB_STORE_PG_LEX_H
/* SQL text cut into tokens as PostgreSQL's scanner cuts it (with
 * standard_conforming_strings on, which every benchdb session sets): the
 * one lexer of the PostgreSQL backend (db_pg.c). What it must get right is
 * where code is and where it is not: strings ('...', E'...' with backslash
 * escapes, U&'...', B'...', X'...', N'...', $tag$...$tag$), quoted names
 * ("...", U&"..."), comments (-- to the end of the line, and block
 * comments, which nest), so that a statement's first word, its end (;) and
 * its parameters are those the server reads. An unterminated token runs
 * to the end of the text. */
#include <stddef.h>

enum pg_tok {
    PG_TOK_END,     /* the end of the text */
    PG_TOK_SPACE,   /* blanks */
    PG_TOK_COMMENT, /* -- ... or a block comment */
    PG_TOK_STRING,  /* a string constant of any form */
    PG_TOK_QNAME,   /* a quoted name: "..." */
    PG_TOK_UQNAME,  /* U&"...": a quoted name that may spell characters as escapes */
    PG_TOK_WORD,    /* a keyword or plain name */
    PG_TOK_CAST,    /* :: */
    PG_TOK_SEMI,    /* ; */
    PG_TOK_OTHER,   /* any other single byte (an operator's, a digit, $, :, ?...) */
};

struct pg_token {
    enum pg_tok kind;
    const char *at;
    size_t len;
};

/* The token at s. */
struct pg_token pg_lex(const char *s);

/* A byte of a name after its first: letters, digits, _, $ and the bytes
 * of multi-byte UTF-8 characters. */
int pg_lex_name_char(unsigned char c);

/* The next word (PG_TOK_WORD) from *at on, moving *at past it; NULL at
 * the end of the text or at a ';' (*at left on it) when stop_at_semi. */
const char *pg_lex_next_word(const char **at, size_t *n, int stop_at_semi);

/* Whether the word (n bytes) is w, case aside. */
int pg_lex_word_is(const char *s, size_t n, const char *w);

/* SQLite's parameter at s, where pg_lex found a PG_TOK_OTHER (code, not
 * a string, name or comment): '?' and its digits, or ':', '@' or '$' and
 * a name (name bytes as pg_lex_name_char; after '$' not a digit first,
 * which is PostgreSQL's own $N). Its length in bytes, 0 when s starts
 * none. The one reading of parameters: db_pg.c's rewriting as $N and the
 * saved queries' typed casts (query/pg_sql.c). */
size_t pg_lex_param(const char *s);

#endif
