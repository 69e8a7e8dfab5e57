#!/usr/bin/python3
"""Generates tests/sql/fn_lookback_conbench.sql: lookback_baseline(seq, x)
against Conbench's lookback z-score distribution, computed here twice,
independently of benchdb's C code:

1. with pandas, transcribing the steps of conbench/entities/history.py at
   3af4a55 (_detect_shifts_with_trimmed_estimators, then
   _add_rolling_stats_columns_to_df with include_current_commit_in_rolling_stats
   as _query_distribution_stats does it, one result per commit, no
   manual distribution changes), giving the outliers, the mean and the
   residual standard deviation as of the last result;
2. in 50-digit mpmath, from the outlier set of (1): the mean and the
   residual standard deviation exactly.

The two must agree within 1e-12, or 1e-6 where pandas' running sums lose
digits to a large offset (else this stops), and the file checks
benchdb against (2) within 1e-12 relative and against (1)'s outlier counts
exactly. Run from the source root with Debian's Python, which has mpmath
and (python3-pandas) pandas:

    /usr/bin/python3 tools/gen/data/conbench/gen_lookback.py
"""
import json
import random

import mpmath as mp
import numpy as np
import pandas as pd

mp.mp.dps = 50
OUT = "tests/sql/fn_lookback_conbench.sql"
WINDOW = 100  # Config.DISTRIBUTION_COMMITS


def conbench_pandas(values):
    """Conbench's distribution stats of values (oldest first) as of the last,
    with DISTRIBUTION_COMMITS = max(100, len(values)): the distribution is
    all of the values given, as a gate's frame of `runs` rows is."""
    WINDOW = max(100, len(values))
    df = pd.DataFrame({"svs": [float(v) for v in values]})
    # _detect_shifts_with_trimmed_estimators (one fingerprint, sorted by time)
    diff = df["svs"].diff()
    clipped = diff.copy()
    clipped.loc[(diff < diff.quantile(0.05)) | (diff > diff.quantile(0.95))] = np.nan
    rmean = clipped.rolling(WINDOW, min_periods=1).mean()
    rstd = clipped.rolling(WINDOW, min_periods=1).std()
    z = (diff - rmean) / rstd
    is_shift = z.abs() > 5.0
    reverts = is_shift & is_shift.shift(-1, fill_value=False)
    is_outlier = is_shift & reverts
    # _add_rolling_stats_columns_to_df over the non-outliers: the window of
    # DISTRIBUTION_COMMITS commits spans the whole distribution.
    kept = df.loc[~is_outlier, "svs"].reset_index(drop=True)
    excl = kept.rolling(WINDOW, min_periods=1).mean().shift(1)
    excl = excl.combine_first(kept)
    residual = kept - excl
    mean = kept.rolling(WINDOW, min_periods=1).mean().iloc[-1]
    std = residual.rolling(WINDOW, min_periods=1).std().iloc[-1]
    return list(is_outlier), float(mean), float(std)


def exact(values, outlier):
    kept = [mp.mpf(v) for v, o in zip(values, outlier) if not o]
    k = len(kept)
    mean = mp.fsum(kept) / k
    res = [mp.mpf(0)]
    for j in range(1, k):
        res.append(kept[j] - mp.fsum(kept[:j]) / j)
    if k < 2:
        return mean, None
    rbar = mp.fsum(res) / k
    sd = mp.sqrt(mp.fsum((r - rbar) ** 2 for r in res) / (k - 1))
    return mean, sd


def num(x):
    s = "%.17g" % float(x)
    return s if any(c in s for c in ".en") else s + ".0"


def cases():
    rnd = random.Random(20261201)
    out = []
    # Conbench's anchors (zscore_anchors.json): the distributions of the
    # contenders (single-value summaries of the two earlier commits).
    out.append(("anchor-one", [1, 2]))
    out.append(("anchor-mean", [15, 16.5]))
    out.append(("anchor-best-s", [10, 11]))
    out.append(("anchor-best-ips", [20, 22]))
    out.append(("single", [3.25]))
    out.append(("constant", [7.0] * 12))
    # A spike that comes back is an outlier; a step that stays is not.
    base = [round(10 + rnd.gauss(0, 0.1), 4) for _ in range(30)]
    spike = list(base)
    spike[17] = 14.0
    out.append(("spike", spike))
    step = base[:15] + [round(v + 3, 4) for v in base[15:]]
    out.append(("step", step))
    # Two spikes in a row (up, up-and-back over two results).
    two = list(base)
    two[10], two[11] = 14.0, 14.2
    out.append(("double-spike", two))
    # A spike at the very end cannot be an outlier (nothing comes after).
    end = list(base)
    end[-1] = 14.0
    out.append(("spike-at-end", end))
    # Spikes on a long noisy history, at the 100-result window.
    long = [round(100 + rnd.gauss(0, 1.5), 3) for _ in range(100)]
    for i in (12, 40, 41, 77):
        long[i] += 25
    out.append(("long", long))
    # More than 100 results (a gate with runs = 400): the quantiles lie far
    # from both ends of the sorted diffs.
    very = [round(100 + rnd.gauss(0, 1.0), 3) for _ in range(400)]
    for i in (50, 51, 200, 390):
        very[i] += 30
    out.append(("very-long", very))
    # Integer data: ties on the quantiles and among the diffs.
    out.append(("ties", [rnd.choice([10, 11, 12]) for _ in range(40)] + [30, 11, 12, 10]))
    # Values far from 0 with a small spread.
    out.append(("offset", [1e9 + v for v in [1, 2, 4, 3, 2, 5, 3, 4, 40, 3, 2, 4]]))
    return out


def main():
    lines = [
        "-- lookback_baseline(seq, x) against Conbench's lookback distribution: outliers",
        "-- from a pandas transcription of conbench/entities/history.py (3af4a55),",
        "-- mean and residual standard deviation in 50-digit mpmath.",
        "-- GENERATED by tools/gen/data/conbench/gen_lookback.py; do not edit by hand.",
        "",
        "CREATE TEMP TABLE s(c TEXT, seq INTEGER, x REAL);",
    ]
    rnd = random.Random(7)
    checks = []
    for name, values in cases():
        outlier, pmean, pstd = conbench_pandas(values)
        mean, sd = exact(values, outlier)
        tol = 1e-6 if name == "offset" else 1e-12
        assert abs(mean - pmean) <= tol * abs(mean), (name, mean, pmean)
        if sd is None:
            assert np.isnan(pstd), (name, pstd)
        else:
            assert abs(sd - pstd) <= tol * max(abs(sd), 1e-300) or (sd == 0 and pstd == 0), (name, sd, pstd)
        rows = [(i + 1, v) for i, v in enumerate(values)]
        rnd.shuffle(rows)  # the aggregate orders its rows itself
        lines.append("INSERT INTO s VALUES " + ", ".join("('%s', %d, %s)" % (name, i, num(v)) for i, v in rows) + ";")
        agg = "(SELECT lookback_baseline(seq, x) FROM s WHERE c = '%s')" % name
        checks.append("SELECT 'lookback/%s/n', %s ->> 'n' = %d;" % (name, agg, len(values)))
        checks.append("SELECT 'lookback/%s/outliers', %s ->> 'outliers' = %d;" % (name, agg, sum(outlier)))
        e = num(mean)
        checks.append("SELECT 'lookback/%s/mean', abs((%s ->> 'mean') - %s) <= 1e-12 * max(abs(%s), 1e-12);"
                      % (name, agg, e, e))
        if sd is None:
            checks.append("SELECT 'lookback/%s/stddev', %s ->> 'stddev' IS NULL;" % (name, agg))
        else:
            e = num(sd)
            checks.append("SELECT 'lookback/%s/stddev', abs((%s ->> 'stddev') - %s) <= 1e-12 * max(abs(%s), 1e-300);"
                          % (name, agg, e, e))
    # The window a gate uses: each row's frame is the 100 rows before it.
    name, values = "window", [round(50 + 5 * np.sin(i / 7.0) + (20 if i in (60, 130) else 0), 6) for i in range(160)]
    lines.append("INSERT INTO s VALUES " + ", ".join("('%s', %d, %s)" % (name, i + 1, num(v))
                                                     for i, v in enumerate(values)) + ";")
    for k in (2, 3, 50, 101, 102, 131, 132, 160):
        dist = values[max(0, k - 1 - WINDOW):k - 1]
        outlier, _, _ = conbench_pandas(dist)
        mean, sd = exact(dist, outlier)
        w = ("(SELECT b FROM (SELECT seq, lookback_baseline(seq, x) OVER (ORDER BY seq ROWS BETWEEN 100 PRECEDING "
             "AND 1 PRECEDING) AS b FROM s WHERE c = 'window') WHERE seq = %d)" % k)
        checks.append("SELECT 'lookback/window/%d/outliers', %s ->> 'outliers' = %d;" % (k, w, sum(outlier)))
        e = num(mean)
        checks.append("SELECT 'lookback/window/%d/mean', abs((%s ->> 'mean') - %s) <= 1e-12 * max(abs(%s), 1e-12);"
                      % (k, w, e, e))
        if sd is None:
            checks.append("SELECT 'lookback/window/%d/stddev', %s ->> 'stddev' IS NULL;" % (k, w))
        else:
            e = num(sd)
            checks.append("SELECT 'lookback/window/%d/stddev', abs((%s ->> 'stddev') - %s) <= 1e-12 * abs(%s);"
                          % (k, w, e, e))
    lines.append("")
    lines.extend(checks)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", OUT, len(checks), "checks")


if __name__ == "__main__":
    main()
