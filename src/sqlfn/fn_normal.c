/* normal_quantile(p): the standard normal distribution's quantile, R's
 * qnorm(p).
 *
 *  1. NULL gives NULL.
 *  2. p must be a number in [0, 1]; 0 and 1 give -Inf and +Inf.
 *  3. Otherwise the z with P(Z <= z) = p, within 1e-12 relative of R.
 *  Example: SELECT normal_quantile(0.975); -- 1.9599639845400536
 */
#include "sqlfn/sqlfn.h"
#include "stats/normal.h"

void sqlfn_normal_quantile(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double p;
    int rc = sqlfn_number(argv[0], &p);
    if (rc == ARG_NULL)
        return;
    if (rc != ARG_OK || !(p >= 0 && p <= 1)) {
        sqlfn_arg_error(ctx, 0, EXPECT_PROBABILITY, argv[0]);
        return;
    }
    sqlite3_result_double(ctx, normal_quantile(p));
}
