/* Small text helpers shared by the commands, the store and saved queries. */
#include "util/text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/diag.h"
#include "util/strbuf.h"

void time_now_rfc3339(char out[TIME_TEXT_MAX], int millis)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    int n = (int)strftime(out, TIME_TEXT_MAX, "%Y-%m-%dT%H:%M:%S", &tm);
    if (millis)
        snprintf(out + n, (size_t)(TIME_TEXT_MAX - n), ".%03dZ", (int)(ts.tv_nsec / 1000000));
    else
        snprintf(out + n, (size_t)(TIME_TEXT_MAX - n), "Z");
}

int sql_is_blank(const char *s)
{
    while (*s) {
        if (strchr(" \t\r\n;", *s))
            s++;
        else if (s[0] == '-' && s[1] == '-')
            while (*s && *s != '\n')
                s++;
        else if (s[0] == '/' && s[1] == '*') {
            const char *e = strstr(s + 2, "*/");
            if (!e)
                return 1;
            s = e + 2;
        } else
            return 0;
    }
    return 1;
}

char *file_read_all(const char *path, size_t *len, char **err)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        bd_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct strbuf sb = {0};
    char buf[65536];
    size_t n;
    int nomem = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (sb_append(&sb, buf, n)) {
            nomem = 1;
            break;
        }
    int bad = ferror(f);
    if (!is_stdin)
        fclose(f);
    if (bad || nomem) {
        sb_free(&sb);
        bd_fail(err, "%s: %s", path, nomem ? "out of memory reading it" : "read error");
        return NULL;
    }
    if (len)
        *len = sb.len;
    return sb_detach(&sb);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF; /* bounds of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* no overlong forms */
        if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

int sb_put_escaped_controls(struct strbuf *sb, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t start = 0, i = 0;
    int rc = 0;
    while (i < n && !rc) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7F) {
            i++;
            continue;
        }
        size_t len = c >= 0x80 ? utf8_len(p + i, n - i) : 0;
        if (len && !(len == 2 && c == 0xC2 && p[i + 1] < 0xA0)) {
            i += len; /* a printable multibyte character */
            continue;
        }
        rc |= sb_append(sb, s + start, i - start);
        if (len) /* a C1 control, U+0080 to U+009F */
            rc |= sb_printf(sb, "\\u%04x", p[i + 1]);
        else if (c == '\n')
            rc |= sb_puts(sb, "\\n");
        else if (c == '\r')
            rc |= sb_puts(sb, "\\r");
        else if (c == '\t')
            rc |= sb_puts(sb, "\\t");
        else
            rc |= sb_printf(sb, "\\x%02x", c);
        i += len ? len : 1;
        start = i;
    }
    if (!rc)
        rc = sb_append(sb, s + start, n - start);
    return rc ? -1 : 0;
}

char *text_escape_controls(const char *s)
{
    struct strbuf sb = {0};
    if (sb_put_escaped_controls(&sb, s, strlen(s))) {
        fputs("error: out of memory\n", stderr);
        abort();
    }
    return sb_detach(&sb);
}

size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

int sb_put_name_list(struct strbuf *sb, const char *const *names, size_t n, size_t max)
{
    int rc = 0;
    if (!n)
        return sb_puts(sb, "(none)");
    for (size_t i = 0; i < n && i < max; i++)
        rc |= sb_printf(sb, "%s%s", i ? ", " : "", names[i]);
    if (n > max)
        rc |= sb_printf(sb, ", ... (%zu more)", n - max);
    return rc ? -1 : 0;
}
