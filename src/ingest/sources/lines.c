#include "ingest/sources/lines.h"

#include <string.h>

#include "util/diag.h"

void lines_init(struct lines *l, struct blocks in, uint64_t max_line)
{
    memset(l, 0, sizeof *l);
    l->in = in;
    l->max_line = max_line;
}

void lines_free(struct lines *l)
{
    sb_free(&l->line);
}

int line_is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

static int too_long(struct lines *l, char **err, uint64_t *err_line)
{
    *err_line = l->lineno + 1;
    return bd_fail(err, "line longer than %llu bytes (the limit; raise it with --max-line-bytes)",
                   (unsigned long long)l->max_line);
}

/* Hands out p[0..n) without a trailing '\r'. */
static int finish(struct lines *l, const char *p, size_t n, const char **line, size_t *len, char **err,
                  uint64_t *err_line)
{
    if (n > 0 && p[n - 1] == '\r')
        n--;
    if (n > l->max_line)
        return too_long(l, err, err_line);
    l->lineno++;
    *line = p;
    *len = n;
    return 1;
}

int lines_next(struct lines *l, const char **line, size_t *len, char **err, uint64_t *err_line)
{
    *err_line = 0;
    sb_reset(&l->line);
    int partial = 0;
    for (;;) {
        if (l->pos == l->len) {
            int rc = l->eof ? 0 : blocks_next(l->in, &l->data, &l->len, err);
            if (rc < 0)
                return -1;
            l->pos = 0;
            if (rc == 0) {
                l->eof = 1;
                l->len = 0;
                return partial ? finish(l, l->line.buf, l->line.len, line, len, err, err_line) : 0;
            }
        }
        const unsigned char *p = l->data + l->pos;
        size_t avail = l->len - l->pos;
        const unsigned char *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        /* Never hold more than the limit (plus a '\r'), whatever the line. */
        if ((uint64_t)l->line.len + take > l->max_line + 1)
            return too_long(l, err, err_line);
        l->pos += take + (nl ? 1 : 0);
        if (nl && !partial) /* the whole line is in the block: no copy */
            return finish(l, (const char *)p, take, line, len, err, err_line);
        if (sb_append(&l->line, p, take))
            return bd_fail(err, "out of memory");
        partial = 1;
        if (nl)
            return finish(l, l->line.buf, l->line.len, line, len, err, err_line);
    }
}
