#!/usr/bin/env python3
"""The driver of `make bench`: measures benchdb against the limits and
against what users would do instead (issue 8), prints one table and writes
it to bench/results.md with the machine's description and bench/changes.md.

    bench/run.py BUILD_DIR [--t0 EPOCH_SECONDS]

BUILD_DIR holds an optimised benchdb and the bench/ programs (cmake
-DCMAKE_BUILD_TYPE=Release -DBENCHDB_BENCH=ON). Data is generated under
BUILD_DIR/bench-data, which is deleted at the end. Every
timing is the median of REPS runs; every comparison is the median of ratios
taken within one repetition, the sides alternating which goes first.
Timings never fail: the exit status is 0 whatever the numbers say.
"""
import concurrent.futures
import json
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import pg_bench  # noqa: E402 (figure 11)
import harness_speed  # noqa: E402 (figure 3, the readers of docs/formats.md)
import harness_speed_js_net  # noqa: E402 (figure 3, the JavaScript, .NET, Bencher and CSV readers)
import copy_bench  # noqa: E402 (figure 15)

# BENCH_QUICK=1: a smoke run of the driver itself (1 repetition, small data);
# its numbers mean nothing and it does not write bench/results.md.
QUICK = os.environ.get("BENCH_QUICK") == "1"
# BENCH_ONLY=ingest: the data and figures 1-3 only (ingest, Python, memory),
# printed but not written to bench/results.md (a before/after check).
ONLY = os.environ.get("BENCH_ONLY", "")
REPS = 1 if QUICK else 5
NPLANS = 20 if QUICK else 1000
RSS_SIZES = (8 << 20, 32 << 20) if QUICK else (128 << 20, 1 << 30)
# Seconds the whole-history figure may take after its first pass (each pass
# evaluates every plan of the 1,000- and 100-plan stores).
HISTORY_BUDGET = 60
FN_ROWS = 100000 if QUICK else 10000000
# BENCH_ONLY=compare: figure 12 alone (compare on files and on a store),
# printed but not written to bench/results.md.
# BENCH_ONLY=rule: figures 4 and 5 alone (the placement rule), printed but
# not written to bench/results.md. BENCH_ONLY=site: figure 14 alone (benchdb
# site of the 1,000-history store), printed but not written. BENCH_ONLY=pg: figure 11 alone
# (PostgreSQL), with the stores it copies made first. BENCH_ONLY=readers:
# figure 3's harness readers alone, likewise. BENCH_ONLY=copy: figure 15
# (benchdb copy of the 1,000-plan store), with that store made first.

# The default plan, 10x and 100x its values (simulate's options).
SIZES = [("1x", []), ("10x", ["--iterations", "50"]), ("100x", ["--iterations", "500"])]
SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The Python of figure 2's loader: one whose sqlite3 loads extensions
# (Debian's; pyenv's is often built without), for benchdb's functions.
PY_LOADER = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
ROWS = []  # (figure, case, measured, target, holds)
# plan_stores' ingest of the 999 plans into SQLite: seconds, values (figure 15).
PLAN_INGEST = {}


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def timed(cmd, stdin=None):
    """Wall seconds of one command, its output discarded."""
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdin=stdin, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def duckdb_module():
    """None when bench/duckdb's DuckDB module loads (npm ci'd there first, at
    the version its package-lock.json pins, as scripts/install-deps installs
    the browser tests' modules), else why not."""
    d = os.path.join(SRC, "bench", "duckdb")
    probe = ["node", "-e", "import('@duckdb/node-api').then(() => 0)"]
    try:
        if subprocess.run(probe, cwd=d, capture_output=True).returncode != 0:
            log("installing DuckDB into bench/duckdb/node_modules (npm ci)")
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=d, check=True,
                           capture_output=True)
            subprocess.run(probe, cwd=d, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return f"no DuckDB from npm in bench/duckdb ({e})"
    return None


def fresh(template, path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    shutil.copyfile(template, path)
    return path


def med(xs):
    return statistics.median(xs)


def row(figure, case, measured, target="", holds=None):
    verdict = "" if holds is None else ("yes" if holds else "**no**")
    ROWS.append((figure, case, measured, target, verdict))
    log(f"{figure} | {case} | {measured} | {target} | {verdict}")


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = "?"
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    def pkg(name):
        try:
            return subprocess.run(["pkg-config", "--modversion", name], capture_output=True, text=True,
                                  check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "?"
    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    load = open("/proc/loadavg").read().split()[:3]
    return [("CPU", cpu), ("cores", str(os.cpu_count())), ("memory", mem),
            ("kernel", platform.release()), ("SQLite", pkg("sqlite3")), ("zstd", pkg("libzstd")),
            ("jansson", pkg("jansson")), ("compiler", cc), ("Python", platform.python_version()),
            ("load average at start (1, 5, 15 min)", " ".join(load))]


def main():
    build = os.path.abspath(sys.argv[1])
    t0 = float(sys.argv[sys.argv.index("--t0") + 1]) if "--t0" in sys.argv else time.time()
    bd = os.path.join(build, "benchdb")
    prog = lambda name: os.path.join(build, "bench", name)
    data = os.path.join(build, "bench-data")
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    desc = machine()
    empty = os.path.join(data, "empty.db")
    run([bd, "--db", empty, "init"], stdout=subprocess.DEVNULL)

    if ONLY in ("compare", "readers"):
        (compare_files_figure if ONLY == "compare" else readers_figure)(bd, data, empty)
        shutil.rmtree(data, ignore_errors=True)
        report(desc, time.time() - t0)
        return
    if ONLY == "rule":
        ref = default_store(bd, data, empty, "1x", [])["ref"]
        rule_figures(bd, prog, ref, *plan_stores(bd, data, ref))
        shutil.rmtree(data, ignore_errors=True)
        report(desc, time.time() - t0)
        return
    if ONLY == "site":
        site_figure(bd, data, history_store(bd, data, empty))
        shutil.rmtree(data, ignore_errors=True)
        report(desc, time.time() - t0)
        return
    if ONLY == "copy":
        ref = default_store(bd, data, empty, "1x", [])["ref"]
        copy_bench.figure(build, SRC, data, plan_stores(bd, data, ref)[1], PLAN_INGEST, row, QUICK)
        shutil.rmtree(data, ignore_errors=True)
        report(desc, time.time() - t0)
        return
    if ONLY == "pg":
        refs = {name: default_store(bd, data, empty, name, opts) for name, opts in SIZES[:1 if QUICK else 3]}
        ref = refs["1x"]["ref"]
        pg_bench.figure(build, SRC, data, [ref, *plan_stores(bd, data, ref)], refs,
                        compare_store(bd, data, empty), row, REPS)
        shutil.rmtree(data, ignore_errors=True)
        report(desc, time.time() - t0)
        return

    # ---- data: the default plan, 10x and 100x its values ----
    sizes = SIZES
    refs = {name: default_store(bd, data, empty, name, opts) for name, opts in sizes}
    row("data", "generation (benchdb simulate)",
        ", ".join(f"{n}: {refs[n]['values']:,} values, {refs[n]['raw'] / 1e6:.1f} MB, {refs[n]['gen']:.2f} s"
                  for n, _ in sizes))

    # ---- 1, 2: ingest against the bare-insert floor and a Python loader ----
    duckdb = duckdb_module()
    for name, _ in sizes:
        r = refs[name]
        files = sorted(os.path.join(r["jsonl"], f) for f in os.listdir(r["jsonl"]))
        # The floor (one prepared statement per table, one row per
        # execution) and a stricter one inserting values as benchdb does.
        floors = {}
        for label, opt in (("bare", ["--one-row"]), ("shaped", [])):
            floors[label] = subprocess.Popen([prog("bare_insert"), *opt, r["ref"]], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, text=True)
            assert floors[label].stdout.readline().startswith("ready")
        tgt = os.path.join(data, "t.db")

        def side_benchdb():
            fresh(empty, tgt)
            return timed([bd, "--db", tgt, "ingest", "-q", r["dir"]])

        def floor(label):
            def side():
                fresh(empty, tgt)
                floors[label].stdin.write(tgt + "\n")
                floors[label].stdin.flush()
                return float(floors[label].stdout.readline())
            return side

        def side_python():
            fresh(empty, tgt)
            return timed([PY_LOADER, os.path.join(SRC, "bench", "py_loader.py"), "--extension",
                          os.path.join(build, "benchstats"), tgt, *files])

        def side_duckdb():
            tdb = os.path.join(data, "t.duckdb")
            for f in (tdb, tdb + ".wal"):
                if os.path.exists(f):
                    os.remove(f)
            return timed(["node", os.path.join(SRC, "bench", "duckdb", "load.mjs"), r["jsonl"], tdb])

        sides = [("benchdb", side_benchdb), ("bare", floor("bare")), ("shaped", floor("shaped")),
                 ("python", side_python)] + ([("duckdb", side_duckdb)] if duckdb is None else [])
        times = {k: [] for k, _ in sides}
        for rep in range(REPS):
            k = rep % len(sides)
            for label, fn in sides[k:] + sides[:k]:
                times[label].append(fn())
        for f in floors.values():
            f.stdin.close()
            f.wait()
        ratio_bare = med([b / f for b, f in zip(times["benchdb"], times["bare"])])
        ratio_shaped = med([b / f for b, f in zip(times["benchdb"], times["shaped"])])
        ratio_py = med([p / b for p, b in zip(times["python"], times["benchdb"])])
        tb = med(times["benchdb"])
        row("1 ingest", f"{name}: throughput",
            f"{r['values'] / tb / 1e6:.2f} M values/s, {r['raw'] / tb / 1e6:.1f} MB/s "
            f"({tb:.3f} s; bare {med(times['bare']):.3f} s, bare as benchdb inserts "
            f"{med(times['shaped']):.3f} s, Python {med(times['python']):.3f} s)")
        row("1 ingest", f"{name}: benchdb / bare insert (one statement per table, a row per step)",
            f"{ratio_bare:.2f}", "<= 1.25", ratio_bare <= 1.25)
        row("1 ingest", f"{name}: benchdb / bare insert of values as benchdb inserts them (stricter)",
            f"{ratio_shaped:.2f}", "(reported)")
        row("2 vs Python", f"{name}: Python loader / benchdb", f"{ratio_py:.2f}x", ">= 1.7x", ratio_py >= 1.7)
        if duckdb is None:
            ratio_duck = med([d / b for d, b in zip(times["duckdb"], times["benchdb"])])
            row("2 vs DuckDB", f"{name}: benchdb's rate / DuckDB's (read_json + unnest into a table, "
                f"bench/duckdb/load.mjs; {med(times['duckdb']):.3f} s)", f"{ratio_duck:.2f}x", ">= 1.5x",
                ratio_duck >= 1.5)
        else:
            row("2 vs DuckDB", f"{name}: benchdb's rate / DuckDB's", f"not measured: {duckdb}")

    # ---- 3: peak RSS ingesting one archive streamed from a generator ----
    rss = []
    for size in RSS_SIZES:
        tgt = fresh(empty, os.path.join(data, "rss.db"))
        t = time.perf_counter()
        gen = subprocess.Popen([prog("gen_archive"), str(size)], stdout=subprocess.PIPE)
        ing = subprocess.Popen([bd, "--db", tgt, "ingest", "-q", "-"], stdin=gen.stdout, stdout=subprocess.DEVNULL)
        gen.stdout.close()
        _, status, usage = os.wait4(ing.pid, 0)
        ing.returncode = os.waitstatus_to_exitcode(status)
        gen.wait()
        el = time.perf_counter() - t
        if ing.returncode != 0:
            raise SystemExit(f"ingest of the {size >> 20} MiB stream failed")
        with sqlite3.connect(tgt) as c:
            raw, nval = c.execute("SELECT size, (SELECT count(*) FROM sample) FROM archive").fetchone()
        kb = usage.ru_maxrss
        rss.append(kb)
        row("3 memory", f"{raw / 2**20:.0f} MiB archive ({nval / 1e6:.1f} M values)",
            f"peak RSS {kb / 1024:.1f} MiB ({el:.1f} s, {raw / el / 1e6:.1f} MB/s)", "< 64 MiB", kb < 64 * 1024)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(tgt + suffix):
                os.remove(tgt + suffix)
    row("3 memory", f"flat: peak RSS {RSS_SIZES[1] >> 20} MiB / {RSS_SIZES[0] >> 20} MiB", f"{rss[1] / rss[0]:.2f}", "<= 1.25", rss[1] / rss[0] <= 1.25)
    # ---- 3b: a container of 100,000 members (issue 20: duplicate paths looked
    # up in a hash set, not compared with every earlier one) ----
    import io
    import tarfile
    tarpath = os.path.join(data, "members.tar")
    nmem = 10000 if QUICK else 99999
    with tarfile.open(tarpath, "w") as t:
        run_bytes = (b'{"record":"run","format":"benchdb-run/1","plan":"members","run":"r","host":"h"}\n'
                     b'{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1]}\n')
        ti = tarfile.TarInfo("run.jsonl")
        ti.size = len(run_bytes)
        t.addfile(ti, io.BytesIO(run_bytes))
        for k in range(nmem):
            t.addfile(tarfile.TarInfo("m/%06d.txt" % k))
    run(["zstd", "-q", "--rm", "-f", tarpath])
    mt = []
    for rep in range(REPS):
        tgt = fresh(empty, os.path.join(data, "members.db"))
        mt.append(timed([bd, "--db", tgt, "ingest", "-q", tarpath + ".zst"]))
    row("3 containers", f"a tar.zst of {nmem + 1:,} members", f"{med(mt):.2f} s", "< 3 s", med(mt) < 3)
    readers_figure(bd, data, empty)
    if ONLY == "ingest":
        shutil.rmtree(data, ignore_errors=True)
        report(desc, time.time() - t0)
        return

    # ---- 4, 5: rule evaluation in stores of 1, 100 and 1,000 plans ----
    s100, s1000 = plan_stores(bd, data, refs["1x"]["ref"])
    rule_figures(bd, prog, refs["1x"]["ref"], s100, s1000)

    # ---- 6: functions over 10 million rows against avg() ----
    # Judged on the thread's CPU time (the machine is shared: wall time
    # includes waiting for a core); the wall-time ratio is shown beside it.
    out = subprocess.run([prog("fn_bench"), str(FN_ROWS), str(REPS)], capture_output=True, text=True,
                         check=True).stdout
    fns = {}
    for line in out.splitlines():
        name, _, a, f, ac, fc = line.split()
        fns.setdefault(name, []).append((float(a), float(f), float(ac), float(fc)))
    targets = {"geomean": 1.2, "pooled_t_ci": 2.0}
    for name, runs in fns.items():
        ratio = med([fc / ac for _, _, ac, fc in runs])
        wall = med([f / a for a, f, _, _ in runs])
        tg = targets.get(name)
        label = {"geomean": "geomean(x)", "pooled_t_ci": "pooled_t_ci(x, g)", "band_share": "band_share(x, 1.2, 1.8)",
                 "median": "median(x)",
                 "two_columns": "reference: SQLite's `avg(x + g)` (reads both columns, as pooled_t_ci(x, g) does)"
                 }.get(name, name)
        row("6 functions", f"{label} / avg(x), 10 M rows",
            f"{ratio:.2f} CPU ({med([r[3] for r in runs]):.3f} s vs {med([r[2] for r in runs]):.3f} s); "
            f"wall {wall:.2f}",
            f"<= {tg}" if tg else "(reported)", (ratio <= tg) if tg else None)

    # ---- 7: store size ----
    for name, _ in sizes:
        r = refs[name]
        with sqlite3.connect(r["ref"]) as c:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = c.execute("PRAGMA page_count").fetchone()[0] * c.execute("PRAGMA page_size").fetchone()[0]
            stored = c.execute("SELECT sum(stored_size) FROM archive").fetchone()[0]
        row("7 store size", f"{name}: bytes per stored value",
            f"{pages / r['values']:.1f} B/value (store {pages / 1e6:.1f} MB for {r['values']:,} values); "
            f"archive bytes retained {stored / r['values']:.2f} B/value (zstd, {stored / r['raw'] * 100:.0f}% "
            f"of {r['raw'] / 1e6:.1f} MB)")

    # ---- 8: change_points over 1,000 histories of 365 points ----
    out = subprocess.run([prog("cp_bench"), "1000", "365", str(REPS)], capture_output=True, text=True,
                         check=True).stdout
    cpt = {"sql": [], "c": []}
    found = set()
    for line in out.splitlines():
        kind, _, secs, n = line.split()
        cpt[kind].append(float(secs))
        found.add(int(n))
    m = med(cpt["sql"])
    row("8 change_points", "`SELECT hist, change_points(seq, x) FROM h GROUP BY hist`, 1,000 histories x 365 points "
        "(window 50, p 0.001)",
        f"{m:.3f} s ({'/'.join(str(f) for f in sorted(found))} change points; the C detector alone "
        f"{med(cpt['c']):.3f} s)", "< 1 s", m < 1.0)
    # ---- 13: hodges_lehmann as a sliding window: per row O(n log n) ----
    hl = {}
    for frame in (101, 1001):  # 5,000 rows each: about 10 s for the larger frame
        out = subprocess.run([prog("hl_bench"), "5000", str(frame), "3"], capture_output=True, text=True,
                             check=True).stdout
        hl[frame] = med([float(line.split()[3]) for line in out.splitlines()]) / 5000
    for frame in (101, 1001):
        row("13 hodges_lehmann window", f"`hodges_lehmann(x, g) OVER (ROWS BETWEEN {frame - 1} PRECEDING AND "
            f"CURRENT ROW)` over 5,000 rows, per row", f"{hl[frame] * 1e3:.3f} ms"
            + (f" ({hl[frame] / hl[101]:.1f}x the frame of 101)" if frame > 101 else ""),
            "(reported; O(n log n) a row)")
    # ---- 9: benchdb report, an HTML page with SVG charts (issue 18) ----
    report_figure(bd, data, refs["1x"]["ref"])

    # ---- 10: back-testing a gate over 1,000 histories of 365 runs ----
    hist_db = backtest_figure(bd, data, empty)
    # ---- 14: benchdb site of the same store ----
    site_figure(bd, data, hist_db)

    # ---- 9: benchdb compare of two runs of 1,000 cells x 10 values ----
    cmp_db = compare_store(bd, data, empty)
    ct = {"--no-record": [], "recorded": []}
    for rep in range(REPS):  # the two alternating; the verdict goes to stderr: not shown
        for mode in (("--no-record", "recorded") if rep % 2 == 0 else ("recorded", "--no-record")):
            t = time.perf_counter()
            run([bd, "--db", cmp_db, "compare", "--plan", "builds", "base", "head"] +
                (["--no-record"] if mode == "--no-record" else []),
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ct[mode].append(time.perf_counter() - t)
    m = med(ct["--no-record"])
    row("9 compare", "`benchdb compare --no-record` of two runs of 1,000 cells x 10 values (whole process, "
        "benchstat's table)", f"{m * 1000:.1f} ms", "< 50 ms", m < 0.05)
    row("9 compare", "the same, the evaluation recorded (2,002 result rows as JSON in the history)",
        f"{med(ct['recorded']) * 1000:.1f} ms", "(reported)")

    # ---- 12: benchdb compare of two files, against benchstat's CPU time ----
    compare_files_figure(bd, data, empty)

    for name, _ in sizes:
        shutil.rmtree(refs[name]["jsonl"], ignore_errors=True)

    # ---- 11: the same stores and queries on PostgreSQL (issue 19) ----
    pg_bench.figure(build, SRC, data, [refs["1x"]["ref"], s100, s1000], refs, cmp_db, row, REPS)

    # ---- 15: benchdb copy of the 1,000-plan store into SQLite and PostgreSQL ----
    copy_bench.figure(build, SRC, data, s1000, PLAN_INGEST, row, QUICK)
    # The stores (about 1.2 GB) are not kept.
    shutil.rmtree(data, ignore_errors=True)
    wall = time.time() - t0
    row("wall", "whole `make bench` (build included)", f"{wall:.0f} s", "< 600 s", wall < 600)
    report(desc, wall)


def readers_figure(bd, data, empty):
    """Figure 3, readers: a go-bench file and a Google Benchmark file of N
    and 10 N distinct names, each loaded into a fresh store as one run.
    Both readers once searched every earlier cell for each line (100,000
    go-bench names took 79 s, 80,000 Google Benchmark entries 99 s); with
    a hash map, 10 N names cost about 10 times N's (target <= 13, the
    median of the ratios taken within one repetition)."""
    n = 800 if QUICK else 8000
    files = {}
    for k in (n, 10 * n):
        go = os.path.join(data, f"go-{k}.txt")
        with open(go, "w") as f:
            f.write("goos: linux\ngoarch: amd64\npkg: example.com/bench\n")
            for i in range(k):
                f.write(f"BenchmarkName{i:07d}/case-8  \t 1000000\t {1000 + i % 997}.5 ns/op\n")
        gb = os.path.join(data, f"gb-{k}.json")
        rows = [{"name": f"BM_Name{i:07d}/64", "run_type": "iteration", "iterations": 1000,
                 "real_time": 1000.5 + i % 997, "cpu_time": 999.5 + i % 991, "time_unit": "ns"} for i in range(k)]
        with open(gb, "w") as f:
            json.dump({"context": {"host_name": "bench", "num_cpus": 2}, "benchmarks": rows}, f)
        files[k] = {"go-bench": go, "google-benchmark": gb}
    for fmt in ("go-bench", "google-benchmark"):
        small, large, ratios = [], [], []
        for rep in range(REPS):
            pair = {}
            for k in ((n, 10 * n) if rep % 2 == 0 else (10 * n, n)):
                tgt = fresh(empty, os.path.join(data, "readers.db"))
                pair[k] = timed([bd, "--db", tgt, "ingest", "-q", "--max-series", "1M", "--plan", "p", "--run", "r",
                                 "--host", "h", "--format", fmt, files[k][fmt]])
            small.append(pair[n])
            large.append(pair[10 * n])
            ratios.append(pair[10 * n] / pair[n])
        r = med(ratios)
        row("3 readers", f"{fmt}: {10 * n:,} names / {n:,} names (one file into one run)",
            f"{r:.2f} ({med(large):.2f} s / {med(small):.2f} s)", "<= 13", r <= 13)
    harness_speed.figure(bd, data, empty, fresh, row, med, REPS, QUICK)
    harness_speed_js_net.figure(bd, data, empty, fresh, row, REPS, 10000 if QUICK else harness_speed_js_net.N)
    parse_alone(os.path.join(os.path.dirname(bd), "bench", "json_parse"), data)


def parse_alone(prog, data):
    """Figure 3, the JSON parse alone (bench/json_parse.c): benchdb's parser
    against jansson's json_loadb, which it replaced, on the JSON files of
    the readers above (each over 0.5 MB; a run stream a line at a time),
    by CPU, the best of 5 passes each."""
    files = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(data) for f in fs
                   if f.endswith(".json") and os.path.getsize(os.path.join(dp, f)) > 500_000)
    lines = sorted(os.path.join(data, f) for f in os.listdir(data) if f == "speed-ref-cells.jsonl")
    out = subprocess.run([prog, *files, "--lines", *lines], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        path, rest = line.split(": ", 1)
        row("3 readers", f"the JSON parse alone: {os.path.relpath(path, data)}", rest)


def default_store(bd, data, empty, name, opts):
    """The default plan simulated with opts (SIZES), its archives
    decompressed beside (figures 1-2) and ingested into a store of its own."""
    d = os.path.join(data, name)
    t = timed([bd, "simulate", "-q", *opts, d])
    jd = os.path.join(data, name + "-jsonl")
    os.makedirs(jd)
    raw = 0
    for f in sorted(os.listdir(d)):
        out = os.path.join(jd, f[:-4])
        with open(out, "wb") as o:
            run(["zstd", "-qdc", os.path.join(d, f)], stdout=o)
        raw += os.path.getsize(out)
    ref = fresh(empty, os.path.join(data, f"ref-{name}.db"))
    run([bd, "--db", ref, "ingest", "-q", d])
    with sqlite3.connect(ref) as c:
        values, measured = c.execute("SELECT count(*), sum(warmup = 0) FROM sample").fetchone()
    log(f"generated {name}: {values} values ({measured} measured), {raw / 1e6:.1f} MB in {t:.2f} s")
    return dict(dir=d, jsonl=jd, ref=ref, raw=raw, values=values, measured=measured, gen=t)


def compare_store(bd, data, empty):
    """Figures 9 and 11: two runs (base, head) of the plan builds, each
    1,000 benchmarks x 10 values in ns/op (about 1% apart, log sd 0.02),
    loaded with `ingest --format go-bench`."""
    cmp_db = fresh(empty, os.path.join(data, "compare.db"))
    rnd = __import__("random").Random(9)
    for side, shift in (("base", 1.0), ("head", 1.01)):
        path = os.path.join(data, f"compare-{side}.txt")
        with open(path, "w") as f:
            f.write("goos: linux\ngoarch: amd64\npkg: example.com/bench\n")
            for _ in range(10):
                for i in range(1000):
                    v = 1000 * (1 + i % 7) * shift * rnd.lognormvariate(0, 0.02)
                    f.write(f"BenchmarkCell{i:04d}-8   1000000   {v:.1f} ns/op\n")
        run([bd, "--db", cmp_db, "ingest", "-q", "--format", "go-bench", "--plan", "builds", "--run", side,
             "--host", "h", path])
    return cmp_db


# benchstat v2's CPU time (user + system) for `benchstat old.txt new.txt` on
# figure 12's files, measured side by side on this machine class (issue 27).
BENCHSTAT_CPU = 0.26


def cpu_run(cmd):
    """CPU seconds (user + system) and peak RSS (MiB) of one command, its
    output discarded."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, cmd
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def compare_files_figure(bd, data, empty):
    """Figure 12: `benchdb compare old.txt new.txt` of two go-bench files of
    1,000 benchmarks x 10 values x 3 units (ns/op, B/op, allocs/op), on the
    files (no store) and on a store holding them as two runs (--no-record),
    against benchstat v2's CPU time."""
    rnd = __import__("random").Random(27)
    paths = []
    for side, shift in (("old", 1.0), ("new", 1.01)):
        path = os.path.join(data, f"{side}.txt")
        with open(path, "w") as f:
            f.write("goos: linux\ngoarch: amd64\npkg: example.com/bench\ncpu: Bench CPU @ 2.80GHz\n")
            for _ in range(10):
                for i in range(1000):
                    v = 1000 * (1 + i % 7) * shift * rnd.lognormvariate(0, 0.02)
                    b = 64 * (1 + i % 5) + rnd.choice((0, 0, 8))
                    f.write(f"BenchmarkCell{i:04d}-8   1000000   {v:.1f} ns/op   {b} B/op   {1 + i % 4} allocs/op\n")
        paths.append(path)
    db = fresh(empty, os.path.join(data, "compare3.db"))
    for side, path in zip(("old", "new"), paths):
        run([bd, "--db", db, "ingest", "-q", "--format", "go-bench", "--plan", "files", "--run", side, "--host", "h",
             path])
    cases = {"files": [bd, "compare", *paths],
             "store": [bd, "--db", db, "compare", "--no-record", "--plan", "files", "old", "new"]}
    got = {k: [] for k in cases}
    for rep in range(REPS):
        for k in (("files", "store") if rep % 2 == 0 else ("store", "files")):
            got[k].append(cpu_run(cases[k]))
    cpu = {k: med([c for c, _ in v]) for k, v in got.items()}
    rss = {k: max(m for _, m in v) for k, v in got.items()}
    row("12 compare files", "`benchdb compare old.txt new.txt`: two go-bench files of 1,000 benchmarks x 10 values "
        "x 3 units, no store (CPU time, user + system, whole process)",
        f"{cpu['files'] * 1000:.0f} ms CPU ({cpu['files'] / BENCHSTAT_CPU:.2f}x benchstat's {BENCHSTAT_CPU} s); "
        f"peak RSS {rss['files']:.1f} MiB", f"<= {BENCHSTAT_CPU} s", cpu["files"] <= BENCHSTAT_CPU)
    row("12 compare files", "the same two builds as runs of a store (`benchdb compare --no-record --plan files old "
        "new`)", f"{cpu['store'] * 1000:.0f} ms CPU ({cpu['store'] / BENCHSTAT_CPU:.2f}x benchstat's); peak RSS "
        f"{rss['store']:.1f} MiB", f"<= 0.7x ({0.7 * BENCHSTAT_CPU:.3f} s)", cpu["store"] <= 0.7 * BENCHSTAT_CPU)


def plan_stores(bd, data, s1):
    """The stores of 100 and 1,000 plans (figures 4, 5 and 11): s1, which
    holds the example plan alone, and 99 (999) plans of its shape; returns
    their paths."""
    fill = os.path.join(data, "plans")
    t = time.perf_counter()

    def sim(i):
        # A plan's 12 run archives concatenated into one archive (zstd frames
        # concatenate; an archive may hold several runs): a twelfth of the
        # per-archive work, the same rows but for the archive table.
        d = os.path.join(fill, f"{i:04d}")
        run([bd, "simulate", "-q", "--iterations", "1", "--warmups", "0", "--forks", "1", "--plan",
             f"history-{i:04d}", "--seed", str(i + 1000), d])
        with open(d + ".jsonl.zst", "wb") as out:
            for f in sorted(os.listdir(d)):
                with open(os.path.join(d, f), "rb") as src:
                    out.write(src.read())
        shutil.rmtree(d)

    # Generation (one simulate process per plan, on a pool) overlaps the
    # ingest of the batches already generated.
    s100 = fresh(s1, os.path.join(data, "s100.db"))
    s1000 = None
    ting = 0.0
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        futs = {i: ex.submit(sim, i) for i in range(1, NPLANS)}
        for lo, hi in [(1, NPLANS // 10)] + [(b, min(b + NPLANS // 10, NPLANS))
                                            for b in range(NPLANS // 10, NPLANS, NPLANS // 10)]:
            for i in range(lo, hi):
                futs[i].result()
            if lo == NPLANS // 10:
                s1000 = fresh(s100, os.path.join(data, "s1000.db"))
            ti = time.perf_counter()
            run([bd, "--db", s100 if s1000 is None else s1000, "ingest", "-q",
                 *[os.path.join(fill, f"{i:04d}.jsonl.zst") for i in range(lo, hi)]])
            ting += time.perf_counter() - ti
    tgen = time.perf_counter() - t
    with sqlite3.connect(s1000) as c:
        nser, nsamp = c.execute("SELECT (SELECT count(*) FROM series), (SELECT count(*) FROM sample)").fetchone()
    with sqlite3.connect(s1) as c:
        PLAN_INGEST.update(seconds=ting, values=nsamp - c.execute("SELECT count(*) FROM sample").fetchone()[0])
    row("4 rule", "stores of 100 and 1,000 plans",
        f"{NPLANS - 1} more plans (12 runs each in one archive, 1 fork x 1 value per block) generated and "
        f"ingested in "
        f"{tgen:.0f} s (of which ingest {ting:.0f} s); {NPLANS:,}-plan store: {nser:,} series, {nsamp:,} values")
    shutil.rmtree(fill, ignore_errors=True)
    return s100, s1000


def rule_figures(bd, prog, s1, s100, s1000):
    """Figures 4 and 5: `benchdb query placement-rule` (a process, the
    evaluation recorded) in stores of 1, 100 and 1,000 plans (plan_stores),
    and the rule evaluated on every plan one after the other."""
    stores = [("1 plan", s1), ("100 plans", s100), ("1,000 plans", s1000)]
    qt = {k: [] for k, _ in stores}
    for rep in range(REPS):
        k = rep % 3
        for label, s in stores[k:] + stores[:k]:
            qt[label].append(timed([bd, "--db", s, "query", "placement-rule", "-p", "plan=calibration-sim"]))
    for label, _ in stores:
        m = med(qt[label])
        row("4 rule", f"`benchdb query placement-rule` (recorded), {label}", f"{m * 1000:.1f} ms", "< 20 ms", m < 0.02)
    flat = med([b / a for a, b in zip(qt["1 plan"], qt["1,000 plans"])])
    row("4 rule", "flat: 1,000 plans / 1 plan", f"{flat:.2f}", "<= 1.25", flat <= 1.25)
    eqp = subprocess.run([prog("rule_history"), s1000, os.path.join(SRC, "queries", "placement-rule.sql"),
                          "--explain", "calibration-sim"], capture_output=True, text=True, check=True).stdout
    scans = [l.split(" ", 2)[2] for l in eqp.splitlines() if re.search(r"\b(SCAN|SEARCH)\b", l)]
    full = [l for l in scans if re.match(r"SCAN (series|sample|block_score_data|run|archive)\b", l)]
    row("4 rule", "full scans of stored tables in its plan", "none" if not full else "; ".join(full), "none",
        not full)

    def history(store):
        out = subprocess.run([prog("rule_history"), store, os.path.join(SRC, "queries", "placement-rule.sql")],
                             capture_output=True, text=True, check=True).stdout
        return [float(l.split()[1]) for l in out.splitlines()]

    # As many passes as fit HISTORY_BUDGET after the first, up to REPS.
    per = {"100": [], "1000": []}
    totals = []
    t = time.perf_counter()
    first = 0.0
    for rep in range(REPS):
        order = [("100", s100), ("1000", s1000)] if rep % 2 == 0 else [("1000", s1000), ("100", s100)]
        res = {}
        for label, s in order:
            res[label] = history(s)
        per["100"].append(sum(res["100"]) / len(res["100"]))
        per["1000"].append(sum(res["1000"]) / len(res["1000"]))
        totals.append(sum(res["1000"]))
        spent = time.perf_counter() - t
        first = first if rep else spent
        if spent + spent / (rep + 1) > first + HISTORY_BUDGET:
            break
    hn = len(totals)
    lin = med([b / a for a, b in zip(per["100"], per["1000"])])
    pp = med(per["1000"])
    row("5 history", "placement-rule on all 1,000 plans, one after the other",
        f"{med(totals):.2f} s total, {pp * 1000:.2f} ms per plan (median of {hn} pass{'es' if hn > 1 else ''})",
        "< 10 ms per plan", pp < 0.010)
    row("5 history", "linear: per-plan time, 1,000-plan / 100-plan store", f"{lin:.2f}", "<= 1.25", lin <= 1.25)


def report_figure(bd, data, example):
    """benchdb report on the example plan (720 comparisons) and on a plan of
    21,000. The example plan's page is timed as a user runs it on a fresh
    store: the rule and its companion query `comparisons` run, recorded and
    drawn; both pages are also timed drawn from the recorded evaluation
    alone, the report's own work (at 21,000 comparisons the query takes
    seconds before anything is drawn: reported, not judged)."""
    big = os.path.join(data, "report-big")
    run([bd, "simulate", "-q", "--plan", "big", "--groups", "3", "--cells", "100", "--hosts", "5", "--positions",
         "4", "--blocks", "5", "--forks", "1", "--iterations", "1", "--warmups", "0", big])
    bigdb = fresh(os.path.join(data, "empty.db"), os.path.join(data, "report-big.db"))
    run([bd, "--db", bigdb, "ingest", "-q", big])
    out = os.path.join(data, "report.html")
    cases = [("example plan (720 comparisons)", example, "placement-rule", "calibration-sim", 0.3, True),
             ("21,000 comparisons", bigdb, "comparisons", "big", 3.0, False)]
    for label, template, query, plan, limit, judge_run in cases:
        ran, drawn, qms = [], [], []
        for rep in range(REPS):
            db = fresh(template, os.path.join(data, "report.db"))
            ran.append(timed([bd, "--db", db, "report", query, "--param", f"plan={plan}", "-o", out]))
            with sqlite3.connect(db) as c:
                eid = c.execute("SELECT max(id) FROM evaluation WHERE query_name = ?", (query,)).fetchone()[0]
                marks, ms = c.execute("SELECT row_count, duration_ms FROM evaluation "
                                      "WHERE query_name = 'comparisons'").fetchone()
            qms.append(ms)
            drawn.append(timed([bd, "--db", db, "report", "--evaluation", str(eid), "-o", out]))
        size = os.path.getsize(out)
        m, d = med(ran), med(drawn)
        row("9 report", f"`benchdb report {query}`, {label}: run, recorded and drawn",
            f"{m * 1000:.0f} ms ({marks:,} marks, {size / 1e6:.1f} MB; the comparisons query {med(qms):.0f} ms)",
            f"< {limit * 1000:.0f} ms" if judge_run else "(reported)", (m < limit) if judge_run else None)
        row("9 report", f"`benchdb report --evaluation`, {label}: drawn from the record",
            f"{d * 1000:.0f} ms", f"< {limit * 1000:.0f} ms", d < limit)
    shutil.rmtree(big, ignore_errors=True)
def history_store(bd, data, empty):
    """A simulated year of 10 hosts x 100 cells (1,000 histories of 365
    nightly runs, one series of 5 values each, 50 injected steps)."""
    hosts, cells, nights = (2, 10, 60) if QUICK else (10, 100, 365)
    d = os.path.join(data, "history")
    t = timed([bd, "simulate", "-q", "--history", str(nights), "--hosts", str(hosts), "--cells", str(cells),
               "--steps", str(hosts * cells // 20), "--seed", "1", d])
    store = fresh(empty, os.path.join(data, "history.db"))
    ti = timed([bd, "--db", store, "ingest", "-q", d])
    shutil.rmtree(d, ignore_errors=True)
    log(f"history store: {hosts * cells} histories x {nights} runs, simulated in {t:.1f} s, ingested in {ti:.1f} s")
    return store


def backtest_figure(bd, data, empty):
    """`benchdb backtest` over history_store's year: the issue's gate-zscore
    REPS times, the other two gates, tonight's gate-zscore and
    `regressions` once each. Returns the store (figure 14 draws it)."""
    hosts, cells, nights = (2, 10, 60) if QUICK else (10, 100, 365)
    store = history_store(bd, data, empty)
    label = f"{hosts * cells:,} histories x {nights} runs"

    def once(args):
        # The table on stdout, the sentence (a verdict) on stderr.
        t = time.perf_counter()
        p = subprocess.run([bd, "--db", store, *args], check=True, capture_output=True, text=True)
        return time.perf_counter() - t, p.stdout + p.stderr

    times, sentence = [], ""
    for _ in range(REPS):
        s, out = once(["backtest", "gate-zscore"])
        times.append(s)
        sentence = [l for l in out.splitlines() if " would have raised " in l][0]
    m = med(times)
    row("10 backtest", f"`benchdb backtest gate-zscore` (recorded), {label}", f"{m:.2f} s ({sentence.split(': ', 1)[1]})",
        "< 10 s", m < 10.0)
    for gate in ("gate-ttest", "gate-percent"):
        s, out = once(["backtest", gate, "--no-record"])
        sentence = [l for l in out.splitlines() if " would have raised " in l][0]
        row("10 backtest", f"`benchdb backtest {gate}`, {label} (one run)", f"{s:.2f} s ({sentence.split(': ', 1)[1]})")
    s, _ = once(["query", "gate-zscore", "--no-record", "--format", "csv"])
    row("10 backtest", f"`benchdb query gate-zscore` (tonight's verdict: the latest run of each history), {label}",
        f"{s:.2f} s")
    s, out = once(["query", "regressions", "--no-record", "--format", "csv"])
    row("10 backtest", f"`benchdb query regressions` (change points of every history), {label}",
        f"{s:.2f} s ({out.split('result: ', 1)[1].split(' row', 1)[0]} change points)")
    return store


def site_figure(bd, data, store):
    """Figure 14: `benchdb site` of the 1,000-history store (figure 10's,
    with its recorded back-tests): the first run writes every page, the
    second finds nothing changed and writes none (each REPS times, into a
    fresh directory and into the written one); peak RSS, the pages, their
    size."""
    out = os.path.join(data, "site")
    first, second, rss, line1, line2 = [], [], 0, "", ""
    for _ in range(REPS):
        shutil.rmtree(out, ignore_errors=True)
        for times in (first, second):
            t = time.perf_counter()
            p = subprocess.Popen([bd, "--db", store, "site", out], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            err = p.stderr.read()
            _, status, ru = os.wait4(p.pid, 0)
            times.append(time.perf_counter() - t)
            rss = max(rss, ru.ru_maxrss)
            if status != 0:
                raise SystemExit(f"benchdb site failed: {err}")
            if times is first:
                line1 = err.strip().splitlines()[-1]
            else:
                line2 = err.strip().splitlines()[-1]
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    shutil.rmtree(out, ignore_errors=True)
    m1, m2 = med(first), med(second)
    pages = line1.split(": ")[-2] if ": " in line1 else line1
    label = "1,000 histories x 365 runs" if not QUICK else "20 histories x 60 runs"
    row("14 site", f"`benchdb site DIR` of {label}, first run ({pages}; {size / 1e6:.0f} MB)",
        f"{m1:.1f} s", "< 30 s", m1 < 30.0)
    row("14 site", "the second run, nothing changed (" + line2.split("): ")[-1] + ")", f"{m2:.1f} s", "< 30 s",
        m2 < 30.0 and ": 0 written," in line2)
    row("14 site", "peak RSS of either run", f"{rss / 1024:.0f} MiB", "(reported)")


def report(desc, wall):
    lines = ["| figure | case | measured | target | holds |", "|---|---|---|---|---|"]
    lines += [f"| {a} | {b} | {c} | {d} | {e} |" for a, b, c, d, e in ROWS]
    table = "\n".join(lines)
    print(table)
    md = ["# benchdb benchmark results", "",
          f"Written by `make bench` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}); "
          f"every timing is the median of {REPS} runs, every ratio the median of per-repetition ratios "
          "with the sides alternating. What each figure measures and how: bench/README.md.", "",
          "## Machine", ""]
    md += [f"- {k}: {v}" for k, v in desc]
    md += ["", "## Figures", "", table, ""]
    changes = os.path.join(SRC, "bench", "changes.md")
    if os.path.exists(changes):
        md += [open(changes).read().rstrip("\n"), ""]
    if QUICK or ONLY:
        return
    with open(os.path.join(SRC, "bench", "results.md"), "w") as f:
        f.write("\n".join(md))
    log(f"wrote bench/results.md ({wall:.0f} s)")


if __name__ == "__main__":
    main()
