#include "ingest/core/jsonlex.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ingest/core/decimal.h"
#include "ingest/core/utf8.h"

#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define IS_ALPHA(c) (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z'))
#define IS_XDIGIT(c) (IS_DIGIT(c) || ((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F'))
/* A byte a string holds as it is: printable ASCII but the quote and the
 * backslash (jansson takes DEL as it is, too). */
#define IS_PLAIN(c) ((c) >= 0x20 && (c) < 0x80 && (c) != '"' && (c) != '\\')

void json_lex_init(struct json_lexer *x, const char *s, size_t n, void *(*alloc)(size_t), void (*release)(void *),
                   struct json_parse_error *e)
{
    memset(x, 0, sizeof *x);
    x->p = x->tok = x->line_start = (const unsigned char *)(s ? s : "");
    x->end = x->p + (s ? n : 0);
    x->line = 1;
    x->alloc = alloc;
    x->release = release;
    x->e = e;
}

void json_lex_close(struct json_lexer *x)
{
    if (x->owned)
        x->release(x->owned);
    x->owned = NULL;
}

/* The line and column of x->p as jansson counts them: code points since
 * the last newline read, less the NUL bytes it dropped (json_lex_next). A
 * newline is read outside whitespace only as the byte an error stops
 * after (an escape "\" then a newline), hence the loop's first case. */
static void json_lex_place(const struct json_lexer *x, int *line, int *column)
{
    int l = x->line, col = 0, nuls = x->line_nuls;
    for (const unsigned char *q = x->line_start; q < x->p; q++) {
        if (*q == '\n') {
            l++;
            col = nuls = 0;
        } else if (*q < 0x80 || *q > 0xBF) {
            col++;
        }
    }
    *line = l;
    *column = col - nuls;
}

void json_lex_fail(struct json_lexer *x, const char *fmt, ...)
{
    if (x->failed)
        return;
    x->failed = 1;
    char msg[JSON_ERROR_TEXT_LENGTH], text[JSON_ERROR_TEXT_LENGTH + 32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* jansson's context: the token read so far when it is 1 to 20 bytes
     * (as a C string: up to a NUL), nothing for longer ones, "end of
     * file" when nothing was read, except after bytes that are not UTF-8 */
    size_t n = (size_t)(x->p - x->tok);
    if (n && x->tok[0] && n <= 20)
        snprintf(text, sizeof text, "%s near '%.*s'", msg, (int)n, (const char *)x->tok);
    else if ((n && x->tok[0]) || x->utf8_error)
        snprintf(text, sizeof text, "%s", msg);
    else
        snprintf(text, sizeof text, "%s near end of file", msg);
    struct json_parse_error *e = x->e;
    e->status = JSON_SYNTAX;
    json_lex_place(x, &e->line, &e->column);
    /* jansson keeps 158 bytes of it */
    memset(e->text, 0, sizeof e->text);
    memcpy(e->text, text, strnlen(text, JSON_ERROR_TEXT_LENGTH - 2));
}

void json_lex_no_memory(struct json_lexer *x)
{
    if (x->failed)
        return;
    x->failed = 1;
    x->e->status = JSON_NO_MEMORY;
}

/* Notes that the bytes at q are not UTF-8 (jansson has read none of them). */
static int bad_utf8(struct json_lexer *x, const unsigned char *q)
{
    x->p = q;
    x->utf8_error = 1;
    json_lex_fail(x, "unable to decode byte 0x%x", *q);
    return -2;
}

/* The byte at q, read as jansson reads the next character (a multibyte
 * one checked whole): -1 at the end of the text, -2 (the error noted) at
 * bytes that are not UTF-8. */
static int peek(struct json_lexer *x, const unsigned char *q)
{
    if (q == x->end)
        return -1;
    if (*q < 0x80 || utf8_multibyte_at(q, (size_t)(x->end - q)))
        return *q;
    return bad_utf8(x, q);
}

/* jansson has read the character at q (its first byte), unless the text
 * ended there, and refuses it as an escape. */
static const unsigned char *bad_escape(struct json_lexer *x, const unsigned char *q)
{
    x->p = q < x->end ? q + 1 : q;
    json_lex_fail(x, "invalid escape");
    return NULL;
}

/* Checks the escape whose backslash is at q[-1]: past it, or NULL. */
static const unsigned char *lex_escape(struct json_lexer *x, const unsigned char *q)
{
    int c = peek(x, q);
    if (c == -2)
        return NULL;
    if (c == 'u') {
        for (int i = 0; i < 4; i++) {
            c = peek(x, ++q);
            if (c == -2)
                return NULL;
            if (!IS_XDIGIT(c))
                return bad_escape(x, q);
        }
        return q + 1;
    }
    if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't')
        return q + 1;
    return bad_escape(x, q);
}

static unsigned hex4(const unsigned char *s)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 4 | (unsigned)(IS_DIGIT(s[i]) ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10);
    return v;
}

static size_t utf8_put(char *t, unsigned v)
{
    if (v < 0x80) {
        t[0] = (char)v;
        return 1;
    }
    if (v < 0x800) {
        t[0] = (char)(0xC0 | v >> 6);
        t[1] = (char)(0x80 | (v & 0x3F));
        return 2;
    }
    if (v < 0x10000) {
        t[0] = (char)(0xE0 | v >> 12);
        t[1] = (char)(0x80 | (v >> 6 & 0x3F));
        t[2] = (char)(0x80 | (v & 0x3F));
        return 3;
    }
    t[0] = (char)(0xF0 | v >> 18);
    t[1] = (char)(0x80 | (v >> 12 & 0x3F));
    t[2] = (char)(0x80 | (v >> 6 & 0x3F));
    t[3] = (char)(0x80 | (v & 0x3F));
    return 4;
}

/* The code point of the \u escape at s[-1] (with its pair's, if any), s
 * moved past them; -1 with the error noted. As jansson, the string was
 * read whole before this (its bytes checked), so the error is placed
 * after its closing quote. */
static long unescape_u(struct json_lexer *x, const unsigned char **s)
{
    const unsigned char *q = *s;
    unsigned v = hex4(q + 1);
    q += 5;
    if (v >= 0xD800 && v <= 0xDBFF) {
        if (q[0] != '\\' || q[1] != 'u') {
            json_lex_fail(x, "invalid Unicode '\\u%04X'", v);
            return -1;
        }
        unsigned w = hex4(q + 2);
        q += 6;
        if (w < 0xDC00 || w > 0xDFFF) {
            json_lex_fail(x, "invalid Unicode '\\u%04X\\u%04X'", v, w);
            return -1;
        }
        v = ((v - 0xD800) << 10) + (w - 0xDC00) + 0x10000;
    } else if (v >= 0xDC00 && v <= 0xDFFF) {
        json_lex_fail(x, "invalid Unicode '\\u%04X'", v);
        return -1;
    }
    *s = q;
    return (long)v;
}

/* The value of the string tok..p (quotes included) that holds escapes,
 * into x->owned (never longer than the text: jansson's reasoning). */
static int unescape(struct json_lexer *x)
{
    const unsigned char *s = x->tok + 1, *end = x->p - 1;
    char *out = x->alloc((size_t)(end - s) + 1), *t = out;
    if (!out) {
        json_lex_no_memory(x);
        return JT_INVALID;
    }
    x->has_nul = 0;
    while (s < end) {
        const unsigned char *run = s;
        while (s < end && *s != '\\')
            s++;
        memcpy(t, run, (size_t)(s - run));
        t += s - run;
        if (s == end)
            break;
        s++;
        if (*s == 'u') {
            long v = unescape_u(x, &s);
            if (v < 0) {
                x->release(out);
                return JT_INVALID;
            }
            x->has_nul |= v == 0;
            t += utf8_put(t, (unsigned)v);
            continue;
        }
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        *t++ = to[strchr(from, *s) - from];
        s++;
    }
    *t = 0;
    x->owned = out;
    x->str = out;
    x->len = (size_t)(t - out);
    return JT_STRING;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* The bytes of the 8 at q that are not IS_PLAIN, as their high bits (a
 * byte below 0x80 is zero after w ^ c exactly when it is c, and (x - ONES)
 * & ~x sets its high bit when it is zero; (x - n * ONES) & ~x when it is
 * below n). A borrow may also mark a plain byte, but only one above (after)
 * a byte truly marked: the lowest mark is exact, so on a little-endian
 * machine the first byte that is not plain is q[ctz(mask) / 8]. */
static uint64_t not_plain8(const unsigned char *q)
{
    uint64_t w, quote, backslash;
    memcpy(&w, q, 8);
    quote = w ^ ONES * '"';
    backslash = w ^ ONES * '\\';
    uint64_t t = ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash) | ((w - ONES * 0x20) & ~w) | w;
    return t & HIGHS;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FIRST_MARKED(mask) ((size_t)__builtin_ctzll(mask) / 8)
#else
#define FIRST_MARKED(mask) ((size_t)0) /* the byte loop finds it */
#endif

/* The first byte from q on that is not IS_PLAIN (end if none): 8 bytes a
 * step, then one. */
static const unsigned char *plain_run(const unsigned char *q, const unsigned char *end)
{
    while (end - q >= 8) {
        uint64_t mask = not_plain8(q);
        if (mask) {
            q += FIRST_MARKED(mask);
            break;
        }
        q += 8;
    }
    while (q < end && IS_PLAIN(*q))
        q++;
    return q;
}

static int lex_string(struct json_lexer *x)
{
    const unsigned char *q = x->p + 1, *end = x->end;
    int escaped = 0;
    for (;;) {
        q = plain_run(q, end);
        if (q == end) {
            x->p = q;
            json_lex_fail(x, "premature end of input");
            return JT_INVALID;
        }
        unsigned c = *q;
        if (c == '"')
            break;
        if (c >= 0x80) {
            size_t k = utf8_multibyte_at(q, (size_t)(end - q));
            if (!k) {
                bad_utf8(x, q);
                return JT_INVALID;
            }
            q += k;
        } else if (c < 0x20) {
            x->p = q;
            if (c == '\n')
                json_lex_fail(x, "unexpected newline");
            else
                json_lex_fail(x, "control character 0x%x", c);
            return JT_INVALID;
        } else {
            escaped = 1;
            q = lex_escape(x, q + 1);
            if (!q)
                return JT_INVALID;
        }
    }
    x->p = q + 1;
    if (escaped)
        return unescape(x);
    x->str = (const char *)x->tok + 1;
    x->len = (size_t)(q - x->tok - 1);
    x->has_nul = 0;
    return JT_STRING;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Whether the 8 bytes of w are all digits: '0'-'9' are 0x30-0x39, whose
 * low half takes 6 without a carry into the high half, 0x3A-0x3F's not. */
static int digits8(uint64_t w)
{
    const uint64_t high = ONES * 0xF0, threes = ONES * 0x30;
    return (w & high) == threes && ((w + ONES * 6) & high) == threes;
}

/* The 8 digits of w (the first one the lowest byte) as a number: pairs,
 * then fours, then the eight. */
static uint64_t value8(uint64_t w)
{
    w -= ONES * '0';
    w = (w * 10 + (w >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
    w = (w * 100 + (w >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
    return (w * 10000 + (w >> 32)) & UINT64_C(0xFFFFFFFF);
}
#endif

/* The digits from q on into the decimal m (at most 19 significant ones,
 * *sig counting them all, leading zeros not counted); past them. Eight
 * at a time while all 8 count (a double printed in full has 17), then
 * one at a time (finding a short run's end within a word and shifting
 * it into place was slower: bench/changes.md). */
static const unsigned char *digits(const unsigned char *q, const unsigned char *end, uint64_t *m, int *sig)
{
    uint64_t v = *m;
    int n = *sig;
    if (n == 0) /* then v is 0 too */
        while (q < end && *q == '0')
            q++;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    while (n <= 19 - 8 && end - q >= 8 && (memcpy(&w, q, 8), digits8(w))) {
        v = v * 100000000 + value8(w);
        n += 8;
        q += 8;
    }
#endif
    for (; q < end && IS_DIGIT(*q); q++)
        if (++n <= 19)
            v = v * 10 + (uint64_t)(*q - '0');
    *m = v;
    *sig = n;
    return q;
}

/* The integer tok..p: exactly strtoll's, an error past its range. */
static int lex_integer(struct json_lexer *x, uint64_t m, int sig, int neg)
{
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (sig > 19 || m > limit) {
        json_lex_fail(x, neg ? "too big negative integer" : "too big integer");
        return JT_INVALID;
    }
    x->integer = neg ? (m == limit ? INT64_MIN : -(json_int_t)m) : (json_int_t)m;
    return JT_INTEGER;
}

/* The real tok..p: Clinger's exact fast path (core/decimal), else glibc's
 * strtod as jansson calls it (benchdb keeps the C locale, so jansson's
 * change of '.' to the locale's point is none), out of range an error. */
static int lex_real(struct json_lexer *x, uint64_t m, int sig, int e10, int neg)
{
    double v;
    if (sig == 0) {
        x->real = neg ? -0.0 : 0.0;
        return JT_REAL;
    }
    if (sig <= 19 && decimal_exact(m, e10, &v)) {
        x->real = neg ? -v : v;
        return JT_REAL;
    }
    char small[128], *buf = small;
    size_t n = (size_t)(x->p - x->tok);
    if (n >= sizeof small && !(buf = x->alloc(n + 1))) {
        json_lex_no_memory(x);
        return JT_INVALID;
    }
    memcpy(buf, x->tok, n);
    buf[n] = 0;
    errno = 0;
    v = strtod(buf, NULL);
    int overflow = (v == HUGE_VAL || v == -HUGE_VAL) && errno == ERANGE;
    if (buf != small)
        x->release(buf);
    if (overflow) {
        json_lex_fail(x, "real number overflow");
        return JT_INVALID;
    }
    x->real = v;
    return JT_REAL;
}

/* The exponent's digits from q on, into *e (held within +-100000, past
 * which strtod decides); past them. */
static const unsigned char *exponent(const unsigned char *q, const unsigned char *end, int *e)
{
    for (*e = 0; q < end && IS_DIGIT(*q); q++)
        if (*e < 100000)
            *e = *e * 10 + (*q - '0');
    return q;
}

/* A number from x->p: jansson's grammar, and where it stops reading. An
 * invalid one notes nothing (the parser says "invalid token"). */
static int lex_number(struct json_lexer *x)
{
    const unsigned char *q = x->p, *end = x->end;
    int neg = *q == '-', sig = 0, frac = 0, e = 0;
    uint64_t m = 0;
    q += neg;
    int c = peek(x, q);
    if (c == '0') {
        c = peek(x, ++q);
        if (IS_DIGIT(c))
            c = -3; /* a leading zero: refused after the 0 */
    } else if (IS_DIGIT(c)) {
        q = digits(q, end, &m, &sig);
        c = peek(x, q);
    } else if (c != -2) {
        c = -3;
    }
    if (c == -2 || c == -3) {
        x->p = c == -3 ? q : x->p;
        return JT_INVALID;
    }
    if (c != '.' && c != 'e' && c != 'E') {
        x->p = q;
        x->after_word = 1;
        return lex_integer(x, m, sig, neg);
    }
    if (c == '.') {
        c = peek(x, ++q);
        if (!IS_DIGIT(c)) {
            x->p = c == -2 ? x->p : q; /* jansson read the byte after '.' and put it back */
            return JT_INVALID;
        }
        const unsigned char *f = q;
        q = digits(q, end, &m, &sig);
        frac = q - f > 1000000 ? 1000000 : (int)(q - f); /* past that strtod decides */
        c = peek(x, q);
    }
    if (c == 'e' || c == 'E') {
        c = peek(x, ++q);
        int eneg = c == '-';
        if (c == '+' || c == '-')
            c = peek(x, ++q);
        if (!IS_DIGIT(c)) {
            x->p = c == -2 ? x->p : q;
            return JT_INVALID;
        }
        q = exponent(q, end, &e);
        e = eneg ? -e : e;
        c = peek(x, q);
    }
    if (c == -2)
        return JT_INVALID;
    x->p = q;
    x->after_word = 1;
    return lex_real(x, m, sig, e - frac, neg);
}

/* A word: true, false, null, or an invalid token (read whole, as jansson
 * does, for the message). */
static int lex_word(struct json_lexer *x)
{
    const unsigned char *q = x->p;
    while (q < x->end && IS_ALPHA(*q))
        q++;
    if (peek(x, q) == -2)
        return JT_INVALID;
    x->p = q;
    x->after_word = 1;
    size_t n = (size_t)(q - x->tok);
    if (n == 4 && !memcmp(x->tok, "true", 4))
        return JT_TRUE;
    if (n == 5 && !memcmp(x->tok, "false", 5))
        return JT_FALSE;
    if (n == 4 && !memcmp(x->tok, "null", 4))
        return JT_NULL;
    return JT_INVALID;
}

/* Skips whitespace from x->p, counting lines. jansson reads the byte after
 * a number or a word and puts it back; when that byte is NUL, its reader
 * then drops it (its one-character buffer looks empty): the NUL is skipped
 * here, and not counted in the column. */
static const unsigned char *skip_space(struct json_lexer *x)
{
    const unsigned char *p = x->p, *end = x->end;
    if (x->after_word && p < end && *p == 0) {
        p++;
        x->line_nuls++;
    }
    x->after_word = 0;
    while (p < end) {
        unsigned c = *p;
        if (c == ' ') {
            /* indentation: eight spaces at a time */
            uint64_t w;
            p++;
            while (end - p >= 8 && (memcpy(&w, p, 8), w == ONES * ' '))
                p += 8;
        } else if (c == '\n') {
            p++;
            x->line++;
            x->line_start = p;
            x->line_nuls = 0;
        } else if (c == '\t' || c == '\r') {
            p++;
        } else {
            break;
        }
    }
    return p;
}

void json_lex_space(struct json_lexer *x)
{
    if (!x->owned && !x->failed)
        x->p = skip_space(x);
}

int json_lex_scan(struct json_lexer *x)
{
    json_lex_close(x);
    if (x->failed)
        return x->token = JT_INVALID;
    return json_lex_at(x, skip_space(x));
}

int json_lex_at(struct json_lexer *x, const unsigned char *p)
{
    x->p = x->tok = p;
    if (p == x->end)
        return x->token = JT_EOF;
    unsigned c = *p;
    switch (c) {
    case '{':
    case '}':
    case '[':
    case ']':
    case ':':
    case ',':
        x->p = p + 1;
        return x->token = (int)c;
    case '"':
        return x->token = lex_string(x);
    case '-':
        return x->token = lex_number(x);
    default:
        break;
    }
    if (IS_DIGIT(c))
        return x->token = lex_number(x);
    if (IS_ALPHA(c))
        return x->token = lex_word(x);
    if (c < 0x80) {
        x->p = p + 1;
        return x->token = JT_INVALID;
    }
    /* a character that no token starts with, read whole */
    size_t k = utf8_multibyte_at(p, (size_t)(x->end - p));
    if (!k) {
        bad_utf8(x, p);
        return x->token = JT_INVALID;
    }
    x->p = p + k;
    return x->token = JT_INVALID;
}
