#!/usr/bin/env python3
"""The test server's CPU by test and by statement: where the `pg/` tests'
PostgreSQL work goes (docs/testing.md, "What keeps the suite fast").

    /usr/bin/python3 bench/pg_test_statements.py BUILD [REGEX] [TOP]

Starts BUILD's test cluster as the fixture does (tests/pg/cluster.sh with
ctest's environment for the tests) with pg_stat_statements loaded
(`track = all`: statements inside PL/pgSQL functions and triggers too;
`track_planning`) and auto_explain logging, with ANALYZE and BUFFERS,
every statement that ran longer than PG_TEST_EXPLAIN_MS (default 300)
ms; then runs each `pg/` test of BUILD matching REGEX (default every
one) alone, one after the other, and prints for each: its wall time, its
own CPU (its process tree, wait4), the server's CPU over it (the
postmaster's children's, as tools/test_cpu.py reads it) and its TOP
(default 8) statements by execution + planning time (with
PG_TEST_UTILITY=off no utility statement is counted, so that a cursor's
query is counted whole in place of its FETCHes) (calls, rows,
execution ms, planning ms, T for one a client sent, the text's start).
Last, the statements by time over every test (the same text in
different tests' databases summed) and the slow statements' plans
(auto_explain's, from the server's log) into BUILD/pg-test-plans.log.
Timing instrumentation and the extension cost the server some CPU: a
split, not a comparison (compare with tools/test_cpu.py in pairs)."""
import json
import os
import re
import subprocess
import sys
import time

build = os.path.abspath(sys.argv[1])
pat = sys.argv[2] if len(sys.argv) > 2 else "."
top = int(sys.argv[3]) if len(sys.argv) > 3 else 8
explain_ms = int(os.environ.get("PG_TEST_EXPLAIN_MS", "300"))
info = json.loads(subprocess.check_output(["ctest", "--show-only=json-v1"], cwd=build))


def test_env(t):
    env, wd = dict(os.environ), build
    for p in t.get("properties", []):
        if p["name"] == "ENVIRONMENT":
            for kv in p["value"]:
                k, _, v = kv.partition("=")
                env[k] = v
        if p["name"] == "ENVIRONMENT_MODIFICATION":
            for kv in p["value"]:
                k, _, v = kv.partition("=")
                _, _, val = v.partition(":")
                env[k] = val + (os.pathsep + env[k] if env.get(k) else "")
        if p["name"] == "WORKING_DIRECTORY":
            wd = p["value"]
    return env, wd


tests, start, stop = [], None, None
for t in info["tests"]:
    if t["name"] == "pg/cluster-start":
        start = t
    elif t["name"] == "pg/cluster-stop":
        stop = t
    elif t["name"].startswith("pg/") and t["name"] != "pg/cluster" and re.search(pat, t["name"]):
        tests.append(t)
if not start or not stop:
    sys.exit(f"{build}: no pg/cluster-start (built with -DBENCHDB_POSTGRESQL=ON?)")
senv, _ = test_env(start)
senv["BENCHDB_PG_CONF"] = (
    "shared_preload_libraries = 'pg_stat_statements,auto_explain'\npg_stat_statements.track = all\n"
    "pg_stat_statements.track_planning = on\npg_stat_statements.max = 10000\n"
    f"pg_stat_statements.track_utility = {os.environ.get('PG_TEST_UTILITY', 'on')}\n"
    f"auto_explain.log_min_duration = {explain_ms}\nauto_explain.log_analyze = on\n"
    "auto_explain.log_buffers = on\nauto_explain.log_nested_statements = on\n")
cluster = senv["BENCHDB_PG_CLUSTER"]
subprocess.run(start["command"], env=senv, check=True, stdout=subprocess.DEVNULL)
base = cluster
if os.path.isfile(os.path.join(cluster, "base")):
    base = open(os.path.join(cluster, "base")).read().strip()
conn = dict(line.split("=", 1) for line in open(os.path.join(cluster, "env")).read().split())
psql = senv.get("BENCHDB_PSQL") or test_env(tests[0])[0]["BENCHDB_PSQL"]


def sql(q):
    return subprocess.run([psql, "-X", "-q", "-A", "-t", "-F", "\t", "-h", conn["PGHOST"], "-p", conn["PGPORT"],
                           "-U", conn["PGUSER"], "-d", "postgres", "-c", q],
                          capture_output=True, text=True, check=True).stdout


def server_cpu():
    pm = open(os.path.join(base, "data", "postmaster.pid")).readline().strip()
    f = open(f"/proc/{pm}/stat").read().split(")")[1].split()
    return sum(int(x) for x in f[11:15]) / os.sysconf("SC_CLK_TCK")


STATEMENTS = r"""SELECT calls, rows, round(CAST(total_exec_time AS NUMERIC), 1), round(CAST(total_plan_time AS NUMERIC), 1),
       CASE WHEN toplevel THEN 'T' ELSE ' ' END, left(regexp_replace(query, '\s+', ' ', 'g'), {w})
FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'
ORDER BY total_exec_time + total_plan_time DESC LIMIT {n}"""
overall = {}
try:
    sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    print(f"load average before: {os.getloadavg()}", flush=True)
    for t in tests:
        env, wd = test_env(t)
        sql("SELECT pg_stat_statements_reset()")
        s0, w0 = server_cpu(), time.time()
        p = subprocess.Popen(t["command"], cwd=wd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, st, ru = os.wait4(p.pid, 0)
        wall, srv = time.time() - w0, None
        time.sleep(0.2)
        srv = server_cpu() - s0
        print(f"== {t['name']}: wall {wall:.1f} s, test CPU {ru.ru_utime + ru.ru_stime:.1f} s, server CPU {srv:.1f} s,"
              f" exit {os.waitstatus_to_exitcode(st)}", flush=True)
        print("   calls     rows   exec ms   plan ms   statement")
        for line in sql(STATEMENTS.format(w=130, n=top)).splitlines():
            c, r, e, pl, tl, q = line.split("\t")
            print(f"{c:>8} {r:>8} {e:>9} {pl:>9} {tl} {q}")
        for line in sql(STATEMENTS.format(w=400, n=200)).splitlines():
            c, r, e, pl, tl, q = line.split("\t")
            k = (tl, q)
            o = overall.setdefault(k, [0, 0.0, 0.0, set()])
            o[0] += int(c)
            o[1] += float(e)
            o[2] += float(pl)
            o[3].add(t["name"])
    print("== over every test: calls, exec ms, plan ms, tests, statement")
    for (tl, q), (c, e, pl, names) in sorted(overall.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))[:40]:
        print(f"{c:>8} {e:>9.1f} {pl:>9.1f} {tl} {','.join(sorted(n[3:] for n in names))[:40]:<40} {q[:150]}")
finally:
    log = open(os.path.join(base, "server.log"), errors="replace").read()
    with open(os.path.join(build, "pg-test-plans.log"), "w") as f:
        f.write(log)
    print(f"the server's log, auto_explain's plans in it: {os.path.join(build, 'pg-test-plans.log')}")
    subprocess.run(stop["command"], env=test_env(stop)[0], stdout=subprocess.DEVNULL)
