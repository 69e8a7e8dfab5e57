#include "ingest/sources/ustar.h"

#include <stdint.h>
#include <string.h>

#include "util/diag.h"

#define BLOCK 512u

/* An octal field: digits after optional spaces, ended by NUL, space or
 * the field's end; -1 when there is none or it is not octal (a base-256
 * size among them). */
static int octal(const unsigned char *f, size_t width, uint64_t *v)
{
    size_t i = 0;
    while (i < width && f[i] == ' ')
        i++;
    size_t first = i;
    uint64_t x = 0;
    for (; i < width && f[i] >= '0' && f[i] <= '7'; i++) {
        if (x >> 60)
            return -1;
        x = x * 8 + (uint64_t)(f[i] - '0');
    }
    if (i == first || (i < width && f[i] != 0 && f[i] != ' '))
        return -1;
    *v = x;
    return 0;
}

static int zero_block(const unsigned char *h)
{
    for (size_t i = 0; i < BLOCK; i++)
        if (h[i])
            return 0;
    return 1;
}

static int header_ok(const unsigned char *h)
{
    uint64_t want;
    if (octal(h + 148, 8, &want))
        return 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < BLOCK; i++)
        sum += i >= 148 && i < 156 ? (unsigned char)' ' : h[i];
    return sum == want;
}

/* The path= record of a pax header's n bytes at p, into *path (pointing
 * into p); 0 (none found leaves *path alone), -1 when the records are
 * damaged. */
static int pax_path(const unsigned char *p, size_t n, const char **path, size_t *len)
{
    size_t at = 0;
    while (at < n) {
        uint64_t rl = 0;
        size_t i = at;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
            if (rl > n)
                return -1;
            rl = rl * 10 + (uint64_t)(p[i] - '0');
        }
        /* a record holds its length, a space and at least its newline */
        if (i == at || i >= n || p[i] != ' ' || rl <= i - at + 1 || rl > n - at || p[at + rl - 1] != '\n')
            return -1;
        const unsigned char *kv = p + i + 1, *end = p + at + rl - 1;
        if (end - kv >= 5 && memcmp(kv, "path=", 5) == 0) {
            *path = (const char *)kv + 5;
            *len = (size_t)(end - kv - 5);
        }
        at += rl;
    }
    return 0;
}

int ustar_next(const unsigned char *tar, size_t n, size_t *at, struct ustar_entry *e, char **err)
{
    const char *pax = NULL;
    size_t pax_len = 0;
    for (;;) {
        if (n - *at < BLOCK || zero_block(tar + *at))
            return pax ? bd_fail(err, "cannot read the container: a pax header at its end") : 0;
        const unsigned char *h = tar + *at;
        uint64_t size;
        if (!header_ok(h) || octal(h + 124, 12, &size))
            return bd_fail(err, "cannot read the container: a damaged tar header at byte %zu", *at);
        size_t room = n - *at - BLOCK;
        if (size > room)
            return bd_fail(err, "cannot read the container: truncated (a member of %llu bytes, %zu left)",
                           (unsigned long long)size, room);
        size_t padded = (size_t)size + (BLOCK - (size_t)size % BLOCK) % BLOCK;
        const unsigned char *data = h + BLOCK;
        *at += BLOCK + (padded < room ? padded : room);
        char type = (char)h[156];
        if (type == 'x') {
            if (pax_path(data, (size_t)size, &pax, &pax_len))
                return bd_fail(err, "cannot read the container: a damaged pax header");
            continue;
        }
        if (type == '\0' || type == '7')
            type = '0';
        if (type != '0' && type != '5' && type != 'g')
            return bd_fail(err, "cannot read the container: a tar entry of type '%c', which benchdb does not write",
                           type);
        e->type = type;
        e->data = data;
        e->size = (size_t)size;
        if (pax) {
            e->name = pax;
            e->name_len = pax_len;
            return 1;
        }
        /* ustar: the prefix (155 bytes at 345), "/", the name (100 bytes) */
        size_t nl = strnlen((const char *)h, 100), pl = strnlen((const char *)h + 345, 155), k = 0;
        if (pl) {
            memcpy(e->name_buf, h + 345, pl);
            e->name_buf[pl] = '/';
            k = pl + 1;
        }
        memcpy(e->name_buf + k, h, nl);
        e->name_buf[k + nl] = 0;
        e->name = e->name_buf;
        e->name_len = k + nl;
        return 1;
    }
}
