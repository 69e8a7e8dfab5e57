#!/usr/bin/env python3
"""Counts the values benchdb should store from a harness file, by the
mapping rules of docs/formats.md, independently of the C adapters.

usage: count_values.py FORMAT FILE [FORMAT FILE ...]
prints, a line for each file: rows weighted series events
  rows      sample rows (measured and warmup values, a histogram bin once)
  weighted  measured values with histogram counts (the sum of series.n)
  series    series rows
  events    event rows
"""
import math
import gzip
import json
import re
import sys

GBENCH_KEYS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
               "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
               "aggregate_name", "aggregate_unit", "error_occurred", "error_message", "label", "big_o", "rms",
               "complexity"}


def load(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw


def jmh(doc):
    rows = weighted = series = 0
    for b in doc:
        metrics = [b["primaryMetric"]] + list((b.get("secondaryMetrics") or {}).values())
        for m in metrics:
            if m.get("rawDataHistogram") is not None:
                for fork in m["rawDataHistogram"]:
                    bins = [bin_ for it in fork for bin_ in it]
                    if bins:
                        series += 1
                        rows += len(bins)
                        weighted += sum(int(c) for _, c in bins)
            elif m.get("rawData") is not None:
                for fork in m["rawData"]:
                    if fork:
                        series += 1
                        rows += len(fork)
                        weighted += len(fork)
    return rows, weighted, series, 0


def gbench(doc):
    rows = events = 0
    cells = {}
    for r in doc["benchmarks"]:
        if r.get("run_type") == "aggregate":
            continue
        if r.get("error_occurred") or r.get("skipped"):
            events += 1  # benchmark-error, or benchmark-skipped (SkipWithMessage, 1.8 and later)
            continue
        name = r.get("run_name", r["name"])
        keys = cells.setdefault(name, set())
        keys.add("real_time")
        rows += 1
        if "cpu_time" in r:
            keys.add("cpu_time")
            rows += 1
        for k, v in r.items():
            # a counter written NaN or (-)Infinity (json reads them as floats) has no value
            if k not in GBENCH_KEYS and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                keys.add(k)
                rows += 1
    return rows, rows, sum(len(k) for k in cells.values()), events


def hyperfine(doc):
    rows = series = events = 0
    for r in doc["results"]:
        rows += len(r["times"])
        series += 1
        mem = r.get("memory_usage_byte")
        if mem:
            rows += len(mem)
            series += 1
        codes = r.get("exit_codes")
        if isinstance(codes, list) and any(c != 0 for c in codes):
            events += 1
    return rows, rows, series, events


def pyperf(doc):
    rows = weighted = series = 0
    for b in doc["benchmarks"]:
        for run in b["runs"]:
            if not run.get("values"):
                continue
            series += 1
            weighted += len(run["values"])
            rows += len(run["values"]) + len(run.get("warmups") or [])
    return rows, weighted, series, 0


def gobench(text):
    rows = 0
    cells = {}
    pkg = None
    for line in text.splitlines():
        m = re.match(r"^([a-z][^\s:]*):(\s|$)", line)
        if m:
            if m.group(1) == "pkg":
                pkg = line.split(":", 1)[1].strip()
            continue
        if not re.match(r"^Benchmark($|[^a-z])", line):
            continue
        f = line.split()
        if len(f) == 1:
            continue
        name = f[0]
        units = cells.setdefault((name, pkg), set())
        for i in range(2, len(f) - 1, 2):
            units.add(f[i + 1])
            rows += 1
    return rows, rows, sum(len(u) for u in cells.values()), 0


def samples_or_mean(s):
    return len(s["samples"]) if s.get("samples") else 1


def tinybench(doc):
    rows = series = events = 0
    for t in doc:
        r = t["result"]
        state = r.get("state", "completed")
        if state not in ("completed", "aborted-with-statistics") or r.get("error") is not None:
            events += 1
            continue
        if "latency" in r:
            rows += samples_or_mean(r["latency"])
            series += 1
            if r.get("throughput"):
                rows += samples_or_mean(r["throughput"])
                series += 1
        else:
            rows += samples_or_mean(r)
            series += 1
    return rows, rows, series, events


def vitest(doc):
    rows = series = events = 0
    for f in doc["files"]:
        for g in f["groups"]:
            for b in g["benchmarks"]:
                if not b.get("samples") and "mean" not in b and "hz" not in b and "sampleCount" not in b:
                    events += 1  # Vitest 4's benchmark that threw: no statistics
                    continue
                rows += samples_or_mean(b)
                series += 1
    return rows, rows, series, events


def benchmarkjs(doc):
    benches = doc if isinstance(doc, list) else [doc[str(i)] for i in range(doc["length"])]
    rows = series = events = 0
    for b in benches:
        if b.get("error"):
            events += 1
            continue
        rows += len(b["stats"]["sample"])
        series += 1
    return rows, rows, series, events


def benchmarkdotnet(doc):
    rows = weighted = series = 0
    for b in doc["Benchmarks"]:
        kinds = {}
        for m in b["Measurements"]:
            stage = m.get("IterationStage")
            kind = {"Actual": "work", "Result": "result"}.get(stage, "warm")
            if m["IterationMode"] == "Overhead":
                kind = "over" if stage == "Actual" else "overwarm"
            kinds.setdefault((m.get("LaunchIndex", 1), kind), 0)
            kinds[(m.get("LaunchIndex", 1), kind)] += 1
        for (launch, kind), n in kinds.items():
            if kind in ("work", "over", "result"):
                series += 1
                weighted += n
                warm = kinds.get((launch, {"work": "warm", "over": "overwarm"}.get(kind)), 0)
                rows += n + warm
        if (b.get("Memory") or {}).get("BytesAllocatedPerOperation") is not None:
            rows += 1
            weighted += 1
            series += 1
    return rows, weighted, series, 0


def bmf(doc):
    series = 0
    for b in doc.values():
        if isinstance(b, list):
            merged = {}
            for e in b:
                p = json.dumps({k: (int(v) if isinstance(v, float) and v == int(v) else v)
                                for k, v in (e.get("parameters") or {}).items()}, sort_keys=True)
                merged.setdefault(p, set()).update(e["measures"])
            series += sum(len(m) for m in merged.values())
        else:
            series += len(b)
    return series, series, series, 0


def csvtable(text):
    import csv as csvmod
    lines = text.lstrip("\ufeff").splitlines()
    delim = "\t" if "\t" in lines[0] else ","
    rows = [r for r in csvmod.reader(lines, delimiter=delim, quoting=csvmod.QUOTE_NONE if delim == "\t" else csvmod.QUOTE_MINIMAL)]
    head = rows[0]
    keys = set()
    values = weighted = 0
    for r in rows[1:]:
        if not any(x.strip() for x in r):
            continue
        d = dict(zip(head, r))
        metric = d.get("metric", "")
        keys.add((d["benchmark"], tuple(d[h] for h in head if h.startswith("param:")),
                  "" if metric == "primary" else metric, d.get("fork", "") or "0"))
        values += 1
        weighted += d.get("warmup", "") not in ("1", "true")
    return values, weighted, len(keys), 0


def count(fmt, path):
    raw = load(path)
    if fmt == "go-bench":
        return gobench(raw.decode("utf-8"))
    if fmt == "csv":
        return csvtable(raw.decode("utf-8"))
    doc = json.loads(raw)
    return {"jmh": jmh, "google-benchmark": gbench, "hyperfine": hyperfine, "pyperf": pyperf,
            "tinybench": tinybench, "vitest": vitest, "benchmarkjs": benchmarkjs,
            "benchmarkdotnet": benchmarkdotnet, "bmf": bmf}[fmt](doc)


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit("usage: count_values.py FORMAT FILE [FORMAT FILE ...]")
    for fmt, path in zip(args[0::2], args[1::2]):
        print(*count(fmt, path))


main()
