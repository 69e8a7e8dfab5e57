#!/usr/bin/python3
"""Reference p-values of benchstat's Mann-Whitney U test on tied samples.

An independent re-implementation of go-moremath's MannWhitneyUTest(x1, x2,
LocationDiffers) (aclements/go-moremath stats/utest.go and stats/udist.go,
the version golang/perf pins, f10218a), transcribed step by step in exact arithmetic:
Fractions for the ranks and U, Python integers for the counts (Go computes
C(n, k) in float64 and divides in float64; the exact ratio is what that
approximates). It follows the code, not the textbook:

  ranking   merge both sorted samples, give each tie group its mid-rank;
            U1 = R1 - n1 (n1 + 1) / 2 for x1 (benchstat's baseline),
            U2 = n1 n2 - U1, and the tie vector T (group sizes in order).
  exact     with ties and both samples at most 25 values (the only case
            generated here): one tie group -> "all samples are equal"
            (benchstat: P = 1 with a warning, here 'nan'); U1 == U2 -> 1;
            else 2 * UDist{N1: n1, N2: n2, T}.CDF(min(U1, U2)).
  CDF       with ties: makeUmemo(2U, n1, T)[K][(n1, 2U)] / C(n1 + n2, n1),
            Cheung and Klotz's recursion over the tie groups exactly as
            makeUmemo writes it: the table of needed (n1, 2U) keys is built
            from K down to 2 (keeping only keys within twoUmin..twoUmax),
            the K = 2 base case sums C(t0, n1 - r2) C(t1, r2) for r2 from
            max(0, n1 - t0) to (2U - n1 (t0 - n1)) / (t0 + t1) in Go's
            integer division, which truncates toward zero, and each higher
            k sums over rk, a missing key counting 0 below its range and
            C(tsum, n1) above it.

  The CDF is that of U1 (the baseline's statistic) but is evaluated at
  min(U1, U2): with ties the distribution is not symmetric, so the mirrored
  value can lie below U1's smallest possible value. With more than two tie
  groups the count there is 0 and p = 0; with exactly two, the truncating
  division makes the bound 0 instead of -1 and counts the lowest value's
  mass (base [1,2,2,2] against head [1 x11, 2 x3]: p = 11/17 * 1/2 * 2 =
  0.3235..., where the exact lower tail is 0). benchdb's 'benchstat' method
  must give the same numbers.

Writes mw_ties.txt: 10,000 random tied pairs (seed 27), each side 4 to 20
values from 2 to 5 distinct levels (as B/op and allocs/op are: few distinct
values), one line each:

  COUNTS1 COUNTS2 TWO_U1 P [*]

COUNTS are comma-separated counts of the levels 0, 1, 2, ... in that sample
(x1 = sample 1 = the baseline), TWO_U1 is 2 U1 (an integer), P the exact
p as a reduced fraction NUM/DEN (or 'nan'), and '*' marks the pairs where
go-moremath's count differs from the exact lower tail of U1 (the
truncation above). The numerator and denominator are below 2^53, so the
double nearest P is NUM / DEN in IEEE division. tests/unit/test_rank.c
(mw_ties) reads the file.

Run from the source root:  python3 tests/data/mw_ties/gen_mw_ties.py
"""
import os
import random
import sys
from fractions import Fraction as F
from math import comb

HERE = os.path.dirname(os.path.abspath(__file__))


def go_div(a, b):
    """Go's integer division: the quotient truncated toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def choose(n, k):
    """mathx.Choose, exactly: 0 outside 0 <= k <= n."""
    return comb(n, k) if 0 <= k <= n else 0


def two_u_min(n1, t, a):
    two_u, left = -n1 * n1, n1
    for k in range(1, len(t) + 1):
        take = min(left, t[k - 1])
        two_u += take * a[k]
        left -= take
    return two_u


def two_u_max(n1, t, a):
    two_u, left = -n1 * n1, n1
    for k in range(len(t), 0, -1):
        take = min(left, t[k - 1])
        two_u += take * a[k]
        left -= take
    return two_u


def make_u_memo(two_u, n1, t):
    """makeUmemo: A[k][(n1, 2U)] = the number of n1-subsets of the first k
    tie groups with 2U at most 2U."""
    K = len(t)
    a = [0] * (K + 1)
    a[1] = t[0]
    for k in range(2, K + 1):
        a[k] = a[k - 1] + t[k - 2] + t[k - 1]
    A = [None] * (K + 1)
    A[K] = {(n1, two_u): 0}
    tsum = sum(t)  # sum of t[0:k]
    for k in range(K - 1, 1, -1):
        tsum -= t[k]
        A[k] = {}
        for (m, tu) in A[k + 1]:
            for rk in range(max(0, m - tsum), min(m, t[k]) + 1):
                tu_k = tu - rk * (a[k + 1] - 2 * m + rk)
                m_k = m - rk
                if two_u_min(m_k, t[:k], a) <= tu_k <= two_u_max(m_k, t[:k], a):
                    A[k][(m_k, tu_k)] = 0
    if K < 2:
        raise ValueError("K < 2")
    n_2 = t[0] + t[1]
    for key in A[2]:
        m, tu = key
        s = 0
        for r2 in range(max(0, m - t[0]), go_div(tu - m * (t[0] - m), n_2) + 1):
            s += choose(t[0], m - r2) * choose(t[1], r2)
        A[2][key] = s
    tsum = t[0]  # sum of t[0:k-1]
    for k in range(3, K + 1):
        tsum += t[k - 2]
        for key in A[k]:
            m, tu = key
            s = 0
            for rk in range(max(0, m - tsum), min(m, t[k - 1]) + 1):
                tu_1 = tu - rk * (a[k] - 2 * m + rk)
                m_1 = m - rk
                x = A[k - 1].get((m_1, tu_1))
                if x is None:
                    x = choose(tsum, m_1) if two_u_max(m_1, t[:k - 1], a) < tu_1 else 0
                s += x * choose(t[k - 1], rk)
            A[k][key] = s
    return A


def udist_cdf_ties(u, n1, n2, t):
    """UDist{N1: n1, N2: n2, T: t}.CDF(u) with ties."""
    if u < 0:
        return F(0)
    if u >= n1 * n2:
        return F(1)
    two_u = int(2 * u)  # Go: int(2*U), U a multiple of 1/2
    return F(make_u_memo(two_u, n1, t)[len(t)][(n1, two_u)], choose(n1 + n2, n1))


def mann_whitney_u_test(x1, x2):
    """(p or None for "all samples are equal", U1), ties assumed."""
    n1, n2 = len(x1), len(x2)
    merged = sorted([(v, 1) for v in x1] + [(v, 2) for v in x2])  # labeledMerge
    r1, t, i = F(0), [], 0
    while i < len(merged):
        rank1, nx1, v1 = i + 1, 0, merged[i][0]
        while i < len(merged) and merged[i][0] == v1:
            nx1 += merged[i][1] == 1
            i += 1
        if nx1:
            r1 += F(i + rank1, 2) * nx1
        t.append(i - rank1 + 1)
    u1 = r1 - F(n1 * (n1 + 1), 2)
    u2 = n1 * n2 - u1
    assert any(g > 1 for g in t) and n1 <= 25 and n2 <= 25  # the exact path with ties
    if len(t) == 1:
        return None, u1
    if u1 == u2:
        return F(1), u1
    return udist_cdf_ties(min(u1, u2), n1, n2, t) * 2, u1


def exact_lower_tail(x1, x2, u):
    """P(U1 <= u) under the conditional distribution, by weighting every
    count of sample-1 values per tie group: the plain definition, to mark
    where go-moremath departs from it."""
    levels = sorted(set(x1 + x2))
    t = [(x1 + x2).count(v) for v in levels]
    n1, seen, states = len(x1), 0, {(0, F(0)): 1}
    for g in t:
        mid = F(2 * seen + g + 1, 2)
        seen += g
        nxt = {}
        for (j, r), w in states.items():
            for take in range(0, min(g, n1 - j) + 1):
                key = (j + take, r + take * mid)
                nxt[key] = nxt.get(key, 0) + w * comb(g, take)
        states = nxt
    le = tot = 0
    for (j, r), w in states.items():
        if j == n1:
            tot += w
            le += w if r - F(n1 * (n1 + 1), 2) <= u else 0
    return F(le, tot)


def sample(rnd, n, weights):
    return sorted(rnd.choices(range(len(weights)), weights, k=n))


def main():
    rnd = random.Random(27)
    lines, marked, two_level = [], 0, 0
    while len(lines) < 10000:
        k = rnd.choices([2, 3, 4, 5], [5, 3, 1, 1])[0]
        n1, n2 = rnd.randint(4, 20), rnd.randint(4, 20)
        w1 = [rnd.random() for _ in range(k)]
        # the second sample: often the same mix, often shifted
        w2 = w1[:] if rnd.random() < 0.4 else [rnd.random() for _ in range(k)]
        x1, x2 = sample(rnd, n1, w1), sample(rnd, n2, w2)
        p, u1 = mann_whitney_u_test(x1, x2)
        used = max(x1 + x2) + 1
        c1 = ",".join(str(x1.count(v)) for v in range(used))
        c2 = ",".join(str(x2.count(v)) for v in range(used))
        mark = ""
        if p is not None and p != 1:
            u = min(u1, n1 * n2 - u1)
            if p != 2 * exact_lower_tail(x1, x2, u):
                mark = " *"
                marked += 1
        two_level += len(set(x1 + x2)) == 2
        ps = "nan" if p is None else f"{p.numerator}/{p.denominator}"
        assert p is None or p.denominator < 2**53
        lines.append(f"{c1} {c2} {int(2 * u1)} {ps}{mark}\n")
    with open(os.path.join(HERE, "mw_ties.txt"), "w") as f:
        f.write("# gen_mw_ties.py: COUNTS1 COUNTS2 TWO_U1 P [*] (see the generator)\n")
        f.writelines(lines)
    # The reproducer of docs/functions.md (mann_whitney).
    p, u1 = mann_whitney_u_test([1, 2, 2, 2], [1] * 11 + [2] * 3)
    assert p == F(11, 34) and u1 == 43
    print(f"{len(lines)} pairs, {two_level} with two levels, {marked} marked", file=sys.stderr)


if __name__ == "__main__":
    main()
