#!/usr/bin/env python3
"""Every generated file of the repository, made again by its generator.

    tools/gen/regen.py [--tier python|all] [--build DIR] [--check] [NAME...]

runs the generators under tools/gen (GENERATORS below: what each writes and
what it needs), each from the root of the tree it writes into. Without
--check they write into this repository (`make regen`). With --check they
write into a copy of the repository's tracked files and every file of the
copy is compared with the repository's: the check fails, naming each file,
when a generator gives anything else than what is committed (`make
regen-check`; the test cli/gen_current runs the python tier). NAME...
runs only those generators.

Tiers: python needs Python's standard library (and the zstd command);
all adds what the reference values need, which `scripts/install-deps
--with-tools` installs: Debian's python3 with python3-mpmath and
python3-pandas, R (Rscript), PostgreSQL 15's server, and a build of
benchdb (--build, default build/) for the generators that ask it.
docs/testing.md, "Generated files".
"""
import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEBIAN_PYTHON = "/usr/bin/python3"

# name, command ({py}: a Python with what the tier needs; {build}: the build
# directory; {stdout}: the first output is the command's standard output),
# outputs (files, or directories ending in /), needs.
GENERATORS = [
    ("schema", ["{py}", "tools/gen/schema.py"], ["schema/schema.sql", "schema/postgresql.sql", "src/store/unit_rows.c"], {"python"}),
    ("functions", ["{py}", "tools/gen/functions.py"],
     ["src/sqlfn/catalogue.c", "src/pg/benchstats--0.1.sql", "docs/functions.md"], {"python"}),
    ("fn_window", ["{py}", "tools/gen/sql/gen_fn_window.py"], ["tests/sql/fn_window.sql"], {"python"}),
    ("plans", ["{py}", "tools/gen/data/plans/gen.py"], ["tests/data/plans/pairing.sql", "tests/data/plans/tie.sql"],
     {"python"}),
    ("benchstat_compare", ["{py}", "tools/gen/data/benchstat/gen_compare_data.py"], ["tests/data/benchstat/compare/"],
     {"python"}),
    ("fn_benchstat", ["{py}", "tools/gen/data/benchstat/gen_fn_benchstat.py"], ["tests/sql/fn_benchstat.sql"],
     {"python"}),
    ("git_perf", ["{py}", "tools/gen/data/git-perf/gen_versions_data.py"],
     ["tests/data/git-perf/base.jsonl", "tests/data/git-perf/tip.jsonl"], {"python"}),
    ("bad_archives", ["{py}", "tools/gen/data/make_bad.py"], ["tests/data/bad/"], {"python", "zstd"}),
    ("log_table", ["{py}", "tools/gen/stats/gen_log_table.py"], ["src/stats/log_table.h"], {"mpmath"}),
    ("tdist_consts", ["{py}", "tools/gen/stats/gen_tdist_consts.py"], ["src/stats/tdist_consts.h"], {"mpmath"}),
    ("rounding", ["{py}", "tools/gen/data/rounding/gen_rounding.py"],
     ["tests/data/rounding/sums.txt", "tests/data/rounding/percentile.txt"], {"mpmath"}),
    ("gate_anchors", ["{py}", "tools/gen/data/history/gen_gate_anchors.py"],
     ["tests/data/history/anchors.jsonl", "tests/data/history/anchors_expected.tsv"], {"mpmath"}),
    ("otava", ["{py}", "tools/gen/data/otava/gen_reference.py"],
     ["tests/data/otava/change_points_ref.json", "tests/sql/fn_change_points_otava.sql"], {"mpmath"}),
    ("lookback", ["{py}", "tools/gen/data/conbench/gen_lookback.py"], ["tests/sql/fn_lookback_conbench.sql"],
     {"mpmath", "pandas"}),
    ("backtest_expected", ["{py}", "tools/gen/data/history/gen_backtest_expected.py", "{build}/benchdb"],
     ["tests/data/history/backtest_values.tsv", "tests/data/history/backtest_expected.json"],
     {"mpmath", "pandas", "build"}),
    ("fn_portable", ["{py}", "tools/gen/pg/gen_fn_portable.py"], ["tests/sql/fn_portable.sql"], {"postgresql"}),
    ("fn_ref", ["{py}", "tools/gen/ref/gen_fn_ref.py", "{build}"],
     ["tests/sql/fn_ref_tdist.sql", "tests/sql/fn_ref_aggregates.sql", "tests/sql/fn_ref_million.sql"],
     {"mpmath", "R", "build"}),
    ("fn_r", ["Rscript", "tools/gen/r/gen_fn_r.R"],
     ["tests/sql/fn_r_onesample.sql", "tests/sql/fn_r_twosample.sql", "tests/sql/fn_r_tdist.sql",
      "tests/sql/fn_r_million.sql"], {"R"}),
    ("fn_r_normal", ["Rscript", "tools/gen/r/gen_fn_normal.R"], ["tests/sql/fn_r_normal.sql"], {"R"}),
    ("fn_rank_r", ["Rscript", "tools/gen/r/gen_fn_rank.R"], ["tests/sql/fn_rank_r.sql"], {"R"}),
    ("compare_r", ["Rscript", "tools/gen/r/gen_compare_r.R"], ["tests/data/compare-r/"], {"R"}),
    ("views_r", ["Rscript", "tools/gen/r/views.R", "{stdout}"], ["tests/sql/views.sql"], {"R"}),
]
PYTHON_TIER = {"python", "zstd"}
# How to get what a generator needs, when it is missing.
INSTALL = {
    "zstd": "the zstd command (scripts/install-deps)",
    "mpmath": "Debian's python3 with python3-mpmath (scripts/install-deps --with-tools)",
    "pandas": "Debian's python3 with python3-pandas (scripts/install-deps --with-tools)",
    "R": "Rscript (r-base-core: scripts/install-deps --with-tools)",
    "postgresql": "PostgreSQL 15's server in /usr/lib/postgresql/15/bin (scripts/install-deps)",
    "build": "a build of benchdb (cmake --build build; or --build DIR)",
}


def python_for(needs):
    """The Python that has what needs asks: Debian's for mpmath and pandas
    (the generators name it), else this one."""
    return DEBIAN_PYTHON if needs & {"mpmath", "pandas"} else sys.executable


def missing(needs, build):
    out = []
    py = python_for(needs)
    for module in ("mpmath", "pandas"):
        if module in needs and subprocess.run([py, "-c", "import " + module], capture_output=True).returncode:
            out.append(module)
    if "zstd" in needs and not shutil.which("zstd"):
        out.append("zstd")
    if "R" in needs and not shutil.which("Rscript"):
        out.append("R")
    if "postgresql" in needs and not os.path.exists("/usr/lib/postgresql/15/bin/initdb"):
        out.append("postgresql")
    if "build" in needs and not os.path.exists(os.path.join(build, "benchdb")):
        out.append("build")
    return out


def run(gen, root, build):
    name, cmd, outputs, needs = gen
    argv = [c.format(py=python_for(needs), build=build) for c in cmd if c != "{stdout}"]
    print("regen: %s (%s)" % (name, " ".join(outputs)), flush=True)
    if "{stdout}" in cmd:
        with open(os.path.join(root, outputs[0]), "w") as out:
            p = subprocess.run(argv, cwd=root, stdout=out, stderr=subprocess.PIPE, text=True)
    else:
        p = subprocess.run(argv, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        raise SystemExit("regen: %s failed (exit status %d):\n%s" % (name, p.returncode, p.stderr.strip()))


def tracked(root):
    """The repository's files: git's (tracked, or new and not ignored), or
    every file but build directories when it is no git checkout."""
    p = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True)
    if p.returncode == 0:
        return [f for f in p.stdout.decode().split("\0") if f and os.path.isfile(os.path.join(root, f))]
    out = []
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(("build", ".git", "node_modules"))]
        out += [os.path.relpath(os.path.join(top, f), root) for f in files if os.path.isfile(os.path.join(top, f))]
    return out


def differences(gens, copy):
    """The files the generators write whose text differs from the
    repository's, or which only one of the two has."""
    out = []
    for _, _, outputs, _ in gens:
        for o in outputs:
            if o.endswith("/"):
                a, b = os.path.join(ROOT, o), os.path.join(copy, o)
                names = set(os.listdir(a) if os.path.isdir(a) else []) | set(os.listdir(b) if os.path.isdir(b) else [])
                files = [o + n for n in sorted(names)]
            else:
                files = [o]
            for f in files:
                a, b = os.path.join(ROOT, f), os.path.join(copy, f)
                if not (os.path.isfile(a) and os.path.isfile(b) and filecmp.cmp(a, b, shallow=False)):
                    out.append(f)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tier", choices=("python", "all"), default="all")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--check", action="store_true", help="write into a copy and compare with the committed files")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    known = {g[0] for g in GENERATORS}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        raise SystemExit("regen: no generator %s (there are: %s)" % (", ".join(unknown), ", ".join(sorted(known))))
    gens = [g for g in GENERATORS if (not args.names or g[0] in args.names)
            and (args.tier == "all" or g[3] <= PYTHON_TIER)]
    lacking = {}
    for g in gens:
        for m in missing(g[3], build):
            lacking.setdefault(m, []).append(g[0])
    if lacking:
        raise SystemExit("regen: missing " + "; ".join("%s, for %s" % (INSTALL.get(m, m), ", ".join(n))
                                                       for m, n in sorted(lacking.items())))
    if not args.check:
        for g in gens:
            run(g, ROOT, build)
        return 0
    with tempfile.TemporaryDirectory(prefix="benchdb-regen-") as copy:
        for f in tracked(ROOT):
            os.makedirs(os.path.dirname(os.path.join(copy, f)), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, f), os.path.join(copy, f))
        for g in gens:
            run(g, copy, build)
        diff = differences(gens, copy)
        for f in diff:
            print("regen: %s differs from what its generator writes (make regen)" % f, file=sys.stderr)
        print("regen: %d generators, %s" % (len(gens), "%d files differ" % len(diff) if diff else "every file as committed"))
        return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
