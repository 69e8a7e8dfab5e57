/* The order of the rows of an aggregate over a sequence (change_points,
 * lookback_baseline): the aggregate sorts them itself, so that its result
 * does not depend on the order rows arrive in (fnshared.h). */
#include <string.h>

#include "fnshared/fnshared.h"

/* sign(d - i), exactly, for a finite d. */
static int cmp_real_int(double d, int64_t i)
{
    if (d < -0x1p63)
        return -1;
    if (d >= 0x1p63)
        return 1;
    int64_t t = (int64_t)d; /* exact: |d| < 2^63, truncated toward 0 */
    if (t != i)
        return t < i ? -1 : 1;
    double frac = d - (double)t;
    return (frac > 0) - (frac < 0);
}

int fn_seq_row_cmp(const void *pa, const void *pb)
{
    const struct fn_seq_row *a = pa, *b = pb;
    int c;
    if (a->seq_is_int && b->seq_is_int)
        c = (a->seq_int > b->seq_int) - (a->seq_int < b->seq_int);
    else if (!a->seq_is_int && !b->seq_is_int)
        c = (a->seq_real > b->seq_real) - (a->seq_real < b->seq_real);
    else
        c = a->seq_is_int ? -cmp_real_int(b->seq_real, a->seq_int) : cmp_real_int(a->seq_real, b->seq_int);
    if (c)
        return c;
    c = (a->x > b->x) - (a->x < b->x);
    if (c)
        return c;
    if (a->seq_is_int != b->seq_is_int)
        return a->seq_is_int ? -1 : 1;
    return memcmp(a, b, sizeof *a);
}

int fn_seq_rows_ordered(const struct fn_seq_row *rows, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (fn_seq_row_cmp(&rows[i - 1], &rows[i]) > 0)
            return 0;
    return 1;
}
