/* Student's t distribution with nu > 0 degrees of freedom, within a few
 * 1e-16 relative in both tails, for nu from 1e-300 to 1e300 and down to
 * the smallest doubles (tests/sql/fn_ref_tdist.sql checks it against
 * 50-digit mpmath for nu from 1e-3 to 1e15).
 *
 * With a = nu/2, x = nu / (nu + t^2), y = 1 - x and I = I_x(a, 1/2) the
 * regularized incomplete beta function, P(T > |t|) = I / 2 and
 * P(|T| < |t|) = C = 1 - I = I_y(1/2, a). Everything is computed with
 * double-double exponents, so that a tail near 1e-300 (log 690) and the
 * amplification of a heavy tail (nu = 0.001: a quantile moves 1000 times
 * as much as the log of its tail) cost no digits. Three regimes for I:
 *
 *  1. x <= 1/2: I = x^a / (a B(a, 1/2)) 2F1(a, 1/2; a + 1; x), whose
 *     terms a/(a + k) (1/2)_k / k! x^k are positive and shrink by x.
 *  2. x > 1/2, a >= 15: the uniform asymptotic expansion in a (Temme;
 *     DiDonato and Morris 1992, BGRAT), with T = a - 1/4 and
 *     u = -T ln x: I = (1 / B(a, 1/2)) sum_n c_n T^(-1/2-2n) Gamma(1/2 + 2n, u),
 *     c_n the coefficients of (sinh(s/2) / (s/2))^(-1/2); the leading
 *     incomplete gamma function is sqrt(pi) erfc(sqrt(u)), the others
 *     follow by the upward recurrence, all terms positive.
 *  3. x > 1/2, a < 15: I = 1 - C with C from its series below. There
 *     I > I_{1/2}(15, 1/2) > 1e-5, so the subtraction costs at most five
 *     of the series' 32 digits.
 *
 * C = 2a sqrt(y) x^a / (a B(a, 1/2)) sum_k (a + 1/2)_k / (3/2)_k y^k for
 * y <= 1/2, positive terms; near the centre it keeps the relative
 * precision of quantiles near p = 1/2. Regimes 1 and 3 sum in
 * double-double, so that their results are good to about 1e-30 and a
 * quantile that moves many times as much as its tail (lo = estimate - q se
 * near 0) stays within an ulp or so; regime 2 is as good as the
 * library's erfc (an ulp or two). ln(a B(a, 1/2)) =
 * ln(Gamma(a + 1) sqrt(pi) / Gamma(a + 1/2)) comes from Stirling's series
 * at a + K >= 16 and the recurrence below it.
 *
 * Quantiles: safeguarded Newton steps on ln P as a function of ln q, the
 * iterate kept as q itself (q + q expm1(-step): one rounding), started
 * from the better of a normal (Cornish-Fisher) and a heavy-tail guess. No
 * GSL: its gsl_sf_beta_inc drifts for large a (t_cdf(-1.96, 1e15) was
 * 0.02535). */
#include <float.h>
#include <math.h>

#include "stats/stats.h"
#include "stats/tdist_consts.h"

#define SQRT_PI 1.7724538509055160273
static const dd DD_HALF_LN_PI = {0x1.250d048e7a1bdp-1, 0x1.7abf2ad8d5088p-58};
#define A_BGRAT 15.0 /* smallest a for the asymptotic expansion */

/* ln(Gamma(z + 1) / Gamma(z + 1/2)) for z > 0. */
static dd lgratio(dd z)
{
    dd prod = dd_d(1.0);
    int shifted = 0;
    while (z.hi < 16) {
        prod = dd_mul(prod, dd_div(dd_add_d(z, 0.5), dd_add_d(z, 1.0)));
        z = dd_add_d(z, 1.0);
        shifted = 1;
    }
    double iz = 1 / z.hi, iz2 = iz * iz, s = 0;
    for (int k = (int)(sizeof lgr_coef / sizeof *lgr_coef) - 1; k >= 0; k--)
        s = s * iz2 + lgr_coef[k];
    dd r = dd_add_d(dd_ldexp(dd_log(z), -1), s * iz);
    return shifted ? dd_add(r, dd_log(prod)) : r;
}

/* What depends on nu only. */
struct tdf {
    dd nu, a;    /* nu, nu / 2 */
    dd lab;      /* ln(a B(a, 1/2)) */
    int big;     /* a >= 15: regime 2 */
    dd T;        /* a - 1/4 */
    dd lnk0;     /* ln(a sqrt(pi) / (exp(lab) sqrt(T))) */
    double ln_nu;
};

static void tdf_init(struct tdf *f, dd nu)
{
    f->nu = nu;
    f->a = dd_ldexp(nu, -1);
    f->lab = dd_add(lgratio(f->a), DD_HALF_LN_PI);
    f->big = f->a.hi >= A_BGRAT;
    f->T = dd_add_d(f->a, -0.25);
    if (f->big)
        f->lnk0 = dd_sub(dd_add(dd_log(f->a), DD_HALF_LN_PI), dd_add(f->lab, dd_ldexp(dd_log(f->T), -1)));
    f->ln_nu = log(nu.hi);
}

/* The last few, per thread: a quantile evaluates dozens of points at one nu. */
#define TDF_MEMO 4
static _Thread_local struct tdf tdf_memo[TDF_MEMO];
static _Thread_local unsigned tdf_memo_next;

static const struct tdf *tdf_get(dd nu)
{
    for (int i = 0; i < TDF_MEMO; i++)
        if (tdf_memo[i].nu.hi == nu.hi && tdf_memo[i].nu.lo == nu.lo && nu.hi > 0)
            return &tdf_memo[i];
    struct tdf *f = &tdf_memo[tdf_memo_next++ % TDF_MEMO];
    tdf_init(f, nu);
    return f;
}

/* A point t >= 0. */
struct tpt {
    dd ln1pw;        /* ln(1 + t^2 / nu) = -ln x */
    double x, y;     /* nu / (nu + t^2), t^2 / (nu + t^2) */
    dd yd, syd;      /* y and sqrt(y) = t / sqrt(nu + t^2) */
};

static void tpt_init(struct tpt *p, dd t, const struct tdf *f)
{
    if (t.hi <= 1e100 && f->nu.hi >= 1e-100) {
        dd w = dd_div(dd_mul(t, t), f->nu);
        p->ln1pw = dd_log1p(w);
        p->x = 1 / (1 + w.hi);
        p->y = w.hi / (1 + w.hi);
        p->syd = dd_div(t, dd_sqrt(dd_add(f->nu, dd_mul(t, t)))); /* no underflow for tiny t */
        p->yd = dd_mul(p->syd, p->syd);
        return;
    }
    dd lnw = dd_sub(dd_ldexp(dd_log(t), 1), dd_log(f->nu));
    if (lnw.hi > 40) {
        p->ln1pw = dd_add_d(lnw, exp(-lnw.hi));
        p->x = exp(-p->ln1pw.hi);
        p->y = 1;
        p->yd = p->syd = dd_d(1);
        return;
    }
    dd w = dd_exp(lnw);
    p->ln1pw = dd_log1p(w);
    p->x = 1 / (1 + w.hi);
    p->y = w.hi / (1 + w.hi);
    p->yd = dd_div(w, dd_add_d(w, 1));
    p->syd = dd_sqrt(p->yd);
}

/* Regime 1: ln I for x <= 1/2 (terms in double, summed in double-double:
 * each is below 2^-k of the sum). */
static dd lnI_series(const struct tdf *f, const struct tpt *p)
{
    double a = f->a.hi, r = 1;
    dd sum = dd_d(0);
    for (int k = 1; k < 2000; k++) {
        r *= p->x * (k - 0.5) / k;
        double c = r * (a / (a + k));
        sum = dd_add_d(sum, c);
        if (c <= 1e-33 * sum.hi)
            break;
    }
    dd v = dd_sub(dd_neg(dd_mul(f->a, p->ln1pw)), f->lab);
    return dd_add(v, dd_log1p(sum));
}

/* Regime 2: ln I_x(a, 1/2), a >= 15. */
static dd lnI_bgrat(const struct tdf *f, const struct tpt *p)
{
    dd u = dd_mul(f->T, p->ln1pw);
    double U = p->ln1pw.hi, T = f->T.hi;
    dd lnE; /* ln erfc(sqrt(u)) */
    double h; /* e^-u / (sqrt(pi) erfc(sqrt(u))) */
    if (u.hi < 500) {
        dd z = dd_sqrt(u);
        double e0 = erfc(z.hi);
        /* erfc(z.hi + z.lo) = e0 - z.lo 2/sqrt(pi) e^(-z^2), to first order */
        double de = -z.lo * (2 / SQRT_PI) * exp(-z.hi * z.hi);
        lnE = dd_log(dd_fast_two_sum(e0, de));
        h = exp(-u.hi) / (SQRT_PI * e0);
    } else {
        /* erfc(z) = e^-u / (z sqrt(pi)) sum_k (-1)^k (2k-1)!! / (2u)^k */
        double v = 1, term = 1;
        for (int k = 1; k < 20; k++) {
            term *= -(2 * k - 1) / (2 * u.hi);
            v += term;
            if (fabs(term) < 1e-18)
                break;
        }
        lnE = dd_add_d(dd_sub(dd_neg(u), dd_add(dd_ldexp(dd_log(u), -1), DD_HALF_LN_PI)), log(v));
        h = sqrt(u.hi) / v;
    }
    /* rho(s) = Gamma(s, u) / (Gamma(1/2, u) T^(s - 1/2)), mu(s) = U^s h / sqrt(T):
     * rho(s + 1) = (s / T) rho(s) + mu(s), mu(s + 1) = U mu(s). */
    double rho = 1, mu = sqrt(U) * h / sqrt(T), s = 0.5, corr = 0, last = INFINITY;
    for (int n = 1; n < (int)(sizeof bgrat_coef / sizeof *bgrat_coef); n++) {
        rho = s / T * rho + mu;
        mu *= U;
        s += 1;
        rho = s / T * rho + mu;
        mu *= U;
        s += 1;
        double term = bgrat_coef[n] * rho;
        if (fabs(term) > last)
            break; /* the asymptotic series has begun to diverge */
        corr += term;
        last = fabs(term);
        if (last <= 1e-18 * (1 + corr))
            break;
    }
    return dd_add_d(dd_add(f->lnk0, lnE), log1p(corr));
}

/* C = P(|T| < t) by its series, y <= 1/2, summed from the last term back
 * (the number of terms found first in double), all in double-double. */
static dd central(const struct tdf *f, const struct tpt *p)
{
    double a = f->a.hi, y = p->y, r = 1, sum = 1;
    int n = 0;
    while (n < 5000) {
        r *= (a + 0.5 + n) / (1.5 + n) * y;
        sum += r;
        n++;
        if (r <= 1e-33 * sum)
            break;
    }
    /* S = 1 + c_0 y (1 + c_1 y (1 + ...)), c_k = (a + 1/2 + k) / (3/2 + k) */
    dd s = dd_d(1);
    for (int k = n - 1; k >= 0; k--)
        s = dd_add_d(dd_div_d(dd_mul(dd_mul(s, p->yd), dd_add_d(f->a, 0.5 + k)), 1.5 + k), 1);
    /* 2a x^a / (a B(a, 1/2)) = exp(ln 2a - a ln(1 + w) - lab) */
    dd e = dd_sub(dd_sub(dd_log(dd_ldexp(f->a, 1)), dd_mul(f->a, p->ln1pw)), f->lab);
    return dd_mul(dd_mul(dd_exp(e), p->syd), s);
}

/* I = I_x(a, 1/2) = 2 P(T > t), and its logarithm. */
static double itail(const struct tdf *f, const struct tpt *p, dd *lnI)
{
    if (p->x <= 0.5)
        *lnI = lnI_series(f, p);
    else if (f->big)
        *lnI = lnI_bgrat(f, p);
    else
        *lnI = dd_log1p(dd_neg(central(f, p))); /* regime 3 */
    return dd_exp(*lnI).hi;
}

static double upper_two(const struct tdf *f, dd t)
{
    struct tpt p;
    dd l;
    tpt_init(&p, t, f);
    return itail(f, &p, &l);
}

double t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0) || isinf(df))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1.0 : 0.0;
    if (t == 0)
        return 0.5;
    double tail = 0.5 * upper_two(tdf_get(dd_d(df)), dd_d(fabs(t)));
    return t < 0 ? tail : 1 - tail;
}

double t_cdf_upper(double t, double df) { return t_cdf(-t, df); }

double t_two_sided(dd t, dd df)
{
    if (isnan(t.hi) || !(df.hi > 0))
        return NAN;
    if (isinf(t.hi))
        return 0.0;
    if (t.hi < 0)
        t = dd_neg(t);
    if (t.hi == 0)
        return 1.0;
    double i = upper_two(tdf_get(df), t);
    return i > 1 ? 1.0 : i;
}

/* ---- quantiles ---- */

enum { MODE_TAIL, MODE_CENTRAL };

/* g(q), increasing in q, zero at the quantile, and dg / d(ln q):
 * tail mode ln(2p) - ln I(q); central mode ln C(q) - ln c. */
static double objective(const struct tdf *f, int mode, dd target, double q, double *slope)
{
    struct tpt p;
    tpt_init(&p, dd_d(q), f);
    double a = f->a.hi;
    /* ln(q f(q)), f the density: -(a + 1/2) ln(1 + w) - ln(nu)/2 - ln B(a, 1/2) */
    double lnqf = log(q) - (a + 0.5) * p.ln1pw.hi - 0.5 * f->ln_nu - f->lab.hi + log(a);
    dd lnP;
    if (mode == MODE_CENTRAL && p.y <= 0.5) {
        lnP = dd_log(central(f, &p));
    } else {
        dd lnI;
        itail(f, &p, &lnI);
        if (mode == MODE_TAIL) {
            *slope = exp(M_LN2 + lnqf - lnI.hi);
            return dd_sub(target, lnI).hi;
        }
        lnP = dd_log(dd_neg(dd_expm1(lnI))); /* C = 1 - I */
    }
    *slope = exp(M_LN2 + lnqf - lnP.hi);
    return dd_sub(lnP, target).hi;
}

/* The standard normal quantile z > 0 with P(Z > z) = p, p < 1/2, to
 * about 1e-12 (a starting point only). */
static double normal_upper(double p)
{
    double z = sqrt(-2 * log(p));
    z -= (2.515517 + z * (0.802853 + z * 0.010328)) / (1 + z * (1.432788 + z * (0.189269 + z * 0.001308)));
    for (int i = 0; i < 4; i++) {
        double tail = 0.5 * erfc(z / M_SQRT2);
        if (!(tail > 0))
            break;
        double dens = exp(-0.5 * z * z) / sqrt(2 * M_PI);
        /* Newton on ln tail */
        z += (log(tail) - log(p)) * tail / dens;
    }
    return z;
}

/* Candidate starting points for P(T > q) = p, 0 < p < 1/2. */
static void guesses_tail(const struct tdf *f, double p, double out[2])
{
    double nu = f->nu.hi, z = normal_upper(p), z2 = z * z;
    /* Cornish-Fisher expansion of t's quantile in 1/nu */
    out[0] = z + z * (z2 + 1) / (4 * nu) + z * (z2 * (5 * z2 + 16) + 3) / (96 * nu * nu) +
             z * (z2 * (z2 * (3 * z2 + 19) + 17) - 15) / (384 * nu * nu * nu);
    /* The leading term of regime 1: 2p = x^a / (a B(a, 1/2)) */
    double lnx = (log(2 * p) + f->lab.hi) / f->a.hi, v = -lnx;
    double lnq = 0.5 * (f->ln_nu + (v > 700 ? v : log(expm1(v))));
    out[1] = lnq > 709 ? 1e308 : exp(lnq);
}

static double solve(const struct tdf *f, int mode, double target)
{
    double cand[3];
    int nc;
    if (mode == MODE_TAIL) {
        guesses_tail(f, target, cand);
        nc = 2;
    } else {
        guesses_tail(f, 0.5 * (1 - target), cand);
        /* near the centre C is about 2 q f(0) */
        double lnq = log(target) - M_LN2 - (log(f->a.hi) - f->lab.hi) + 0.5 * f->ln_nu;
        cand[2] = exp(fmax(fmin(lnq, 709), -740));
        nc = 3;
    }
    dd tl = dd_log(dd_d(mode == MODE_TAIL ? 2 * target : target));
    double q = 0, g = INFINITY, slope = 1;
    for (int i = 0; i < nc; i++) {
        double s, v;
        if (!(cand[i] > 0) || !isfinite(cand[i]))
            continue;
        v = objective(f, mode, tl, cand[i], &s);
        if (fabs(v) < fabs(g) || q == 0) {
            q = cand[i];
            g = v;
            slope = s;
        }
    }
    if (q == 0) {
        q = 1;
        g = objective(f, mode, tl, q, &slope);
    }
    /* the quantile lies in (lo, hi) */
    double lo = 0, hi = INFINITY;
    for (int it = 0; it < 400; it++) {
        if (g == 0)
            return q;
        if (g < 0)
            lo = q;
        else
            hi = q;
        double step = g / slope, qn;
        if (fabs(step) < 1e-15)
            return q + q * expm1(-step); /* converged (the next step would be ~step^2); one rounding */
        if (isfinite(step) && fabs(step) < 700)
            qn = q + q * expm1(-step);
        else
            qn = NAN;
        if (!(qn > lo && qn < hi)) {
            /* outside the bracket: bisect in ln q, or widen it */
            if (isinf(hi)) {
                if (q >= DBL_MAX)
                    return INFINITY; /* beyond the largest double */
                qn = q > DBL_MAX / 1e8 ? DBL_MAX : q * 1e8;
            } else if (lo == 0) {
                if (q <= DBL_TRUE_MIN)
                    return 0.0;
                qn = q < DBL_TRUE_MIN * 1e8 ? DBL_TRUE_MIN : q * 1e-8;
            } else {
                qn = sqrt(lo) * sqrt(hi);
            }
        }
        if (qn == q)
            return q;
        q = qn;
        g = objective(f, mode, tl, q, &slope);
    }
    return q;
}

/* Quantiles cost dozens of evaluations; intervals ask for the same
 * (level, df) over and over: the last few answers, per thread. A pure
 * function's memo: the results are bit for bit the same. */
#define QUANTILE_MEMO 16
static _Thread_local struct {
    int mode;
    double target, df, q;
} quantile_memo[QUANTILE_MEMO];
static _Thread_local unsigned quantile_memo_next;

static double solve_memo(int mode, double target, double df)
{
    for (int i = 0; i < QUANTILE_MEMO; i++)
        if (quantile_memo[i].target == target && quantile_memo[i].df == df && quantile_memo[i].mode == mode &&
            df > 0)
            return quantile_memo[i].q;
    double q = solve(tdf_get(dd_d(df)), mode, target);
    unsigned k = quantile_memo_next++ % QUANTILE_MEMO;
    quantile_memo[k].mode = mode;
    quantile_memo[k].target = target;
    quantile_memo[k].df = df;
    quantile_memo[k].q = q;
    return q;
}

double t_quantile(double p, double df)
{
    if (isnan(p) || isnan(df) || p < 0 || p > 1 || !(df > 0) || isinf(df))
        return NAN;
    if (p == 0)
        return -INFINITY;
    if (p == 1)
        return INFINITY;
    if (p == 0.5)
        return 0.0;
    /* 1 - p, 1 - 2p and 2p - 1 are exact where they are used (Sterbenz) */
    if (p < 0.25)
        return -solve_memo(MODE_TAIL, p, df);
    if (p < 0.5)
        return -solve_memo(MODE_CENTRAL, 1 - 2 * p, df);
    if (p <= 0.75)
        return solve_memo(MODE_CENTRAL, 2 * p - 1, df);
    return solve_memo(MODE_TAIL, 1 - p, df);
}

double t_quantile_level(double level, double df)
{
    if (!(level > 0 && level < 1) || !(df > 0) || isinf(df))
        return NAN;
    if (level <= 0.5)
        return solve_memo(MODE_CENTRAL, level, df);
    return solve_memo(MODE_TAIL, 0.5 * (1 - level), df);
}
