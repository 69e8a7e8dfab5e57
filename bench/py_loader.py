#!/usr/bin/env python3
"""What a user would write instead of `benchdb ingest`: a loader using only
Python's standard library (json, sqlite3, hashlib), for `make bench`.

    py_loader.py [--extension PATH] STORE ARCHIVE.jsonl...

STORE is a store made by `benchdb init`; --extension loads benchdb's SQL
functions (build/benchstats.so), which the triggers keeping run_cell_data
call, as docs/schema.md tells a program inserting series to do (it needs
a Python whose sqlite3 can load extensions, such as Debian's); each ARCHIVE is decompressed JSON
Lines (benchdb-run/1). It fills the same tables with the same rows as
`benchdb ingest`: an archive row (SHA-256, size) and its bytes in 1 MiB
chunks (stored as they are: the standard library has no zstd), plan, host,
variant and benchmark ids (cached in dicts), run, gate, event, series with
the derived n and total (math.fsum of the measured values) and one sample
row per value, warmups flagged. One transaction per archive, as benchdb.
It validates nothing beyond what json and the schema's constraints do.
"""
import datetime
import hashlib
import json
import math
import sqlite3
import sys

CHUNK = 1 << 20


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main():
    args = sys.argv[1:]
    ext = None
    if args[:1] == ["--extension"]:
        ext, args = args[1], args[2:]
    db = sqlite3.connect(args[0], isolation_level=None)
    if ext:
        db.enable_load_extension(True)
        db.load_extension(ext)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    ids = {"plan": {}, "host": {}, "variant": {}, "benchmark": {}}

    def name_id(table, name):
        cache = ids[table]
        i = cache.get(name)
        if i is None:
            row = db.execute(f"SELECT id FROM {table} WHERE name = ?", (name,)).fetchone()
            i = row[0] if row else db.execute(f"INSERT INTO {table}(name) VALUES (?)", (name,)).lastrowid
            cache[name] = i
        return i

    def bench_id(name, params):
        key = (name, params)
        cache = ids["benchmark"]
        i = cache.get(key)
        if i is None:
            row = db.execute("SELECT id FROM benchmark WHERE name = ? AND params = ?", key).fetchone()
            i = row[0] if row else db.execute("INSERT INTO benchmark(name, params) VALUES (?, ?)", key).lastrowid
            cache[key] = i
        return i

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for path in args[1:]:
        with open(path, "rb") as f:
            data = f.read()
        db.execute("BEGIN IMMEDIATE")
        archive = db.execute(
            "INSERT INTO archive(sha256, name, size, format, content_encoding, stored_size, ingested_at, "
            "tool_version) VALUES (?, ?, ?, 'benchdb-run/1', 'identity', ?, ?, 'py_loader')",
            (hashlib.sha256(data).hexdigest(), path, len(data), len(data), now)).lastrowid
        db.executemany("INSERT INTO archive_chunk(archive_id, seq, data) VALUES (?, ?, ?)",
                       ((archive, k, data[o:o + CHUNK]) for k, o in enumerate(range(0, len(data), CHUNK))))
        run = None
        for line in data.splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            kind = rec["record"]
            if kind == "samples":
                values = rec["values"]
                series = db.execute(
                    "INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (run, bench_id(rec["benchmark"], canonical(rec.get("params") or {})), rec["block"],
                     name_id("variant", rec["variant"]), rec.get("fork", 0), rec["unit"], len(values),
                     math.fsum(values))).lastrowid
                rows = [(series, 0, i, v) for i, v in enumerate(values, 1)]
                rows += [(series, 1, i, v) for i, v in enumerate(rec.get("warmup") or (), 1)]
                db.executemany("INSERT INTO sample(series_id, warmup, iteration, value) VALUES (?, ?, ?, ?)", rows)
            elif kind == "run":
                t, b = rec.get("treatment"), rec.get("baseline")
                run = db.execute(
                    "INSERT INTO run(plan_id, name, host_id, position, source, started_at, ended_at, treatment_id, "
                    "baseline_id, attributes, archive_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (name_id("plan", rec["plan"]), rec["run"], name_id("host", rec["host"]), rec.get("position"),
                     rec.get("source"), rec.get("started_at"), rec.get("ended_at"),
                     name_id("variant", t) if t else None, name_id("variant", b) if b else None,
                     canonical(rec.get("attributes") or {}), archive)).lastrowid
            elif kind == "gate":
                detail = rec.get("detail")
                db.execute("INSERT INTO gate(run_id, name, passed, at, detail) VALUES (?, ?, ?, ?, ?)",
                           (run, rec["name"], int(rec["passed"]), rec.get("at"),
                            None if detail is None else canonical(detail)))
            elif kind == "event":
                detail = rec.get("detail")
                db.execute("INSERT INTO event(run_id, name, value, at, detail) VALUES (?, ?, ?, ?, ?)",
                           (run, rec["name"], rec.get("value"), rec.get("at"),
                            None if detail is None else canonical(detail)))
        db.execute("COMMIT")
    db.close()


if __name__ == "__main__":
    main()
