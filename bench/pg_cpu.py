"""CPU time of `benchdb ingest` into PostgreSQL against SQLite, for a shared
machine where wall time means nothing (bench/README.md, figure 11).

    python3 bench/pg_cpu.py BUILD [REPS]

Starts a throwaway cluster as figure 11 does (tests/pg/cluster.sh, figure
11's settings, autovacuum off so that the postmaster's finished children
are the ingest's backend alone), makes the default plan's archives at 1x and
10x and the 1,095 small archives, and ingests each set into a fresh store on
either engine, REPS times (default 5), rotating which side goes first. Per
case it prints the medians of: SQLite's process CPU (user + system,
os.wait4), benchdb's CPU into PostgreSQL, the server's CPU for it (the
postmaster's cutime + cstime grown while benchdb ran: its backend, which
has exited by then), and the ratio (PostgreSQL's client + server) / SQLite;
then, from the same runs, the wall times and their ratio (the median of the
repetitions' ratios), so that the two ratios compare under the same load.
With PG_CPU_BEFORE=PATH another benchdb (an earlier build) ingests into
PostgreSQL in the same rotation, and its ratio is printed beside: before
and after under the same load (PG_CPU_BEFORE_SCHEMA=N: into a store at
schema version N, the one that build knows). With PG_CPU_VARIANT_SQL=SQL
the same benchdb ingests, in the same rotation, into a store that SQL
changed after its migrations (an index dropped, a trigger, a setting:
what a piece of the schema costs, bench/pg-ingest.md), its ratio printed
as "variant". PG_CPU_ONLY=1x,small picks the cases; PG_CPU_ONLY=100x
(500 iterations a series, by name only) the one whose series' values
pass PostgreSQL's 2 kB TOAST threshold as one array.
"""
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pg_bench  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def children_cpu(pid):
    """Seconds of CPU of pid's waited-for children (cutime + cstime)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / TICK


def children(pid):
    """The pids whose parent is pid."""
    out = set()
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                with open(f"/proc/{e}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.add(int(e))
            except (OSError, ValueError):
                pass
    return out


def settle(pid, aux):
    """Waits until pid's only children are aux (its auxiliary processes):
    every backend exited and reaped, so its CPU is in cutime."""
    for _ in range(2000):
        if children(pid) <= aux:
            return
        time.sleep(0.005)
    raise SystemExit("a backend did not exit")


def run_cpu(args, env, wall=None):
    """User + system seconds of the process tree of args; its wall time
    appended to the list wall when given."""
    t = time.perf_counter()
    p = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if wall is not None:
        wall.append(time.perf_counter() - t)
    if status != 0:
        raise SystemExit(f"{' '.join(args)} failed ({status})")
    return ru.ru_utime + ru.ru_stime


def cluster_dir(pg):
    """Where cluster.sh put the cluster's data and log: its directory, or
    the one DIR/base names."""
    if os.path.isfile(os.path.join(pg.dir, "base")):
        with open(os.path.join(pg.dir, "base")) as f:
            return f.read().strip()
    return pg.dir


def postmaster_pid(pg):
    with open(os.path.join(cluster_dir(pg), "data", "postmaster.pid")) as f:
        return int(f.readline())


def main():
    build = os.path.abspath(sys.argv[1])
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    bd = os.path.join(build, "benchdb")
    before = os.environ.get("PG_CPU_BEFORE")
    before_schema = int(os.environ.get("PG_CPU_BEFORE_SCHEMA", "9999"))
    variant = os.environ.get("PG_CPU_VARIANT_SQL")
    pg, base = pg_bench.quiet_cluster(build, "pg-cpu-")
    try:
        postmaster = postmaster_pid(pg)
        time.sleep(1)
        aux = children(postmaster)
        sets = {}
        only = os.environ.get("PG_CPU_ONLY")
        for name, extra in (("1x", []), ("10x", ["--iterations", "50"]),
                            ("small", ["--history", "365", "--hosts", "3", "--cells", "5"]),
                            ("100x", ["--iterations", "500"])):
            if name == "100x" and not (only and name in only.split(",")):
                continue  # asked for by name only
            d = os.path.join(base, name)
            subprocess.run([bd, "simulate", "-q"] + extra + [d], check=True, stdout=subprocess.DEVNULL)
            sets[name] = d
        lite = os.path.join(base, "lite.db")
        for name, d in sets.items():
            if only and name not in only.split(","):
                continue
            got = {"lite": [], "client": [], "server": [], "ratio": [], "before": [], "variant": []}
            walls = {"lite": [], "pg": [], "before": [], "variant": []}
            sides = ["lite", "pg"] + (["before"] if before else []) + (["variant"] if variant else [])
            for rep in range(reps):
                one = {}
                for side in sides[rep % len(sides):] + sides[:rep % len(sides)]:
                    if side == "lite":
                        for f in (lite, lite + "-wal", lite + "-shm"):
                            if os.path.exists(f):
                                os.remove(f)
                        subprocess.run([bd, "--db", lite, "init"], check=True, stdout=subprocess.DEVNULL)
                        one["lite"] = run_cpu([bd, "--db", lite, "ingest", "-q", d], pg.env, walls["lite"])
                    else:
                        pg.newdb("ingest", before_schema if side == "before" else 9999)
                        if side == "variant":
                            pg.sql("ingest", variant)
                        settle(postmaster, aux)  # the set-up's backends out of the count
                        t0 = children_cpu(postmaster)
                        client = run_cpu([before if side == "before" else bd, "--db", pg.uri("ingest"), "ingest", "-q", d],
                                         pg.env, walls[side])
                        settle(postmaster, aux)
                        if side == "pg":
                            one["client"], one["server"] = client, children_cpu(postmaster) - t0
                        else:
                            one[side] = client + children_cpu(postmaster) - t0
                for k in ("lite", "client", "server"):
                    got[k].append(one[k])
                got["ratio"].append((one["client"] + one["server"]) / one["lite"])
                for side in sides[2:]:
                    got[side].append(one[side] / one["lite"])
            m = {k: statistics.median(v) if v else 0 for k, v in got.items()}
            wall_ratio = statistics.median(b / a for a, b in zip(walls["lite"], walls["pg"]))
            print(f"{name}: SQLite {m['lite']:.3f} s CPU; PostgreSQL client {m['client']:.3f} s + server "
                  f"{m['server']:.3f} s; (client+server)/SQLite {m['ratio']:.2f} "
                  f"(each: {', '.join(f'{r:.2f}' for r in got['ratio'])})"
                  + "".join(f"; {side}: {m[side]:.2f} (each: {', '.join(f'{r:.2f}' for r in got[side])})"
                            for side in sides[2:])
                  + f"; wall: SQLite {statistics.median(walls['lite']):.3f} s, PostgreSQL "
                  f"{statistics.median(walls['pg']):.3f} s, PostgreSQL/SQLite {wall_ratio:.2f}"
                  + "".join(f", {side} {statistics.median(b / a for a, b in zip(walls['lite'], walls[side])):.2f}"
                            for side in sides[2:]), flush=True)
    finally:
        pg.stop()
        subprocess.run(["rm", "-rf", base])


if __name__ == "__main__":
    main()
