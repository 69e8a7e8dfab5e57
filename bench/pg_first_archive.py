"""What one archive costs a `benchdb ingest` process on each engine
(bench/pg-ingest.md): the first archive of the 1,095 small ones and the
first of the default plan's 12, each alone into a fresh store, REPS times
(default 10), alternating engines; the median wall time, and on
PostgreSQL the process's CPU and its backend's (a quiet cluster, autovacuum
off). With figure 11's per-set times it splits an ingest into what a
process pays once and what each archive adds.

    python3 bench/pg_first_archive.py BUILD [REPS]"""
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_bench  # noqa: E402
import pg_cpu  # noqa: E402


def main():
    build = os.path.abspath(sys.argv[1])
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    bd = os.path.join(build, "benchdb")
    pg, base = pg_bench.quiet_cluster(build, "pg-first-")
    try:
        pm = pg_cpu.postmaster_pid(pg)
        time.sleep(1)
        aux = pg_cpu.children(pm)
        lite = os.path.join(base, "lite.db")
        for label, extra in (("one small archive", ["--history", "365", "--hosts", "3", "--cells", "5"]),
                             ("one archive of the default plan (1x)", [])):
            d = os.path.join(base, "set")
            subprocess.run(["rm", "-rf", d])
            subprocess.run([bd, "simulate", "-q"] + extra + [d], check=True, stdout=subprocess.DEVNULL)
            one = os.path.join(d, sorted(os.listdir(d))[0])
            wall = {"pg": [], "lite": []}
            client, server = [], []
            for _ in range(reps):
                pg.newdb("first")
                pg_cpu.settle(pm, aux)
                s0 = pg_cpu.children_cpu(pm)
                client.append(pg_cpu.run_cpu([bd, "--db", pg.uri("first"), "ingest", "-q", one], pg.env, wall["pg"]))
                pg_cpu.settle(pm, aux)
                server.append(pg_cpu.children_cpu(pm) - s0)
                for f in (lite, lite + "-wal", lite + "-shm"):
                    if os.path.exists(f):
                        os.remove(f)
                subprocess.run([bd, "--db", lite, "init"], check=True, stdout=subprocess.DEVNULL)
                pg_cpu.run_cpu([bd, "--db", lite, "ingest", "-q", one], pg.env, wall["lite"])
            print(f"{label}: PostgreSQL {statistics.median(wall['pg']) * 1000:.0f} ms (client CPU "
                  f"{statistics.median(client) * 1000:.0f} ms, server {statistics.median(server) * 1000:.0f} ms); "
                  f"SQLite {statistics.median(wall['lite']) * 1000:.0f} ms", flush=True)
    finally:
        pg.stop()
        subprocess.run(["rm", "-rf", base])


if __name__ == "__main__":
    main()
