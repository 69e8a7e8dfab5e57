/* Significant-digit rounding of the numbers in a report (see fmt_sig.h). */
#include "report/fmt_sig.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void report_fmt_sig(char *buf, double x, int digits)
{
    if (digits < 1)
        digits = 1;
    if (digits > 17)
        digits = 17;
    if (!isfinite(x)) {
        strcpy(buf, isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
        return;
    }
    /* printf's rounding to `digits` significant digits decides the
     * magnitude (9.99996 is 10.00), and the magnitude the notation. */
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*e", digits - 1, x);
    double r = strtod(tmp, NULL), ar = fabs(r);
    if (ar != 0 && (ar < 1e-4 || ar >= 1e15)) {
        snprintf(buf, 40, "%.*g", digits, x);
        return;
    }
    int mag = ar == 0 ? 0 : (int)floor(log10(ar));
    int dec = digits - 1 - mag;
    if (dec < 0) {
        snprintf(buf, 40, "%.0f", r);
        return;
    }
    snprintf(buf, 40, "%.*f", dec, r);
    if (strchr(buf, '.')) {
        size_t n = strlen(buf);
        while (buf[n - 1] == '0')
            buf[--n] = 0;
        if (buf[n - 1] == '.')
            buf[--n] = 0;
    }
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
}
