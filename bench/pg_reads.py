"""Figure 11's read lines (placement-rule on a plan of a large store, the
saved query compare and `benchdb compare --no-record` of two runs of 1,000
cells) of two builds, in interleaved pairs on one server: whether a
schema change or the machine moved them (bench/pg-ingest.md, "Figure 11's
read lines").

    python3 bench/pg_reads.py BUILD BEFORE_BUILD [PAIRS]

Makes figure 11's SQLite stores with BUILD's benchdb (run.py's: the
default plan, a store of PG_READS_PLANS plans, default 1,000, and the
compare store), starts one throwaway cluster as figure 11 does
(pg_bench.quiet_cluster's settings, autovacuum off, pg_stat_statements
loaded), and copies each store twice: "after" at BUILD's schema by its
tests/pg/store.py, "before" at schema PG_READS_BEFORE_SCHEMA (default 12)
by BEFORE_BUILD's (its source tree: the directory above it, or
PG_READS_BEFORE_SRC), each then VACUUM (ANALYZE). Then PAIRS times
(default 7), the two sides one right after the other, alternating which
goes first, each side with its own build:
- rule: bench/pg_query placement-rule on one plan of the large store (a
  client process: connect, needs, rule, rows);
- query: bench/pg_query compare (the saved query, a client process);
- compare: `benchdb --db postgresql://... compare --no-record`;
- explain: pg_query --explain of both queries (planning and execution ms);
- warm: pg_query of both queries with PG_READS_WARM (default 20) more
  runs on its connection: the backend's CPU per run (its schedstat, in
  ns: the checks, parsing, planning and running the query), which no
  process start or connection is in.
Each process's wall time, its own CPU (user + system, wait4) and its
backend's (the postmaster's cutime + cstime grown while it ran), the
means of PG_READS_RUNS (default 5) processes one after the other. Prints
every pair's numbers, the medians and after/before ratios of the medians
and the median of the pairs' ratios, the load average; last, each side's
`compare` process split by statement (pg_stat_statements with
track_planning: calls, planning and execution ms, one process each), each
query's planning and execution time on an open connection (the same,
PAIRS alternating rounds of pg_query with PG_READS_WARM runs) and, with
PG_READS_PERF=1, perf's samples of one compare process a side by shared
object and symbol. BEFORE_BUILD's bench/pg_query.c must print the
backend's CPU as this one's does (copy it there and build it). BUILD as
BEFORE_BUILD too, with PG_READS_BEFORE_SCHEMA=13 (its own), is an A/A run:
the spread of the ratios with nothing changed.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_bench  # noqa: E402
import pg_cpu  # noqa: E402
import run as bench_run  # noqa: E402

RULE = ["placement-rule", "plan=calibration-sim"]
QUERY = ["compare", "plan=builds", "a=base", "b=head"]
CASES = ("rule", "query", "compare")
EXTRA = ("rule_plan", "rule_exec", "query_plan", "query_exec", "rule_warm", "query_warm")


def timed(args, env, postmaster, aux, runs=1):
    """(wall, client CPU, server CPU) seconds of one process talking to
    the cluster, the means of runs one after the other (the backends' CPU
    is read in the kernel's 10 ms ticks: runs of them summed read it
    finer); its output discarded."""
    pg_cpu.settle(postmaster, aux)
    t0 = pg_cpu.children_cpu(postmaster)
    wall = []
    client = sum(pg_cpu.run_cpu(args, env, wall) for _ in range(runs))
    pg_cpu.settle(postmaster, aux)
    return sum(wall) / runs, client / runs, (pg_cpu.children_cpu(postmaster) - t0) / runs


def explain(prog, conninfo, args):
    """(planning ms, execution ms) of pg_query --explain."""
    out = subprocess.run([prog, "--explain", conninfo, *args], capture_output=True, text=True, check=True).stdout
    t = dict(re.findall(r"(Planning|Execution) Time: ([0-9.]+) ms", out))
    return float(t["Planning"]), float(t["Execution"])


def main():
    build, before_build = (os.path.abspath(a) for a in sys.argv[1:3])
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    runs = int(os.environ.get("PG_READS_RUNS", "5"))
    warm = int(os.environ.get("PG_READS_WARM", "20"))
    before_src = os.environ.get("PG_READS_BEFORE_SRC", os.path.dirname(before_build))
    before_schema = int(os.environ.get("PG_READS_BEFORE_SCHEMA", "12"))
    bench_run.NPLANS = int(os.environ.get("PG_READS_PLANS", "1000"))
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bd = os.path.join(build, "benchdb")
    base = tempfile.mkdtemp(prefix="pg-reads-", dir=build)
    data = os.path.join(base, "data")
    os.makedirs(data)
    empty = os.path.join(data, "empty.db")
    subprocess.run([bd, "--db", empty, "init"], check=True, stdout=subprocess.DEVNULL)
    t = time.perf_counter()
    ref = bench_run.default_store(bd, data, empty, "1x", [])["ref"]
    big = bench_run.plan_stores(bd, data, ref)[1]
    cmp_db = bench_run.compare_store(bd, data, empty)
    print(f"SQLite stores made in {time.perf_counter() - t:.0f} s", flush=True)

    pg = pg_bench.Cluster(build, src, base)
    pg.env["BENCHDB_PG_CONF"] += ("\nautovacuum = off\nshared_preload_libraries = 'pg_stat_statements'"
                                  "\npg_stat_statements.max = 10000")
    why = pg.start()
    if why:
        raise SystemExit(why)
    try:
        sides = {"before": (before_build, before_src, before_schema), "after": (build, src, 9999)}
        for side, (_, side_src, schema) in sides.items():
            for name, store in (("plans", big), ("compare", cmp_db)):
                db = f"{name}_{side}"
                t = time.perf_counter()
                pg.newdb(db, schema)
                subprocess.run([sys.executable, os.path.join(side_src, "tests", "pg", "store.py"),
                                "copy-derived" if name == "plans" else "copy", store, db], env=pg.env, check=True)
                pg.sql(db, "VACUUM (ANALYZE)")
                print(f"{db}: schema {pg.sql(db, 'SELECT max(version) FROM schema_migration')}, "
                      f"{pg.size(db) / 1e9:.2f} GB, copied and analyzed in {time.perf_counter() - t:.0f} s", flush=True)
        postmaster = pg_cpu.postmaster_pid(pg)
        time.sleep(1)
        aux = pg_cpu.children(postmaster)
        order = list(sides)
        got = {side: {k: [] for k in CASES + EXTRA} for side in order}
        loads = [os.getloadavg()[0]]
        print(f"load average before: {os.getloadavg()}", flush=True)
        for rep in range(pairs):
            for side in (order if rep % 2 == 0 else order[::-1]):
                sb, _, _ = sides[side]
                prog = os.path.join(sb, "bench", "pg_query")
                g = got[side]
                g["rule"].append(timed([prog, pg.conninfo(f"plans_{side}"), "0", *RULE], pg.env, postmaster, aux,
                                         runs))
                g["query"].append(timed([prog, pg.conninfo(f"compare_{side}"), "0", *QUERY], pg.env, postmaster,
                                        aux, runs))
                g["compare"].append(timed([os.path.join(sb, "benchdb"), "--db", pg.uri(f"compare_{side}"), "compare",
                                           "--plan", "builds", "base", "head", "--no-record"], pg.env, postmaster,
                                          aux, runs))
                for what, db, args in (("rule", f"plans_{side}", RULE), ("query", f"compare_{side}", QUERY)):
                    p, e = explain(prog, pg.conninfo(db), args)
                    g[what + "_plan"].append(p)
                    g[what + "_exec"].append(e)
                    out = subprocess.run([prog, pg.conninfo(db), str(warm), *args], capture_output=True, text=True,
                                         check=True).stdout
                    m = re.search(r"^backend ([0-9.]+)", out, re.M)
                    if not m:
                        raise SystemExit(f"{prog} prints no backend line: build this one's bench/pg_query.c there")
                    g[what + "_warm"].append(1000 * float(m[1]) / warm)
                print(f"pair {rep + 1} {side}: " + "; ".join(
                    f"{k} wall {g[k][-1][0] * 1000:.1f} cpu {g[k][-1][1] * 1000:.1f}+{g[k][-1][2] * 1000:.1f} ms"
                    for k in CASES) + "; planning/execution rule "
                      + f"{g['rule_plan'][-1]:.1f}/{g['rule_exec'][-1]:.1f}"
                      f" query {g['query_plan'][-1]:.1f}/{g['query_exec'][-1]:.1f} ms; backend CPU a warm run rule "
                      f"{g['rule_warm'][-1]:.2f} query {g['query_warm'][-1]:.2f} ms", flush=True)
            loads.append(os.getloadavg()[0])
        print(f"load average after: {os.getloadavg()}; 1-minute during: {min(loads):.2f}-{max(loads):.2f}")
        print("medians, before -> after (after/before of the medians; median of the pairs' ratios):")

        def line(label, before, after):
            mb, ma = statistics.median(before), statistics.median(after)
            pr = statistics.median(a / b for a, b in zip(after, before))
            print(f"  {label}: {mb:.1f} -> {ma:.1f} ({ma / mb:.2f}; pairs {pr:.2f})")

        b, a = got["before"], got["after"]
        for k in CASES:
            for i, what in enumerate(("wall", "client CPU", "server CPU")):
                line(f"{k} {what} ms", [x[i] * 1000 for x in b[k]], [x[i] * 1000 for x in a[k]])
            line(f"{k} client+server CPU ms", [(x[1] + x[2]) * 1000 for x in b[k]],
                 [(x[1] + x[2]) * 1000 for x in a[k]])
        for k in EXTRA:
            line(f"{k} ms ({'backend CPU a warm run' if k.endswith('warm') else 'EXPLAIN ANALYZE'})", b[k], a[k])

        # The compare process by statement: one process per side.
        pg.sql("postgres", "ALTER SYSTEM SET pg_stat_statements.track_planning = on")
        pg.sql("postgres", "SELECT pg_reload_conf()")
        for side in order:
            db = f"compare_{side}"
            pg.sql(db, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            pg.sql(db, "SELECT pg_stat_statements_reset()")
            w, c, s = timed([os.path.join(sides[side][0], "benchdb"), "--db", pg.uri(db), "compare", "--plan",
                             "builds", "base", "head", "--no-record"], pg.env, postmaster, aux)
            print(f"---- {side}: benchdb compare --no-record, wall {w * 1000:.1f} ms, client {c * 1000:.1f} ms, "
                  f"server {s * 1000:.1f} ms CPU; its statements (calls, planning ms, execution ms):")
            print(pg.sql(db, r"""
                SELECT format('%5s %8s %8s  %s', calls, round(CAST(total_plan_time AS NUMERIC), 2),
                              round(CAST(total_exec_time AS NUMERIC), 2),
                              left(regexp_replace(query, '\s+', ' ', 'g'), 110))
                FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                  AND query NOT LIKE '%pg_stat_statements%'
                ORDER BY total_exec_time + total_plan_time DESC"""), flush=True)

        # Planning against execution of each query on an open connection
        # (pg_stat_statements' per-statement times, a pg_query of WARM runs
        # a round), the sides alternating.
        def totals(db):
            row = pg.sql(db, """SELECT calls, total_plan_time, total_exec_time FROM pg_stat_statements
                                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                                  AND query LIKE 'WITH%' ORDER BY total_exec_time DESC LIMIT 1""")
            return [float(x) for x in row.split("|")] if row else [0.0, 0.0, 0.0]

        split = {side: {k: [] for k in ("rule_plan", "rule_exec", "query_plan", "query_exec")} for side in order}
        for side in order:
            pg.sql(f"plans_{side}", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        for rep in range(pairs):
            for side in (order if rep % 2 == 0 else order[::-1]):
                prog = os.path.join(sides[side][0], "bench", "pg_query")
                for what, db, args in (("rule", f"plans_{side}", RULE), ("query", f"compare_{side}", QUERY)):
                    t0 = totals(db)
                    subprocess.run([prog, pg.conninfo(db), str(warm), *args], check=True, stdout=subprocess.DEVNULL)
                    t1 = totals(db)
                    n = t1[0] - t0[0]
                    split[side][what + "_plan"].append((t1[1] - t0[1]) / n)
                    split[side][what + "_exec"].append((t1[2] - t0[2]) / n)
        print(f"planning and execution on an open connection (pg_stat_statements, {pairs} rounds of {warm + 1} runs, "
              f"wall ms a run), load average {os.getloadavg()}:")
        for k in ("rule_plan", "rule_exec", "query_plan", "query_exec"):
            line(k, split["before"][k], split["after"][k])

        # Where the client's CPU goes: perf's samples of one compare
        # process per side, by shared object and by symbol.
        if os.environ.get("PG_READS_PERF"):
            for side in order:
                data_file = os.path.join(base, f"perf-{side}.data")
                subprocess.run(["perf", "record", "-q", "-F", "20000", "-o", data_file, "--",
                                os.path.join(sides[side][0], "benchdb"), "--db", pg.uri(f"compare_{side}"), "compare",
                                "--plan", "builds", "base", "head", "--no-record"], env=pg.env, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for sort, top in (("dso", 12), ("dso,symbol", 30)):
                    out = subprocess.run(["perf", "report", "-i", data_file, "--stdio", "--no-children",
                                          "--sort", sort], capture_output=True, text=True, check=True).stdout
                    lines = [x for x in out.splitlines() if x.strip() and not x.startswith("#")]
                    print(f"---- {side}: perf of the compare process by {sort}:\n" + "\n".join(lines[:top]),
                          flush=True)
    finally:
        pg.stop()
        subprocess.run(["rm", "-rf", base])


if __name__ == "__main__":
    main()
