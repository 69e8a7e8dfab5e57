#include "ingest/core/rfc3339.h"

#include <stdlib.h>

/* Reads exactly n digits at *p into *out. */
static int digits(const char **p, int n, int *out)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        char c = (*p)[i];
        if (c < '0' || c > '9')
            return 0;
        v = v * 10 + (c - '0');
    }
    *p += n;
    *out = v;
    return 1;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static long long days_from_civil(long long y, int m, int d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int rfc3339_parse(const char *s, double *seconds)
{
    int y, mo, d, h, mi, se, oh = 0, om = 0, sign = 0;
    double frac = 0;
    if (!digits(&s, 4, &y) || *s++ != '-' || !digits(&s, 2, &mo) || *s++ != '-' || !digits(&s, 2, &d))
        return 0;
    if (*s != 'T' && *s != 't')
        return 0;
    s++;
    if (!digits(&s, 2, &h) || *s++ != ':' || !digits(&s, 2, &mi) || *s++ != ':' || !digits(&s, 2, &se))
        return 0;
    if (*s == '.') {
        const char *f = s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
        frac = strtod(f, NULL);
    }
    if (*s == 'Z' || *s == 'z') {
        s++;
    } else if (*s == '+' || *s == '-') {
        sign = *s++ == '+' ? 1 : -1;
        if (!digits(&s, 2, &oh) || *s++ != ':' || !digits(&s, 2, &om) || oh > 23 || om > 59)
            return 0;
    } else {
        return 0;
    }
    if (*s)
        return 0;
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
        return 0;
    if (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
        return 0;
    if (h > 23 || mi > 59 || se > 60)
        return 0;
    if (seconds)
        *seconds = (double)(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se) + frac -
                   sign * (oh * 3600 + om * 60);
    return 1;
}

int rfc3339_valid(const char *s)
{
    return rfc3339_parse(s, NULL);
}
