/* The parts of the value-keeping aggregates that are more than reading
 * rows: spread's ratio and change_points' parameters and run. */
#include "fnshared/fnshared.h"

double fn_spread(const double *x, size_t n)
{
    double lo = x[0], hi = x[0];
    for (size_t i = 1; i < n; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    return hi / lo;
}

size_t fn_changepoints_setup(struct fn_changepoints *c, size_t n, const int have[3], const double param[3])
{
    double window = have[0] ? param[0] : 50;
    c->n = n;
    c->max_pvalue = have[1] ? param[1] : 0.001;
    c->min_magnitude = have[2] ? param[2] : 0.0;
    /* window is a finite integer >= 2; beyond 2n it acts as 2n. */
    c->window = window > 2.0 * (double)n ? 2 * n : (size_t)window;
    if (c->window < 2)
        c->window = 2;
    /* One block: the values, the change points, the detector's workspace. */
    return n * sizeof(double) + n * sizeof(struct changepoint) + changepoint_work_size(n, c->window);
}

size_t fn_changepoints_find(const struct fn_changepoints *c, const struct fn_seq_row *rows, void *work,
                            struct changepoint **cp)
{
    double *x = work;
    *cp = (struct changepoint *)(x + c->n);
    for (size_t i = 0; i < c->n; i++)
        x[i] = rows[i].x;
    return changepoint_otava(x, c->n, c->window, c->max_pvalue, c->min_magnitude, *cp + c->n, *cp);
}
