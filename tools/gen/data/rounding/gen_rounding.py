#!/usr/bin/python3
"""Correctly rounded references for fsum, mean and percentile (and so
trimmed_mean, t_ci's estimate and pooled_t_ci's means, which round as mean
does): adversarial inputs where the exact result lies at or just past a
halfway point between two doubles, or far below double-double precision
from one, and inputs of very different magnitudes.

Each reference is the exact value (Python Fractions of the input doubles)
rounded once to the nearest double, ties to even (float(Fraction) is
correctly rounded, subnormals included), and checked against a second
source before it is written:
  fsum        Python's math.fsum (correctly rounded; where it raises on an
              intermediate overflow, mpmath instead);
  mean        mpmath: the exact sum at 4,000 bits (no rounding) divided at
              53 bits with round-to-nearest, for results in the normal range;
  percentile  mpmath at 60 digits: within half an ulp of the reference
              (R's type 7, x(j) + h (x(j+1) - x(j)) with j and h from
              (n - 1) p / 100 exactly).
A disagreement stops the generator.

Writes, one case a line, doubles in C's hex notation:
  sums.txt        N X1 .. XN FSUM MEAN
  percentile.txt  P N X1 .. XN RESULT
tests/unit/test_rounding.c reads both.

Run from the source root:  python3 tools/gen/data/rounding/gen_rounding.py
"""
import math
import os
import random
import sys
from fractions import Fraction as F

from mpmath import mp, mpf

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))),
                    "tests", "data", "rounding")
TOP = F(2) ** 1024 - F(2) ** 970  # round-to-nearest gives inf from here on


def rnd(v):
    """v rounded once to the nearest double, ties to even."""
    if v >= TOP:
        return math.inf
    if v <= -TOP:
        return -math.inf
    return float(v)


def ulp(x):
    return math.ulp(x)


def hx(x):
    """C's hex notation, 0 for zeros (the file's most common value)."""
    return "0" if x == 0 and math.copysign(1, x) > 0 else x.hex()


def sum_case(rng):
    """A list of doubles whose sum or mean lies at or near a halfway point."""
    kind = rng.randrange(9)
    tiny = rng.choice([5e-324, 1e-320, 2.0 ** -1022, 1e-300, 6.223015277861142e-61, 1e-30, 2.0 ** -105,
                       2.0 ** -80]) * rng.choice([1, -1])
    d = rng.choice([1.0, 4.0, 0.1, 3.0, 1e300, 1e-300, 2.0 ** -1000, rng.uniform(1, 2) * 2.0 ** rng.randint(-1000, 1000)])
    d *= rng.choice([1, -1])
    if kind == 0:  # d + half an ulp + tiny: fsum's halfway point
        return [d, ulp(d) / 2 * math.copysign(1, d), tiny]
    if kind == 1:  # the same, exactly halfway (ties to even) or split in many parts
        parts = [d, ulp(d) / 4, ulp(d) / 4] + ([tiny, -tiny] if rng.random() < 0.5 else [])
        rng.shuffle(parts)
        return parts
    if kind in (2, 3, 4):  # mean: n M + tiny with M halfway between two doubles
        n = rng.choice([2, 3, 4, 5, 7, 10, 64])
        m = F(d) + F(ulp(d)) / 2
        total = m * n
        hi = rnd(total)
        rest = total - F(hi)
        vals = [hi]
        while rest != 0 and len(vals) < 4:
            v = float(rest)  # rest is a sum of a few doubles
            vals.append(v)
            rest -= F(v)
        if rest != 0:
            return sum_case(rng)
        if kind != 4:
            vals.append(tiny)
        while len(vals) < n:  # zeros and cancelling pairs keep n values
            if len(vals) + 2 <= n and rng.random() < 0.1:
                v = rng.uniform(-1, 1) * 2.0 ** rng.randint(-60, 60)
                vals += [v, -v]
            else:
                vals.append(0.0)
        return vals[:n] if len(vals) > n else vals
    if kind == 5:  # subnormal results and their ties
        k = rng.randint(1, 6)
        return [rng.randint(1, 9) * 5e-324 * rng.choice([1, -1]) for _ in range(k)] + [0.0] * rng.randint(0, 3)
    if kind == 6:  # near and past the largest double
        big = 1.7976931348623157e308
        return [big, big * rng.choice([1, -1]), rng.choice([ulp(big) / 2, ulp(big) / 4, 1e292, -1e292]),
                rng.choice([0.0, tiny, -tiny])]
    if kind == 7:  # cancellation down to a sticky bit
        x = rng.uniform(1, 2) * 2.0 ** rng.randint(-200, 200)
        return [x, -x, 1.0, 2.0 ** -53, tiny, rng.choice([0.0, 2.0 ** -60])]
    # random values of every magnitude
    return [rng.choice([1, -1]) * rng.uniform(1, 2) * 2.0 ** rng.randint(-1074, 1023) for _ in range(rng.randint(1, 20))]


def check_sum(xs, fs, mean):
    exact = sum(F(x) for x in xs)
    try:
        ref = math.fsum(xs)
    except OverflowError:
        with mp.workprec(4000):
            s = mp.fsum([mpf(x) for x in xs])
        man, exp = s.man_exp  # exact at 4000 bits
        ref = rnd(F(int(man)) * F(2) ** int(exp))
    assert ref == fs or (math.isnan(ref) and math.isnan(fs)), (xs, ref, fs)
    q = exact / len(xs)
    if q != 0 and 2.0 ** -1022 <= abs(q) < TOP:
        with mp.workprec(4000):
            s = mp.fsum([mpf(x) for x in xs])
        m = mp.fdiv(s, len(xs), prec=53, rounding="n")  # one rounding, to nearest
        assert float(m) == mean, (xs, m, mean)


def percentile_ref(xs, p):
    xs = sorted(xs)
    idx = F(len(xs) - 1) * F(p) / 100
    j = math.floor(idx)
    if j >= len(xs) - 1:
        return F(xs[-1]), xs
    h = idx - j
    q, up = F(xs[j]), F(xs[j + 1])
    return q + h * (up - q), xs


def percentile_case(rng):
    n = rng.randint(2, 8)

    def val():
        k = rng.random()
        if k < 0.35:
            return rng.choice([-1, 1]) * 10.0 ** rng.uniform(-320, 308)
        if k < 0.55:
            return rng.choice([-1, 1]) * rng.uniform(1, 2) * 2.0 ** rng.randint(-1074, 1023)
        if k < 0.65:
            return rng.choice([0.0, 5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308, 1.0])
        return rng.uniform(-10, 10) * 10.0 ** rng.randint(-20, 20)
    xs = [val() for _ in range(n)]
    p = rng.choice([rng.uniform(0, 100), 12.5, 25.0, 50.0, 75.0, 99.9, 0.1, float(rng.randint(0, 100)),
                    100 * rng.randint(0, n - 1) / (n - 1) + rng.choice([0.0, 1e-13, -1e-13])])
    return min(max(p, 0.0), 100.0), xs


def main():
    rng = random.Random(2027)
    with open(os.path.join(HERE, "sums.txt"), "w") as f:
        f.write("# gen_rounding.py: N X1 .. XN FSUM MEAN\n")
        for _ in range(2500):
            xs = sum_case(rng)
            exact = sum(F(x) for x in xs)
            fs, mean = rnd(exact), rnd(exact / len(xs))
            check_sum(xs, fs, mean)
            f.write("%d %s %s %s\n" % (len(xs), " ".join(hx(x) for x in xs), hx(fs), hx(mean)))
        # the two examples of docs/functions.md
        for xs, want in (([1.0, 1.1102230246251565e-16, 1e-30], (1.0000000000000002, 0.33333333333333337)),
                         ([4.0, 4.440892098500626e-16, 6.223015277861142e-61, 0.0], (4.000000000000001, 1.0000000000000002))):
            exact = sum(F(x) for x in xs)
            got = (rnd(exact), rnd(exact / len(xs)))
            assert got[0] == math.fsum(xs) and got == want, (xs, got)
            check_sum(xs, *got)
            f.write("%d %s %s %s\n" % (len(xs), " ".join(hx(x) for x in xs), hx(got[0]), hx(got[1])))
    mp.dps = 60
    with open(os.path.join(HERE, "percentile.txt"), "w") as f:
        f.write("# gen_rounding.py: P N X1 .. XN RESULT\n")
        for _ in range(2500):
            p, xs = percentile_case(rng)
            v, _ = percentile_ref(xs, p)
            r = rnd(v)
            s = sorted(xs)
            idx = (len(s) - 1) * mpf(p) / 100
            j = int(mp.floor(idx))
            m = mpf(s[-1]) if j >= len(s) - 1 else mpf(s[j]) + (idx - j) * (mpf(s[j + 1]) - mpf(s[j]))
            assert abs(m - mpf(r)) <= mpf(ulp(r)) / 2 * (1 + mpf(10) ** -40), (p, xs, r, m)
            f.write("%s %d %s %s\n" % (hx(p), len(xs), " ".join(hx(x) for x in xs), hx(r)))


if __name__ == "__main__":
    main()
