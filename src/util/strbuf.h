#ifndef BENCHDB_STRBUF_H
#define BENCHDB_STRBUF_H
#include <stddef.h>

/* A growable, always NUL-terminated byte buffer. Zero-initialise to start. */
struct strbuf {
    char *buf;
    size_t len;
    size_t cap;
    int failed; /* set when an append ran out of memory (and stays set until sb_free or sb_detach):
                 * code that appends many pieces checks this once at the end */
};

/* Each returns 0, or -1 when memory ran out (the buffer is unchanged). */
int sb_grow(struct strbuf *sb, size_t extra);
int sb_append(struct strbuf *sb, const void *data, size_t n);
int sb_puts(struct strbuf *sb, const char *s);
int sb_putc(struct strbuf *sb, char c);
int sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_reset(struct strbuf *sb);
void sb_free(struct strbuf *sb);
/* Hands the buffer to the caller (never NULL) and empties sb. */
char *sb_detach(struct strbuf *sb);

/* Appends s (n bytes) as a JSON string literal: quotes, backslashes and
 * control characters escaped, everything else as it is. */
int sb_json_string(struct strbuf *sb, const char *s, size_t n);

/* Shortest decimal text that reads back as exactly x ("%.15g" to "%.17g");
 * buf holds at least 32 bytes. Non-finite values print as nan, inf, -inf. */
void fmt_double(char *buf, double x);

#endif
