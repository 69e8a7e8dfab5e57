#!/usr/bin/env python3
"""Placement-calibration shares of benchdb-run/1 archives, computed
independently of benchdb (Python 3 standard library; zstd via `zstd -dc`).

usage: tools/calibration-check.py [--json] ARCHIVE_OR_DIR...

For every plan and every group of runs (run attribute `profile`), it makes
the comparisons of the seed report's Method section:
  block score  = mean of the non-warmup values over all forks of a
                 (run, cell, block, variant);
  block ratio  = treatment score / baseline score, as times per operation
                 (a throughput is inverted first); runs without a
                 treatment/baseline pair are ignored;
  run x cell   = the block log ratios; geometric-mean ratio exp(mean);
  comparison   = run A over run B in one cell: estimate exp(mean_A - mean_B),
                 95% pooled two-sample Student-t interval on the two runs'
                 block log ratios (df = nA + nB - 2);
  within-host  = position i over position j (i < j) on one host;
  between-host = same position on two hosts, earlier host name over later.
It prints, per group, how many estimates lie within 0.95..1.05 and how
many intervals exclude 1, and the rule's verdict: the band condition holds
when at least 95% of between-host estimates are in the band, the interval
condition when the between-host exclusion share is at most the within-host
share plus 5 percentage points.
"""
from fractions import Fraction
import json
import math
import os
import subprocess
import sys

TIME_UNITS = {"ns/op": 1e-9, "us/op": 1e-6, "ms/op": 1e-3, "s/op": 1.0,
              "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
THROUGHPUT_UNITS = {"ops/ns": 1e9, "ops/us": 1e6, "ops/ms": 1e3, "ops/s": 1.0, "ops/min": 1.0 / 60}


def seconds_per_op(score, unit):
    """A score as a time per operation (a throughput is inverted first)."""
    if unit in TIME_UNITS:
        return score * TIME_UNITS[unit]
    return 1.0 / (score * THROUGHPUT_UNITS[unit])
BAND = (0.95, 1.05)


def t_two_sided(t, df):
    """P(|T| <= t) for Student's t with integer df >= 1: the finite series
    of Abramowitz and Stegun 26.7.3 (odd df) and 26.7.4 (even df)."""
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    if df % 2:
        if df == 1:
            return 2.0 * theta / math.pi
        term, total = c, c
        for k in range(3, df - 1, 2):
            term *= c * c * (k - 1) / k
            total += term
        return 2.0 / math.pi * (theta + s * total)
    term, total = 1.0, 1.0
    for k in range(2, df - 1, 2):
        term *= c * c * (k - 1) / k
        total += term
    return s * total


_TQ = {}


def t_quantile(p, df):
    """Quantile of Student's t for 0.5 < p < 1 and integer df, by bisection."""
    if (p, df) not in _TQ:
        target = 2.0 * p - 1.0
        lo, hi = 0.0, 1.0
        while t_two_sided(hi, df) < target:
            hi *= 2.0
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if t_two_sided(mid, df) < target:
                lo = mid
            else:
                hi = mid
        _TQ[(p, df)] = 0.5 * (lo + hi)
    return _TQ[(p, df)]


def archive_files(args):
    for a in args:
        if os.path.isdir(a):
            for root, dirs, files in sorted(os.walk(a)):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(".jsonl") or f.endswith(".jsonl.zst"):
                        yield os.path.join(root, f)
        else:
            yield a


def read_lines(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"\x28\xb5\x2f\xfd":
        data = subprocess.run(["zstd", "-dcq"], input=data, stdout=subprocess.PIPE, check=True).stdout
    return data.decode("utf-8").splitlines()


def load(paths):
    """Runs as dicts: plan, run, host, position, group, ratios {cell: [log ratio by block]}."""
    runs = []
    for path in archive_files(paths):
        run = {"scores": {}}
        for line in read_lines(path):
            if not line.strip():
                continue
            rec = json.loads(line)
            kind = rec["record"]
            if kind == "run":
                if "treatment" not in rec:
                    run = {"scores": {}}  # no treatment/baseline pair: nothing to compare
                    continue
                run = {"plan": rec["plan"], "run": rec["run"], "host": rec["host"],
                       "position": rec.get("position", 1),
                       "group": str(rec.get("attributes", {}).get("profile", "")),
                       "treatment": rec["treatment"], "baseline": rec["baseline"], "scores": {}}
                runs.append(run)
            elif kind == "samples":
                cell = rec["benchmark"] + json.dumps(rec.get("params", {}), sort_keys=True, separators=(",", ":"))
                key = (cell, rec["block"], rec["variant"])
                acc = run["scores"].setdefault(key, [0.0, 0, rec["unit"]])
                acc[0] += math.fsum(rec["values"])
                acc[1] += len(rec["values"])
    runs = [r for r in runs if "plan" in r]
    for run in runs:
        ratios = {}
        for (cell, block, variant), (total, n, unit) in run["scores"].items():
            if variant != run["treatment"]:
                continue
            b = run["scores"].get((cell, block, run["baseline"]))
            if b is None:
                continue
            r = seconds_per_op(total / n, unit) / seconds_per_op(b[0] / b[1], b[2])
            ratios.setdefault(cell, []).append((block, math.log(r)))
        run["ratios"] = {c: [x for _, x in sorted(v)] for c, v in ratios.items()}
        del run["scores"]
    return runs


def mean(xs):
    return math.fsum(xs) / len(xs)


def compare(a, b):
    """(estimate, lo, hi) for run a over run b in one cell."""
    na, nb = len(a), len(b)
    ma, mb = mean(a), mean(b)
    ss = math.fsum((x - ma) ** 2 for x in a) + math.fsum((x - mb) ** 2 for x in b)
    df = na + nb - 2
    sp = math.sqrt(ss / df)
    half = t_quantile(0.975, df) * sp * math.sqrt(1.0 / na + 1.0 / nb)
    d = ma - mb
    return math.exp(d), math.exp(d - half), math.exp(d + half)


def workload(cell):
    """The cell's `workload` parameter, or '' (cells are name + params JSON)."""
    i = cell.index("{")
    return str(json.loads(cell[i:]).get("workload", ""))


def tally(pairs):
    n = band = rev = excl = 0
    by_workload = {}
    for a, b in pairs:
        for cell in sorted(a["ratios"]):
            if cell not in b["ratios"]:
                continue
            est, lo, hi = compare(a["ratios"][cell], b["ratios"][cell])
            n += 1
            band += BAND[0] <= est <= BAND[1]
            rev += BAND[0] <= 1.0 / est <= BAND[1]
            excl += lo > 1.0 or hi < 1.0
            if lo > 1.0 or hi < 1.0:
                w = workload(cell)
                by_workload[w] = by_workload.get(w, 0) + 1
    return {"n": n, "in_band": band, "in_band_reversed": rev, "excluding": excl,
            "excluding_by_workload": by_workload}


def analyse(runs):
    out = []
    plans = sorted({r["plan"] for r in runs})
    for plan in plans:
        groups = sorted({r["group"] for r in runs if r["plan"] == plan})
        for g in groups:
            rs = [r for r in runs if r["plan"] == plan and r["group"] == g]
            hosts = sorted({r["host"] for r in rs})
            by = {(r["host"], r["position"]): r for r in rs}
            positions = sorted({r["position"] for r in rs})
            within = [(by[(h, p)], by[(h, q)]) for h in hosts for i, p in enumerate(positions)
                      for q in positions[i + 1:] if (h, p) in by and (h, q) in by]
            between = [(by[(h, p)], by[(k, p)]) for p in positions for i, h in enumerate(hosts)
                       for k in hosts[i + 1:] if (h, p) in by and (k, p) in by]
            w, b = tally(within), tally(between)
            # Exact shares, so that "at most 5 points more" holds at equality.
            share = lambda x, k: Fraction(x[k], x["n"]) if x["n"] else Fraction(0)
            band_ok = b["n"] > 0 and share(b, "in_band") >= Fraction(95, 100)
            excl_ok = share(b, "excluding") <= share(w, "excluding") + Fraction(5, 100)
            # Spread of each cell's geometric-mean ratio across the group's runs.
            cells = sorted(set.intersection(*(set(r["ratios"]) for r in rs)))
            spreads = sorted(math.exp(max(mean(r["ratios"][c]) for r in rs) - min(mean(r["ratios"][c]) for r in rs))
                             for c in cells)
            sds = sorted(sd(r["ratios"][c]) for r in rs for c in cells)
            out.append({"plan": plan, "group": g, "runs": len(rs), "within": w, "between": b,
                        "band_condition": band_ok, "interval_condition": excl_ok,
                        "passes": band_ok and excl_ok,
                        "median_max_min_ratio": median(spreads), "median_sd_log": median(sds)})
    return out


def sd(xs):
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def median(xs):
    n = len(xs)
    if n == 0:
        return float("nan")
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def pct(k, n):
    return f"{k}/{n} ({100.0 * k / n:.1f}%)" if n else "0/0"


def main(argv):
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    if not args or "-h" in args or "--help" in args:
        print(__doc__.strip(), file=sys.stderr if not args else sys.stdout)
        return 2 if not args else 0
    results = analyse(load(args))
    if as_json:
        json.dump(results, sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    for r in results:
        w, b = r["within"], r["between"]
        print(f"{r['plan']} {r['group']}: {r['runs']} runs")
        print(f"  within-host   in band {pct(w['in_band'], w['n'])}, excluding 1 {pct(w['excluding'], w['n'])}")
        print(f"  between-host  in band {pct(b['in_band'], b['n'])} (reversed {pct(b['in_band_reversed'], b['n'])}),"
              f" excluding 1 {pct(b['excluding'], b['n'])}")
        print("  excluding 1 by workload: within " +
              ", ".join(f"{k} {v}" for k, v in sorted(w["excluding_by_workload"].items())) + "; between " +
              ", ".join(f"{k} {v}" for k, v in sorted(b["excluding_by_workload"].items())))
        print(f"  median sd of a run's block log ratios {r['median_sd_log']:.4f};"
              f" median largest/smallest geomean ratio {r['median_max_min_ratio']:.4f}")
        print(f"  band condition {'holds' if r['band_condition'] else 'fails'},"
              f" interval condition {'holds' if r['interval_condition'] else 'fails'}:"
              f" {'passes' if r['passes'] else 'fails'}")
    plans = sorted({r["plan"] for r in results})
    adopted = [p for p in plans if all(r["passes"] for r in results if r["plan"] == p)]
    print(f"separate-host placement adopted in {len(adopted)} of {len(plans)} plan(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
