/* Allocation that cannot fail (util/xalloc.h). */
#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

_Noreturn void xalloc_die(void)
{
    fputs("error: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        xalloc_die();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        xalloc_die();
    return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        xalloc_die();
    size_t bytes = n * size;
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        xalloc_die();
    return q;
}

char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        xalloc_die();
    return p;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = strndup(s, n);
    if (!p)
        xalloc_die();
    return p;
}

const char *xsb_text(const struct strbuf *sb)
{
    if (sb_failed(sb))
        xalloc_die();
    return sb->buf ? sb->buf : "";
}

char *xsb_detach(struct strbuf *sb)
{
    char *p = sb_detach(sb);
    if (!p)
        xalloc_die();
    return p;
}
