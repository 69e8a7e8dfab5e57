#ifndef BENCHDB_STRBUF_H
#define BENCHDB_STRBUF_H
#include <stddef.h>

/* A growable, always NUL-terminated byte buffer. Zero-initialise to start.
 *
 * Its error is sticky (as SQLite's string builder's accError): once an
 * append fails for want of memory, failed is set and every later append
 * does nothing and fails too, so a caller that builds a text in many
 * steps checks once, at the end (sb_failed, or sb_detach's NULL), and can
 * never use a text with a piece missing from its middle
 * (docs/architecture.md, "Memory"). */
struct strbuf {
    char *buf;
    size_t len;
    size_t cap;
    int failed;
};

/* Each returns 0, or -1 when memory ran out now or before (the buffer is
 * unchanged, and failed set). */
int sb_grow(struct strbuf *sb, size_t extra);
/* The same, growing to exactly that room (sb_grow doubles): for a buffer
 * whose size is known before it is filled. */
int sb_reserve(struct strbuf *sb, size_t extra);
int sb_append(struct strbuf *sb, const void *data, size_t n);
int sb_puts(struct strbuf *sb, const char *s);
int sb_putc(struct strbuf *sb, char c);
int sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1 when an append has failed since the buffer was last emptied. */
int sb_failed(const struct strbuf *sb);
/* Empty the buffer (keeping its memory) and clear its error. */
void sb_reset(struct strbuf *sb);
void sb_free(struct strbuf *sb);
/* Hands the text to the caller and empties sb: "" for a buffer never
 * appended to; NULL when an append failed (the partial text is freed) or
 * memory ran out. */
char *sb_detach(struct strbuf *sb);

/* Appends s (n bytes) as a JSON string literal: quotes, backslashes and
 * control characters escaped, everything else as it is. */
int sb_json_string(struct strbuf *sb, const char *s, size_t n);

#endif
