"""Figure 14 of `make bench` (bench/README.md): `benchdb copy` of the
1,000-plan store of figure 4 into a new SQLite file and into PostgreSQL,
against each destination's own ingest rate on archives of the same shape
(docs/copy.md). Rates count stored values (`sample` rows).

SQLite's ingest rate is plan_stores' own: the 999 plans' archives ingested
to build the store. PostgreSQL's: `benchdb ingest` of PG_PLANS plans
simulated as plan_stores simulates them (one archive of 12 runs each) into
a fresh store on a throwaway cluster (pg_bench.Cluster). Each copy runs
once (the PostgreSQL one takes minutes); the copies are whole processes,
`benchdb copy -q`, each into an empty destination.

Never fails: a cluster that cannot start is a row saying why.
"""
import os
import shutil
import sqlite3
import subprocess
import time

import pg_bench

FIG = "15 copy"
PG_PLANS = 100


def sim_plans(bd, out, first, n):
    """n plans as plan_stores makes them, one archive each, in out."""
    os.makedirs(out, exist_ok=True)
    for i in range(first, first + n):
        d = os.path.join(out, f"{i:04d}")
        subprocess.run([bd, "simulate", "-q", "--iterations", "1", "--warmups", "0", "--forks", "1", "--plan",
                        f"copy-{i:04d}", "--seed", str(i + 5000), d], check=True, stdout=subprocess.DEVNULL)
        with open(d + ".jsonl.zst", "wb") as o:
            for f in sorted(os.listdir(d)):
                with open(os.path.join(d, f), "rb") as src:
                    o.write(src.read())
        shutil.rmtree(d)
    return [os.path.join(out, f) for f in sorted(os.listdir(out))]


def values(store):
    with sqlite3.connect(store) as c:
        return c.execute("SELECT count(*) FROM sample").fetchone()[0]


def timed(cmd, env=None):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def figure(build, src, data, s1000, ingest, row, quick=False):
    """ingest: {'seconds', 'values'} of plan_stores' ingest into SQLite."""
    lite_figure(build, data, s1000, ingest, row)
    pg_figure(build, src, data, s1000, row, quick)


def lite_figure(build, data, s1000, ingest, row):
    bd = os.path.join(build, "benchdb")
    nval = values(s1000)
    lite_rate = ingest["values"] / ingest["seconds"]
    dest = os.path.join(data, "copy-dest.db")
    t = timed([bd, "--db", s1000, "copy", "-q", dest])
    rate = nval / t
    row(FIG, f"`benchdb copy` of the {nval:,}-value store (figure 4's 1,000 plans) into a new SQLite file",
        f"{t:.1f} s, {rate / 1e6:.2f} M values/s; SQLite's ingest of the same plans {lite_rate / 1e6:.2f} M values/s "
        f"({ingest['values']:,} values in {ingest['seconds']:.1f} s)")
    row(FIG, "copy into SQLite / SQLite's ingest rate", f"{rate / lite_rate:.2f}", ">= 0.5", rate / lite_rate >= 0.5)
    os.remove(dest)


def pg_figure(build, src, data, s1000, row, quick=False):
    bd = os.path.join(build, "benchdb")
    nval = values(s1000)
    pg = pg_bench.Cluster(build, src, data)
    why = pg.start()
    try:
        if why:
            row(FIG, "PostgreSQL", f"not measured: {why}")
            return
        files = sim_plans(bd, os.path.join(data, "copy-plans"), 1, 10 if quick else PG_PLANS)
        pg.sql("postgres", "CREATE DATABASE ingest TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        subprocess.run([bd, "--db", pg.uri("ingest"), "init"], check=True, env=pg.env, stdout=subprocess.DEVNULL)
        ti = timed([bd, "--db", pg.uri("ingest"), "ingest", "-q"] + files, env=pg.env)
        nin = int(pg.sql("ingest", "SELECT count(*) FROM sample"))
        pg_rate = nin / ti
        shutil.rmtree(os.path.join(data, "copy-plans"), ignore_errors=True)
        pg.sql("postgres", "CREATE DATABASE copy TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'")
        tc = timed([bd, "--db", s1000, "copy", "-q", pg.uri("copy")], env=pg.env)
        rate = nval / tc
        row(FIG, f"`benchdb copy` of the same store into PostgreSQL ({pg.version}, loopback)",
            f"{tc:.1f} s, {rate / 1e6:.3f} M values/s; PostgreSQL's ingest of {len(files)} such plans "
            f"{pg_rate / 1e6:.3f} M values/s ({nin:,} values in {ti:.1f} s)")
        row(FIG, "copy into PostgreSQL / PostgreSQL's ingest rate", f"{rate / pg_rate:.2f}", ">= 0.5",
            rate / pg_rate >= 0.5)
    finally:
        pg.stop()
