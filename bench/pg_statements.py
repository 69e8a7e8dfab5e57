"""The server's time by statement of one `benchdb ingest` into PostgreSQL
(issue 29's ninth pass, bench/pg-ingest.md).

    python3 bench/pg_statements.py BUILD [1x|small]

Starts pg_cpu.py's throwaway cluster (figure 11's settings, autovacuum
off) with pg_stat_statements loaded (`track = all`: the statements inside
PL/pgSQL functions and triggers and the foreign keys' checks counted too;
`track_planning`; `track_functions = all`), makes the set's archives (1x:
the default plan's 12; small: the 1,095 small archives of figure 11),
ingests them once into a fresh store and prints the client's and the
server's CPU (as pg_cpu.py measures them), then the statements by time
(calls, rows, execution ms, planning ms, T for one the client sent) and the
functions by time (calls, total ms, self ms). With PG_STATEMENTS_SQL=SQL,
that SQL changes the store after its migrations (as pg_cpu.py's
PG_CPU_VARIANT_SQL). A statement's time is its executor's run and finish,
wall time: not its set-up and end (ExecutorStart, ExecutorEnd), which a
function's total includes; a COPY's includes waiting for the client's
data. One ingest, so a split, not a comparison: compare with pg_cpu.py.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_bench  # noqa: E402
import pg_cpu  # noqa: E402

SETS = {"small": ["--history", "365", "--hosts", "3", "--cells", "5"], "1x": []}


def main():
    build = os.path.abspath(sys.argv[1])
    which = sys.argv[2] if len(sys.argv) > 2 else "small"
    bd = os.path.join(build, "benchdb")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    base = tempfile.mkdtemp(prefix="pg-statements-", dir=build)
    pg = pg_bench.Cluster(build, src, base)
    pg.env["BENCHDB_PG_CONF"] += ("\nautovacuum = off\nshared_preload_libraries = 'pg_stat_statements'"
                                  "\npg_stat_statements.track = all\npg_stat_statements.track_planning = on"
                                  "\npg_stat_statements.max = 10000\ntrack_functions = all")
    why = pg.start()
    if why:
        raise SystemExit(why)
    try:
        d = os.path.join(base, which)
        subprocess.run([bd, "simulate", "-q"] + SETS[which] + [d], check=True, stdout=subprocess.DEVNULL)
        postmaster = pg_cpu.postmaster_pid(pg)
        time.sleep(1)
        aux = pg_cpu.children(postmaster)
        pg.newdb("ingest")
        pg.sql("ingest", "CREATE EXTENSION pg_stat_statements")
        if os.environ.get("PG_STATEMENTS_SQL"):
            pg.sql("ingest", os.environ["PG_STATEMENTS_SQL"])
        pg.sql("ingest", "SELECT pg_stat_statements_reset(); SELECT pg_stat_reset()")
        pg_cpu.settle(postmaster, aux)
        t0 = pg_cpu.children_cpu(postmaster)
        wall = []
        client = pg_cpu.run_cpu([bd, "--db", pg.uri("ingest"), "ingest", "-q", d], pg.env, wall)
        pg_cpu.settle(postmaster, aux)
        server = pg_cpu.children_cpu(postmaster) - t0
        print(f"{which}: client {client:.3f} s CPU, server {server:.3f} s CPU, wall {wall[0]:.3f} s, "
              f"load average {os.getloadavg()[0]:.1f}")
        time.sleep(0.6)  # the backend's function statistics reach the collector
        print("  calls    rows   exec ms   plan ms   statement")
        print(pg.sql("ingest", r"""
            SELECT format('%7s %7s %9s %9s %s %s', calls, rows, round(CAST(total_exec_time AS NUMERIC), 1),
                          round(CAST(total_plan_time AS NUMERIC), 1), CASE WHEN toplevel THEN 'T' ELSE ' ' END,
                          left(regexp_replace(query, '\s+', ' ', 'g'), 150))
            FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND query NOT LIKE '%pg_stat_statements%'
            ORDER BY total_exec_time + total_plan_time DESC LIMIT 45"""))
        print("  calls  total ms   self ms   function")
        print(pg.sql("ingest", """
            SELECT format('%7s %9s %9s   %s', calls, round(CAST(total_time AS NUMERIC), 1),
                          round(CAST(self_time AS NUMERIC), 1), funcname)
            FROM pg_stat_user_functions ORDER BY total_time DESC LIMIT 25"""))
    finally:
        pg.stop()
        subprocess.run(["rm", "-rf", base])


if __name__ == "__main__":
    main()
