#!/usr/bin/env python3
"""Counts the values benchdb should store from a harness file, by the
mapping rules of docs/formats.md, independently of the C adapters.

usage: count_values.py FORMAT FILE
prints: rows weighted series events
  rows      sample rows (measured and warmup values, a histogram bin once)
  weighted  measured values with histogram counts (the sum of series.n)
  series    series rows
  events    event rows
"""
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
        if r.get("error_occurred"):
            events += 1
            continue
        name = r.get("run_name", r["name"])
        keys = cells.setdefault(name, set())
        keys.add("real_time")
        rows += 1
        if "cpu_time" in r:
            keys.add("cpu_time")
            rows += 1
        for k, v in r.items():
            if k not in GBENCH_KEYS and isinstance(v, (int, float)) and not isinstance(v, bool):
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


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    raw = load(path)
    if fmt == "go-bench":
        out = gobench(raw.decode("utf-8"))
    else:
        doc = json.loads(raw)
        out = {"jmh": jmh, "google-benchmark": gbench, "hyperfine": hyperfine, "pyperf": pyperf}[fmt](doc)
    print(*out)


main()
