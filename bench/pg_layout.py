"""What the values' B-tree costs PostgreSQL's ingest at 10x (bench/README.md,
figure 11): the server's CPU for COPY of the same values into three tables.

    python3 bench/pg_layout.py BUILD [REPS]

Starts a throwaway cluster as figure 11 does (bench/pg_bench.py, autovacuum
off), ingests the default plan's archives at 10x (508,800 values) with
`benchdb ingest`, writes `sample`'s rows out in COPY's binary format, in
the order an ingest sends them, and the same values one row per series
(warmups and measured values as float8 arrays), then in one session
copies them REPS times (default 5) into three fresh tables, rotating:
`sample` as the store has it (primary key (series_id, warmup,
iteration), its CHECKs), the same without the primary key, and a row
per series with the arrays (primary key series_id). Prints, per table,
the median of the backend's CPU (user + system from /proc, so the load
of other processes does not count) and each repetition.
"""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_bench  # noqa: E402

TABLES = {
    "pk": ("CREATE TABLE t_pk (LIKE sample INCLUDING ALL)", "rows"),
    "nopk": ("CREATE TABLE t_nopk (LIKE sample INCLUDING DEFAULTS INCLUDING CONSTRAINTS)", "rows"),
    "arrays": ("CREATE TABLE t_arrays (series_id BIGINT PRIMARY KEY, warmups FLOAT8[] NOT NULL, "
               "vals FLOAT8[] NOT NULL)", "arrays"),
}


def main():
    build = os.path.abspath(sys.argv[1])
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    pg, base = pg_bench.quiet_cluster(build, "pg-layout-")
    try:
        d = os.path.join(base, "10x")
        bd = os.path.join(build, "benchdb")
        subprocess.run([bd, "simulate", "-q", "--iterations", "50", d], check=True, stdout=subprocess.DEVNULL)
        pg.newdb("layout")
        subprocess.run([bd, "--db", pg.uri("layout"), "ingest", "-q", d], env=pg.env, check=True)
        rows, arrays = os.path.join(base, "rows.bin"), os.path.join(base, "arrays.bin")
        for path, query in ((rows, "SELECT * FROM sample ORDER BY series_id, warmup, iteration"),
                            (arrays, "SELECT series_id, array_agg(value ORDER BY iteration) FILTER (WHERE warmup = 1), "
                                     "array_agg(value ORDER BY iteration) FILTER (WHERE warmup = 0) "
                                     "FROM sample GROUP BY series_id ORDER BY series_id")):
            pg.sql("layout", f"\\copy ({query}) TO '{path}' WITH (FORMAT binary)")
        names = list(TABLES)
        script = [f"{TABLES[n][0]};" for n in names]
        script.append("SELECT 'pid', pg_backend_pid();")
        for rep in range(reps):
            script.append(f"TRUNCATE {', '.join('t_' + n for n in names)}; CHECKPOINT;")
            for n in names[rep % len(names):] + names[:rep % len(names)]:
                script += ["SELECT 'cpu', 'start';",
                           f"\\copy t_{n} FROM '{rows if TABLES[n][1] == 'rows' else arrays}' WITH (FORMAT binary)",
                           f"SELECT 'cpu', '{n}';"]
        p = subprocess.Popen([pg.psql, "-X", "-q", "-A", "-t", "-F", " ", "-v", "ON_ERROR_STOP=1", "-d", "layout"],
                             env=pg.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        got, last, pid = {n: [] for n in names}, 0.0, None
        tick = os.sysconf("SC_CLK_TCK")
        for line in script:
            p.stdin.write(line + "\n")
            p.stdin.flush()
            if line.startswith("SELECT '"):
                kind, what = p.stdout.readline().split()
                if kind == "pid":
                    pid = int(what)
                    continue
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                cpu = (int(fields[11]) + int(fields[12])) / tick
                if what != "start":
                    got[what].append(cpu - last)
                last = cpu
        p.stdin.close()
        p.wait()
        for n in names:
            print(f"{n}: {statistics.median(got[n]):.3f} s CPU (each: {', '.join(f'{x:.2f}' for x in got[n])})")
    finally:
        pg.stop()
        subprocess.run(["rm", "-rf", base])


if __name__ == "__main__":
    main()
