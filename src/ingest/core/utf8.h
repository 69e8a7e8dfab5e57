#ifndef BENCHDB_INGEST_CORE_UTF8_H
#define BENCHDB_INGEST_CORE_UTF8_H
/* Text the store keeps is UTF-8 without NUL, as PostgreSQL requires and
 * SQLite does not check: text that reaches the sink from anything but
 * JSON (which jansson checks) is checked here first (a Go benchmark line,
 * a file's or a member's name, a command-line option). */
#include <stddef.h>

/* The offset of the first byte of s[0..n) that is NUL or not part of a
 * well-formed UTF-8 sequence (no overlong forms, no surrogates, nothing
 * past U+10FFFF); n when the text is fine. */
size_t utf8_bad_at(const char *s, size_t n);
/* What is wrong at s[at] (utf8_bad_at's answer), counting from 1 in
 * units of where ("byte", or "column" for a line): "is not valid UTF-8
 * (byte 0xFF at byte 3)" or "holds a NUL byte (at byte 3)", into buf. */
/* The length (2 to 4) of the well-formed multibyte UTF-8 character that
 * starts at s (n > 0 bytes available), 0 when the bytes there are not one
 * (the JSON parser checks each string's non-ASCII bytes with it). */
size_t utf8_multibyte_at(const unsigned char *s, size_t n);
void utf8_describe(const char *s, size_t at, const char *where, char *buf, size_t size);
/* ingest_encoding_note's (ingest.h): "UTF-16 text (...): " or "". */
const char *utf16_note(const void *p, size_t n);

#endif
