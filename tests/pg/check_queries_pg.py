#!/usr/bin/python3
"""Runs the saved queries compare, versions and variability on a throwaway
PostgreSQL 15 cluster (as tools/gen/pg/gen_fn_portable.py starts one) holding a
copy of a benchdb store's tables, with the statistics functions replaced by
SQL stand-ins of the same signatures (their numbers are not benchdb's).
What it checks is that the queries' SQL parses and runs on PostgreSQL too
(docs/portable-sql.md), with every choice
of by, sample, adjust, exact_units, aggregate and sort. Not part of make
test: it needs PostgreSQL 15 and root (or the postgres user).

Run from the source root after make:
  /usr/bin/python3 tests/pg/check_queries_pg.py build/benchdb
"""
import json, os, shutil, sqlite3, subprocess, sys, tempfile
from pathlib import Path

PG = Path("/usr/lib/postgresql/15/bin")
SRC = Path(__file__).resolve().parent.parent.parent
T = "CAST(NULL AS TEXT)"

def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        print(r.stdout, r.stderr)
        raise SystemExit("failed: %s" % cmd[:6])
    return r

STUBS = r"""
CREATE FUNCTION arr_step(s double precision[], x double precision) RETURNS double precision[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN x IS NULL THEN s ELSE array_append(s, x) END $$;
CREATE FUNCTION arr_step2(s double precision[], x double precision, p double precision) RETURNS double precision[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN x IS NULL THEN s ELSE array_append(s, x) END $$;
CREATE FUNCTION arr_stepi(s double precision[], x double precision, p integer) RETURNS double precision[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN x IS NULL THEN s ELSE array_append(s, x) END $$;
CREATE FUNCTION med(s double precision[]) RETURNS double precision LANGUAGE sql IMMUTABLE AS
  $$ SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY v) FROM unnest(s) v $$;
CREATE FUNCTION mci_final(s double precision[]) RETURNS json LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN cardinality(s) > 0 THEN json_build_object('center', med(s), 'lo', (SELECT min(v) FROM unnest(s) v),
     'hi', (SELECT max(v) FROM unnest(s) v), 'lo_order', 1, 'hi_order', cardinality(s), 'n', cardinality(s)) END $$;
CREATE AGGREGATE median_ci(double precision, double precision) (sfunc = arr_step2, stype = double precision[],
  finalfunc = mci_final, initcond = '{}');
CREATE AGGREGATE median(double precision) (sfunc = arr_step, stype = double precision[], finalfunc = med, initcond = '{}');
CREATE FUNCTION tm_final(s double precision[]) RETURNS double precision LANGUAGE sql IMMUTABLE AS
  $$ SELECT avg(v) FROM unnest(s) v $$;
CREATE AGGREGATE trimmed_mean(double precision, integer) (sfunc = arr_stepi, stype = double precision[],
  finalfunc = tm_final, initcond = '{}');
CREATE FUNCTION gm_final(s double precision[]) RETURNS double precision LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN cardinality(s) > 0 THEN exp(avg(ln(v))) END FROM unnest(s) v $$;
CREATE AGGREGATE geomean(double precision) (sfunc = arr_step, stype = double precision[], finalfunc = gm_final,
  initcond = '{}');
CREATE TYPE two AS (x double precision, g integer);
CREATE FUNCTION two_step(s two[], x double precision, g integer, m text) RETURNS two[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN x IS NULL OR g IS NULL THEN s ELSE array_append(s, ROW(x, g)::two) END $$;
CREATE FUNCTION two_stepd(s two[], x double precision, g integer, l double precision) RETURNS two[] LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN x IS NULL OR g IS NULL THEN s ELSE array_append(s, ROW(x, g)::two) END $$;
CREATE FUNCTION mw_final(s two[]) RETURNS json LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN count(*) FILTER (WHERE g = 1) > 0 AND count(*) FILTER (WHERE g = 0) > 0
     THEN json_build_object('u', 0, 'p', 0.5, 'n1', count(*) FILTER (WHERE g = 1), 'n2', count(*) FILTER (WHERE g = 0),
     'exact', true) END FROM unnest(s) $$;
CREATE AGGREGATE mann_whitney(double precision, integer, text) (sfunc = two_step, stype = two[], finalfunc = mw_final,
  initcond = '{}');
CREATE FUNCTION hl_final(s two[]) RETURNS json LANGUAGE sql IMMUTABLE AS
  $$ SELECT CASE WHEN count(*) FILTER (WHERE g = 1) > 0 AND count(*) FILTER (WHERE g = 0) > 0
     THEN json_build_object('estimate', 0, 'lo', -0.01, 'hi', 0.01, 'n1', count(*) FILTER (WHERE g = 1),
     'n2', count(*) FILTER (WHERE g = 0)) END FROM unnest(s) $$;
CREATE AGGREGATE hodges_lehmann(double precision, integer, double precision) (sfunc = two_stepd, stype = two[],
  finalfunc = hl_final, initcond = '{}');
"""

SCHEMA = """
CREATE TABLE plan (id bigint PRIMARY KEY, name text);
CREATE TABLE host (id bigint PRIMARY KEY, name text);
CREATE TABLE variant (id bigint PRIMARY KEY, name text);
CREATE TABLE benchmark (id bigint PRIMARY KEY, name text, params text);
CREATE TABLE unit (name text PRIMARY KEY, kind text, factor double precision, direction text);
CREATE TABLE run (id bigint PRIMARY KEY, plan_id bigint, name text, host_id bigint, position bigint, source text,
  attributes jsonb);
CREATE TABLE series (id bigint PRIMARY KEY, run_id bigint, benchmark_id bigint, block bigint, variant_id bigint,
  fork bigint, metric text, unit text, n bigint, total double precision);
CREATE TABLE sample (series_id bigint, warmup bigint, iteration bigint, value double precision, count bigint);
"""

def copy(con, table, cols):
    rows = con.execute("SELECT %s FROM %s" % (", ".join(cols), table)).fetchall()
    out = []
    for r in rows:
        vals = []
        for v in r:
            if v is None:
                vals.append("NULL")
            elif isinstance(v, (int, float)):
                vals.append(repr(float(v)) if isinstance(v, float) else str(v))
            else:
                vals.append("'" + str(v).replace("'", "''") + "'")
        out.append("(" + ", ".join(vals) + ")")
    sql = []
    for k in range(0, len(out), 500):
        sql.append("INSERT INTO %s (%s) VALUES %s;" % (table, ", ".join(cols), ", ".join(out[k:k + 500])))
    return "\n".join(sql)

def make_store(bd, tmp):
    """A store with two go-bench runs, git-perf, an exact unit and a small
    simulated plan of two hosts."""
    store = str(tmp / "store.db")
    D = SRC / "tests" / "data" / "benchstat"
    run([bd, "--db", store, "init"])
    for side, f in (("base", "old.txt"), ("head", "new.txt")):
        run([bd, "--db", store, "ingest", "-q", "--format", "go-bench", "--plan", "crc", "--run", side, "--host", "h",
             str(D / f)])
    run([bd, "--db", store, "ingest", "-q", str(SRC / "examples" / "git-perf"), str(D / "compare" / "units-before.jsonl"),
         str(D / "compare" / "units-after.jsonl")])
    run([bd, "simulate", "-q", "--plan", "hume", "--groups", "1", "--hosts", "2", "--positions", "3", "--cells", "2",
         "--blocks", "2", str(tmp / "sim")])
    run([bd, "--db", store, "ingest", "-q", str(tmp / "sim")])
    return store


def q(s):
    return "'" + s + "'"


BASE = dict(plan=q("crc"), a=q("base"), b=q("head"), by=q("run"), key=T, metric=T, sample=q("value"), level="0.95",
            alpha="0.05", method=q("benchstat"), adjust=q("none"), threshold="0", exact_units=T)
CASES = [
    ("compare.sql", BASE),
    ("compare.sql", dict(BASE, adjust=q("holm"), sample=q("run"), method=q("r"))),
    ("compare.sql", dict(BASE, adjust=q("bh"), sample=q("block"), method=q("exact"), metric=q("*"))),
    ("compare.sql", dict(BASE, plan=q("units"), a=q("before"), b=q("after"), exact_units=q("text-bytes"))),
    ("compare.sql", dict(BASE, plan=q("git-perf-p0001"), a=q("v2.18.0"), b=q("HEAD"), by=q("variant"))),
    ("compare.sql", dict(BASE, plan=q("hume"), a=q("protobuf-3"), b=q("x"), by=q("attr"), key=q("profile"))),
    ("compare.sql", dict(BASE, plan=q("hume"), a=q("844fd45e700040dbe036acea9f98f95922897d3e"), b=q("x"),
                         by=q("source"))),
    ("compare.sql", dict(BASE, plan=q("hume"), a=q("sim-p3-vm-a"), b=q("sim-p3-vm-b"), by=q("host"))),
    ("versions.sql", dict(plan=q("git-perf-p0001"), versions=q("v2.18.0,v2.19.0-rc0,HEAD"), by=q("variant"), key=T,
                          aggregate=q("trimmed"), k="1", metric=q("primary"), sort=q("regression"))),
    ("versions.sql", dict(plan=q("crc"), versions=T, by=q("run"), key=T, aggregate=q("median"), k="1",
                          metric=q("*"), sort=q("test"))),
    ("versions.sql", dict(plan=q("hume"), versions=T, by=q("attr"), key=q("profile"), aggregate=q("min"), k="1",
                          metric=T, sort=q("test"))),
    ("versions.sql", dict(plan=q("hume"), versions=T, by=q("source"), key=T, aggregate=q("mean"), k="1",
                          metric=q("primary"), sort=q("test"))),
    ("variability.sql", dict(plan=q("hume"), metric=q("primary"), variant=T)),
    ("variability.sql", dict(plan=q("hume"), metric=q("*"), variant=q("chill"))),
]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_queries_pg.py BENCHDB")
    work = Path(tempfile.mkdtemp(prefix="benchdb-pgq-"))
    try:
        con = sqlite3.connect(make_store(sys.argv[1], work))
        check(con)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(con):
    data = SCHEMA + STUBS
    data += copy(con, "plan", ["id", "name"]) + copy(con, "host", ["id", "name"]) + copy(con, "variant", ["id", "name"])
    data += copy(con, "benchmark", ["id", "name", "params"]) + copy(con, "unit", ["name", "kind", "factor", "direction"])
    data += copy(con, "run", ["id", "plan_id", "name", "host_id", "position", "source", "attributes"])
    data += copy(con, "series", ["id", "run_id", "benchmark_id", "block", "variant_id", "fork", "metric", "unit", "n", "total"])
    data += copy(con, "sample", ["series_id", "warmup", "iteration", "value", "count"])
    tmp = Path(tempfile.mkdtemp(prefix="benchdb-pg-"))
    shutil.chown(tmp, "postgres")
    as_user = ["runuser", "-u", "postgres", "--"]
    d = tmp / "data"
    (tmp / "load.sql").write_text(data)
    shutil.chown(tmp / "load.sql", "postgres")
    run(as_user + [str(PG / "initdb"), "-D", str(d), "--locale=C", "-E", "UTF8", "-A", "trust", "-U", "pg"])
    run(as_user + [str(PG / "pg_ctl"), "-D", str(d), "-w", "-l", str(tmp / "log"), "-o",
                   "-k %s -c listen_addresses=''" % tmp, "start"])
    psql = as_user + [str(PG / "psql"), "-h", str(tmp), "-U", "pg", "-d", "postgres", "-X", "-v", "ON_ERROR_STOP=1"]
    try:
        run(psql + ["-q", "-f", str(tmp / "load.sql")])
        for qfile, params in CASES:
            text = (SRC / "queries" / qfile).read_text()
            args = []
            for k, v in params.items():
                args += ["-v", "%s=%s" % (k, v)]
            (tmp / "q.sql").write_text(text)
            shutil.chown(tmp / "q.sql", "postgres")
            r = run(psql + args + ["-A", "-F", ",", "-f", str(tmp / "q.sql")])
            lines = r.stdout.splitlines()
            print("%s %s: %d rows" % (qfile, " ".join("%s=%s" % kv for kv in params.items() if kv[1] != T),
                                       len(lines) - 2))
    finally:
        run(as_user + [str(PG / "pg_ctl"), "-D", str(d), "-w", "-m", "fast", "stop"])
        shutil.rmtree(tmp, ignore_errors=True)

main()
