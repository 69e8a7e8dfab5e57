#!/usr/bin/python3
"""Builds, from the peers' anchors, an archive of short histories and the
numbers the gate queries must give on it (tests/cli/history_anchors.sh):

- tests/data/conbench/zscore_anchors.json (Conbench's lookback z-score): one
  plan per case, three runs (commits) on host `conbench`, each repetition a
  measured value of `serialize` in seconds (`s`, lower is better) or
  operations per second (`ops/s` for Conbench's `i/s`, higher is better);
  gate-zscore with svs = best or mean must give z = null, null, z3.
- tests/data/bencher/boundary_anchors.json (Bencher's thresholds): one plan
  per case whose sample has exactly the anchor's mean and standard
  deviation (or is the anchor's data), then a contender; gate-ttest (model
  t_test, z_score or log_normal) and gate-percent (on a constant sample, whose
  median is its mean) must give the anchor's limits.

Expected values are computed here in 50-digit mpmath from the algorithms
(ALGORITHMS.md sections 5 and 6), independently of benchdb: the test holds
the gates to them within 1e-12 relative, and to the anchors as the peers
wrote them (exact ones within 1e-12 relative, rounded ones to their digits).

Run from the source root with Debian's Python (mpmath):

    /usr/bin/python3 tools/gen/data/history/gen_gate_anchors.py
"""
import datetime
import json

import mpmath as mp

mp.mp.dps = 50
CONBENCH = "tests/data/conbench/zscore_anchors.json"
BENCHER = "tests/data/bencher/boundary_anchors.json"
ARCHIVE = "tests/data/history/anchors.jsonl"
EXPECTED = "tests/data/history/anchors_expected.tsv"


def num(x):
    s = "%.17g" % float(x)
    return s if any(c in s for c in ".en") else s + ".0"


def t_quantile(p, df):
    p, df = mp.mpf(p), mp.mpf(df)
    cdf = lambda t: 1 - mp.betainc(df / 2, mp.mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2
    return mp.findroot(lambda t: cdf(t) - p, mp.mpf(1))


def z_quantile(p):
    return mp.sqrt(2) * mp.erfinv(2 * mp.mpf(p) - 1)


class Out:
    def __init__(self):
        self.lines, self.expected, self.day = [], [], 0

    def run(self, plan, host, name, samples):
        """samples: [(metric, unit, values)]."""
        self.day += 1
        rec = {"record": "run", "format": "benchdb-run/1", "plan": plan, "run": name, "host": host,
               "source": "r%04d" % self.day,
               "started_at": (datetime.date(2026, 1, 1) + datetime.timedelta(days=self.day)).isoformat() + "T00:00:00Z"}
        self.lines.append(json.dumps(rec, separators=(",", ":")))
        for metric, unit, values in samples:
            s = {"record": "samples", "benchmark": "serialize", "block": 1, "variant": "main", "unit": unit,
                 "values": [float(v) if isinstance(v, float) else v for v in values]}
            if metric != "primary":
                s["metric"] = metric
            self.lines.append(json.dumps(s, separators=(",", ":")))

    def expect(self, query, params, plan, seq, column, value, kind):
        self.expected.append("\t".join([query, params, plan, str(seq), column, value, kind]))


def conbench(out):
    cases = json.load(open(CONBENCH))["cases"]
    for k, case in enumerate(cases):
        plan = "conbench-%d" % (k + 1)
        ips = case["unit"] == "i/s"
        unit = "ops/s" if ips else "s"
        commits = sorted(case["results_per_commit"])
        for i, c in enumerate(commits):
            # A run per commit, in commit order; all in one plan, on one host.
            out.run(plan, "conbench", "%s-%d" % (plan, i + 1), [("primary", unit, case["results_per_commit"][c])])
        svs_types = case.get("svs_type", "mean|best").split("|")
        expected_z = case["expected_z"]
        if not isinstance(expected_z, list):  # test_set_z_scores_one_rep: the contender is the last commit
            expected_z = [None, None, expected_z]
        for svs in svs_types:
            # Conbench's SVS per commit, then the distribution of the first two.
            reps = [[mp.mpf(v) for v in case["results_per_commit"][c]] for c in commits]
            if svs == "mean":
                x = [mp.fsum(r) / len(r) for r in reps]
            else:
                x = [max(r) if ips else min(r) for r in reps]
            for seq in (1, 2, 3):
                dist = x[:seq - 1]
                if len(dist) < 2:
                    z = None
                else:
                    mean = mp.fsum(dist) / len(dist)
                    res = [mp.mpf(0)] + [dist[j] - mp.fsum(dist[:j]) / j for j in range(1, len(dist))]
                    rbar = mp.fsum(res) / len(res)
                    sd = mp.sqrt(mp.fsum((r - rbar) ** 2 for r in res) / (len(res) - 1))
                    z = (x[seq - 1] - mean) / sd * (1 if ips else -1)
                params = "svs=%s" % svs
                out.expect("gate-zscore", params, plan, seq, "z", "null" if z is None else num(z), "mpmath")
                a = expected_z[seq - 1]
                if a is None:
                    assert z is None, (plan, seq, z)
                    continue
                # Conbench's tests compare 4 significant figures.
                assert mp.nstr(z, 4) == mp.nstr(mp.mpf(a), 4), (plan, svs, z, a)
                out.expect("gate-zscore", params, plan, seq, "z", repr(a), "sig4")
                if z < -5:
                    out.expect("gate-zscore", params, plan, seq, "alert", "regression", "text")


def bencher(out):
    cases = json.load(open(BENCHER))["cases"]
    for k, case in enumerate(cases):
        plan = "bencher-%d" % (k + 1)
        model = case["model"]
        b = case["boundary"]
        if model == "percentage":
            sample = [mp.mpf(case["mean"])] * 5
            query, params = "gate-percent", "percent=%s" % num(mp.mpf(b) * 100).rstrip("0").rstrip(".")
        else:
            query, params = "gate-ttest", "model=%s boundary=%s" % (model, b)
            if model == "log_normal":
                sample = [mp.mpf(v) for v in case["data"]]
            else:
                # n values with exactly the anchor's mean and sample sd:
                # n = 6: deviations (2, -1/2, -1/2, -1/2, -1/2, 0) (sum of
                # squares 5); n = 25: twelve +1, twelve -1 and a 0 (24).
                n = case.get("sample_size", 6)
                dev = [2, -0.5, -0.5, -0.5, -0.5, 0] if n == 6 else [1] * 12 + [-1] * 12 + [0]
                sample = [mp.mpf(case["mean"]) + mp.mpf(case["std_dev"]) * mp.mpf(d) for d in dev]
        n = len(sample)
        metric, unit = ("primary", "ns/op") if min(sample) > 0 else ("anchor", "s")
        for i, v in enumerate(sample + [sample[0]]):  # the contender: any value
            out.run(plan, "bencher", "%s-%02d" % (plan, i + 1), [(metric, unit, [float(v)])])
        mean = mp.fsum(sample) / n
        sd = mp.sqrt(mp.fsum((v - mean) ** 2 for v in sample) / (n - 1))
        if model == "t_test":
            upper = mean + t_quantile(b, n - 1) * sd * mp.sqrt(1 + mp.mpf(1) / n)
            base = mean
        elif model == "z_score":
            upper = mean + z_quantile(b) * sd
            base = mean
        elif model == "log_normal":
            ln = [mp.log(v) for v in sample]
            lm = mp.fsum(ln) / n
            ls = mp.sqrt(mp.fsum((v - lm) ** 2 for v in ln) / (n - 1))
            base = mp.exp(lm)
            upper = mp.exp(lm + z_quantile(b) * ls)
        else:
            base = mean
            upper = base * (1 + mp.mpf(b))
        lower = base * (1 - mp.mpf(b)) if model == "percentage" else 2 * base - upper
        seq = n + 1
        if metric != "primary":
            params += " metric=anchor"
        for col, v in (("upper", upper), ("lower", lower), ("baseline", base)):
            out.expect(query, params, plan, seq, col, num(v), "mpmath")
        for col in ("upper", "lower", "baseline"):
            a = case.get("expected_" + col)
            if a is None:
                continue
            # Bencher's own constants are doubles (its percentage limits
            # exactly so); its docs round to cents.
            digits = len(repr(a).split(".")[1]) if "." in repr(a) else 0
            kind = "exact" if model == "percentage" else "rel" if digits >= 12 else "dec%d" % digits
            v = {"upper": upper, "lower": lower, "baseline": base}[col]
            tol = 1e-12 * abs(a) if kind in ("rel", "exact") else 0.5 * 10 ** -digits
            assert abs(v - a) <= tol, (plan, col, v, a)
            out.expect(query, params, plan, seq, col, repr(a), kind)


def main():
    out = Out()
    conbench(out)
    bencher(out)
    with open(ARCHIVE, "w") as f:
        f.write("\n".join(out.lines) + "\n")
    with open(EXPECTED, "w") as f:
        f.write("# query\tparams\tplan\tseq\tcolumn\texpected\tkind (GENERATED by gen_gate_anchors.py)\n")
        f.write("\n".join(out.expected) + "\n")
    print("wrote", ARCHIVE, "and", EXPECTED, len(out.expected), "expectations")


if __name__ == "__main__":
    main()
