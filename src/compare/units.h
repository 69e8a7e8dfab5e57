#ifndef BENCHDB_COMPARE_UNITS_H
#define BENCHDB_COMPARE_UNITS_H
/* Units as benchstat v2 shows them (golang.org/x/perf benchunit), and
 * what benchdb knows about the built-in ones.
 *
 *  - Tidying: a value in ns/op is shown in sec/op (times 1e-9), MB/s in
 *    B/s (times 1e6); in any other unit each "ns" of the numerator becomes
 *    "sec" (divided by 1e9) and each "MB" "B" (times 1e6). The factor is
 *    applied to every value before any statistic, as benchstat does, so
 *    that medians and their rounding come out the same bits.
 *  - Class: a unit with B, MB or bytes in its numerator scales by powers
 *    of 1024 (Ki, Mi, Gi, Ti), any other by 1000 (T G M k m µ n).
 *  - Scaling: a row's values share the scale of its smallest non-zero
 *    value, chosen so that it shows at least three significant digits
 *    (1.718µ, 46.55n, 1.656Ki, 312.2Mi), and each value is divided by the
 *    scale's factor before it is rounded (Scaler.Format).
 *  - Numbers as Go's %v prints them (shortest digits that read back, an
 *    exponent below 1e-4 and from 1e6), for benchstat's messages. */
#include <stddef.h>

/* The tidied unit of unit into out (room for strlen(unit) * 2 + 1) and
 * the factor its values are multiplied by. */
double cmp_tidy_unit(const char *unit, char *out, size_t size);
/* The same for a unit of any harness: benchdb's time units in seconds
 * (sec/op for a time per operation, sec otherwise), its throughput units
 * in ops/s, any other unit as benchstat tidies it. */
double cmp_tidy_any(const char *unit, char *out, size_t size);
/* 1 when unit scales by powers of 1024. */
int cmp_unit_binary(const char *unit);

struct cmp_scaler {
    int prec;
    double factor;
    const char *prefix;
};
/* benchunit.CommonScale of vals[0..n). */
struct cmp_scaler cmp_common_scale(const double *vals, size_t n, int binary);
/* Scaler.Format: "%.{prec}f" of val / factor, then the prefix (Go's
 * spelling of infinities and NaN). buf holds >= 48 bytes. */
void cmp_scale_format(const struct cmp_scaler *s, double val, char *buf, size_t size);
/* benchunit.Scale: one value on its own scale. */
void cmp_scale_one(double val, int binary, char *buf, size_t size);

/* Go's %v of a float64. buf holds >= 40 bytes. */
void cmp_go_float(double x, char *buf, size_t size);

/* What benchdb knows of a built-in unit (the store's unit table): kind
 * "time", "throughput", "byte-throughput" or "other", and which direction
 * is better ("lower", "higher", or NULL when unknown). 0, or -1 for a unit
 * benchdb does not know (kind "other", direction unknown). */
int cmp_unit_info(const char *unit, const char **kind, const char **direction, double *factor);

#endif
