/* Small text helpers shared by the commands, the store and saved queries. */
#include "util/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

const char *file_kind(unsigned mode)
{
    if (S_ISREG(mode))
        return "a regular file";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

void size_text(char out[32], size_t n)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && n >= 1024 && n % 1024 == 0)
        n /= 1024, u++;
    snprintf(out, 32, "%zu %s", n, units[u]);
}

/* Reads fd to its end, refusing more than max bytes. */
static char *read_fd(int fd, const char *path, size_t max, const char *what, size_t *len, char **err)
{
    struct strbuf sb = {0};
    char buf[65536];
    for (;;) {
        size_t want = max - sb.len + 1 < sizeof buf ? max - sb.len + 1 : sizeof buf;
        ssize_t n = read(fd, buf, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            bd_fail(err, "%s: cannot read: %s", path, strerror(errno));
            break;
        }
        if (n == 0) {
            if (len)
                *len = sb.len;
            if (sb_append(&sb, "", 0)) { /* an empty file: still a string */
                bd_fail(err, "%s: out of memory reading it", path);
                break;
            }
            return sb_detach(&sb);
        }
        if (sb.len + (size_t)n > max) {
            char lim[32];
            size_text(lim, max);
            bd_fail(err, "%s: is larger than %s, the most %s may hold", path, lim, what);
            break;
        }
        const char *nul = memchr(buf, 0, (size_t)n);
        if (nul) {
            bd_fail(err, "%s: holds a NUL byte (at byte %zu): not a text file", path, sb.len + (size_t)(nul - buf) + 1);
            break;
        }
        if (sb_append(&sb, buf, (size_t)n)) {
            bd_fail(err, "%s: out of memory reading it", path);
            break;
        }
    }
    sb_free(&sb);
    return NULL;
}

char *file_read_text(const char *path, size_t max, const char *what, size_t *len, char **err)
{
    if (strcmp(path, "-") == 0)
        return read_fd(STDIN_FILENO, "standard input", max, what, len, err);
    /* Looked at before it is opened: opening a FIFO blocks until a writer
     * comes, and opening a device can do things. */
    struct stat st;
    if (stat(path, &st) != 0) {
        bd_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        bd_fail(err, "%s: is %s, not a regular file", path, file_kind(st.st_mode));
        return NULL;
    }
    /* O_NONBLOCK: if the path was replaced by a FIFO since, open does not
     * wait; fstat then sees what was opened. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        bd_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    if (fstat(fd, &st) != 0)
        bd_fail(err, "%s: cannot open: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        bd_fail(err, "%s: is %s, not a regular file", path, file_kind(st.st_mode));
    else if ((uintmax_t)st.st_size > (uintmax_t)max) {
        char lim[32];
        size_text(lim, max);
        bd_fail(err, "%s: is larger than %s, the most %s may hold", path, lim, what);
    } else
        text = read_fd(fd, path, max, what, len, err);
    close(fd);
    return text;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
size_t utf8_sequence(const unsigned char *s, size_t n)
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

size_t utf8_bom_len(const void *s, size_t n)
{
    return n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

size_t utf8_invalid_at(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* Eight bytes of ASCII without NUL at a time: ingest checks every
         * line of a text harness file, nearly always plain ASCII. */
        const uint64_t high = UINT64_C(0x8080808080808080), ones = UINT64_C(0x0101010101010101);
        uint64_t w;
        while (n - i >= 8 && (memcpy(&w, p + i, 8), ((w | ((w - ones) & ~w)) & high) == 0))
            i += 8;
        if (i == n)
            break;
        size_t len = p[i] >= 0x80 ? utf8_sequence(p + i, n - i) : p[i] != 0;
        if (!len)
            return i;
        i += len;
    }
    return n;
}

char *utf8_replaced(const char *s, size_t n, size_t *count)
{
    struct strbuf sb = {0};
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, k = 0;
    int rc = sb_append(&sb, "", 0);
    while (i < n && !rc) {
        size_t len = p[i] >= 0x80 ? utf8_sequence(p + i, n - i) : 1;
        rc = len ? sb_append(&sb, s + i, len) : sb_puts(&sb, "\xef\xbf\xbd");
        k += !len;
        i += len ? len : 1;
    }
    if (rc) {
        sb_free(&sb);
        return NULL;
    }
    if (count)
        *count = k;
    return sb_detach(&sb);
}

/* The code point of a valid sequence of len bytes. */
static unsigned utf8_code(const unsigned char *s, size_t len)
{
    unsigned cp = len == 2 ? s[0] & 0x1Fu : len == 3 ? s[0] & 0x0Fu : s[0] & 0x07u;
    for (size_t i = 1; i < len; i++)
        cp = cp << 6 | (s[i] & 0x3Fu);
    return cp;
}

/* The bidirectional formatting characters (Unicode's Bidi_Control): they
 * reorder the text around them on a terminal or a page, so that a name
 * holding U+202E prints reversed. Escaped like the C1 controls. */
static int bidi_control(unsigned cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
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
        size_t len = c >= 0x80 ? utf8_sequence(p + i, n - i) : 0;
        unsigned cp = len ? utf8_code(p + i, len) : 0;
        if (len && cp >= 0xA0 && !bidi_control(cp)) {
            i += len; /* a printable multibyte character */
            continue;
        }
        rc |= sb_append(sb, s + start, i - start);
        if (len) /* a C1 control (U+0080 to U+009F) or a bidirectional control */
            rc |= sb_printf(sb, "\\u%04x", cp);
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

int text_same(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

int list_next(const char **cursor, const char **item, size_t *len)
{
    const char *p = *cursor;
    if (!p || !*p)
        return 0;
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    *cursor = e ? e + 1 : p + n;
    while (n && *p == ' ')
        p++, n--;
    while (n && p[n - 1] == ' ')
        n--;
    *item = p;
    *len = n;
    return 1;
}
