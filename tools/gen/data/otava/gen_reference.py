#!/usr/bin/python3
"""Reference results for change_points() on Apache Otava's test series.

Reads change_point_cases.json (Otava's own expectations, copied verbatim from
Apache Otava's tests; tests/data/otava/README.md says where) and re-implements Otava's
compute_change_points independently of benchdb's C code, in exact rational
arithmetic (Fraction) for the E-divisive statistic and the segment means and
variances, and with mpmath at 50 digits for the Student t p-values. It checks
that every case gives Otava's expected indexes, then writes

  change_points_ref.json               the indexes and, for every change point
                                       reported, its means, standard
                                       deviations, p-value, magnitude and
                                       forward change, rounded to doubles
  ../../sql/fn_change_points_otava.sql the same checks through the SQL function

Run from the source root with Debian's python3 (it has mpmath):
    /usr/bin/python3 tools/gen/data/otava/gen_reference.py

The algorithm, as docs/functions.md (change_points) describes it:
  split: windows of `window` points starting at 0; each runs the E-divisive
    detector with the first-pass threshold (p*10 if p < 0.05, p*2 if
    p < 0.5, else p), which keeps splitting at the best candidate while the
    t-test p-value is <= the threshold and stops at the first that is not;
    the next window starts at max(last change point found, start +
    window // 2). The union of the points ("weak" change points) gets its
    statistics recomputed on the whole series between neighbours.
  merge: repeatedly drop the point with the largest p-value while it is not
    < max_pvalue, else the one with the smallest magnitude while that is not
    > min_magnitude; after a drop only the right neighbour and the one after
    it are recomputed (Otava's quirk: the left neighbour keeps stale stats).
  t-test: scipy's ttest_ind_from_stats with equal_var=True, fed numpy's
    ddof=0 standard deviations (Otava's quirk).
"""
import json
import os
import random
import sys
from fractions import Fraction as F

import mpmath

mpmath.mp.dps = 50
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
HERE = os.path.join(ROOT, "tests", "data", "otava")


def qhat_argmax(w, s, e):
    """Otava's candidate in [s, e): the (tau, kappa), s < tau < kappa <= e,
    maximising Q, first in (tau, kappa) row-major order; Q exact.
    w(a, b) is the sum of |z_i - z_j| over a <= i < j < b."""
    best = None
    for tau in range(s + 1, e):
        n = tau - s
        wl = w(s, tau)
        for kappa in range(tau + 1, e + 1):
            m = kappa - tau
            wr = w(tau, kappa)
            cross = w(s, kappa) - wl - wr
            q = F(2, m + n) * cross
            if n > 1:
                q -= F(2 * m, (m + n) * (n - 1)) * wl
            if m > 1:
                q -= F(2 * n, (m + n) * (m - 1)) * wr
            if best is None or q > best[0]:
                best = (q, tau)
    return best


def window_sums(z):
    """w(a, b) = sum_{a <= i < j < b} |z_i - z_j| for 0 <= a <= b <= len(z)."""
    N = len(z)
    # r[a][c] = sum_{a <= i < c} |z_i - z_c|
    r = [[F(0)] * (N + 1) for _ in range(N + 1)]
    for c in range(N):
        for a in range(c - 1, -1, -1):
            r[a][c] = r[a + 1][c] + abs(z[a] - z[c])
    W = [[F(0)] * (N + 1) for _ in range(N + 1)]
    for a in range(N + 1):
        for b in range(a + 1, N + 1):
            W[a][b] = W[a][b - 1] + r[a][b - 1]
    return lambda a, b: W[a][b]


def seg_stats(seg):
    """mean and ddof-0 variance, exact; the variance is 0 for one value."""
    n = len(seg)
    mean = sum(seg, F(0)) / n
    var = sum(((v - mean) ** 2 for v in seg), F(0)) / n if n >= 2 else F(0)
    return mean, var


def ttest(left, right):
    """Otava's TTestSignificanceTester.compare: (p as mpf, stats)."""
    m1, v1 = seg_stats(left)
    m2, v2 = seg_stats(right)
    n1, n2 = len(left), len(right)
    df = n1 + n2 - 2
    st = dict(m1=m1, v1=v1, m2=m2, v2=v2)
    if df <= 0:
        return mpmath.mpf(1), st
    svar = ((n1 - 1) * v1 + (n2 - 1) * v2) / df
    den2 = svar * (F(1, n1) + F(1, n2))
    d = m1 - m2
    if den2 == 0:
        # t = +-inf (p = 0) or 0/0 (p = NaN), as numpy and scipy give them.
        return (mpmath.mpf(0) if d != 0 else mpmath.nan), st
    t2 = d * d / den2
    x = F(df) / (df + t2)
    p = mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, mpmath.mpf(x.numerator) / x.denominator,
                       regularized=True)
    return p, st


def le(p, threshold):
    """p <= threshold with p an mpf (NaN compares false, as in Python)."""
    return not mpmath.isnan(p) and p <= mpmath.mpf(F(threshold).numerator) / F(threshold).denominator


def detector(z, threshold):
    """ChangePointDetector with the t-test on one window; local indexes."""
    w = window_sums(z)
    N = len(z)
    cps = []
    while True:
        bounds = [0] + cps + [N]
        best = None
        for s, e in zip(bounds, bounds[1:]):
            if e - s > 1:
                q, tau = qhat_argmax(w, s, e)
                if best is None or q > best[0]:
                    best = (q, tau, s, e)
        if best is None:
            break
        _, tau, s, e = best
        p, _ = ttest(z[s:tau], z[tau:e])
        if le(p, threshold):
            cps = sorted(cps + [tau])
        else:
            break
    return cps


class CP:
    def __init__(self, index):
        self.index = index

    def recompute(self, series, prev, nxt):
        self.p, self.st = ttest(series[prev:self.index], series[self.index:nxt])
        self.n1, self.n2 = self.index - prev, nxt - self.index

    def fwd(self):
        m1, m2 = self.st["m1"], self.st["m2"]
        return F(0) if m1 == 0 else m2 / m1 - 1

    def bwd(self):
        m1, m2 = self.st["m1"], self.st["m2"]
        return F(0) if m2 == 0 else m1 / m2 - 1

    def magnitude(self):
        return max(abs(self.fwd()), abs(self.bwd()))


def recompute(cps, k, series):
    if 0 <= k < len(cps):
        prev = cps[k - 1].index if k > 0 else 0
        nxt = cps[k + 1].index if k + 1 < len(cps) else len(series)
        cps[k].recompute(series, prev, nxt)


def py_max(items, key):
    """Python's max(): the first item whose key no later key exceeds."""
    best = items[0]
    for it in items[1:]:
        if key(it) > key(best):
            best = it
    return best


def p_key(c):
    # NaN p-values: Python's max keeps a NaN it started with and never moves
    # to one; no case here has one (asserted below).
    assert not mpmath.isnan(c.p)
    return c.p


def compute_change_points(series, window=50, max_pvalue=0.001, min_magnitude=0.0):
    n = len(series)
    p1 = max_pvalue * 10 if max_pvalue < 0.05 else (max_pvalue * 2 if max_pvalue < 0.5 else max_pvalue)
    step = window // 2
    weak = []
    start = 0
    while start < n:
        end = min(start + window, n)
        new = [c + start for c in detector(series[start:end], p1)]
        last = new[-1] if new else 0
        start = max(last, start + step)
        for c in new:
            if c not in weak:
                weak.append(c)
    cps = [CP(i) for i in sorted(weak)]
    for k in range(len(cps)):
        recompute(cps, k, series)
    mp_max = mpmath.mpf(F(max_pvalue).numerator) / F(max_pvalue).denominator
    while cps:
        weakest = py_max(cps, p_key)
        if weakest.p < mp_max:
            weakest = py_max(cps, lambda c: -c.magnitude())  # min(), first on ties
            if weakest.magnitude() > F(min_magnitude):
                break
        i = cps.index(weakest)
        del cps[i]
        recompute(cps, i, series)
        recompute(cps, i + 1, series)
    return cps


def fresh_stats(cps, series):
    """What each point's stats would be between its final neighbours."""
    out = []
    for k, c in enumerate(cps):
        prev = cps[k - 1].index if k > 0 else 0
        nxt = cps[k + 1].index if k + 1 < len(cps) else len(series)
        out.append(ttest(series[prev:c.index], series[c.index:nxt]))
    return out


def dbl(x):
    """An exact rational or mpf as the nearest double's shortest repr."""
    if isinstance(x, F):
        return float(x)  # correctly rounded
    return float(x)  # mpmath rounds to nearest


def textbook_p(st, n1, n2):
    """The usual pooled t-test p-value (ddof-1 variances), for contrast."""
    df = n1 + n2 - 2
    ss = st["v1"] * n1 + st["v2"] * n2  # sums of squared deviations
    d = st["m1"] - st["m2"]
    t2 = d * d / (ss / df * (F(1, n1) + F(1, n2)))
    x = F(df) / (df + t2)
    return mpmath.betainc(mpmath.mpf(df) / 2, mpmath.mpf(1) / 2, 0, mpmath.mpf(x.numerator) / x.denominator,
                          regularized=True)


def point_json(c):
    return {
        "index": c.index,
        "mean_before": dbl(c.st["m1"]),
        "mean_after": dbl(c.st["m2"]),
        "stddev_before": dbl(mpmath.sqrt(mpmath.mpf(c.st["v1"].numerator) / c.st["v1"].denominator)),
        "stddev_after": dbl(mpmath.sqrt(mpmath.mpf(c.st["v2"].numerator) / c.st["v2"].denominator)),
        "pvalue": dbl(c.p),
        "magnitude": dbl(c.magnitude()),
        "forward_change_percent": dbl(c.fwd() * 100),
        "pvalue_textbook": dbl(textbook_p(c.st, c.n1, c.n2)),
    }


def case_name(case, seen):
    src = case["source"]
    name = os.path.basename(src["path"]).replace("_test.py", "") + "/" + src["test"]
    if name in seen:
        seen[name] += 1
        name += f"/{seen[name]}"
    else:
        seen[name] = 1
    return name


def main():
    cases_path = os.path.join(HERE, "change_point_cases.json")
    with open(cases_path) as f:
        doc = json.load(f)
    tb = doc["tigerbeetle_series"]["values"]
    out_cases = []
    seen = {}
    for case in doc["cases"]:
        name = case_name(case, seen)
        series_raw = tb if case["series"] == "tigerbeetle" else case["series"]
        series = [F(v) for v in series_raw]
        params = case["params"]
        call = case["call"]
        expected = case["expected_indexes"]
        if expected is None:
            expected = case["observed_with_real_code"]
        entry = {"name": name, "series": "tigerbeetle" if case["series"] == "tigerbeetle" else series_raw}
        if call == "compute_change_points":
            window = params.get("window_len", 50)
            max_p = params.get("max_pvalue", 0.001)
            min_mag = params.get("min_magnitude", 0.0)
            cps = compute_change_points(series, window, max_p, min_mag)
            got = [c.index for c in cps]
            entry.update(mode="otava", window=window, max_pvalue=max_p, min_magnitude=min_mag,
                         expected_indexes=expected, points=[point_json(c) for c in cps])
            stale = [c.index for c, (fp, fst) in zip(cps, fresh_stats(cps, series))
                     if fst != c.st or fp != c.p]
            entry["stale_indexes"] = stale
            if "expected_stats" in case:
                es = case["expected_stats"]
                c = cps[got.index(es["index"])]
                pj = point_json(c)
                for k in ("mean_before", "mean_after", "stddev_before", "stddev_after", "magnitude", "pvalue"):
                    # Otava prints these with "%f": six decimals.
                    if f"{pj[k]:f}" != es[k]:
                        sys.exit(f"{name}: {k} {pj[k]:f}, Otava prints {es[k]}")
                if f"{pj['forward_change_percent']:.0f}" != es["forward_change_percent"]:
                    sys.exit(f"{name}: forward_change_percent {pj['forward_change_percent']}")
        else:
            # The detector alone on the whole series with the t-test: Otava's
            # test_ttest, and the deterministic counterpart of the two
            # permutation-test cases (see README.md).
            thr = params["max_pvalue"]
            got = detector(series, thr)
            entry.update(mode="detector", max_pvalue=thr, expected_indexes=expected,
                         permutation_case="permutation" in call.lower() or "orig" in call)
        if got != expected:
            sys.exit(f"{name}: got {got}, Otava expects {expected}")
        print(f"{name}: {got}" + (f" (stale stats reported at {entry['stale_indexes']})"
                                  if entry.get("stale_indexes") else ""), file=sys.stderr)
        out_cases.append(entry)

    out_cases += extra_cases()
    ref = {
        "description": "GENERATED by tools/gen/data/otava/gen_reference.py from change_point_cases.json: "
                       "Otava's compute_change_points re-implemented in exact rationals and mpmath "
                       "(50 digits); numbers are the exact values rounded to doubles.",
        "tigerbeetle": tb,
        "cases": out_cases,
    }
    with open(os.path.join(HERE, "change_points_ref.json"), "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")
    write_sql([c for c in out_cases if not c["name"].startswith("extra/")], tb)


def extra_cases():
    """Random step series beyond Otava's tests (reference only: no Otava
    expectation), half of them integer-valued like the Tigerbeetle series so
    that exact ties in Q occur. The series are stored in the output, so the
    tests never depend on this generator's random numbers."""
    rng = random.Random(20261201)
    out = []
    for k in range(16):
        n = rng.randint(40, 160)
        window = rng.choice([5, 10, 17, 30, 50])
        max_p = rng.choice([0.001, 0.01, 0.05, 0.2])
        min_mag = rng.choice([0.0, 0.0, 0.02])
        integer = k % 2 == 1
        level = 20000.0 if integer else 100.0
        sd = rng.choice([0.005, 0.01, 0.03])
        values = []
        next_step = rng.randint(10, 60)
        for i in range(n):
            if i == next_step:
                level *= 1 + rng.uniform(-0.15, 0.15)
                next_step += rng.randint(10, 60)
            v = level * (1 + rng.gauss(0, sd))
            values.append(int(round(v)) if integer else round(v, 3))
        series = [F(v) for v in values]
        cps = compute_change_points(series, window, max_p, min_mag)
        got = [c.index for c in cps]
        name = f"extra/random{k + 1}"
        print(f"{name} (n={n}, window={window}, p={max_p}, magnitude={min_mag}): {got}", file=sys.stderr)
        out.append({"name": name, "series": values, "mode": "otava", "window": window, "max_pvalue": max_p,
                    "min_magnitude": min_mag, "expected_indexes": got, "points": [point_json(c) for c in cps]})
    return out


def sql_num(x):
    r = repr(float(x))
    return r if any(ch in r for ch in ".eE") else r + ".0"


def write_sql(cases, tb):
    """tests/sql/fn_change_points_otava.sql: each series inserted in a
    shuffled row order with seq = 1000 + 7 * position, and each case's result
    checked point by point."""
    lines = [
        "-- change_points() on Apache Otava's test series: indexes exactly as Otava's",
        "-- tests expect them, statistics within 1e-9 relative of exact values.",
        "-- GENERATED by tools/gen/data/otava/gen_reference.py; do not edit by hand.",
        "",
        "CREATE TEMP TABLE s(series TEXT, seq INTEGER, x REAL);",
    ]
    series_sql = {}
    for c in cases:
        if c["mode"] != "otava":
            continue
        values = tb if c["series"] == "tigerbeetle" else c["series"]
        key = json.dumps(values)
        if key in series_sql:
            continue
        sname = f"s{len(series_sql) + 1}"
        series_sql[key] = sname
        order = list(range(len(values)))
        # a fixed shuffle (LCG), so that rows do not arrive in seq order
        state = 12345
        for i in range(len(order) - 1, 0, -1):
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            j = (state >> 33) % (i + 1)
            order[i], order[j] = order[j], order[i]
        rows = [f"('{sname}', {1000 + 7 * i}, {sql_num(values[i])})" for i in order]
        lines.append("INSERT INTO s VALUES")
        lines.append(",\n".join("  " + r for r in rows) + ";")
    lines.append("")
    members = ("mean_before", "mean_after", "stddev_before", "stddev_after", "pvalue", "magnitude",
               "forward_change_percent")
    for c in cases:
        if c["mode"] != "otava":
            continue
        sname = series_sql[json.dumps(tb if c["series"] == "tigerbeetle" else c["series"])]
        name = c["name"]
        call = f"change_points(seq, x, {c['window']}, {sql_num(c['max_pvalue'])}, {sql_num(c['min_magnitude'])})"
        lines.append(f"CREATE TEMP TABLE r AS SELECT {call} AS j FROM s WHERE series = '{sname}';")
        idx = ",".join(str(i) for i in c["expected_indexes"])
        seqs = ",".join(str(1000 + 7 * i) for i in c["expected_indexes"])
        lines.append(f"SELECT '{name}/indexes', (SELECT coalesce(group_concat(e.value ->> 'index', ','), '') "
                     f"FROM r, json_each(r.j) AS e) = '{idx}';")
        lines.append(f"SELECT '{name}/seq', (SELECT coalesce(group_concat(e.value ->> 'seq', ','), '') "
                     f"FROM r, json_each(r.j) AS e) = '{seqs}';")
        for k, pt in enumerate(c["points"]):
            for m in members:
                want = pt[m]
                if want == 0:
                    lines.append(f"SELECT '{name}/{k}/{m}', (SELECT j ->> '$[{k}].{m}' FROM r) = 0;")
                else:
                    lines.append(f"SELECT '{name}/{k}/{m}', abs((SELECT j ->> '$[{k}].{m}' FROM r) - "
                                 f"{sql_num(want)}) <= 1e-9 * {sql_num(abs(want))};")
        lines.append("DROP TABLE r;")
        lines.append("")
    with open(os.path.join(ROOT, "tests", "sql", "fn_change_points_otava.sql"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
