#include "ingest/sources/localfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/diag.h"

int read_to_end(int fd, struct strbuf *out, int (*take)(void *arg, size_t n, char **err), void *arg, char **err)
{
    /* straight into out's free room (no block copied through the stack),
     * at most 64 KiB a read, so that take is offered each block before
     * more is read, as it was block by block */
    for (;;) {
        if (sb_grow(out, 65536))
            return bd_fail(err, "out of memory");
        ssize_t k = read(fd, out->buf + out->len, 65536);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return bd_fail(err, "cannot read: %s", strerror(errno));
        if (k == 0) {
            out->buf[out->len] = 0;
            return 0;
        }
        if (take && take(arg, (size_t)k, err))
            return -1;
        out->len += (size_t)k;
        out->buf[out->len] = 0;
    }
}

struct take {
    struct budget *b;
    const char *rel;
};

static int take_budget(void *arg, size_t n, char **err)
{
    struct take *t = arg;
    budget_read(t->b, n); /* read, not decompressed: the ratio's denominator too */
    if (budget_take(t->b, n) == 0)
        return 0;
    return bd_fail(err, "\"%s\": the archive reads more than %llu bytes (the limit; raise it with --max-bytes)", t->rel,
                   (unsigned long long)t->b->max);
}

int localfile_read(const char *dir, const char *rel, struct budget *b, struct strbuf *out, char **err)
{
    const char *d = dir && *dir ? dir : ".";
    char *top = realpath(d, NULL);
    if (!top)
        return bd_fail(err, "cannot open \"%s\": %s", rel, strerror(errno));
    char *joined = bd_strdupf("%s/%s", d, rel);
    char *real = realpath(joined, NULL);
    int rc = 0;
    if (!real) {
        rc = bd_fail(err, "cannot open \"%s\": %s", rel, strerror(errno));
    } else {
        size_t n = strlen(top);
        int inside = strcmp(top, "/") == 0 ? 1 : strncmp(real, top, n) == 0 && real[n] == '/';
        if (!inside)
            rc = bd_fail(err, "\"%s\" leads outside the stream's directory (through a symbolic link)", rel);
    }
    int fd = -1;
    if (rc == 0) {
        /* O_NONBLOCK: a FIFO must not hang us; it is refused below */
        fd = open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd < 0)
            rc = bd_fail(err, "cannot open \"%s\": %s", rel, strerror(errno));
        else if (fstat(fd, &st) != 0)
            rc = bd_fail(err, "cannot read \"%s\": %s", rel, strerror(errno));
        else if (!S_ISREG(st.st_mode))
            rc = bd_fail(err, "\"%s\" is not a regular file", rel);
    }
    struct take t = {b, rel};
    if (rc == 0)
        rc = read_to_end(fd, out, take_budget, &t, err);
    if (fd >= 0)
        close(fd);
    free(top);
    free(joined);
    free(real);
    return rc;
}
