#ifndef BENCHDB_STATS_CHANGEPOINT_H
#define BENCHDB_STATS_CHANGEPOINT_H
/* Change-point detection as Apache Otava (ex-Hunter) does it: E-divisive
 * splitting within sliding windows with a Student t-test, then Otava's merge
 * step (docs/functions.md, change_points, names every step and quirk).
 * Plain C: the caller provides all memory, nothing is allocated here. */
#include <stddef.h>

/* One change point: index is the first value of the new regime
 * (0 < index < n). The statistics compare the segment before it (from the
 * previous change point) with the one after it (to the next), as Otava last
 * computed them; standard deviations are population ones (ddof 0). */
struct changepoint {
    size_t index;
    double mean_before, mean_after;
    double stddev_before, stddev_after;
    double pvalue;
};

/* mean_after / mean_before - 1, or 0 when mean_before is 0 (Otava's
 * forward_rel_change); x100 is Otava's forward_change_percent. */
double changepoint_forward_change(const struct changepoint *c);
/* max(|after/before - 1|, |before/after - 1|), each term 0 when its
 * denominator is 0 (Otava's change_magnitude). */
double changepoint_magnitude(const struct changepoint *c);

/* Bytes of the workspace the functions below need for n values and the
 * given window (>= 2). O(n + min(window, n)). */
size_t changepoint_work_size(size_t n, size_t window);

/* What the two below return when the thread's stop hook said to stop
 * (stats/stop.h): their cost grows as the square of the window, so they
 * ask every STATS_STOP_WORK units; out then holds nothing of use. */
#define CHANGEPOINT_STOPPED ((size_t)-1)

/* Otava's compute_change_points(x, window, max_pvalue, min_magnitude) on
 * x[0..n): writes the change points, in index order, to out (room for n)
 * and returns their number (or CHANGEPOINT_STOPPED). work:
 * changepoint_work_size(n, window) bytes, aligned for a double. window >= 2. */
size_t changepoint_otava(const double *x, size_t n, size_t window, double max_pvalue, double min_magnitude,
                         void *work, struct changepoint *out);

/* Otava's ChangePointDetector with the t-test on all of x[0..n) (no
 * windows, no merge): splits while the best candidate's p-value is
 * <= threshold. Writes the indexes, sorted, to out (room for n) and returns
 * their number (or CHANGEPOINT_STOPPED). work: changepoint_work_size(n, n) bytes. */
size_t changepoint_detect(const double *x, size_t n, double threshold, void *work, size_t *out);

#endif
