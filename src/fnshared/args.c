/* Error texts and the checks of the per-call parameters, the same on every
 * engine (docs/functions.md, "Error texts"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fnshared/fnshared.h"

static const char *ordinal(int argi)
{
    static const char *const names[] = {"1st", "2nd", "3rd", "4th", "5th"};
    return argi >= 0 && argi < 5 ? names[argi] : "nth";
}

void fn_arg_message(char *msg, size_t size, int argi, const char *name, const char *expected, const char *got)
{
    snprintf(msg, size, "%s argument to %s() is not %s: %s", ordinal(argi), name, expected, got);
}

void fn_describe_text(char *buf, size_t size, const char *t)
{
    size_t n = t ? strlen(t) : 0, max = 40;
    if (n <= max) {
        snprintf(buf, size, "'%s'", t ? t : "");
        return;
    }
    while (max > 0 && ((unsigned char)t[max] & 0xC0) == 0x80)
        max--;
    snprintf(buf, size, "'%.*s...'", (int)max, t);
}

const char *fn_param_check(enum fn_param p, double v)
{
    switch (p) {
    case FN_LEVEL:
        return v > 0 && v < 1 ? NULL : EXPECT_LEVEL;
    case FN_PERCENT:
        return v >= 0 && v <= 100 ? NULL : EXPECT_PERCENT;
    case FN_TRIM:
        return v >= 0 && v < 9e15 && v == floor(v) ? NULL : EXPECT_TRIM;
    case FN_WINDOW:
        return isfinite(v) && v >= 2 && v == floor(v) ? NULL : EXPECT_WINDOW;
    case FN_PVALUE:
        return v >= 0 && v <= 1 ? NULL : EXPECT_PVALUE;
    case FN_MAGNITUDE:
        return v >= 0 && isfinite(v) ? NULL : EXPECT_MAGNITUDE;
    }
    return EXPECT_FINITE;
}

int fn_mw_method(const char *text)
{
    static const char *const methods[] = {"r", "exact", "benchstat"}; /* enum mw_method order */
    for (int m = 0; text && m < (int)(sizeof methods / sizeof *methods); m++)
        if (strcmp(text, methods[m]) == 0)
            return m;
    return -1;
}
