#!/usr/bin/env python3
"""Which lines and branches of src/ each test alone reaches (docs/testing.md).

A test marked `# ctest: plain-only` runs in the plain pass of `make test`
but not in the sanitized one. That is safe for a test whose benchdb code
the sanitizers also see elsewhere. This measures it, in a build compiled
with gcc's --coverage (DIR, default build-cover, configured and built if
need be): it runs every test of the sanitized pass together (ctest -j N),
each test's counts written apart (-DBENCHDB_TEST_GCOV_PREFIX, see
tests/CMakeLists.txt), and reads, per test, the lines and branches of src/
it reaches (src/pg aside: the extension is never built with the
sanitizers). Then one of:

  REGEX (default: every plain-only test): runs the plain-only tests that
      match, side by side, and prints for each the lines and branches it
      reaches that no test of the sanitized pass does. "none" means that
      skipping it under the sanitizers loses no line or branch of
      benchdb's code from their view. --plain-part REGEX2 adds the tests of
      the sanitized pass matching REGEX2, run as the plain pass runs them
      (BENCHDB_SANITIZED=0): what that pass's larger part of them reaches
      (e.g. cli/tutorial: step 9, a ```sh plain block).
  --all-unique CPU: for every test of the sanitized pass, the lines and
      branches it reaches that no other test of that pass does, and the
      greedy set: repeatedly the most expensive test (CPU, a PostgreSQL
      test's server CPU included, from CPU: tools/test_cpu.py's output on
      a sanitized build) whose lines and branches are all reached by the
      tests left, taken out, until none is. Fixtures that a test left
      needs and the allocation sweep (unit/ingest_oom/*, the sanitized
      pass's by issue 28) are never taken, nor the tests matching --keep
      REGEX (kept on a reviewer's judgement). A test that runs no program
      of benchdb's leaves no counts: it reaches nothing. --table FILE
      writes the table and the set as Markdown too. Candidates only: whether a test's sanitized run is
      worth its CPU despite adding no line (a hostile or huge input on
      the same lines) is a reviewer's call, docs/testing.md.

The sanitized pass's tests run as that pass runs them, with
BENCHDB_SANITIZED=1 (-DBENCHDB_TEST_AS_SANITIZED=ON): the smaller sizes
some tests take there, the tutorial without its ```sh plain blocks. One
thing stays the plain pass's: the allocation sweep fails every 7th
allocation, not every one (every one, at -O0 under coverage, would cost
more than the rest together), so the sweep reaches fewer lines than in
the sanitized pass and a line reported as one test's alone may not be;
never the other way. Which tests the sanitized pass holds is read from a
sanitized configuration of the tree (configured only, in
DIR/sanitized-list). --reuse reads the per-test counts of the last run
(DIR/apart/*.json) instead of running the tests again.

    tools/plain_only_cover.py [--cover DIR] [--jobs N] [--reuse]
        [--plain-part REGEX2] [REGEX]
    tools/plain_only_cover.py [--cover DIR] [--jobs N] [--reuse]
        --all-unique CPU [--keep REGEX] [--table FILE]

A run of the sanitized pass under coverage takes about 15 minutes of CPU
on two cores. Not part of `make test`.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWEEP = re.compile(r"^unit/ingest_oom/")


def sh(cmd, cwd=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"plain_only_cover: {' '.join(cmd)} failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


def tests_of(build):
    """ctest's tests of build: name -> their properties (a dict)."""
    info = json.loads(sh(["ctest", "--show-only=json-v1"], cwd=build).stdout)
    return {t["name"]: {p["name"]: p["value"] for p in t.get("properties", [])} for t in info["tests"]}


def gcov_json(gcdas, cwd):
    """gcov's records of the object files whose counts are gcdas."""
    for i in range(0, len(gcdas), 200):
        p = sh(["gcov", "-t", "-j", "-b"] + gcdas[i:i + 200], cwd=cwd, check=False)
        for text in p.stdout.splitlines():
            if text.startswith("{"):
                yield json.loads(text)


def reached(root, build):
    """(lines, branches) of src/ with a count above zero in the .gcda files
    under root, whose notes (.gcno) are where build's compile left them:
    lines as FILE:LINE, branches as FILE:LINE:N (a line's Nth branch taken)."""
    gcdas = []
    for g in glob.glob(os.path.join(root, "**", "*.gcda"), recursive=True):
        obj = g[len(root):]  # where the object file is, under GCOV_PREFIX root
        inner = obj[len(build):]
        if (not obj.startswith(build + "/") or "/src/" not in inner or "/src/pg/" in inner
                or "/benchstats_pg.dir/" in inner):  # the extension: in the server, not sanitized
            continue
        note = obj[:-len(".gcda")] + ".gcno"
        if not os.path.exists(note):
            continue
        os.symlink(note, g[:-len(".gcda")] + ".gcno")
        gcdas.append(g)
    lines, branches = set(), set()
    for rec in gcov_json(gcdas, root):
        for f in rec["files"]:
            name = f["file"]
            if "/src/" not in name:
                continue
            name = name[name.index("/src/") + 1:]
            for ln in f["lines"]:
                at = f"{name}:{ln['line_number']}"
                if ln["count"] > 0:
                    lines.add(at)
                branches.update(f"{at}:{i}" for i, b in enumerate(ln.get("branches", [])) if b["count"] > 0)
    return lines, branches


def apart_dir(cover, into="apart"):
    return os.path.join(cover, into)


def run_apart(cover, jobs, ctest_args, into="apart"):
    """Runs ctest with each test's counts apart (kept in cover/INTO/TEST.json);
    returns {test: (lines, branches)} and the names of the tests that failed."""
    prefix = os.path.join(apart_dir(cover, into), "gcda")
    shutil.rmtree(apart_dir(cover, into), ignore_errors=True)
    os.makedirs(prefix)
    sh(["cmake", "-S", SRC, "-B", cover, f"-DBENCHDB_TEST_GCOV_PREFIX={prefix}"])
    r = sh(["ctest", "-j", str(jobs)] + ctest_args, cwd=cover, check=False)
    failed = re.findall(r"^\s*\d+ - (\S+) \(", r.stdout, re.M)
    sh(["cmake", "-S", SRC, "-B", cover, "-UBENCHDB_TEST_GCOV_PREFIX"])
    out = {}
    for d in sorted(os.listdir(prefix)):
        name = d.replace("+", "/")
        lines, branches = reached(os.path.join(prefix, d), cover)
        out[name] = (lines, branches)
        with open(os.path.join(apart_dir(cover, into), d + ".json"), "w") as f:
            json.dump({"test": name, "failed": name in failed, "lines": sorted(lines),
                       "branches": sorted(branches)}, f)
        shutil.rmtree(os.path.join(prefix, d))
    return out, failed


def read_apart(cover):
    out, failed = {}, []
    for p in glob.glob(os.path.join(apart_dir(cover), "*.json")):
        d = json.load(open(p))
        out[d["test"]] = (set(d["lines"]), set(d["branches"]))
        if d["failed"]:
            failed.append(d["test"])
    if not out:
        sys.exit(f"plain_only_cover: --reuse: no counts in {apart_dir(cover)}")
    return out, failed


def read_cpu(path):
    """tools/test_cpu.py's lines: test, wall, CPU, status, "server S" -> CPU + S."""
    cpu = {}
    for text in open(path):
        f = text.rstrip("\n").split("\t")
        if len(f) >= 4 and re.fullmatch(r"[\d.]+", f[2]):
            server = max(0.0, float(f[4].split()[1])) if len(f) > 4 and f[4].startswith("server ") else 0.0
            cpu[f[0]] = float(f[2]) + server
    return cpu


def pinned(tests, sanitized):
    """Tests the greedy pass never takes, with why."""
    why = {}
    needed = set()
    for t in sanitized:
        needed.update(tests[t].get("FIXTURES_REQUIRED", []))
    for t in sanitized:
        props = tests[t]
        if SWEEP.search(t):
            why[t] = "the allocation sweep (issue 28)"
        elif props.get("FIXTURES_CLEANUP"):
            why[t] = "a fixture's clean-up"
        elif set(props.get("FIXTURES_SETUP", [])) & needed:
            why[t] = "a fixture other sanitized tests need"
    return why


def greedy(cover, cost, pin):
    """The greedy set: [(test, cost)] in the order taken."""
    holders = {}
    for t, (lines, branches) in cover.items():
        for e in lines | branches:
            holders.setdefault(e, set()).add(t)
    alone = {t: sum(1 for e in lines | branches if len(holders[e]) == 1) for t, (lines, branches) in cover.items()}
    left, taken = set(cover), []
    while True:
        can = [t for t in left if alone[t] == 0 and t not in pin]
        if not can:
            return taken
        t = max(can, key=lambda t: (cost.get(t, 0.0), t))
        left.discard(t)
        taken.append((t, cost.get(t, 0.0)))
        for e in cover[t][0] | cover[t][1]:
            holders[e].discard(t)
            if len(holders[e]) == 1:
                alone[next(iter(holders[e]))] += 1


def all_unique(cover, failed, tests, sanitized, cost, keep, table):
    pin = pinned(tests, sanitized)
    for t in sanitized:
        if keep and re.search(keep, t):
            pin.setdefault(t, "kept (--keep)")
    for t in failed:
        pin.setdefault(t, "FAILED under coverage")
    count = {}
    for lines, branches in cover.values():
        for e in lines | branches:
            count[e] = count.get(e, 0) + 1
    rows = []
    for t in sorted(cover, key=lambda t: -cost.get(t, 0.0)):
        lines, branches = cover[t]
        rows.append((t, cost.get(t), sum(count[e] == 1 for e in lines), sum(count[e] == 1 for e in branches),
                     len(lines), pin.get(t, "")))
    taken = greedy(cover, cost, set(pin))
    out = [f"{len(cover)} tests of the sanitized pass under coverage; "
           f"{len(taken)} could leave it, {sum(c for _, c in taken):.1f} CPU-s of "
           f"{sum(cost.get(t, 0.0) for t in cover):.1f}",
           "", "| test | sanitized CPU s | unique lines | unique branches | lines reached | never taken |",
           "|---|--:|--:|--:|--:|---|"]
    out += [f"| {t} | {'?' if c is None else f'{c:.1f}'} | {ul} | {ub} | {n} | {p} |" for t, c, ul, ub, n, p in rows]
    out += ["", "Greedy set (in the order taken; CPU-s, running total):", ""]
    total = 0.0
    for t, c in taken:
        total += c
        out.append(f"- {t} {c:.1f} ({total:.1f})")
    print("\n".join(out))
    if table:
        with open(table, "w") as f:
            f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cover", default=os.path.join(SRC, "build-cover"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--plain-part", default=None, metavar="REGEX2")
    ap.add_argument("--all-unique", default=None, metavar="CPU")
    ap.add_argument("--table", default=None, metavar="FILE")
    ap.add_argument("--keep", default=None, metavar="REGEX")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("regex", nargs="?", default="")
    a = ap.parse_args()
    a.cover = os.path.abspath(a.cover)
    flags = ["-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_C_FLAGS=--coverage -O0", "-DCMAKE_EXE_LINKER_FLAGS=--coverage",
             "-DCMAKE_SHARED_LINKER_FLAGS=--coverage"]
    sh(["cmake", "-S", SRC, "-B", a.cover, "-DBENCHDB_TEST_AS_SANITIZED=ON"] + flags)
    sh(["cmake", "--build", a.cover, "-j", str(a.jobs)])
    listing = os.path.join(a.cover, "sanitized-list")
    sh(["cmake", "-S", SRC, "-B", listing, "-DCMAKE_BUILD_TYPE=Debug", "-DBENCHDB_SANITIZE=ON"])
    sanitized = tests_of(listing)
    tests = tests_of(a.cover)
    others = [t for t in tests if t not in sanitized]
    if a.reuse:
        cover, failed = read_apart(a.cover)
    else:
        print(f"the sanitized pass's {len(sanitized)} tests under coverage ...", flush=True)
        exclude = "|".join("^" + re.escape(t) + "$" for t in others) or "^$"
        cover, failed = run_apart(a.cover, a.jobs, ["-E", exclude])
    if failed:
        print("FAILED in the coverage build (their counts are partial): " + ", ".join(failed), flush=True)
    # a test that ran no program of benchdb's leaves no counts: it reaches nothing
    cover = {t: cover.get(t, (set(), set())) for t in sanitized}
    if a.all_unique:
        all_unique(cover, failed, tests, sanitized, read_cpu(a.all_unique), a.keep, a.table)
        return
    base_lines = set().union(*(c[0] for c in cover.values()))
    base_branches = set().union(*(c[1] for c in cover.values()))
    print(f"  {len(base_lines)} lines and {len(base_branches)} branches of src/ reached")
    chosen = [t for t in others if re.search(a.regex, t)]
    if a.plain_part is not None:
        chosen += [t for t in sanitized if re.search(a.plain_part, t)]
    if not chosen:
        return
    # these as the plain pass runs them
    sh(["cmake", "-S", SRC, "-B", a.cover, "-DBENCHDB_TEST_AS_SANITIZED=OFF"])
    plain, failed = run_apart(a.cover, a.jobs, ["-R", "|".join("^" + re.escape(t) + "$" for t in chosen)],
                               "apart-plain")
    sh(["cmake", "-S", SRC, "-B", a.cover, "-DBENCHDB_TEST_AS_SANITIZED=ON"])
    for t in chosen:
        lines, branches = plain.get(t, (set(), set()))
        own = sorted(lines - base_lines, key=lambda s: (s.split(':')[0], int(s.split(':')[1])))
        own_branches = branches - base_branches
        state = " (the test FAILED here)" if t in failed else ""
        found = (f"{len(own)} lines and {len(own_branches)} branches no sanitized test reaches"
                 if own or own_branches else "none")
        print(f"{t}{state}: {found}", flush=True)
        for line in own:
            print("   ", line)
        for b in sorted(own_branches):
            print("    branch", b)


if __name__ == "__main__":
    main()
