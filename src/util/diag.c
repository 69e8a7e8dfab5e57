#include "util/diag.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/text.h"

/* The message with its control characters escaped, then suffix. */
static void put_escaped(const char *fmt, va_list ap, const char *suffix)
{
    char *msg = bd_vstrdupf(fmt, ap);
    char *shown = text_escape_controls(msg);
    fputs(shown, stderr);
    fputs(suffix, stderr);
    free(shown);
    free(msg);
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
    fflush(stdout);
    fputs(prefix, stderr);
    put_escaped(fmt, ap, "\n");
}

void bd_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("error: ", fmt, ap);
    va_end(ap);
}

void bd_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("warning: ", fmt, ap);
    va_end(ap);
}

void bd_notice(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg("", fmt, ap);
    va_end(ap);
}

int bd_usage_error(const char *cmd, const char *fmt, ...)
{
    /* One line: the message and where to read the usage. */
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("error: ", stderr);
    put_escaped(fmt, ap, "");
    va_end(ap);
    if (cmd)
        fprintf(stderr, " (see 'benchdb %s --help')\n", cmd);
    else
        fputs(" (see 'benchdb --help')\n", stderr);
    return EXIT_USAGE;
}

char *bd_vstrdupf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *s = xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *bd_strdupf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = bd_vstrdupf(fmt, ap);
    va_end(ap);
    return s;
}

int bd_fail(char **err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        free(*err);
        *err = bd_vstrdupf(fmt, ap);
        va_end(ap);
    }
    return -1;
}
