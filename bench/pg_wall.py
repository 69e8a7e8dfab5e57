"""Where the wall time of `benchdb ingest` into PostgreSQL goes (bench/README.md,
figure 11; docs/postgresql.md, "ingest").

    python3 bench/pg_wall.py BUILD [REPS]

Starts a throwaway cluster as pg_cpu.py does (figure 11's settings,
autovacuum off), makes the same three sets of archives (the default plan at
1x and 10x, the 1,095 small archives) and ingests each REPS times (default
3) into a fresh store under `perf sched record -a`. From the scheduler's
switches and wake-ups it follows benchdb's main thread and the ingest's
backend, each running, runnable (waiting for a CPU) or sleeping, and prints
per case (medians): the wall time; the time before the backend exists
(process start, loading libpq, the connection's first packets); over the
backend's life, the time in each pair of states (client, backend): "both
sleeping" is what round trips and stalls cost beyond the work (a wake-up's
latency, a full socket buffer), "client sleeps, backend runs" the server's
work the client waits for, "client runs, backend sleeps" the client's work
the server waits for, and either "runnable" the other processes of the
machine in the way; then the backend's CPU and minor page faults and
benchdb's CPU; and, from one more ingest with every statement's duration
in the server's log, where the backend's time goes by statement, the
first archive's (the new backend's warm-up) apart. Needs perf and the right to trace the scheduler (root, or
kernel.perf_event_paranoid <= -1).
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

SWITCH = re.compile(r"prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=.* next_pid=(\d+)")
WAKE = re.compile(r" pid=(\d+) prio=")
FORK = re.compile(r" pid=(\d+) child_comm=.* child_pid=(\d+)")
RUNTIME = re.compile(r" pid=(\d+) runtime=(\d+)")


def postmaster_stat(pid):
    """(children's minor faults, children's CPU seconds) of the postmaster."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[8]), (int(fields[13]) + int(fields[14])) / pg_cpu.TICK


RANK = {"none": 0, "sleeping": 1, "runnable": 2, "running": 3}


def states(data, client, pm):
    """Seconds per (client state, backend state) from the client's start to
    its exit, that length and benchdb's CPU. The client is benchdb's
    threads together: running when one runs, else runnable when one waits
    for a CPU, else sleeping. The backend (the postmaster's child forked
    while the client ran) is 'none' before it exists and after it exits."""
    out = subprocess.run(["perf", "script", "-i", data, "-F", "time,event,trace"], capture_output=True,
                         text=True).stdout.splitlines()
    forks = [m for m in (FORK.search(line) for line in out if "process_fork" in line) if m]
    backends = [int(m.group(2)) for m in forks if int(m.group(1)) == pm]
    if len(backends) != 1:
        raise SystemExit(f"expected one backend for the ingest, the postmaster forked {backends}")
    backend = backends[0]
    mine = {client}  # benchdb's threads (its clones, in the order made)
    for m in forks:
        if int(m.group(1)) in mine:
            mine.add(int(m.group(2)))
    cpu = sum(int(m.group(2)) for m in (RUNTIME.search(line) for line in out if "stat_runtime" in line)
              if m and int(m.group(1)) in mine) / 1e9
    events = []
    for line in out:
        parts = line.split(None, 2)
        if len(parts) < 3:
            continue
        t, ev, tr = float(parts[0].rstrip(":")), parts[1].rstrip(":"), parts[2]
        if ev == "sched:sched_switch":
            m = SWITCH.search(tr)
            if m:
                prev, state, nxt = int(m.group(1)), m.group(2), int(m.group(3))
                # R: preempted, still runnable; X or Z: gone
                events.append((t, prev, "none" if state[0] in "XZ" else "runnable" if state[0] == "R" else "sleeping"))
                events.append((t, nxt, "running"))
        elif ev in ("sched:sched_waking", "sched:sched_wakeup_new"):
            m = WAKE.search(tr)
            if m:
                events.append((t, int(m.group(1)), "runnable"))
    events = [e for e in events if e[1] in mine or e[1] == backend]
    events.sort(key=lambda e: e[0])
    life = [t for t, p, _ in events if p in mine]
    if not life or not any(p == backend for _, p, _ in events):
        raise SystemExit("perf recorded no switch of benchdb or its backend")
    cur = {tid: "none" for tid in mine}
    cur[client], cur[backend] = "running", "none"
    last, acc = life[0], {}
    for t, p, s in events:
        if t > life[-1]:
            break
        if t > last:
            c = max((cur[tid] for tid in mine), key=RANK.get)
            key = ("sleeping" if c == "none" else c, cur[backend])
            acc[key] = acc.get(key, 0) + t - last
            last = t
        cur[p] = s
    return acc, life[-1] - life[0], cpu


def one(pg, pm, aux, bd, d, work):
    """One ingest under perf sched: (benchdb's life, states, backend CPU,
    faults, benchdb's CPU)."""
    pg.newdb("ingest")
    pg_cpu.settle(pm, aux)
    f0, c0 = postmaster_stat(pm)
    data, pidfile = os.path.join(work, "sched.data"), os.path.join(work, "pid")
    p = subprocess.Popen(["perf", "sched", "record", "-a", "-o", data, "--", "sh", "-c",
                          'echo $$ >"$0"; exec "$@"', pidfile, bd, "--db", pg.uri("ingest"), "ingest", "-q", d],
                         env=pg.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    status = p.wait()
    if status != 0:
        raise SystemExit(f"perf sched record of benchdb ingest {d} failed ({status})")
    pg_cpu.settle(pm, aux)
    f1, c1 = postmaster_stat(pm)
    with open(pidfile) as f:
        client = int(f.read())
    acc, span, cpu = states(data, client, pm)
    return span, acc, c1 - c0, f1 - f0, cpu


LOGGED = re.compile(r"^(\S+ \S+) UTC \[(\d+)\] LOG:  duration: ([\d.]+) ms  (statement|parse|bind|execute)"
                    r"(?: <unnamed>)?: (.*)")


def statements(pg, where, bd, d):
    """One more ingest with every statement's duration logged
    (log_min_duration_statement = 0 for the database, so the ingest's
    session alone): per statement, ms over all archives and in the first
    (the backend's warm-up), and the ms from the connection to the first
    BEGIN. Parse, bind and execute add up; the series' ids and both COPYs
    are one text, its time the client's sending included."""
    pg.newdb("ingest")
    pg.sql("ingest", "ALTER DATABASE ingest SET log_min_duration_statement = 0")
    log = os.path.join(where, "server.log")
    at = os.path.getsize(log)
    subprocess.run([bd, "--db", pg.uri("ingest"), "ingest", "-q", d], env=pg.env, check=True,
                   stdout=subprocess.DEVNULL)
    time.sleep(0.5)
    with open(log, errors="replace") as f:
        f.seek(at)
        lines = [m for m in map(LOGGED.match, f) if m]
    pid = next((m.group(2) for m in lines if m.group(5).startswith("BEGIN")), None)
    lines = [m for m in lines if m.group(2) == pid]
    if not lines:
        return "no statement logged"
    total, first, archive = {}, {}, 0
    for m in lines:
        text = m.group(5)
        archive += text.startswith("BEGIN") and m.group(4) in ("statement", "parse")
        key = re.sub(r"\s+", " ", text)[:60]
        total[key] = total.get(key, 0) + float(m.group(3))
        if archive <= 1:
            first[key] = first.get(key, 0) + float(m.group(3))
    stamp = [time.mktime(time.strptime(m.group(1)[:19], "%Y-%m-%d %H:%M:%S")) + float(m.group(1)[19:] or 0)
             for m in lines]
    begin = next(i for i, m in enumerate(lines) if m.group(5).startswith("BEGIN"))
    out = [f"  statements ({archive} transactions): {sum(total.values()):.1f} ms logged, the first "
           f"{sum(first.values()):.1f} ms (before its COMMIT's end: set-up and the first archive); the session's "
           f"first statement to its first BEGIN {1000 * (stamp[begin] - stamp[0]):.0f} ms"]
    for k, v in sorted(total.items(), key=lambda kv: -kv[1])[:8]:
        out.append(f"    {v:8.1f} ms (first {first.get(k, 0):6.1f})  {k}")
    return "\n".join(out)


def main():
    build = os.path.abspath(sys.argv[1])
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    bd = os.path.join(build, "benchdb")
    pg, base = pg_bench.quiet_cluster(build, "pg-wall-")
    try:
        where = pg_cpu.cluster_dir(pg)
        pm = pg_cpu.postmaster_pid(pg)
        time.sleep(1)
        aux = pg_cpu.children(pm)
        work = tempfile.mkdtemp(dir=base)
        for name, extra in (("1x", []), ("10x", ["--iterations", "50"]),
                            ("small", ["--history", "365", "--hosts", "3", "--cells", "5"])):
            d = os.path.join(base, name)
            subprocess.run([bd, "simulate", "-q"] + extra + [d], check=True, stdout=subprocess.DEVNULL)
            runs = [one(pg, pm, aux, bd, d, work) for _ in range(reps)]
            med = lambda f: statistics.median(f(r) for r in runs)  # noqa: E731
            keys = sorted({k for r in runs for k in r[1]} | {("sleeping", "sleeping")},
                          key=lambda k: -med(lambda r: r[1].get(k, 0)))
            print(f"{name}: wall {med(lambda r: r[0]):.3f} s (benchdb's life); backend CPU "
                  f"{med(lambda r: r[2]):.3f} s, {med(lambda r: r[3]):.0f} minor page faults; benchdb CPU "
                  f"{med(lambda r: r[4]):.3f} s", flush=True)
            for k in keys:
                print(f"  client {k[0]:9s} backend {k[1]:9s} {med(lambda r: r[1].get(k, 0)) * 1000:8.1f} ms")
            print(statements(pg, where, bd, d), flush=True)
    finally:
        pg.stop()
        subprocess.run(["rm", "-rf", base])


if __name__ == "__main__":
    main()
