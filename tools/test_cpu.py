#!/usr/bin/env python3
"""test_cpu.py BUILD [JOBS [REGEX]]: where the suite's CPU goes (docs/testing.md).

Runs every ctest test of BUILD (or those whose name matches REGEX) with
JOBS workers (default 2), the fixtures' set-up tests first and their
clean-ups last, as ctest orders them, and prints per test: name, wall
seconds, CPU seconds (user + system of the test's process tree, from
os.wait4), the exit status, its system seconds and page faults (minor,
the tree's), with TEST_CPU_COUNT=DIR the processes it started (exec)
and forked (perf stat, its files in DIR; the test's own command counts
as one, and perf's CPU is in the tree's), and for a test with a PostgreSQL test cluster
the server's CPU over the test (the postmaster's own and its exited
children's: approximate when tests overlap). Then the total. A test that
ctest would skip shows its skip status (77) as a failure here."""
import json, os, subprocess, sys, time, threading, re
build = sys.argv[1]; jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
pat = sys.argv[3] if len(sys.argv) > 3 else None
COUNT = os.environ.get("TEST_CPU_COUNT")  # a directory: count each test's processes with perf stat there
info = json.loads(subprocess.check_output(["ctest", "--show-only=json-v1"], cwd=build))
tests = []
for t in info["tests"]:
    if pat and not re.search(pat, t["name"]): continue
    env = dict(os.environ); wd = build; disabled = False
    for p in t.get("properties", []):
        if p["name"] == "ENVIRONMENT":
            for kv in p["value"]:
                k, _, v = kv.partition("="); env[k] = v
        if p["name"] == "ENVIRONMENT_MODIFICATION": # only the form tests/CMakeLists.txt uses
            for kv in p["value"]:
                k, _, v = kv.partition("="); op, _, val = v.partition(":")
                if op != "path_list_prepend": sys.exit(f"test_cpu.py: {t['name']}: {op} not understood")
                env[k] = val + (os.pathsep + env[k] if env.get(k) else "")
        if p["name"] == "WORKING_DIRECTORY": wd = p["value"]
        if p["name"] == "DISABLED" and p["value"]: disabled = True
    kind = 1
    for p in t.get("properties", []):
        if p["name"] == "FIXTURES_SETUP": kind = 0
        if p["name"] == "FIXTURES_CLEANUP": kind = 2
    if not disabled: tests.append((kind, t["name"], t["command"], wd, env))
setups = [t[1:] for t in tests if t[0] == 0]; cleanups = [t[1:] for t in tests if t[0] == 2]
tests = [t[1:] for t in tests if t[0] == 1]
lock = threading.Lock(); res = []; idx = [0]
def pidfile(env): # the cluster's data: in its directory, or where DIR/base says (tests/pg/cluster.sh)
    d = env.get("BENCHDB_PG_CLUSTER", "")
    b = os.path.join(d, "base")
    return os.path.join(open(b).read().strip() if os.path.isfile(b) else d, "data", "postmaster.pid")
def srvcpu(env):
    pid = pidfile(env)
    try:
        pm = open(pid).readline().strip(); f = open(f"/proc/{pm}/stat").read().split(")")[1].split()
        return sum(int(x) for x in f[11:15]) / os.sysconf("SC_CLK_TCK")
    except Exception: return 0.0
def run1(name, cmd, wd, env):
        srv0 = srvcpu(env)
        t0 = time.time()
        if COUNT:  # processes started (exec) and forked, counted by perf in the test's tree
            stat = os.path.join(COUNT, name.replace("/", "_") + ".perf")
            cmd = ["perf", "stat", "-x,", "-o", stat, "-e", "sched:sched_process_exec,sched:sched_process_fork", "--"] + cmd
        p = subprocess.Popen(cmd, cwd=wd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, st, ru = os.wait4(p.pid, 0)
        wall = time.time() - t0
        srv = srvcpu(env) - srv0
        execs = ""
        if COUNT:
            got = {l.split(",")[2]: l.split(",")[0] for l in open(stat) if l.count(",") > 2}
            execs = f"\texecs {got.get('sched:sched_process_exec', '?')}\tforks {got.get('sched:sched_process_fork', '?')}"
        with lock:
            res.append((name, wall, ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(st), ru.ru_minflt))
            print(f"{name}\t{wall:.1f}\t{ru.ru_utime+ru.ru_stime:.1f}\t{os.waitstatus_to_exitcode(st)}\tserver {srv:.1f}"
                  f"\tsys {ru.ru_stime:.1f}\tfaults {ru.ru_minflt}{execs}", flush=True)
def worker():
    while True:
        with lock:
            if idx[0] >= len(tests): return
            t = tests[idx[0]]; idx[0] += 1
        run1(*t)
for t in setups: run1(*t)
th = [threading.Thread(target=worker) for _ in range(jobs)]
[t.start() for t in th]; [t.join() for t in th]
for t in cleanups:
    pid = pidfile(t[3])
    if os.path.exists(pid):
        pm = open(pid).readline().strip(); f = open(f"/proc/{pm}/stat").read().split(")")[1].split()
        hz = os.sysconf("SC_CLK_TCK"); print(f"postmaster self {(int(f[11])+int(f[12]))/hz:.1f} children {(int(f[13])+int(f[14]))/hz:.1f}")
    run1(*t)
tot = sum(r[2] for r in res)
print(f"TOTAL cpu {tot:.0f} s, {sum(r[4] for r in res)} page faults over {len(res)} tests; failures: {[r[0] for r in res if r[3]]}")
