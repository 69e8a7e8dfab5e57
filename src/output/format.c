/* The output options: format names, digits, where a table must fit. */
#include "output/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int out_format_parse(const char *s, enum out_format *f)
{
    static const struct {
        const char *name;
        enum out_format f;
    } names[] = {
        {"table", OUT_TABLE}, {"vertical", OUT_VERTICAL}, {"csv", OUT_CSV},
        {"json", OUT_JSON},   {"markdown", OUT_MARKDOWN}, {"md", OUT_MARKDOWN},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *f = names[i].f;
            return 0;
        }
    return -1;
}

void out_opts_init(struct out_opts *o)
{
    memset(o, 0, sizeof *o);
    o->format = OUT_TABLE;
    o->digits = OUT_DIGITS_DEFAULT;
}

int out_terminal_width(int fd)
{
    const char *c = getenv("COLUMNS");
    if (c && *c) {
        char *end;
        errno = 0;
        long v = strtol(c, &end, 10);
        if (!*end && !errno && v > 0 && v < 1000000)
            return (int)v;
    }
    struct winsize ws;
    if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 0;
}
