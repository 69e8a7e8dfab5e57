#ifndef BENCHDB_STATS_SUM_H
#define BENCHDB_STATS_SUM_H
#include <math.h>

/* Compensated (Neumaier) summation: the sum of many doubles with an error
 * independent of their count. Zero-initialise, add, read with ksum_value. */
struct ksum {
    double sum;
    double comp;
};

/* Branch-free: both corrections are computed and one is selected, so that
 * inputs of random sign or size cost no mispredicted branches (this runs
 * once per row in geomean and the moments). */
static inline void ksum_add(struct ksum *k, double x)
{
    double s = k->sum, t = s + x;
    double big_s = (s - t) + x, big_x = (x - t) + s;
    k->comp += fabs(s) >= fabs(x) ? big_s : big_x;
    k->sum = t;
}

static inline double ksum_value(const struct ksum *k) { return k->sum + k->comp; }

#endif
