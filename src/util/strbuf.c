#include "util/strbuf.h"

#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hugepage.h"

int sb_grow(struct strbuf *sb, size_t extra)
{
    /* failed before, too large, or room enough: sb_reserve answers each */
    if (sb->failed || extra > SIZE_MAX / 4 - sb->len || sb->len + extra + 1 <= sb->cap)
        return sb_reserve(sb, extra);
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    return sb_reserve(sb, cap - sb->len - 1);
}

int sb_reserve(struct strbuf *sb, size_t extra)
{
    if (sb->failed)
        return -1;
    if (sb->len + extra + 1 <= sb->cap)
        return 0;
    if (extra > SIZE_MAX / 4 - sb->len) {
        sb->failed = 1;
        return -1;
    }
    size_t cap = sb->len + extra + 1;
    char *p = realloc(sb->buf, cap);
    if (!p) {
        sb->failed = 1;
        return -1;
    }
    mem_advise_huge(p, cap); /* a large buffer is filled whole: in huge pages */
    sb->buf = p;
    sb->cap = cap;
    return 0;
}

int sb_append(struct strbuf *sb, const void *data, size_t n)
{
    if (sb_grow(sb, n))
        return -1;
    if (n)
        memcpy(sb->buf + sb->len, data, n);
    sb->len += n;
    sb->buf[sb->len] = 0;
    return 0;
}

int sb_puts(struct strbuf *sb, const char *s) { return sb_append(sb, s, strlen(s)); }

int sb_putc(struct strbuf *sb, char c) { return sb_append(sb, &c, 1); }

int sb_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        sb->failed = 1;
        return -1;
    }
    if (sb_grow(sb, (size_t)n))
        return -1;
    va_start(ap, fmt);
    vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
    return 0;
}

int sb_failed(const struct strbuf *sb) { return sb->failed; }

void sb_reset(struct strbuf *sb)
{
    sb->failed = 0;
    sb->len = 0;
    if (sb->buf)
        sb->buf[0] = 0;
}

void sb_free(struct strbuf *sb)
{
    free(sb->buf);
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    sb->failed = 0;
}

char *sb_detach(struct strbuf *sb)
{
    if (sb->failed) {
        sb_free(sb);
        return NULL;
    }
    char *p = sb->buf;
    if (!p) {
        p = malloc(1);
        if (p)
            *p = 0;
    }
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    sb->failed = 0;
    return p;
}

int sb_json_string(struct strbuf *sb, const char *s, size_t n)
{
    if (sb_putc(sb, '"'))
        return -1;
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        if (sb_append(sb, s + start, i - start))
            return -1;
        int rc;
        switch (c) {
        case '"': rc = sb_puts(sb, "\\\""); break;
        case '\\': rc = sb_puts(sb, "\\\\"); break;
        case '\n': rc = sb_puts(sb, "\\n"); break;
        case '\r': rc = sb_puts(sb, "\\r"); break;
        case '\t': rc = sb_puts(sb, "\\t"); break;
        case '\b': rc = sb_puts(sb, "\\b"); break;
        case '\f': rc = sb_puts(sb, "\\f"); break;
        default: rc = sb_printf(sb, "\\u%04x", c); break;
        }
        if (rc)
            return -1;
        start = i + 1;
    }
    if (sb_append(sb, s + start, n - start))
        return -1;
    return sb_putc(sb, '"');
}
