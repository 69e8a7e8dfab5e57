# make run on a fresh clone (README, "Quickstart"): it installs only what
# building benchdb needs (scripts/install-deps --run: Debian packages, no
# npm modules) and builds only benchdb and its SQLite extension, no test
# binary and no PostgreSQL module, before scripts/run-demo prints the
# verdict (tests/cli/run_demo.sh runs that part). Checked without building:
# the recipe make would run, then the target graph CMake generates for a
# fresh build directory, then install-deps --run against stand-in apt-get,
# dpkg-query, node and npm that log their calls.
# ctest: plain-only slow
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

# ---- the recipe ----
run make --no-print-directory -n -C "$BENCHDB_SRC" run BUILD="$T/b" JOBS=2
expect_rc 0 "make -n run"
expect_out_has "scripts/install-deps --run" "make run installs what building needs only"
expect_eq "$(grep -c '^cmake --build' "$T/out")" 1 "make run builds once"
expect_eq "$(grep '^cmake --build' "$T/out")" "cmake --build $T/b -j 2 --target benchdb benchstats" \
    "make run builds the program and the extension only"
expect_out_has "scripts/run-demo $T/b/benchdb" "then the demo"

# ---- what those targets depend on, in a fresh build directory ----
cmake -S "$BENCHDB_SRC" -B "$T/b" -DCMAKE_BUILD_TYPE=RelWithDebInfo >cmake.log 2>&1 || fail "configure: $(tail -n 5 cmake.log)"
python3 - "$T/b/CMakeFiles/Makefile2" <<'PY' || fail "benchdb and benchstats depend on no test and no PostgreSQL module"
import re, sys
deps = {}
for line in open(sys.argv[1]):
    m = re.match(r"^(\S+)/all: (\S+)/all$", line.strip())
    if m:
        deps.setdefault(m.group(1), set()).add(m.group(2))
seen, todo = set(), ["CMakeFiles/benchdb.dir", "CMakeFiles/benchstats.dir"]
while todo:
    t = todo.pop()
    if t not in seen:
        seen.add(t)
        todo.extend(deps.get(t, ()))
names = sorted(t.split("/")[-1][:-len(".dir")] for t in seen)
assert all(t.startswith("CMakeFiles/") for t in seen), sorted(seen)
# sqlite_schema_snapshot: the build-time replay of the migrations a new
# store is made from in one step (docs/schema.md, "How a new store is made").
assert names == ["benchdb", "benchdb_core", "benchdb_sqlfn", "benchdb_stats", "benchstats",
                 "sqlite_schema_snapshot"], names
# ... while the whole build does hold tests (the check above can fail).
assert any(k.startswith("tests/") for k in deps), "no test target at all"
PY

# ---- install-deps --run: Debian packages only ----
mkdir stubs
for c in apt-get node npm; do
    printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$c" "$T" >"stubs/$c"
done
# Every package installed: install-deps only looks (and runs as any user).
# It asks once for all (dpkg-query -W -f='${Package} ${Status}\n' PKG...):
# the stand-in answers a line for each package it is given.
printf '#!/bin/sh\nprintf "%%s\\n" "dpkg-query $*" >>"%s/calls"\nfor a; do case $a in -*) ;; *) printf "%%s install ok installed\\n" "$a" ;; esac; done\n' "$T" >stubs/dpkg-query
chmod +x stubs/*
PATH="$T/stubs:$PATH" run sh "$BENCHDB_SRC/scripts/install-deps" --run
expect_rc 0 "install-deps --run"
grep -Eq '^dpkg-query .* libsqlite3-dev( |$)' calls || fail "install-deps --run checks what building needs: $(cat calls)"
grep -Eq '^(node|npm|apt-get) ' calls && fail "install-deps --run ran node, npm or apt-get: $(grep -E '^(node|npm|apt-get) ' calls)"
grep -Eq '^dpkg-query .* (chromium-headless-shell|postgresql-15|libbenchmark-dev|mold)( |$)' calls &&
    fail "install-deps --run asked for a test package"
: >calls
PATH="$T/stubs:$PATH" run sh "$BENCHDB_SRC/scripts/install-deps"
# mold (make test's linker, cmake/Linker.cmake) among what the whole suite
# needs, and answered by the stand-in like every other package.
grep -Eq '^dpkg-query .* mold( |$)' calls || fail "install-deps asks for mold: $(cat calls)"
grep -Eq '^npm ci' calls || grep -Eq '^node ' calls || fail "without --run, install-deps sees to the npm modules (the check above can fail)"
finish
