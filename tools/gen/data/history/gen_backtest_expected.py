#!/usr/bin/python3
"""What `benchdb backtest` must report on a small simulated history
(tests/cli/backtest_scoring.sh), computed here independently of benchdb's
SQL from the values the archives hold:

    benchdb simulate --history 40 --hosts 2 --cells 2 --steps 2 --seed 21 \\
        --step 'ci-a-0020:small/serialize:+3' --step 'ci-b-0030:large/serialize:-8' DIR

Writes backtest_values.tsv (every run's values, as the archives hold them:
the exported data the expectations come from) and backtest_expected.json
(per gate: the alerts, the missed regressions, each history's and the
total counts, runs judged and runs without limits apart, recall,
precision, false alarms per 100 runs judged and delays).
The gates are re-implemented from their documentation (docs/queries.md),
with defaults: gate-zscore (svs best, 100 runs, threshold 5, Conbench's
distribution with outlier removal, no limits under 8 runs), gate-ttest (64 runs, boundary 0.99,
t quantiles in mpmath), gate-percent (median of 10 runs, 5%); the
reference is the injected steps; within = 5. The generator stops when a
decision lies within 1e-9 of its limit, where rounding could flip it.

Run from the source root with Debian's Python after building benchdb:

    /usr/bin/python3 tools/gen/data/history/gen_backtest_expected.py build/benchdb
"""
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

import mpmath as mp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conbench"))
from gen_lookback import conbench_pandas, exact  # noqa: E402  Conbench's distribution

mp.mp.dps = 50
SIM = ["--history", "40", "--hosts", "2", "--cells", "2", "--steps", "2", "--seed", "21",
       "--step", "ci-a-0020:small/serialize:+3", "--step", "ci-b-0030:large/serialize:-8"]
OUT = "tests/data/history"
WITHIN = 5


def load(benchdb):
    """{(host, workload): [(night, run, revision, values)]} and the steps."""
    hist, steps = {}, []
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([benchdb, "simulate", "-q"] + SIM + [d], check=True)
        for name in sorted(os.listdir(d)):
            text = subprocess.run(["zstd", "-dc", os.path.join(d, name)], check=True, capture_output=True).stdout
            run = None
            for line in text.decode().splitlines():
                r = json.loads(line)
                if r["record"] == "run":
                    run = r
                elif r["record"] == "event" and r["name"] == "injected-step":
                    steps.append((run["host"], r["detail"]["params"]["workload"], run["position"], r["detail"]["percent"]))
                elif r["record"] == "samples":
                    key = (run["host"], r["params"]["workload"])
                    hist.setdefault(key, []).append((run["position"], run["run"], run["source"], r["values"]))
    for key in hist:
        hist[key].sort()
    return hist, steps


def margin(stat, limit, what):
    if abs(stat - limit) <= 1e-9 * max(abs(limit), 1e-300):
        sys.exit("decision within 1e-9 of its limit (%s: %r vs %r): choose another seed" % (what, stat, limit))


def t_quantile(p, df):
    cdf = lambda t: 1 - mp.betainc(mp.mpf(df) / 2, mp.mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2
    return mp.findroot(lambda t: cdf(t) - mp.mpf(p), mp.mpf(2))


def gate_alerts(gate, points):
    """[(seq, statistic, limit)] of the regression alerts of one history, and
    how many of its runs the gate judged (had limits for: runs before it,
    min_runs of them, with a spread)."""
    out = []
    judged = 0
    means = [mp.fsum(mp.mpf(v) for v in vals) / len(vals) for _, _, _, vals in points]
    for k in range(len(points)):
        seq = k + 1
        x = means[k]
        if gate == "gate-percent":
            base = statistics.median(means[max(0, k - 10):k]) if k else None
            if base is None:
                continue
            judged += 1
            upper = base * (1 + mp.mpf(5) / 100)
            margin(x, upper, "percent")
            if x > upper:
                out.append((seq, float((x - base) / abs(base) * 100), 5.0))
        elif gate == "gate-ttest":
            sample = means[max(0, k - 64):k]
            n = len(sample)
            if n < 2:
                continue
            m = mp.fsum(sample) / n
            sd = mp.sqrt(mp.fsum((v - m) ** 2 for v in sample) / (n - 1))
            if sd == 0:
                continue
            judged += 1
            upper = m + t_quantile(0.99, n - 1) * sd * mp.sqrt(1 + mp.mpf(1) / n)
            margin(x, upper, "ttest")
            if x > upper:
                out.append((seq, float(x), float(upper)))
        else:
            svs = [min(vals) for _, _, _, vals in points]
            dist = svs[max(0, k - 100):k]
            if len(dist) < 8:  # min_runs: no limits before 8 runs
                continue
            outlier, _, _ = conbench_pandas(dist)
            mean, sd = exact(dist, outlier)
            if sd is None or sd == 0:
                continue
            judged += 1
            z = -(mp.mpf(svs[k]) - mean) / sd
            margin(-z, 5, "zscore")
            if -z > 5:
                out.append((seq, float(z), -5.0))
    return out, judged


def score(gate, hist, steps):
    rows = {"alerts": [], "missed": [], "histories": []}
    total = dict(runs=0, runs_without_limits=0, events=0, detected=0, alerts=0, false_alarms=0, delay_sum=0,
                 max_delay=None)
    for (host, workload), points in sorted(hist.items()):
        alerts, judged = gate_alerts(gate, points)
        events = sorted(night for h, w, night, pct in steps if h == host and w == workload and pct > 0)
        hits, first = [], {}
        for seq, stat, limit in alerts:
            before = [e for e in events if e <= seq]
            hit = bool(before) and seq < before[-1] + WITHIN
            if hit:
                first.setdefault(before[-1], seq)
            rows["alerts"].append(dict(host=host, workload=workload, seq=seq, run=points[seq - 1][1],
                                       statistic=stat, limit=limit, verdict="hit" if hit else "false alarm",
                                       delay=seq - before[-1] if hit else None))
            hits.append(hit)
        for e in events:
            if e not in first:
                rows["missed"].append(dict(host=host, workload=workload, seq=e, run=points[e - 1][1]))
        h = dict(runs=judged, runs_without_limits=len(points) - judged, events=len(events), detected=len(first), alerts=len(alerts),
                 false_alarms=hits.count(False), delay_sum=sum(first[e] - e for e in first),
                 max_delay=max((first[e] - e for e in first), default=None))
        for key in ("runs", "runs_without_limits", "events", "detected", "alerts", "false_alarms", "delay_sum"):
            total[key] += h[key]
        if h["max_delay"] is not None:
            total["max_delay"] = max(total["max_delay"] or 0, h["max_delay"])
        if h["events"] or h["alerts"]:
            rows["histories"].append(dict(host=host, workload=workload, **h))
    rows["total"] = total
    return rows


def main():
    hist, steps = load(sys.argv[1])
    with open(os.path.join(OUT, "backtest_values.tsv"), "w") as f:
        f.write("# host\tworkload\tseq\trun\trevision\tvalues (GENERATED by gen_backtest_expected.py)\n")
        for (host, workload), points in sorted(hist.items()):
            for seq, (night, run, rev, vals) in enumerate(points, 1):
                assert night == seq
                f.write("%s\t%s\t%d\t%s\t%s\t%s\n" % (host, workload, seq, run, rev, ",".join(repr(v) for v in vals)))
    expected = {g: score(g, hist, steps) for g in ("gate-zscore", "gate-ttest", "gate-percent")}
    expected["steps"] = sorted(steps)
    with open(os.path.join(OUT, "backtest_expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    for g in ("gate-zscore", "gate-ttest", "gate-percent"):
        print(g, expected[g]["total"])


if __name__ == "__main__":
    main()
