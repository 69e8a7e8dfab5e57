"""Figure 3, readers (continued; bench/README.md): a file of 100,000 values in
each of the formats tinybench, vitest, benchmarkjs, benchmarkdotnet, bmf and
csv, loaded alone into a fresh store (`ingest --plan p --run r --host h`,
the format recognised from the content), beside a benchdb-run/1 stream of
the same values in the same series (the existing ingest path) as the
reference. Target: >= 1 M values/s (issue "every benchmark file people
already have"). Reported: wall time and the process's CPU time (user +
system, from os.wait4), since a shared machine's load stretches the wall
time; and the file's size, since the JSON formats cost by the byte. The
target is judged on the CPU time; beside it, the store's own cost of the
same rows (bench/bare_insert, figure 1's stricter floor), which no reader
goes below.

Bencher Metric Format holds one value per measure, so its values are
series of one value each: the store's cost per series, not the reader's,
bounds it; its file holds a tenth of the values (10,000 series, which keeps
`make bench` within its time), and its reference is a stream of as many
one-value series.
"""
import json
import os
import random
import statistics
import subprocess
import time

N = 100_000
CELLS = 100  # series of the files other than BMF's


def _values(rnd, n):
    return [rnd.uniform(1.0, 2.0) for _ in range(n)]


def write_files(data, n=N):
    """The six files and the two reference streams; {name: (path, stream)}."""
    rnd = random.Random(13)
    per = n // CELLS
    cells = [(f"b{i:03d}", _values(rnd, per)) for i in range(CELLS)]
    out = {}

    def dump(name, doc):
        path = os.path.join(data, name)
        with open(path, "w") as f:
            json.dump(doc, f)
        return path

    # tinybench 6: latency and throughput samples, half the values each
    tb = [{"name": c, "result": {"state": "completed", "latency": {"samples": v[: per // 2], "mean": 1.5},
                                 "throughput": {"samples": v[per // 2:], "mean": 0.7}}} for c, v in cells]
    out["tinybench"] = dump("speed-tinybench.json", tb)
    out["vitest"] = dump("speed-vitest.json", {"files": [{"filepath": "/x/a.bench.ts", "groups": [
        {"fullName": "a.bench.ts > g", "benchmarks": [{"name": c, "samples": v, "mean": 1.5, "hz": 0.7}
                                                      for c, v in cells]}]}]})
    out["benchmarkjs"] = dump("speed-benchmarkjs.json", [{"name": c, "stats": {"sample": v, "mean": 1.5},
                                                           "hz": 0.7, "count": 8, "cycles": 3} for c, v in cells])
    # BenchmarkDotNet: a tenth of each benchmark's measurements warm-ups
    out["benchmarkdotnet"] = dump("speed-benchmarkdotnet.json", {"HostEnvironmentInfo": {"OsVersion": "x"}, "Benchmarks": [
        {"DisplayInfo": f"T.{c}: DefaultJob", "Namespace": "N", "Type": "T", "Method": c, "Parameters": "",
         "Statistics": {"Mean": 1.5}, "Measurements": [
             {"IterationMode": "Workload", "IterationStage": "Warmup" if k < per // 10 else "Actual",
              "LaunchIndex": 1, "IterationIndex": k + 1, "Operations": 16, "Nanoseconds": x * 16000}
             for k, x in enumerate(v)]} for c, v in cells]})
    out["bmf"] = dump("speed-bmf.json", {f"bench{i:06d}": {"latency": {"value": x, "lower_value": 0.5,
                                                                       "upper_value": 2.5}}
                                         for i, x in enumerate(_values(rnd, n // 10))})
    path = os.path.join(data, "speed-table.csv")
    with open(path, "w") as f:
        f.write("benchmark,unit,value\n")
        for k in range(per):
            for c, v in cells:
                f.write(f"{c},ns,{v[k]!r}\n")
    out["csv"] = path
    # the references: the same series as benchdb-run/1 samples records
    head = '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r","host":"h"}\n'
    refs = {}
    for name, series in (("cells", cells), ("series", [(f"bench{i:06d}", [x]) for i, x in
                                                      enumerate(_values(rnd, n // 10))])):
        p = os.path.join(data, f"speed-ref-{name}.jsonl")
        with open(p, "w") as f:
            f.write(head)
            for c, v in series:
                f.write(json.dumps({"record": "samples", "benchmark": c, "block": 1, "variant": "v", "unit": "ns",
                                    "values": v}) + "\n")
        refs[name] = p
    return out, refs


def timed_cpu(cmd):
    """Wall and CPU (user + system) seconds of one command, its output discarded."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    if status != 0:
        raise subprocess.CalledProcessError(status, cmd)
    return wall, ru.ru_utime + ru.ru_stime


def floor_cpu(bd, data, empty, fresh, cmd, reps):
    """The store's own cost of the rows that cmd(store) (an ingest) writes:
    CPU seconds of bench/bare_insert (figure 1's stricter floor: values by
    benchdb's statements of 64, 32, ... rows) inserting exactly those rows
    into a fresh store, the median of reps; the rows are written once,
    untimed."""
    src = fresh(empty, os.path.join(data, "floor-src.db"))
    subprocess.run(cmd(src), check=True, stdout=subprocess.DEVNULL)
    bare = os.path.join(os.path.dirname(bd), "bench", "bare_insert")
    xs = []
    for _ in range(reps):
        dst = fresh(empty, os.path.join(data, "floor.db"))
        out = subprocess.run([bare, "--cpu", src, dst], check=True, capture_output=True, text=True).stdout
        xs.append(float(out.split()[-1]))
    return statistics.median(xs)


def figure(bd, data, empty, fresh, row, reps, n=N):
    files, refs = write_files(data, n)
    cases = [(fmt, path, refs["series" if fmt == "bmf" else "cells"]) for fmt, path in files.items()]
    for fmt, path, ref in cases:
        walls, cpus, ref_walls, ref_cpus = [], [], [], []
        for rep in range(reps):
            for which in ((0, 1) if rep % 2 == 0 else (1, 0)):  # alternating which goes first
                tgt = fresh(empty, os.path.join(data, "speed.db"))
                if which == 0:
                    w, c = timed_cpu([bd, "--db", tgt, "ingest", "-q", "--max-series", "1M", "--plan", "p", "--run", "r",
                                   "--host", "h", path])
                    walls.append(w)
                    cpus.append(c)
                else:
                    w, c = timed_cpu([bd, "--db", tgt, "ingest", "-q", "--max-series", "1M", ref])
                    ref_walls.append(w)
                    ref_cpus.append(c)
        w, c = statistics.median(walls), statistics.median(cpus)
        rw, rc = statistics.median(ref_walls), statistics.median(ref_cpus)
        fl = floor_cpu(bd, data, empty, fresh, lambda db: [bd, "--db", db, "ingest", "-q", "--max-series", "1M",
                                                           "--plan", "p", "--run", "r", "--host", "h", path], reps)
        size = os.path.getsize(path)
        k = n // 10 if fmt == "bmf" else n
        row("3 readers", f"{fmt}: {k:,} values, one file ({size / 1e6:.1f} MB{', one value a series' if fmt == 'bmf' else ''})",
            f"{k / c / 1e6:.2f} M values/s by CPU ({c:.3f} s), {k / w / 1e6:.2f} wall ({w:.3f} s); "
            f"a run stream of the same series {k / rc / 1e6:.2f} / {k / rw / 1e6:.2f}; "
            f"the store's floor (bare_insert, the same rows) {k / fl / 1e6:.2f} by CPU",
            ">= 1 M values/s (CPU)", k / c >= 1e6)
