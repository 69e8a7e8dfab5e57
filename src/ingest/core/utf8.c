#include "ingest/core/utf8.h"

#include <stdio.h>

#include "util/text.h"

size_t utf8_bad_at(const char *s, size_t n)
{
    /* util's validator: the Unicode standard's table 3-7, NUL refused */
    return utf8_invalid_at(s, n);
}

size_t utf8_multibyte_at(const unsigned char *s, size_t n)
{
    return utf8_sequence(s, n);
}

void utf8_describe(const char *s, size_t at, const char *where, char *buf, size_t size)
{
    unsigned char c = (unsigned char)s[at];
    if (c == 0)
        snprintf(buf, size, "holds a NUL byte (at %s %zu)", where, at + 1);
    else
        snprintf(buf, size, "is not valid UTF-8 (byte 0x%02X at %s %zu)", c, where, at + 1);
}

const char *utf16_note(const void *p, size_t n)
{
    const unsigned char *b = p;
    if (n < 2 || !((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
        return "";
    return b[0] == 0xFF ? "UTF-16 text (byte order mark FF FE), which benchdb does not read: save it as UTF-8 "
                          "(Windows PowerShell 5's '>' writes UTF-16, '| Out-File -Encoding utf8' UTF-8): "
                        : "UTF-16 text (byte order mark FE FF), which benchdb does not read: save it as UTF-8: ";
}
