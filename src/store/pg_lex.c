/* PostgreSQL's tokens (store/pg_lex.h), as its scanner (src/backend/parser/
 * scan.l) reads them with standard_conforming_strings on. */
#include "store/pg_lex.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

int pg_lex_name_char(unsigned char c) { return isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

static int name_start(unsigned char c) { return isalpha(c) || c == '_' || c >= 0x80; }

/* The end of a quoted token whose opening quote q is at s: q doubled
 * stands for itself; with backslashes, a backslash escapes the next byte
 * (E'...'). */
static const char *quoted_end(const char *s, char q, int backslashes)
{
    for (s++; *s; s++) {
        if (backslashes && *s == '\\' && s[1])
            s++;
        else if (*s == q) {
            if (s[1] != q)
                return s + 1;
            s++;
        }
    }
    return s;
}

/* A block comment: PostgreSQL's nest, each opening needing its close. */
static const char *comment_end(const char *s)
{
    int depth = 0;
    while (*s) {
        if (s[0] == '/' && s[1] == '*') {
            depth++;
            s += 2;
        } else if (s[0] == '*' && s[1] == '/') {
            s += 2;
            if (--depth == 0)
                return s;
        } else
            s++;
    }
    return s;
}

/* $tag$ ... $tag$ at s, or NULL when s starts no dollar quote. */
static const char *dollar_end(const char *s)
{
    const char *t = s + 1;
    if (*t != '$') {
        if (!name_start((unsigned char)*t))
            return NULL;
        while (pg_lex_name_char((unsigned char)*t) && *t != '$')
            t++;
        if (*t != '$')
            return NULL;
    }
    size_t len = (size_t)(t - s + 1);
    for (const char *e = t + 1; (e = strchr(e, '$')); e++)
        if (strncmp(e, s, len) == 0)
            return e + len;
    return s + strlen(s);
}

static struct pg_token tok(enum pg_tok kind, const char *at, const char *end)
{
    return (struct pg_token){kind, at, (size_t)(end - at)};
}

/* A word, or a string or quoted name with a prefix (E'', B'', X'', N'',
 * U&'', U&""): only a word of exactly that letter starts one. */
static struct pg_token word_or_prefixed(const char *s)
{
    char c = (char)tolower((unsigned char)s[0]);
    if (s[1] == '\'' && strchr("ebxn", c))
        return tok(PG_TOK_STRING, s, quoted_end(s + 1, '\'', c == 'e'));
    if (c == 'u' && s[1] == '&' && s[2] == '\'')
        return tok(PG_TOK_STRING, s, quoted_end(s + 2, '\'', 0));
    if (c == 'u' && s[1] == '&' && s[2] == '"')
        return tok(PG_TOK_UQNAME, s, quoted_end(s + 2, '"', 0));
    const char *e = s + 1;
    while (pg_lex_name_char((unsigned char)*e))
        e++;
    return tok(PG_TOK_WORD, s, e);
}

struct pg_token pg_lex(const char *s)
{
    if (!*s)
        return tok(PG_TOK_END, s, s);
    if (strchr(" \t\n\r\f\v", *s)) {
        const char *e = s;
        while (*e && strchr(" \t\n\r\f\v", *e))
            e++;
        return tok(PG_TOK_SPACE, s, e);
    }
    if (s[0] == '-' && s[1] == '-')
        return tok(PG_TOK_COMMENT, s, s + strcspn(s, "\n\r"));
    if (s[0] == '/' && s[1] == '*')
        return tok(PG_TOK_COMMENT, s, comment_end(s));
    if (*s == '\'')
        return tok(PG_TOK_STRING, s, quoted_end(s, '\'', 0));
    if (*s == '"')
        return tok(PG_TOK_QNAME, s, quoted_end(s, '"', 0));
    if (name_start((unsigned char)*s))
        return word_or_prefixed(s);
    if (*s == '$') {
        const char *e = dollar_end(s);
        if (e)
            return tok(PG_TOK_STRING, s, e);
    }
    if (s[0] == ':' && s[1] == ':')
        return tok(PG_TOK_CAST, s, s + 2);
    return tok(*s == ';' ? PG_TOK_SEMI : PG_TOK_OTHER, s, s + 1);
}

const char *pg_lex_next_word(const char **at, size_t *n, int stop_at_semi)
{
    for (;;) {
        struct pg_token t = pg_lex(*at);
        if (t.kind == PG_TOK_END || (stop_at_semi && t.kind == PG_TOK_SEMI))
            return NULL;
        *at = t.at + t.len;
        if (t.kind == PG_TOK_WORD) {
            *n = t.len;
            return t.at;
        }
    }
}

int pg_lex_word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && strncasecmp(s, w, n) == 0; }

size_t pg_lex_param(const char *s)
{
    size_t n = 1;
    if (*s == '?') {
        while (isdigit((unsigned char)s[n]))
            n++;
        return n;
    }
    if (!strchr(":@$", *s) || !*s || (*s == '$' && isdigit((unsigned char)s[1])))
        return 0;
    while (pg_lex_name_char((unsigned char)s[n]))
        n++;
    return n > 1 ? n : 0;
}
