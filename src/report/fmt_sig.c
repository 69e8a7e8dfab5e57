/* Significant-digit rounding of the numbers in a report (see fmt_sig.h). */
#include "report/fmt_sig.h"

#include <math.h>
#include <stdio.h>
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
    double ax = fabs(x);
    if (ax != 0 && (ax < 1e-4 || ax >= 1e15)) {
        snprintf(buf, 40, "%.*g", digits, x);
        return;
    }
    /* Fixed notation with exactly the decimals `digits` significant digits
     * need, then the trailing zeros dropped. */
    int mag = ax == 0 ? 0 : (int)floor(log10(ax));
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*e", digits - 1, x); /* the rounding decides the magnitude */
    double r;
    sscanf(tmp, "%lf", &r);
    if (r != 0)
        mag = (int)floor(log10(fabs(r)));
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
