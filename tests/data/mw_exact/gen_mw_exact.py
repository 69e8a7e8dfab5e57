#!/usr/bin/python3
"""Exact p-values of mann_whitney(x, first, 'exact') up to its size limit.

The p of method 'exact' is min(1, 2 min(P(W <= u), P(W >= u))) under the
conditional distribution of W (sample 1's rank sum less n1 (n1 + 1) / 2,
mid-ranks for ties) when every choice of which n1 of the N values form
sample 1 is equally likely (docs/functions.md, mann_whitney). W1 + W2 =
n1 n2 for every split, so the counts are taken over the smaller sample:
P(W1 <= u) = P(W2 >= n1 n2 - u).

The counts are exact Python integers: the shift algorithm (choose the
sample one value at a time; row j holds the number of j-subsets of the
values seen so far by 2 (rank sum) - j (j + 1)) with each row packed into
one integer, field k of B bits holding count k, so that adding a value of
twice-mid-rank s to row j is one shift and one addition:
row[j] += row[j - 1] << ((s - 2 j) B). A sum of fields is the row's low
part modulo 2^B - 1 (every field, and the sum, is below 2^B). p is the
exact ratio min(1, 2 min(le, ge) / C(N, n)) rounded once to a double. A
brute-force enumeration checks the method on 300 small samples first.

Writes mw_exact.txt, one case a line:
  N1 N2 P X1 .. XN1 Y1 .. YN2     (X sample 1, Y sample 2; integers)
tests/unit/test_mw_exact.c reads it.

Run from the source root (a few minutes: the largest cases take 10^5 shifts
of integers of a few megabytes):  python3 tests/data/mw_exact/gen_mw_exact.py
"""
import itertools
import os
import random
import sys
from fractions import Fraction as F
from math import comb

HERE = os.path.dirname(os.path.abspath(__file__))


def score2(values):
    """Twice the mid-rank of every value, ascending."""
    s = sorted(values)
    out, i = [], 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out += [i + 1 + j] * (j - i)
        i = j
    return out


def u_stat(x, y):
    """sample 1's W, as a Fraction."""
    allv = x + y
    s = sorted(allv)
    rank = {}
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        rank[s[i]] = F(i + 1 + j, 2)
        i = j
    n1 = len(x)
    return sum(rank[v] for v in x) - F(n1 * (n1 + 1), 2)


def tail_counts(sc, nsel, kmax):
    """A function of t <= kmax: the number of nsel-subsets with 2 W <= t
    (W of the subset), an exact integer."""
    bits = 1
    total = comb(len(sc), nsel)
    while (1 << bits) <= total:
        bits += 1
    B = bits + 2
    width = kmax + 1
    keep = (1 << (width * B)) - 1
    rows = [1] + [0] * nsel
    n = len(sc)
    for i, s in enumerate(sc):
        left = n - 1 - i
        jmax = min(i + 1, nsel)
        jmin = max(1, nsel - left)
        for j in range(jmax, jmin - 1, -1):
            if rows[j - 1] == 0:
                continue
            shift = s - 2 * j  # 2 R + s - j (j + 1) = (2 R - (j - 1) j) + s - 2 j
            if shift > kmax:
                continue
            # a negative shift drops only empty fields: indexes stay >= 0
            moved = rows[j - 1] << (shift * B) if shift >= 0 else rows[j - 1] >> (-shift * B)
            rows[j] = (rows[j] + moved) & keep
    final = rows[nsel]

    def upto(t):
        return (final & ((1 << ((t + 1) * B)) - 1)) % ((1 << B) - 1)
    return upto


def exact_p(x, y, upto=None):
    """upto: tail_counts of x + y over the smaller sample, to 2 n1 n2."""
    n1, n2 = len(x), len(y)
    m = n1 * n2
    if upto is None:
        upto = tail_counts(score2(x + y), min(n1, n2), 2 * m)
    u = u_stat(x, y)
    v2 = int(2 * u) if n1 <= n2 else int(2 * (m - u))  # 2 W of the smaller sample
    total = comb(n1 + n2, min(n1, n2))
    below = upto(v2)                                 # W_small <= its value
    above = total - (upto(v2 - 1) if v2 > 0 else 0)  # W_small >= its value
    le, ge = (below, above) if n1 <= n2 else (above, below)
    return min(F(1), F(2 * min(le, ge), total))


def brute_p(x, y):
    allv = x + y
    n1 = len(x)
    u = u_stat(x, y)
    le = ge = tot = 0
    for idx in itertools.combinations(range(len(allv)), n1):
        w = u_stat([allv[i] for i in idx], [allv[i] for i in range(len(allv)) if i not in idx])
        tot += 1
        le += w <= u
        ge += w >= u
    return min(F(1), 2 * F(min(le, ge), tot))


def labelings(rng, values, n1, noises):
    """Splits of the values into samples of n1 and the rest, one per noise
    level: None a random split, else sample 1 leans toward the low values,
    the more the smaller the noise (p from about 0.5 down to 1e-60)."""
    out = []
    spread = max(values) - min(values)
    for noise in noises:
        v = values[:]
        rng.shuffle(v)
        if noise:
            v.sort(key=lambda z: z + rng.uniform(0, spread * noise))
        out.append((sorted(v[:n1]), sorted(v[n1:])))
    return out


def main():
    rng = random.Random(188)
    for _ in range(300):  # the method against enumeration
        N = rng.randint(2, 12)
        n1 = rng.randint(1, N - 1)
        vals = [rng.randint(0, rng.randint(1, 6)) for _ in range(N)]
        x, y = vals[:n1], vals[n1:]
        assert exact_p(x, y) == brute_p(x, y), (x, y)
    # Each size-limit case takes the C code about a second: two splits
    # each (a random one, p ~ 0.1-0.9, and a tilted one, p ~ 1e-5-1e-20);
    # the small configuration (counts past 2^53 all the same) has eight,
    # and is all the sanitizer build runs.
    configs = [
        ("60 and 60, 20 values", 60, [i % 20 for i in range(120)]),
        ("188 and 188, no ties", 188, list(range(1, 377))),
        ("188 and 188, 50 values", 188, [i % 50 for i in range(376)]),
        ("188 and 188, 5 values", 188, [i % 5 for i in range(376)]),
        ("40 and 1200, 300 values", 40, [i % 300 for i in range(1240)]),
        ("120 and 250, no ties", 120, list(range(370))),
        ("20 and 2400, 700 values", 20, [i % 700 for i in range(2420)]),
        ("10 and 4900, no ties", 10, list(range(4910))),
    ]
    lines = []
    for name, n1, values in configs:
        n2 = len(values) - n1
        noises = (None, 12, 4, 1.5) * 2 if len(values) <= 120 else (None, 4)
        cases = labelings(rng, values, n1, noises)
        # one table for all splits: the counts depend on the values only
        upto = tail_counts(score2(values), min(n1, n2), 2 * n1 * n2)
        for x, y in cases:
            p = exact_p(x, y, upto)
            lines.append("%d %d %r %s %s\n" % (len(x), len(y), float(p), " ".join(map(str, x)), " ".join(map(str, y))))
            print(name, float(p), file=sys.stderr)
    with open(os.path.join(HERE, "mw_exact.txt"), "w") as f:
        f.write("# gen_mw_exact.py: N1 N2 P X1 .. XN1 Y1 .. YN2\n")
        f.writelines(lines)


if __name__ == "__main__":
    main()
