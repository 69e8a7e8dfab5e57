/* The standard normal quantile. GSL's gsl_cdf_ugaussian_Pinv is Wichura's
 * algorithm AS 241, the one R's qnorm uses (R 4.2), with the same
 * coefficients: tests/sql/fn_r_normal.sql holds it to R within 1e-12
 * relative from p = 1e-300 to 1 - 1e-16. */
#include "stats/normal.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

double normal_quantile(double p)
{
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    return gsl_cdf_ugaussian_Pinv(p);
}
