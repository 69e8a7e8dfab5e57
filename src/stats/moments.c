/* Running moments, two-sample moments and the geometric-mean accumulator.
 * All of them accept removal of a value added earlier, which is what SQL
 * window frames need. */
#include <math.h>

#include "stats/stats.h"

void moments_add(struct moments *m, double x)
{
    if (!m->shifted) {
        m->shift = x;
        m->shifted = 1;
    }
    double y = x - m->shift;
    m->n++;
    ksum_add(&m->sum, y);
    double delta = y - m->mean;
    m->mean += delta / (double)m->n;
    m->m2 += delta * (y - m->mean);
}

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

static void two_sample_shift(struct two_sample *s, double x)
{
    if (!s->a.shifted) {
        s->a.shift = s->b.shift = x;
        s->a.shifted = s->b.shifted = 1;
    }
}

void two_sample_add(struct two_sample *s, double x, int first)
{
    two_sample_shift(s, x);
    moments_add(first ? &s->a : &s->b, x);
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

void geomean_add(struct geomean_acc *g, double x)
{
    g->n++;
    ksum_add(&g->lsum, log(x));
}

void geomean_remove(struct geomean_acc *g, double x)
{
    if (--g->n <= 0) {
        *g = (struct geomean_acc){0};
        return;
    }
    ksum_add(&g->lsum, -log(x));
}

double geomean_value(const struct geomean_acc *g)
{
    return g->n > 0 ? exp(ksum_value(&g->lsum) / (double)g->n) : NAN;
}
