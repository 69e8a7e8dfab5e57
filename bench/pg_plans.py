"""CPU time of every shipped saved query on PostgreSQL right after an
ingest, against the same store with every table analyzed: whether the
ingest leaves the planner statistics it needs (bench/pg-ingest.md,
"Query plans after an ingest").

    python3 bench/pg_plans.py BUILD [REPS]

Starts a throwaway cluster as figure 11 does (pg_bench.quiet_cluster:
autovacuum off, so that the statistics are those the ingest left), makes
the default plan's archives at 10x (figure 11's 10x store) and 1,095
nightly archives with injected steps (figure 11's small archives, with
pg/queries' steps), and ingests them and examples/git-perf
(examples/calibration is the same plan at 1x) into fresh stores: "after"
by BUILD's benchdb, "all" the same followed by ANALYZE of every table,
and with PG_PLANS_BEFORE=PATH
"before" by another benchdb (an earlier build), which also runs that
store's queries (its own saved queries; PG_PLANS_BEFORE_SCHEMA=N: into a
store at schema version N, the one that build knows). Then each query of
tests/pg/queries.list (its parameters), REPS times (default 5), the
stores in a rotating order: `benchdb query NAME --no-record` CPU (its own
user + system and its backend's, the postmaster's cutime + cstime grown
while it ran). Prints per query the medians and, last, the load average
before and after. PG_PLANS_ONLY=a,b picks the queries by name;
PG_PLANS_EXPLAIN=1 prints each store's EXPLAIN ANALYZE of those instead
(pg_query_sql's text)."""
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_bench  # noqa: E402
import pg_cpu  # noqa: E402


def queries(src):
    """(name, [params]) of every line of tests/pg/queries.list."""
    out = []
    with open(os.path.join(src, "tests", "pg", "queries.list"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                out.append((line[1], line[2:]))
    return out


def main():
    build = os.path.abspath(sys.argv[1])
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bd = os.path.join(build, "benchdb")
    before = os.environ.get("PG_PLANS_BEFORE")
    only = os.environ.get("PG_PLANS_ONLY")
    print(f"load average before: {os.getloadavg()}", flush=True)
    pg, base = pg_bench.quiet_cluster(build, "pg-plans-")
    try:
        postmaster = pg_cpu.postmaster_pid(pg)
        time.sleep(1)
        aux = pg_cpu.children(postmaster)
        # examples/calibration is the default plan at 1x: the 10x takes its place
        data = [os.path.join(src, "examples", d) for d in ("git-perf",)]
        for name, extra in (("10x", ["--iterations", "50"]),
                            ("nightly", ["--history", "365", "--hosts", "3", "--cells", "5", "--steps", "3",
                                         "--seed", "9"])):
            d = os.path.join(base, name)
            subprocess.run([bd, "simulate", "-q"] + extra + [d], check=True, stdout=subprocess.DEVNULL)
            data.append(d)
        stores = {"after": bd, "all": bd}
        if before:
            stores["before"] = before
        for store, prog in stores.items():
            pg.newdb(store, int(os.environ.get("PG_PLANS_BEFORE_SCHEMA", "9999")) if store == "before" else 9999)
            subprocess.run([prog, "--db", pg.uri(store), "ingest", "-q"] + data, env=pg.env, check=True,
                           stdout=subprocess.DEVNULL)
            if store == "all":
                pg.sql(store, "ANALYZE")
            never = pg.sql(store, "SELECT string_agg(relname, ' ' ORDER BY relname) FROM pg_stat_user_tables "
                                  "WHERE n_live_tup > 0 AND last_analyze IS NULL")
            print(f"{store}: tables with rows never analyzed: {never or 'none'}", flush=True)
        sides = list(stores)
        for name, params in queries(src):
            if only and name not in only.split(","):
                continue
            args = ["query", name, "--no-record"]
            for p in params:
                args += ["--param", p]
            if os.environ.get("PG_PLANS_EXPLAIN"):
                sql = subprocess.run([os.path.join(build, "tests", "pg_query_sql"), name] + params,
                                     check=True, capture_output=True, text=True).stdout
                for side in sides:
                    print(f"---- {side}: {name} {' '.join(params)}")
                    print(pg.sql(side, "EXPLAIN (ANALYZE, BUFFERS) " + sql.strip().rstrip(";")))
                continue
            got = {side: [] for side in sides}
            for rep in range(reps):
                for side in sides[rep % len(sides):] + sides[:rep % len(sides)]:
                    pg_cpu.settle(postmaster, aux)
                    t0 = pg_cpu.children_cpu(postmaster)
                    client = pg_cpu.run_cpu([stores[side], "--db", pg.uri(side)] + args, pg.env)
                    pg_cpu.settle(postmaster, aux)
                    got[side].append(client + pg_cpu.children_cpu(postmaster) - t0)
            m = {side: statistics.median(v) for side, v in got.items()}
            print(f"{name} {' '.join(params)}: " + ", ".join(
                f"{side} {m[side]:.3f} s ({'/'.join(f'{x:.2f}' for x in got[side])})" for side in sides)
                + f"; after/all {m['after'] / m['all']:.2f}"
                + (f", before/all {m['before'] / m['all']:.2f}" if before else ""), flush=True)
    finally:
        pg.stop()
        subprocess.run(["rm", "-rf", base])
        print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
