#!/usr/bin/env python3
"""Which lines of src/ only the plain-only tests reach (docs/testing.md).

A test marked `# ctest: plain-only` runs in the plain pass of `make test`
but not in the sanitized one. That is safe for a test whose benchdb code
the sanitizers also see elsewhere. This measures it: in a build compiled
with gcc's --coverage it runs every test of the sanitized pass together and
records the lines of src/ they reach (src/pg aside: the extension is never
built with the sanitizers), then runs each plain-only test whose name
matches REGEX on its own, and prints the lines it reaches that no test of
the sanitized pass does. "none" for a test means that skipping it under
the sanitizers loses no line of benchdb's code from their view.

The sanitized pass's tests run as that pass runs them, with
BENCHDB_SANITIZED=1 (-DBENCHDB_TEST_AS_SANITIZED=ON): the smaller sizes
some tests take there, the tutorial without its ```sh plain blocks. One
thing stays the plain pass's: the allocation sweep fails every 7th
allocation, not every one (every one, at -O0 under coverage, would cost
more than the rest together), so the base reaches fewer lines than the
sanitized pass does and a line reported lost may not be; never the other
way. --plain-part REGEX2 also runs each test of the sanitized pass that
matches REGEX2 alone as the plain pass runs it (BENCHDB_SANITIZED=0) and
prints what that pass's larger part of it reaches that the sanitized
pass does not (e.g. cli/tutorial: step 9, a ```sh plain block).

    tools/plain_only_cover.py [--cover DIR] [--jobs N] [--plain-part REGEX2] [REGEX]

DIR (default build-cover) is configured and built if need be. Which tests
the sanitized pass holds is read from a sanitized configuration of the tree
(configured only, in DIR/sanitized-list). The whole run takes about ten
minutes of CPU on two cores. Not part of `make test`.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd, cwd=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"plain_only_cover: {' '.join(cmd)} failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


def tests_of(build):
    out = sh(["ctest", "-N"], cwd=build).stdout
    return [m.group(1) for m in re.finditer(r"Test +#\d+: (\S+)", out)]


def reached(build):
    """Lines of src/ (file:line) with a count above zero in build's .gcda files."""
    lines = set()
    for g in glob.glob(os.path.join(build, "CMakeFiles", "**", "*.gcda"), recursive=True):
        if "/src/" not in g or "/src/pg/" in g:
            continue
        p = sh(["gcov", "-t", "-j", "-o", os.path.dirname(g), g], cwd=build, check=False)
        for text in p.stdout.splitlines():
            if not text.startswith("{"):
                continue
            for f in json.loads(text)["files"]:
                name = f["file"]
                if "/src/" not in name:
                    continue
                name = name[name.index("/src/") + 1:]
                lines.update(f"{name}:{l['line_number']}" for l in f["lines"] if l["count"] > 0)
    return lines


def zero(build):
    for g in glob.glob(os.path.join(build, "**", "*.gcda"), recursive=True):
        os.remove(g)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cover", default=os.path.join(SRC, "build-cover"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--plain-part", default=None, metavar="REGEX2")
    ap.add_argument("regex", nargs="?", default="")
    a = ap.parse_args()
    flags = ["-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_C_FLAGS=--coverage -O0", "-DCMAKE_EXE_LINKER_FLAGS=--coverage",
             "-DCMAKE_SHARED_LINKER_FLAGS=--coverage"]
    sh(["cmake", "-S", SRC, "-B", a.cover, "-DBENCHDB_TEST_AS_SANITIZED=ON"] + flags)
    sh(["cmake", "--build", a.cover, "-j", str(a.jobs)])
    listing = os.path.join(a.cover, "sanitized-list")
    sh(["cmake", "-S", SRC, "-B", listing, "-DCMAKE_BUILD_TYPE=Debug", "-DBENCHDB_SANITIZE=ON"])
    sanitized = set(tests_of(listing))
    plain_only = [t for t in tests_of(a.cover) if t not in sanitized and re.search(a.regex, t)]
    if a.plain_part is not None:
        plain_only += [t for t in tests_of(a.cover) if t in sanitized and re.search(a.plain_part, t)]
    others = [t for t in tests_of(a.cover) if t not in sanitized]
    zero(a.cover)
    exclude = "|".join("^" + re.escape(t) + "$" for t in others) or "^$"
    print(f"the sanitized pass's {len(sanitized)} tests under coverage ...", flush=True)
    r = sh(["ctest", "-j", str(a.jobs), "-E", exclude], cwd=a.cover, check=False)
    if r.returncode != 0:
        sys.exit("plain_only_cover: tests failed in the coverage build:\n" + r.stdout[-3000:])
    base = reached(a.cover)
    print(f"  {len(base)} lines of src/ reached")
    # the rest as the plain pass runs them
    sh(["cmake", "-S", SRC, "-B", a.cover, "-DBENCHDB_TEST_AS_SANITIZED=OFF"])
    for t in plain_only:
        zero(a.cover)
        r = sh(["ctest", "-R", "^" + re.escape(t) + "$"], cwd=a.cover, check=False)
        own = reached(a.cover) - base
        state = "" if r.returncode == 0 else " (the test FAILED here)"
        print(f"{t}{state}: {'none' if not own else str(len(own)) + ' lines no sanitized test reaches'}", flush=True)
        for line in sorted(own, key=lambda s: (s.split(':')[0], int(s.split(':')[1]))):
            print("   ", line)


if __name__ == "__main__":
    main()
