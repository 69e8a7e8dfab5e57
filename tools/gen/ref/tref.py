"""50-digit references for Student's t distribution (mpmath), shared by the
generators in this directory. Each value is computed twice, at 60 and at 90
digits, and must agree to 1e-40 relative, so that a reference is never an
mpmath artefact.

    tail(t, nu)      P(T > t) for t >= 0 (any real t: P(T > t))
    cdf(t, nu)       P(T <= t)
    quantile(p, nu)  q with P(T <= q) = p (inf beyond the doubles)
"""
from mpmath import mp, mpf, betainc, log, exp, sqrt, loggamma, pi, inf, isinf

DPS = (60, 90)


def _upper(t, nu):
    """P(T > t) at the current precision, t and nu mpf: from the central
    probability I_y(1/2, a) near 0 (mpmath's series for I_x(a, 1/2) does
    not converge when x is within 1e-30 of 1), from the tail I_x(a, 1/2)
    beyond (the central form would cancel)."""
    if t == 0:
        return mpf(1) / 2
    a = nu / 2
    y = t * t / (nu + t * t)
    if y <= mpf(1) / 2 and a * y < 10:  # the tail is above 1e-6: little cancellation
        c = betainc(mpf(1) / 2, a, 0, y, regularized=True) / 2
        return mpf(1) / 2 - c if t > 0 else mpf(1) / 2 + c
    x = nu / (nu + t * t)
    i = betainc(a, mpf(1) / 2, 0, x, regularized=True) / 2
    return i if t > 0 else 1 - i


def _tiny(t, nu):
    """True when P(T > |t|) is provably below 1e-320: with x = nu / (nu + t^2),
    I_x(a, 1/2) <= x^a (1 - x)^(-1/2) / (a B(a, 1/2)) (its hypergeometric
    series is dominated by that of (1 - x)^(-1/2))."""
    with mp.workdps(40):
        t, nu = abs(mpf(t)), mpf(nu)
        a = nu / 2
        x = nu / (nu + t * t)
        lb = a * log(x) - log(1 - x) / 2 - (loggamma(a + 1) + log(pi) / 2 - loggamma(a + mpf(1) / 2)) - log(2)
        return lb < log(mpf("1e-320"))


def _twice(f):
    vals = []
    for d in DPS:
        with mp.workdps(d):
            vals.append(f())
    a, b = vals
    with mp.workdps(DPS[1]):
        if b != 0 and abs(a - b) > abs(b) * mpf(10) ** -40:
            raise ArithmeticError(f"mpmath disagrees with itself: {a} vs {b}")
    return b


def tail(t, nu):
    """P(T > t); 0 where it is below 1e-320 (mpmath's series give up there)."""
    if t > 0 and _tiny(t, nu):
        return mpf(0)
    return _twice(lambda: _upper(mpf(t), mpf(nu)))


def cdf(t, nu):
    """P(T <= t); 0 or 1 within 1e-320."""
    if _tiny(t, nu):
        return mpf(0) if t < 0 else mpf(1)
    return _twice(lambda: _upper(-mpf(t), mpf(nu)))  # P(T <= t) = P(T > -t)


def _quantile(p, nu, start):
    """q > 0 solving P(T > q) = p (p < 1/2), Newton in ln q from start."""
    p = mpf(p)
    nu = mpf(nu)
    ln_c = loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2
    lnp = log(p)
    s = log(mpf(start))
    for _ in range(200):
        q = exp(s)
        tl = _upper(q, nu)
        # when p is near 1/2 work with the centre, 1/2 - tail, instead
        if p > mpf(1) / 4:
            g = log(1 - 2 * tl) - log(1 - 2 * p)
            slope = 2 * q * exp(ln_c - (nu + 1) / 2 * log(1 + q * q / nu)) / (1 - 2 * tl)
        else:
            g = lnp - log(tl)
            slope = q * exp(ln_c - (nu + 1) / 2 * log(1 + q * q / nu)) / tl
        step = g / slope
        s -= step
        if abs(step) < mpf(10) ** (-mp.dps + 15):
            return exp(s)
    raise ArithmeticError(f"no convergence for quantile({p}, {nu})")


DBL_MAX = mpf(2) ** 1024 - mpf(2) ** 971


def quantile(p, nu, start):
    """P(T <= q) = p; start: a rough |q| (from R or the code under test:
    only where Newton begins; the two precisions must agree). +-inf when
    |q| is beyond the largest double (checked: P(T > DBL_MAX) > p)."""
    if p == mpf(1) / 2:
        return mpf(0)
    u = min(mpf(p), 1 - mpf(p))
    with mp.workdps(60):
        if _upper(DBL_MAX, mpf(nu)) > u:
            return -inf if p < 0.5 else inf
    if not (abs(start) > 0) or isinf(start):
        start = 1
    def f():
        pp = mpf(p)
        u = pp if pp < mpf(1) / 2 else 1 - pp
        q = _quantile(u, nu, abs(start))
        return -q if pp < mpf(1) / 2 else q
    return _twice(f)
