"""Figure 3, readers (continued): a file of 100,000 values of each of the
Criterion.rs, cargo bench, pytest-benchmark, asv and nanobench formats
(docs/formats.md; nanobench twice: as written where its performance
counters read 0, about 370 bytes of JSON a value, and where they are read,
each counter a value too, about 60), each loaded alone into a fresh store; the target is
1 M values/s for the whole process. Beside each, a go-bench file of the same
shape (names x values) loaded in the same repetition, the readers benchdb
had before, as the machine's reference: on a shared, loaded machine the
ratio says more than the rate. Timed by the process's CPU time (the wall
time beside it), with the store's own cost of the same rows
(bench/bare_insert) as the floor no reader goes below.

Catch2's reporters write one number per benchmark (its mean), so its
100,000 values would be 100,000 cells; the Catch2 row loads 10,000
benchmarks against a go-bench file of 10,000 names, where the cost per cell
(figure 3's readers above) rather than per value decides.
"""
import json
import os
import random

from harness_speed_js_net import floor_cpu, timed_cpu

N = 100_000


def _go(path, names, per_name):
    with open(path, "w") as f:
        f.write("goos: linux\ngoarch: amd64\npkg: example.com/bench\n")
        for k in range(per_name):
            for b in range(names):
                f.write(f"BenchmarkName{b:07d}-2  \t 1000000\t {1000 + (k * 31 + b) % 997}.5 ns/op\n")
        f.write("PASS\n")


def _criterion(d, r, n):
    """target/criterion of 10 benchmarks x n/10 samples, as Criterion 0.3 writes them."""
    for b in range(10):
        nd = os.path.join(d, "group", f"f{b}", "new")
        os.makedirs(nd)
        iters = [7.0 * (i + 1) for i in range(n // 10)]
        with open(os.path.join(nd, "sample.json"), "w") as f:
            json.dump({"sampling_mode": "Linear", "iters": iters,
                       "times": [round(it * r.uniform(100, 200), 1) for it in iters]}, f)
        with open(os.path.join(nd, "benchmark.json"), "w") as f:
            json.dump({"group_id": "group", "function_id": f"f{b}", "value_str": None, "throughput": None,
                       "full_id": f"group/f{b}", "directory_name": f"group/f{b}", "title": f"group/f{b}"}, f)
        est = {"confidence_interval": {"confidence_level": 0.95, "lower_bound": 1.0, "upper_bound": 2.0},
               "point_estimate": 1.5, "standard_error": 0.1}
        with open(os.path.join(nd, "estimates.json"), "w") as f:
            json.dump({k: est for k in ("mean", "median", "median_abs_dev", "slope", "std_dev")}, f)


def _pytest(path, r, n):
    bs = []
    for b in range(100):
        data = [r.uniform(1e-6, 1e-3) for _ in range(n // 100)]
        stats = {"min": min(data), "max": max(data), "mean": sum(data) / len(data), "stddev": 0.1,
                 "rounds": len(data), "median": sorted(data)[len(data) // 2], "iqr": 0.1, "q1": 0.1, "q3": 0.2,
                 "iqr_outliers": 0, "stddev_outliers": 0, "outliers": "0;0", "ld15iqr": 0.1, "hd15iqr": 0.2,
                 "ops": 1.0, "total": sum(data), "data": data, "iterations": 1}
        bs.append({"group": None, "name": f"test_x[{b}]", "fullname": f"t.py::test_x[{b}]", "params": {"n": b},
                   "param": str(b), "extra_info": {}, "options": {"disable_gc": False, "timer": "perf_counter",
                   "min_rounds": 5, "max_time": 1.0, "min_time": 5e-06, "warmup": False}, "stats": stats})
    with open(path, "w") as f:
        json.dump({"machine_info": {"node": "h"}, "commit_info": {"id": "abc"}, "benchmarks": bs,
                   "datetime": "2024-01-01T00:00:00.000000", "version": "3.2.2"}, f)


def _asv(path, r, n):
    res = {}
    for b in range(100):
        s = [r.uniform(1e-6, 1e-3) for _ in range(n // 100)]
        res[f"benchmarks.T.time_{b}"] = [[s[0]], [], "ab", 1717000100000, 0.4, [1e-6], [2e-6], [1e-6], [2e-6],
                                         [1000], [10], [s]]
    cols = ["result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b",
            "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"]
    with open(path, "w") as f:
        json.dump({"commit_hash": "844fd45a", "env_name": "py3", "date": 1717000000000, "params": {"machine": "m"},
                   "python": "3.11", "requirements": {}, "env_vars": {}, "result_columns": cols, "results": res,
                   "durations": {}, "version": 2}, f)


def _nanobench(path, r, n, counters=False):
    """As templates::json() writes it: indented, every counter in every
    epoch. Without counters (0 where none was read, as on a virtual
    machine without performance counters: elapsed is the only value)
    about 370 bytes per value; with them (as on a machine that reads
    them: each counter is a value too) 7 values an epoch, about 60 bytes
    a value. The number of values written is returned."""
    keys = ("pagefaults", "cpucycles", "contextswitches", "instructions", "branchinstructions", "branchmisses")
    per = n // 100 // (1 + len(keys)) if counters else n // 100
    rs = []
    for b in range(100):
        ms = [dict({"iterations": 1000, "elapsed": r.uniform(1e-9, 1e-6)},
                   **{k: (r.randint(1, 10**6) if counters else 0) for k in keys})
              for _ in range(per)]
        rs.append({"title": "t", "name": f"n{b}", "unit": "op", "batch": 1, "complexityN": -1, "epochs": len(ms),
                   "clockResolution": 1.9e-08, "clockResolutionMultiple": 1000, "maxEpochTime": 0.1,
                   "minEpochTime": 0, "minEpochIterations": 1, "epochIterations": 0, "warmup": 0, "relative": 0,
                   "median(elapsed)": 1e-9, "medianAbsolutePercentError(elapsed)": 0.01, "totalTime": 1.0,
                   "measurements": ms})
    with open(path, "w") as f:
        json.dump({"results": rs}, f, indent=4)
    return 100 * per * (1 + len(keys) if counters else 1)


def _catch2(path, r, n):
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<Catch name="b">\n  <Group name="b">\n'
                '    <TestCase name="t" filename="b.cpp" line="1">\n')
        for b in range(n):
            f.write(f'      <BenchmarkResults name="b{b}" samples="5" resamples="100" iterations="63" '
                    'clockResolution="61.6" estimatedDuration="310905">\n'
                    '        <!--All values in nano seconds-->\n'
                    f'        <mean value="{r.uniform(10, 1000):.6g}" lowerBound="1" upperBound="2" ci="0.95"/>\n'
                    '        <standardDeviation value="4.05" lowerBound="0.1" upperBound="5.1" ci="0.95"/>\n'
                    '        <outliers variance="0.16" lowMild="0" lowSevere="0" highMild="0" highSevere="1"/>\n'
                    '      </BenchmarkResults>\n')
        f.write('      <OverallResult success="true"/>\n    </TestCase>\n  </Group>\n</Catch>\n')


def figure(bd, data, empty, fresh, row, med, reps, quick):
    n = N // 10 if quick else N
    r = random.Random(1)
    d = os.path.join(data, "harness-speed")
    os.makedirs(d, exist_ok=True)
    go = os.path.join(d, "go-100x.txt")
    _go(go, 100, n // 100)
    go_cells = os.path.join(d, "go-cells.txt")
    _go(go_cells, n // 10, 1)
    cases = []  # (format, file, values, reference go-bench file)
    crit = os.path.join(d, "criterion")
    _criterion(crit, r, n)
    cases.append(("criterion", crit, n, go))
    lines = os.path.join(d, "bencher.txt")
    with open(lines, "w") as f:
        for k in range(n // 100):
            for b in range(100):
                f.write(f"test bench_{b} ... bench: {r.randint(100, 100000):>11,} ns/iter (+/- {r.randint(1, 999)})\n")
    cases.append(("cargo-bench", lines, n, go))
    for fmt, gen, name in (("pytest-benchmark", _pytest, "pytest.json"), ("asv", _asv, "asv.json"),
                           ("nanobench", _nanobench, "nanobench.json")):
        gen(os.path.join(d, name), r, n)
        cases.append((fmt, os.path.join(d, name), n, go))
    # nanobench where its counters are read: the same template, 7 values an epoch
    k = _nanobench(os.path.join(d, "nanobench-counters.json"), r, n, counters=True)
    cases.append(("nanobench, counters read", os.path.join(d, "nanobench-counters.json"), k, go))
    _catch2(os.path.join(d, "catch2.xml"), r, n // 10)
    cases.append(("catch2", os.path.join(d, "catch2.xml"), n // 10, go_cells))
    tgt = os.path.join(data, "harness-speed.db")
    ingest = lambda db, f: [bd, "--db", db, "ingest", "-q", "--max-series", "1M", "--plan", "p", "--run", "r",
                            "--host", "h", f]
    for fmt, path, values, ref in cases:
        walls, cpus, base, ratios = [], [], [], []
        for rep in range(reps):
            pair = {}
            for side in ((path, ref) if rep % 2 == 0 else (ref, path)):
                pair[side] = timed_cpu(ingest(fresh(empty, tgt), side))
            walls.append(pair[path][0])
            cpus.append(pair[path][1])
            base.append(pair[ref][1])
            ratios.append(pair[path][1] / pair[ref][1])
        w, c = med(walls), med(cpus)
        fl = floor_cpu(bd, data, empty, fresh, lambda db: ingest(db, path), reps)
        shape = "10,000 benchmarks (one value each)" if fmt == "catch2" else f"{values:,} values"
        row("3 readers", f"{fmt}: a file of {shape}, the whole process (against go-bench of the same shape)",
            f"{values / c / 1e6:.2f} M values/s by CPU ({c:.3f} s), {values / w / 1e6:.2f} wall; "
            f"{med(ratios):.2f}x go-bench's CPU {med(base):.3f} s; the store's floor (bare_insert, the same rows) "
            f"{values / fl / 1e6:.2f} by CPU",
            *((">= 1 M values/s (CPU)", values / c >= 1e6) if fmt != "catch2" else ("(reported)",)))
