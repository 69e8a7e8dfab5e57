#!/usr/bin/env python3
"""Checks every value benchdb stored from a harness file against the file,
read here independently of the C adapters, by the mapping rules of
docs/formats.md (tinybench, vitest, benchmarkjs, benchmarkdotnet, bmf, csv).

usage: values_js_net.py FORMAT STORE RUN FILE... [-- FORMAT STORE RUN FILE...]...
  FORMAT  tinybench, vitest, benchmarkjs, benchmarkdotnet, bmf or csv
  STORE   the SQLite store the files were ingested into
  RUN     the run's name (holding the FILEs' values, nothing else; several
          FILEs are successive blocks 1, 2, ...)

Every series the file gives (block, benchmark name, params, fork, metric,
unit) must be stored with exactly the file's values in the file's order,
its warm-ups as warm-ups in theirs (the same doubles: Python and benchdb
both round decimal text correctly, and both divide in IEEE double), and
no other series; the events the file gives must be there and no other.
Prints "RUN: ok: N series, M values, W warm-ups, E events" or exits 1
saying what differs (after the run's name). Several runs, each with its
own arguments after a "--", are checked in turn by one process,
stopping at the first that differs.
"""
import csv
import json
import sqlite3
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
from run_groups import run_groups  # noqa: E402 (after the line above: no __pycache__ in the source tree)


def canon(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Out:
    """The series (in a dict, so a key given twice is a reader's bug) and
    events one file gives."""

    def __init__(self):
        self.series = {}
        self.events = []
        self.forks = {}

    def fork(self, name):
        f = self.forks.get(name, 0)
        self.forks[name] = f + 1
        return f

    def add(self, name, params, fork, metric, unit, values, warmups=()):
        key = (name, canon(params), fork, metric)
        assert key not in self.series, key
        self.series[key] = (unit, [float(v) for v in values], [float(v) for v in warmups])


def samples_or_mean(stats):
    return stats["samples"] if stats.get("samples") else [stats["mean"]]


def tinybench(path, out):
    """[{name, result}]: latency samples (ms) and throughput (ops/s) of
    tinybench 3+, or tinybench 2's flat samples; the mean when none are
    kept; a task not completed (or with an error) is an event."""
    for task in json.load(open(path)):
        name, r = task["name"], task["result"]
        fork = out.fork(name)
        if r.get("state", "completed") not in ("completed", "aborted-with-statistics") or r.get("error") is not None:
            out.events.append(("benchmark-error", name))
            continue
        if "latency" in r:
            out.add(name, {}, fork, "primary", "ms", samples_or_mean(r["latency"]))
            if r.get("throughput"):
                out.add(name, {}, fork, "throughput", "ops/s", samples_or_mean(r["throughput"]))
        else:
            out.add(name, {}, fork, "primary", "ms", samples_or_mean(r))


def vitest(path, out):
    """files[].groups[].benchmarks[]: FULLNAME > NAME, samples or mean, ms;
    neither (Vitest 4's benchmark that threw) is an event."""
    for f in json.load(open(path))["files"]:
        for g in f["groups"]:
            for b in g["benchmarks"]:
                name = "%s > %s" % (g["fullName"], b["name"]) if g["fullName"] else b["name"]
                fork = out.fork(name)
                if not b.get("samples") and "mean" not in b and "hz" not in b and "sampleCount" not in b:
                    out.events.append(("benchmark-error", name))
                    continue
                out.add(name, {}, fork, "primary", "ms", samples_or_mean(b))


def benchmarkjs(path, out):
    """An array of benchmarks or the suite object: stats.sample in s."""
    doc = json.load(open(path))
    benches = doc if isinstance(doc, list) else [doc[str(i)] for i in range(doc["length"])]
    for b in benches:
        if b.get("error"):
            out.events.append(("benchmark-error", b["name"]))
            continue
        out.add(b["name"], {}, out.fork(b["name"]), "primary", "s", b["stats"]["sample"])


BDN_KIND = {("Workload", "Actual"): "work", ("Workload", "Jitting"): "work-warm",
            ("Workload", "Pilot"): "work-warm", ("Workload", "Warmup"): "work-warm",
            ("Workload", "Result"): "result", ("Overhead", "Actual"): "over",
            ("Overhead", "Jitting"): "over-warm", ("Overhead", "Pilot"): "over-warm",
            ("Overhead", "Warmup"): "over-warm",
            ("MainTarget", None): "work", ("MainWarmup", None): "work-warm", ("Pilot", None): "work-warm",
            ("IdleTarget", None): "over", ("IdleWarmup", None): "over-warm", ("Result", None): "result"}


def benchmarkdotnet(path, out):
    """Namespace.Type.Method; Parameters A=1&B=x and the job of DisplayInfo
    as params; Nanoseconds / Operations in ns/op, per LaunchIndex (fork)."""
    for b in json.load(open(path))["Benchmarks"]:
        name = ".".join(p for p in (b.get("Namespace"), b.get("Type"), b["Method"]) if p)
        params = dict(kv.split("=", 1) for kv in (b.get("Parameters") or "").split("&") if kv)
        disp = b.get("DisplayInfo") or ""
        if ": " in disp:
            job = disp.split(": ", 1)[1]
            for stop in "( [":
                job = job.split(stop, 1)[0]
            if job and job != "DefaultJob":
                params["job"] = job
        launches = {}
        for m in b["Measurements"]:
            kind = BDN_KIND[(m["IterationMode"], m.get("IterationStage"))]
            launches.setdefault(m.get("LaunchIndex", 1), {}).setdefault(kind, []).append(
                m["Nanoseconds"] / m["Operations"])
        for launch, k in launches.items():
            if k.get("work"):
                out.add(name, params, launch, "primary", "ns/op", k["work"], k.get("work-warm", []))
            if k.get("over"):
                out.add(name, params, launch, "overhead", "ns/op", k["over"], k.get("over-warm", []))
            if k.get("result"):
                out.add(name, params, launch, "result", "ns/op", k["result"])
        alloc = (b.get("Memory") or {}).get("BytesAllocatedPerOperation")
        if alloc is not None:
            out.add(name, params, 0, "allocated", "B/op", [alloc])


BMF_UNITS = {"latency": "ns", "throughput": "ops/s", "build-time": "s", "file-size": "bytes"}


def bmf(path, out):
    """{NAME: {MEASURE: {value...}}} or {NAME: [{parameters, measures}]},
    entries of equal parameters merged (16 == 16.0), later numbers winning."""
    for name, b in json.load(open(path)).items():
        groups = []
        if isinstance(b, list):
            merged = {}
            for e in b:
                params = {k: int(v) if isinstance(v, float) and v == int(v) else v
                          for k, v in (e.get("parameters") or {}).items()}
                _, ms = merged.setdefault(canon(params), (params, {}))
                for measure, m in e["measures"].items():
                    ms.setdefault(measure, {}).update(m)
            groups = list(merged.values())
        else:
            groups = [({}, b)]
        for params, ms in groups:
            for measure, m in ms.items():
                metric = measure
                if measure == "latency" or (measure == "throughput" and "latency" not in ms):
                    metric = "primary"
                out.add(name, params, 0, metric, BMF_UNITS.get(measure, "1"), [m["value"]])


def csvtable(path, out):
    """A header naming benchmark, value, unit (metric, warmup, fork,
    param:NAME); tabs when the header has one, else RFC 4180 commas."""
    text = open(path, encoding="utf-8").read().lstrip("\ufeff")
    lines = text.splitlines()
    tab = "\t" in lines[0]
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE) if tab else csv.reader(lines)
    head = next(reader)
    rows = {}
    for r in reader:
        if not "".join(r).strip():
            continue
        d = dict(zip(head, r))
        params = {h[6:]: d[h] for h in head if h.startswith("param:") and d[h]}
        metric = d.get("metric") or "primary"
        fork = int(d.get("fork") or 0)
        key = (d["benchmark"], canon(params), fork, metric)
        unit, vals, warm = rows.setdefault(key, (d["unit"], [], []))
        (warm if d.get("warmup") in ("1", "true") else vals).append(float(d["value"]))
    for (name, params, fork, metric), (unit, vals, warm) in rows.items():
        out.add(name, json.loads(params), fork, metric, unit, vals, warm)


READERS = {"tinybench": tinybench, "vitest": vitest, "benchmarkjs": benchmarkjs,
           "benchmarkdotnet": benchmarkdotnet, "bmf": bmf, "csv": csvtable}


def stored(db, run):
    got = {}
    rows = db.execute(
        "SELECT s.id, s.block, b.name, b.params, s.fork, s.metric, s.unit FROM series s JOIN run r ON r.id = s.run_id "
        "JOIN benchmark b ON b.id = s.benchmark_id WHERE r.name = ?", (run,)).fetchall()
    for sid, block, name, params, fork, metric, unit in rows:
        vals = {0: [], 1: []}
        for warm, it, v in db.execute(
                "SELECT warmup, iteration, value FROM sample WHERE series_id = ? ORDER BY warmup, iteration", (sid,)):
            if it != len(vals[warm]) + 1:
                sys.exit("FAIL: series %d: iteration %d after %d" % (sid, it, len(vals[warm])))
            vals[warm].append(v)
        got[(block, name, canon(json.loads(params)), fork, metric)] = (unit, vals[0], vals[1])
    return got


def check(fmt, store, run, files):
    want, want_events = {}, []
    for block, f in enumerate(files, 1):
        out = Out()
        READERS[fmt](f, out)
        want.update({(block,) + k: v for k, v in out.series.items()})
        want_events += out.events
    db = sqlite3.connect(store)
    got = stored(db, run)
    n_values = n_warm = 0
    for key, (unit, vals, warm) in want.items():
        if key not in got:
            sys.exit("FAIL: %s: series %r not stored (stored: %r)" % (files, key, sorted(got)))
        gunit, gvals, gwarm = got.pop(key)
        if gunit != unit:
            sys.exit("FAIL: %r: unit %r, expected %r" % (key, gunit, unit))
        for what, g, w in (("values", gvals, vals), ("warm-ups", gwarm, warm)):
            if g != w:
                bad = [(i, x, y) for i, (x, y) in enumerate(zip(g, w)) if x != y][:3]
                sys.exit("FAIL: %r: %d %s stored, %d in the file; first differences %r" % (key, len(g), what, len(w), bad))
        n_values += len(vals)
        n_warm += len(warm)
    if got:
        sys.exit("FAIL: series stored that the file does not give: %r" % sorted(got))
    ev = sorted(db.execute("SELECT e.name, e.value FROM event e JOIN run r ON r.id = e.run_id WHERE r.name = ?",
                           (run,)).fetchall())
    if ev != sorted(want_events):
        sys.exit("FAIL: events %r, expected %r" % (ev, sorted(want_events)))
    if not want:
        sys.exit("FAIL: the files give no series")
    print("%s: ok: %d series, %d values, %d warm-ups, %d events" %
          (run, len(want), n_values, n_warm, len(want_events)))


def main():
    groups = run_groups(sys.argv[1:], "usage: values_js_net.py FORMAT STORE RUN FILE... [-- FORMAT STORE RUN FILE...]...")
    for g in groups:
        try:
            check(g[0], g[1], g[2], g[3:])
        except SystemExit as e:
            sys.exit("%s: %s" % (g[2], e.code))


if __name__ == "__main__":
    main()
