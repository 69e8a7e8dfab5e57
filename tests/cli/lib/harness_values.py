#!/usr/bin/env python3
"""Checks every value benchdb stored from a harness file against the file,
read here independently of the C adapters, by the mapping rules of
docs/formats.md (Criterion.rs, cargo bench lines, pytest-benchmark, asv,
Catch2, nanobench).

usage: harness_values.py FORMAT STORE RUN FILE... [-- FORMAT STORE RUN FILE...]...
  FORMAT  criterion (FILE: a sample.json, benchmark.json beside it),
          cargo-bench, pytest-benchmark, asv, catch2, nanobench
  STORE   the SQLite store the files were ingested into
  RUN     the run's name (holding the FILEs' values, nothing else)

Every series the file gives (benchmark name, params, fork, metric, unit)
must be stored with exactly the file's values in the file's order (the
same doubles: Python and benchdb both round the decimal text correctly),
and no other series, and no warm-up value (none of these formats writes
its warm-up rounds); the events the file gives must be there. Prints
"ok: N series, M values, E events" or fails with what differs. Several
runs, each with its own arguments after a "--", are checked in turn by
one process (a line each), stopping at the first that differs.
"""
import itertools
import json
import math
import os
import re
import sqlite3
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # nothing written into the source tree
from run_groups import run_groups  # noqa: E402 (after the line above: no __pycache__ in the source tree)


def canon(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def criterion(path):
    """sample.json: times[i] / iters[i] ns, the cell group_id[/function_id]
    with {"value": value_str}."""
    d = json.load(open(path))
    b = json.load(open(os.path.join(os.path.dirname(path), "benchmark.json")))
    name = b["group_id"] + ("/" + b["function_id"] if b.get("function_id") else "")
    params = {"value": b["value_str"]} if b.get("value_str") else {}
    vals = [t / i for t, i in zip(d["times"], d["iters"])]
    return [(name, params, 0, "primary", "ns", vals)], []


def cargo_bench(path):
    """test NAME ... bench: N UNIT/iter (+/- D): N per line, in file order."""
    cells = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"^test (.+?)\s+\.\.\. bench:\s+([\d,.]+) (\S+)/iter \(\+/- [\d,.]+\)", line)
        if not m:
            continue
        name, value, unit = m.group(1), float(m.group(2).replace(",", "")), m.group(3)
        cells.setdefault(name, (unit, []))[1].append(value)
    out = []
    for name, (unit, vals) in cells.items():
        metric = "primary" if unit in ("ns", "us", "ms", "s") else unit
        out.append((name, {}, 0, metric, unit, vals))
    return out, []


def pytest_benchmark(path):
    d = json.load(open(path))
    out = []
    for b in d["benchmarks"]:
        params = b.get("params") or {}
        name = b["fullname"]
        if params and b.get("param") is not None and name.endswith("[%s]" % b["param"]):
            name = name[: -len(b["param"]) - 2]
        out.append((name, params, 0, "primary", "s", list(b["stats"]["data"])))
    return out, []


def asv_kind(name):
    last = name.rsplit(".", 1)[-1]
    if last.startswith(("time_", "timeraw_")):
        return "primary", "s"
    if last.startswith("peakmem_"):
        return "peakmem", "bytes"
    if last.startswith("mem_"):
        return "mem", "bytes"
    return "track", "1"


def asv(path):
    # asv writes with Python's json: NaN and Infinity as bare words
    d = json.loads(open(path).read(), parse_constant=lambda c: c)
    out, events = [], []
    for name, row in d["results"].items():
        if d["version"] == 2:
            col = dict(zip(d["result_columns"], row))
            result, params, samples = col.get("result"), col.get("params") or [], col.get("samples")
        else:
            if isinstance(row, dict):
                result, params, samples = row.get("result"), row.get("params") or [], row.get("samples")
            else:
                result, params, samples = row, [], None
        if not isinstance(result, list):
            result = [result]
        metric, unit = asv_kind(name)
        for j, combo in enumerate(itertools.product(*params) if params else [()]):
            p = {"param%d" % (k + 1): v for k, v in enumerate(combo)}
            r = result[j]
            if r is None or r == "NaN":
                events.append(("benchmark-skipped" if r == "NaN" else "benchmark-error", name))
                continue
            s = samples[j] if samples else None
            out.append((name, p, 0, metric, unit, list(s) if s else [r]))
    return out, events


def catch2(path):
    root = ET.parse(path).getroot()
    out, events, forks = [], [], {}

    def walk(el, test_case, sections):
        for ch in el:
            if ch.tag == "TestCase":
                walk(ch, ch.get("name"), [])
            elif ch.tag == "Section":
                walk(ch, test_case, sections + [ch.get("name")])
            elif ch.tag == "BenchmarkResults":
                p = {"test_case": test_case}
                if sections:
                    p["section"] = "/".join(sections)
                if ch.find("failed") is not None:
                    events.append(("benchmark-error", ch.get("name")))
                    continue
                key = (ch.get("name"), canon(p))
                fork = forks.get(key, 0)
                forks[key] = fork + 1
                out.append((ch.get("name"), p, fork, "primary", "ns", [float(ch.find("mean").get("value"))]))
            else:
                walk(ch, test_case, sections)

    walk(root, None, [])
    return out, events


def nanobench(path):
    d = json.load(open(path))
    out, seen = [], {}
    for r in d["results"]:
        fork = seen.get(r["name"], -1) + 1
        seen[r["name"]] = fork
        ms = r["measurements"]
        out.append((r["name"], {}, fork, "primary", "s", [m["elapsed"] for m in ms]))
        for k in ("pagefaults", "cpucycles", "contextswitches", "instructions", "branchinstructions", "branchmisses"):
            if ms and k in ms[0] and any(m[k] != 0 for m in ms):
                out.append((r["name"], {}, fork, k, "1", [m[k] for m in ms]))
    return out, []


READERS = {"criterion": criterion, "cargo-bench": cargo_bench, "pytest-benchmark": pytest_benchmark, "asv": asv,
           "catch2": catch2, "nanobench": nanobench}


def check(fmt, store, run, files):
    want, want_events = [], []
    for f in files:
        w, e = READERS[fmt](f)
        want += w
        want_events += e
    path = " ".join(files)
    db = sqlite3.connect(store)
    rows = db.execute(
        "SELECT s.id, b.name, b.params, s.fork, s.metric, s.unit FROM series s JOIN run r ON r.id = s.run_id "
        "JOIN benchmark b ON b.id = s.benchmark_id WHERE r.name = ?", (run,)).fetchall()
    got = {}
    for sid, name, params, fork, metric, unit in rows:
        vals = [v for (v,) in db.execute(
            "SELECT value FROM sample WHERE series_id = ? AND warmup = 0 ORDER BY iteration", (sid,))]
        got[(name, canon(json.loads(params)), fork, metric)] = (unit, vals)
    n_values = 0
    for name, params, fork, metric, unit, vals in want:
        key = (name, canon(params), fork, metric)
        if key not in got:
            sys.exit("FAIL: %s: series %r not stored (stored: %r)" % (path, key, sorted(got)))
        gunit, gvals = got.pop(key)
        if gunit != unit:
            sys.exit("FAIL: %s: %r: unit %r, expected %r" % (path, key, gunit, unit))
        want_vals = [float(v) for v in vals]
        if gvals != want_vals:
            bad = [(i, g, w) for i, (g, w) in enumerate(zip(gvals, want_vals)) if g != w][:3]
            sys.exit("FAIL: %s: %r: %d values stored, %d in the file; first differences %r" %
                     (path, key, len(gvals), len(want_vals), bad))
        if any(math.isnan(v) for v in gvals):
            sys.exit("FAIL: NaN stored")
        n_values += len(vals)
    if got:
        sys.exit("FAIL: %s: series stored that the file does not give: %r" % (path, sorted(got)))
    # none of these formats writes its warm-up rounds: none may be stored
    (warm,) = db.execute("SELECT count(*) FROM sample v JOIN series s ON s.id = v.series_id JOIN run r "
                         "ON r.id = s.run_id WHERE r.name = ? AND v.warmup <> 0", (run,)).fetchone()
    if warm:
        sys.exit("FAIL: %s: %d warm-up values stored; the file gives none" % (path, warm))
    ev = sorted(db.execute("SELECT e.name, e.value FROM event e JOIN run r ON r.id = e.run_id WHERE r.name = ?",
                           (run,)).fetchall())
    if ev != sorted(want_events):
        sys.exit("FAIL: %s: events %r, expected %r" % (path, ev, sorted(want_events)))
    print("ok: %d series, %d values, %d events" % (len(want), n_values, len(want_events)))


def main():
    groups = run_groups(sys.argv[1:], "usage: harness_values.py FORMAT STORE RUN FILE... [-- FORMAT STORE RUN FILE...]...")
    for g in groups:
        check(g[0], g[1], g[2], g[3:])


main()
