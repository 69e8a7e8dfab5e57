"""A server setting's effect on figure 11's ingest lines (bench/pg-ingest.md).

    python3 bench/pg_conf_ab.py BUILD 'SETTING = VALUE[; ...]' [REPS [CASES]]

Starts two throwaway clusters with figure 11's settings (autovacuum on, as
in the figure), the second with the given lines added to its
postgresql.conf, makes the archives of CASES (comma-separated, default
1x,small: the default plan, and the 1,095 small archives of
`simulate --history 365 --hosts 3 --cells 5`; 10x: --iterations 50) and
ingests each into a fresh store on SQLite, on A and on B, REPS times
(default 9), rotating which goes first. Prints per case the median wall
times, each cluster's rate against SQLite's as figure 11 computes it (the
median of the repetitions' SQLite / PostgreSQL), and B / A per repetition."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_bench  # noqa: E402

SETS = {"1x": [], "10x": ["--iterations", "50"], "small": ["--history", "365", "--hosts", "3", "--cells", "5"]}


def main():
    build = os.path.abspath(sys.argv[1])
    extra = sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    cases = (sys.argv[4] if len(sys.argv) > 4 else "1x,small").split(",")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bd = os.path.join(build, "benchdb")
    base = tempfile.mkdtemp(prefix="pg-conf-ab-", dir=build)
    a = pg_bench.Cluster(build, src, os.path.join(base, "a"))
    b = pg_bench.Cluster(build, src, os.path.join(base, "b"))
    b.env["BENCHDB_PG_CONF"] += "\n" + extra.replace(";", "\n")
    try:
        for c in (a, b):
            os.makedirs(os.path.dirname(c.dir), exist_ok=True)
            why = c.start()
            if why:
                raise SystemExit(why)
        lite = os.path.join(base, "lite.db")
        for name in cases:
            d = os.path.join(base, name)
            subprocess.run([bd, "simulate", "-q"] + SETS[name] + [d], check=True, stdout=subprocess.DEVNULL)
            t = {"lite": [], "A": [], "B": []}
            for rep in range(reps):
                order = [("lite", None), ("A", a), ("B", b)]
                for side, c in order[rep % 3:] + order[:rep % 3]:
                    if c is None:
                        for f in (lite, lite + "-wal", lite + "-shm"):
                            if os.path.exists(f):
                                os.remove(f)
                        subprocess.run([bd, "--db", lite, "init"], check=True, stdout=subprocess.DEVNULL)
                        target = lite
                    else:
                        c.newdb("ingest")
                        target = c.uri("ingest")
                    t0 = time.perf_counter()
                    subprocess.run([bd, "--db", target, "ingest", "-q", d], check=True, env=(c or a).env)
                    t[side].append(time.perf_counter() - t0)
            rate = {k: statistics.median(l / x for l, x in zip(t["lite"], t[k])) for k in ("A", "B")}
            print(f"{name}: SQLite {statistics.median(t['lite']):.3f} s; A {statistics.median(t['A']):.3f} s "
                  f"(rate {rate['A']:.2f}); B {statistics.median(t['B']):.3f} s (rate {rate['B']:.2f}); "
                  f"B/A each {', '.join(f'{y / x:.2f}' for x, y in zip(t['A'], t['B']))}", flush=True)
    finally:
        a.stop()
        b.stop()
        subprocess.run(["rm", "-rf", base])


if __name__ == "__main__":
    main()
