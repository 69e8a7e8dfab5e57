"""Figure 11 of `make bench` (bench/README.md): the stores, the placement
rule and `compare` of the SQLite figures 4, 7 and 9 on PostgreSQL (issue
19, item 7).

A throwaway cluster started as the tests start theirs (tests/pg/cluster.sh,
build/pgroot's server with benchstats, a free loopback port, durability
off) with the settings of CONF added; databases made by tests/pg/lib.sh
(pg_newdb, then pg_migrate: migrations/postgresql); the SQLite stores of
the other figures copied in by tests/pg/store.py (COPY): a copy, fast to
set up, labelled so. `benchdb ingest` itself is timed into PostgreSQL
against SQLite on the default plan's archives (1x and 10x), and
`benchdb compare` as a whole process on a server. After
VACUUM (ANALYZE), bench/pg_query runs the saved queries over libpq as a
client would (a process that connects, checks the query's needs and runs
it with its parameters bound; nothing recorded).

Never fails: a cluster that cannot start is a row saying why.
"""
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

FIG = "11 PostgreSQL"
# Added to the test cluster's postgresql.conf (which has fsync,
# synchronous_commit and full_page_writes off): memory for a 2.6 GB store
# on a machine of 2 cores and 23 GiB, no checkpoint during the load, no
# WAL kept for replicas, SSD costs.
CONF = ["shared_buffers = 1GB", "effective_cache_size = 4GB", "work_mem = 64MB", "maintenance_work_mem = 512MB",
        "max_wal_size = 8GB", "checkpoint_timeout = 30min", "wal_level = minimal", "max_wal_senders = 0",
        "random_page_cost = 1.1"]
# Stored tables whose full scan in the rule's plan would grow with the store.
STORED = ("series", "sample", "block_score_data", "run_cell_data", "history_point_data", "run", "archive",
          "archive_chunk")


class Cluster:
    def __init__(self, build, src, base):
        self.build, self.src, self.dir = build, src, os.path.join(base, "pg-cluster")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        self.env.update(BENCHDB_PGROOT=os.path.join(build, "pgroot"), BENCHDB_PG_CLUSTER=self.dir,
                        BENCHDB_SRC=src, BENCHDB_PG_CONF="\n".join(CONF))
        self.started = False

    def start(self):
        """None, or why the cluster cannot start."""
        if not os.path.isdir(self.env["BENCHDB_PGROOT"]):
            return f"no {self.env['BENCHDB_PGROOT']} (benchdb configured with -DBENCHDB_POSTGRESQL=OFF?)"
        pg_config = None
        with open(os.path.join(self.build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("PG_CONFIG:"):
                    pg_config = line.split("=", 1)[1].strip()
        try:
            bindir = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True,
                                    check=True).stdout.strip()
        except (TypeError, OSError, subprocess.CalledProcessError) as e:
            return f"no pg_config ({e})"
        self.psql = self.env["BENCHDB_PSQL"] = os.path.join(bindir, "psql")
        p = subprocess.run(["sh", os.path.join(self.src, "tests", "pg", "cluster.sh"), "start", self.dir],
                           env=self.env, capture_output=True, text=True)
        self.started = True
        if p.returncode != 0:
            return "the cluster did not start: " + " / ".join(p.stderr.strip().splitlines()[-3:])
        with open(os.path.join(self.dir, "env")) as f:
            self.env.update(line.strip().split("=", 1) for line in f if "=" in line)
        self.version = p.stdout.split(": ", 1)[-1].split(" on ")[0]
        return None

    def stop(self):
        if self.started:
            subprocess.run(["sh", os.path.join(self.src, "tests", "pg", "cluster.sh"), "stop", self.dir],
                           env=self.env, capture_output=True)

    def conninfo(self, db):
        return f"host={self.env['PGHOST']} port={self.env['PGPORT']} user={self.env['PGUSER']} dbname={db}"

    def uri(self, db):
        return f"postgresql://{self.env['PGUSER']}@{self.env['PGHOST']}:{self.env['PGPORT']}/{db}"

    def sql(self, db, statement):
        return subprocess.run([self.psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", db, "-c",
                               statement], env=self.env, capture_output=True, text=True, check=True).stdout.strip()

    def newdb(self, db, version=9999):
        """A database as benchdb wants one, at the schema of migrations/postgresql (up to version)."""
        subprocess.run(["sh", "-c", '. "$BENCHDB_SRC/tests/pg/lib.sh" && pg_newdb "$1" >/dev/null && pg_migrate "$1" "$2"',
                        "sh", db, str(version)], env=self.env, check=True, stdout=subprocess.DEVNULL)

    def copy(self, sqlite_db, db, derived):
        """Seconds copying sqlite_db's rows into db, then seconds of VACUUM (ANALYZE)."""
        t = time.perf_counter()
        subprocess.run([sys.executable, os.path.join(self.src, "tests", "pg", "store.py"),
                        "copy-derived" if derived else "copy", sqlite_db, db], env=self.env, check=True)
        tc = time.perf_counter() - t
        t = time.perf_counter()
        self.sql(db, "VACUUM (ANALYZE)")
        return tc, time.perf_counter() - t

    def size(self, db):
        """Bytes of the tables of the store, their indexes and TOAST included."""
        return int(self.sql(db, "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class AS c "
                                "JOIN pg_namespace AS n ON n.oid = c.relnamespace "
                                "WHERE n.nspname = 'public' AND c.relkind = 'r'"))


def quiet_cluster(build, prefix):
    """A throwaway cluster under build (autovacuum off, so that CPU is
    measured without it), started: (cluster, its base directory)."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    base = tempfile.mkdtemp(prefix=prefix, dir=build)
    pg = Cluster(build, src, base)
    pg.env["BENCHDB_PG_CONF"] += "\nautovacuum = off"
    why = pg.start()
    if why:
        raise SystemExit(why)
    return pg, base


def query(prog, conninfo, warm, args):
    """(process seconds, connect, first run, [warm runs]) of bench/pg_query."""
    t = time.perf_counter()
    out = subprocess.run([prog, conninfo, str(warm), *args], capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t
    got = {"connect": [], "first": [], "warm": []}
    for line in out.splitlines():
        kind, secs = line.split()[:2]
        got.setdefault(kind, []).append(float(secs))
    return wall, got["connect"][0], got["first"][0], got["warm"]


def sqlite_size(path):
    """Bytes of an SQLite store's pages after a checkpoint, as figure 7 counts them."""
    with sqlite3.connect(path) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return c.execute("PRAGMA page_count").fetchone()[0] * c.execute("PRAGMA page_size").fetchone()[0]


def ms(x):
    return f"{x * 1000:.1f} ms"


def figure(build, src, data, plan_stores, refs, cmp_db, row, reps):
    """plan_stores: the SQLite stores of 1, 100 and 1,000 plans (figure 4);
    refs: the default plan's stores by size (figure 7); cmp_db: figure 9's
    two runs of 1,000 cells x 10 values; row: run.py's row()."""
    t0 = time.perf_counter()
    prog = os.path.join(build, "bench", "pg_query")
    pg = Cluster(build, src, data)
    try:
        problem = pg.start()
        if problem:
            row(FIG, "a throwaway cluster (tests/pg/cluster.sh)", f"not measured: {problem}")
        else:
            measure(pg, prog, plan_stores, refs, cmp_db, row, reps)
    except (OSError, subprocess.CalledProcessError) as e:
        why = (getattr(e, "stderr", None) or "").strip().splitlines()
        row(FIG, "measuring", f"stopped: {e}" + (f": {why[-1]}" if why else ""))
    finally:
        pg.stop()
        shutil.rmtree(pg.dir, ignore_errors=True)
    row(FIG, "this figure's wall time (cluster started, stores copied, measured, stopped)",
        f"{time.perf_counter() - t0:.0f} s")


def measure(pg, prog, plan_stores, refs, cmp_db, row, reps):
    row(FIG, "the server", f"{pg.version}, loopback TCP; test cluster's settings (fsync, synchronous_commit, "
        f"full_page_writes off) and {', '.join(CONF)}")
    # ---- the stores of 1, 100 and 1,000 plans, copied ----
    labels = ["1 plan", "100 plans", "1,000 plans"]
    dbs = ["plans1", "plans100", "plans1000"]
    for db, store in zip(dbs, plan_stores):
        pg.newdb(db)
        tc, tv = pg.copy(store, db, derived=True)  # the last: the 1,000-plan store
    lite = sqlite_size(plan_stores[2])
    size = pg.size(dbs[2])
    nval = int(pg.sql(dbs[2], "SELECT count(*) FROM sample"))
    row(FIG, "the 1,000-plan store (figure 4's) on PostgreSQL",
        f"copied in {tc:.0f} s (every table by COPY through store.py copy-derived, the derived ones included, "
        f"triggers and foreign-key checks off: a copy, not benchdb ingest), VACUUM (ANALYZE) {tv:.0f} s; "
        f"{size / 1e9:.2f} GB, {size / nval:.0f} B per stored value (SQLite {lite / 1e9:.2f} GB, "
        f"{lite / nval:.0f} B; one value per series here)")

    # ---- placement-rule on one plan, in each store ----
    rule = ["placement-rule", "plan=calibration-sim"]
    got = {k: [] for k in labels}
    for rep in range(reps):
        k = rep % 3
        for label, db in (list(zip(labels, dbs))[k:] + list(zip(labels, dbs))[:k]):
            got[label].append(query(prog, pg.conninfo(db), 0, rule))
    for label in labels:
        w = statistics.median(g[0] for g in got[label])
        c = statistics.median(g[1] for g in got[label])
        f = statistics.median(g[2] for g in got[label])
        row(FIG, f"placement-rule on one plan, {label} stored: a client process (connect, needs, rule, rows; "
            "not recorded)", f"{ms(w)} (connect {ms(c)}, needs and rule {ms(f)})", "< 50 ms", w < 0.05)
    flat = statistics.median(b[0] / a[0] for a, b in zip(got[labels[0]], got[labels[2]]))
    row(FIG, "flat: 1,000 plans / 1 plan", f"{flat:.2f}", "<= 1.25", flat <= 1.25)
    warm = [statistics.median(query(prog, pg.conninfo(db), reps, rule)[3]) for db in dbs]
    plan = subprocess.run([prog, "--explain", pg.conninfo(dbs[2]), *rule], capture_output=True, text=True,
                          check=True).stdout
    times = dict(re.findall(r"(Planning|Execution) Time: ([0-9.]+) ms", plan))
    row(FIG, "the same on an open connection (1 / 100 / 1,000 plans)",
        " / ".join(ms(w) for w in warm) + f"; of which planning {times.get('Planning', '?')} ms and execution "
        f"{times.get('Execution', '?')} ms (EXPLAIN ANALYZE, 1,000 plans)")
    full = sorted({m for m in re.findall(r"Seq Scan on (\w+)", plan) if m in STORED})
    row(FIG, "full scans of stored tables in the rule's plan, 1,000 plans", "none" if not full else ", ".join(full),
        "none", not full)

    # ---- compare of 1,000 cells ----
    pg.newdb("compare")
    pg.copy(cmp_db, "compare", derived=False)
    cmp = ["compare", "plan=builds", "a=base", "b=head"]
    got = [query(prog, pg.conninfo("compare"), 0, cmp) for _ in range(reps)]
    w = statistics.median(g[0] for g in got)
    warm = statistics.median(query(prog, pg.conninfo("compare"), reps, cmp)[3])
    row(FIG, "the saved query compare of two runs of 1,000 cells x 10 values (figure 9's): a client process",
        f"{ms(w)} (connect {ms(statistics.median(g[1] for g in got))}, query "
        f"{ms(statistics.median(g[2] for g in got))}; on an open connection {ms(warm)})", "< 100 ms", w < 0.1)

    # ---- benchdb compare on the server: the whole process ----
    bd = os.path.join(pg.build, "benchdb")
    ct = []
    for _ in range(reps):
        t = time.perf_counter()
        subprocess.run([bd, "--db", pg.uri("compare"), "compare", "--plan", "builds", "base", "head", "--no-record"],
                       env=pg.env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ct.append(time.perf_counter() - t)
    w = statistics.median(ct)
    row(FIG, "`benchdb --db postgresql://... compare --no-record` of the same 1,000 cells (whole process)",
        ms(w), "< 100 ms", w < 0.1)

    # ---- benchdb ingest into PostgreSQL against SQLite, the same archives ----
    # One writer (one `benchdb ingest` of the directory), then two writers
    # at once, each given every other archive: CI runners writing into one
    # store, the case a server is for. The same on both engines.
    lite_db = os.path.join(pg.dir, "..", "pg-vs-lite.db")

    def fresh(side):
        if side == "pg":
            pg.newdb("ingest")
            return pg.uri("ingest")
        for f in (lite_db, lite_db + "-wal", lite_db + "-shm"):
            if os.path.exists(f):
                os.remove(f)
        subprocess.run([bd, "--db", lite_db, "init"], check=True, stdout=subprocess.DEVNULL)
        return lite_db

    def ingest(target, groups):
        t = time.perf_counter()
        procs = [subprocess.Popen([bd, "--db", target, "ingest", "-q"] + g, env=pg.env) for g in groups]
        for pr in procs:
            if pr.wait() != 0:
                raise SystemExit(f"benchdb ingest into {target} failed")
        return time.perf_counter() - t

    for name in [n for n in ("1x", "10x") if n in refs]:
        r = refs[name]
        files = sorted(os.path.join(r["dir"], f) for f in os.listdir(r["dir"]))
        for writers, groups in (("one writer", [[r["dir"]]]), ("two writers at once", [files[0::2], files[1::2]])):
            times = {"sqlite": [], "pg": []}
            for rep in range(reps):  # alternating which side goes first
                for side in (("sqlite", "pg") if rep % 2 == 0 else ("pg", "sqlite")):
                    times[side].append(ingest(fresh(side), groups))
            ratio = statistics.median(a / b for a, b in zip(times["sqlite"], times["pg"]))
            tp = statistics.median(times["pg"])
            row(FIG, f"{name}, {writers}: `benchdb ingest` into PostgreSQL over loopback",
                f"{r['values'] / tp / 1e6:.3f} M values/s ({tp:.2f} s; SQLite {statistics.median(times['sqlite']):.2f} s)")
            row(FIG, f"{name}, {writers}: ingest rate, PostgreSQL / SQLite", f"{ratio:.2f}", ">= 0.5", ratio >= 0.5)

    # Small archives: a year of nightly runs on three hosts, one archive of
    # 5 cells each (1,095 archives), one writer; what costs here is the
    # work per archive (a transaction, its statements, the derived rows).
    small = os.path.join(pg.dir, "..", "pg-small-archives")
    if not os.path.isdir(small):
        subprocess.run([bd, "simulate", "-q", "--history", "365", "--hosts", "3", "--cells", "5", small],
                       check=True, stdout=subprocess.DEVNULL)
    times = {"sqlite": [], "pg": []}
    for rep in range(reps):
        for side in (("sqlite", "pg") if rep % 2 == 0 else ("pg", "sqlite")):
            times[side].append(ingest(fresh(side), [[small]]))
    ratio = statistics.median(b / a for a, b in zip(times["sqlite"], times["pg"]))
    row(FIG, f"{len(os.listdir(small)):,} small archives (`simulate --history 365 --hosts 3 --cells 5`), one writer: "
        "time on PostgreSQL / SQLite", f"{ratio:.1f}x ({statistics.median(times['pg']):.2f} s; SQLite "
        f"{statistics.median(times['sqlite']):.2f} s)", "<= 3x", ratio <= 3)

    # ---- store size per value: the default plan's stores of figure 7 ----
    for name, r in refs.items():
        db = "size" + name
        pg.newdb(db)
        tc, _ = pg.copy(r["ref"], db, derived=False)
        size = pg.size(db)
        lite = sqlite_size(r["ref"])
        row(FIG, f"{name}: bytes per stored value (figure 7's store)",
            f"{size / r['values']:.1f} B/value ({size / 1e6:.1f} MB for {r['values']:,} values; SQLite "
            f"{lite / r['values']:.1f}); copied with the derived tables made by PostgreSQL's triggers in "
            f"{tc:.2f} s ({r['values'] / tc / 1e6:.2f} M values/s; a copy, not benchdb ingest)")
