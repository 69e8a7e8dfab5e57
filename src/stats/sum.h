#ifndef BENCHDB_STATS_SUM_H
#define BENCHDB_STATS_SUM_H

/* Compensated (Neumaier) summation: the sum of many doubles with an error
 * independent of their count. Zero-initialise, add, read with ksum_value. */
struct ksum {
    double sum;
    double comp;
};

static inline void ksum_add(struct ksum *k, double x)
{
    double t = k->sum + x;
    if ((k->sum >= 0 ? k->sum : -k->sum) >= (x >= 0 ? x : -x))
        k->comp += (k->sum - t) + x;
    else
        k->comp += (x - t) + k->sum;
    k->sum = t;
}

static inline double ksum_value(const struct ksum *k) { return k->sum + k->comp; }

#endif
