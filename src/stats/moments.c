/* Running moments, two-sample moments and the geometric-mean accumulator.
 * All of them accept removal of a value added earlier, which is what SQL
 * window frames need. */
#include <math.h>

#include "stats/stats.h"

void moments_remove(struct moments *m, double x)
{
    if (m->n <= 1) {
        /* Back to empty: restart exactly; the next value is the new shift. */
        *m = (struct moments){0};
        return;
    }
    double y = x - m->shift;
    m->n--;
    ksum_add(&m->sum, -y);
    double delta = y - m->mean;
    m->mean -= delta / (double)m->n;
    m->m2 -= delta * (y - m->mean);
    /* Removal can leave rounding residue below zero, or any residue when
     * one value remains (whose deviation is exactly 0). */
    if (m->m2 < 0 || m->n == 1)
        m->m2 = 0;
}

double moments_mean_shifted(const struct moments *m)
{
    return m->n ? ksum_value(&m->sum) / (double)m->n : NAN;
}

double moments_mean(const struct moments *m)
{
    return m->n ? m->shift + moments_mean_shifted(m) : NAN;
}

double moments_variance(const struct moments *m)
{
    return m->n >= 2 ? m->m2 / (double)(m->n - 1) : NAN;
}

void two_sample_remove(struct two_sample *s, double x, int first)
{
    struct moments *m = first ? &s->a : &s->b, *other = first ? &s->b : &s->a;
    moments_remove(m, x);
    if (m->n == 0 && other->n > 0) {
        /* Keep the shift common while the other sample has values. */
        m->shift = other->shift;
        m->shifted = 1;
    } else if (m->n == 0) {
        other->shifted = 0;
    }
}

/* Moves x's binary exponent into *exp2 (added when sign > 0, subtracted
 * otherwise), leaving x in [0.5, 1): exact. */
void geomean_renormalise(double *x, int64_t *exp2, int sign)
{
    int e;
    *x = frexp(*x, &e);
    *exp2 += sign > 0 ? e : -e;
}

void geomean_remove(struct geomean_acc *g, double x)
{
    if (--g->n <= 0) {
        *g = (struct geomean_acc){0};
        return;
    }
    if (!(x >= GEOMEAN_LO && x <= GEOMEAN_HI))
        geomean_renormalise(&x, &g->exp2, -1);
    g->prod /= x;
    if (!(g->prod >= GEOMEAN_LO && g->prod <= GEOMEAN_HI))
        geomean_renormalise(&g->prod, &g->exp2, 1);
}

double geomean_value(const struct geomean_acc *g)
{
    if (g->n <= 0)
        return NAN;
    /* ln(prod 2^exp2) = ln(prod) + exp2 ln 2; exp2 is 0 unless the product
     * ever left [2^-500, 2^500], and then the division by n makes the
     * rounding of exp2 ln 2 one of about 2^-53 of the mean log. */
    double lsum = log(g->prod);
    if (g->exp2 != 0)
        lsum += (double)g->exp2 * M_LN2;
    return exp(lsum / (double)g->n);
}
