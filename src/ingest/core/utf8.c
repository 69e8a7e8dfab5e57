#include "ingest/core/utf8.h"

#include <stdio.h>

/* Length of the well-formed sequence at s (n bytes left), 0 if none
 * (the Unicode standard's table 3-7). */
static size_t seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF; /* bounds of the second byte */
    size_t len;
    if (c >= 0x01 && c <= 0x7F)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        lo = c == 0xE0 ? 0xA0 : lo; /* overlong */
        hi = c == 0xED ? 0x9F : hi; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        lo = c == 0xF0 ? 0x90 : lo; /* overlong */
        hi = c == 0xF4 ? 0x8F : hi; /* past U+10FFFF */
    } else {
        return 0; /* NUL, a continuation byte, C0, C1, F5..FF */
    }
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

size_t utf8_bad_at(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t k = seq_len(p + i, n - i);
        if (!k)
            return i;
        i += k;
    }
    return n;
}

void utf8_describe(const char *s, size_t at, const char *where, char *buf, size_t size)
{
    unsigned char c = (unsigned char)s[at];
    if (c == 0)
        snprintf(buf, size, "holds a NUL byte (at %s %zu)", where, at + 1);
    else
        snprintf(buf, size, "is not valid UTF-8 (byte 0x%02X at %s %zu)", c, where, at + 1);
}
