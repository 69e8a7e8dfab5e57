#include "ingest/core/decimal.h"

int decimal_exact(uint64_t m, int e10, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (m > (UINT64_C(1) << 53) || e10 < -22 || e10 > 22)
        return 0;
    *out = e10 < 0 ? (double)m / pow10[-e10] : (double)m * pow10[e10];
    return 1;
}
