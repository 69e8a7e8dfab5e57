# Catch2 itself (Debian's catch2 2.13, the single header): a tiny benchmark
# binary built here writes --reporter xml; the file loads with its format
# recognised, and each benchmark's one value is the file's <mean value>
# (Catch2's reporters write no samples), with params test_case and
# section, as tests/cli/lib/harness_values.py reads it. Catch2's JSON
# reporter writes no benchmark results: such a file is refused, saying so.
# The sanitizer pass would only build the same benchmark again: what it
# writes is read under the sanitizers by cli/formats_rust_py_cpp.
# ctest: slow plain-only cost=16
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
[ -f /usr/include/catch2/catch.hpp ] || fail "Catch2 is missing: scripts/install-deps installs catch2"
command -v g++ >/dev/null || fail "g++ is missing (build-essential)"
cat >"$T/b.cpp" <<'CPP'
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
TEST_CASE("fib") {
    BENCHMARK("fib 8") { return fib(8); };
    SECTION("outer") {
        SECTION("inner") {
            BENCHMARK("fib 12") { return fib(12); };
        }
    }
}
TEST_CASE("a <name> & \"quotes\"") {
    BENCHMARK("x < y") { return fib(3); };
}
CPP
# -O0 and a 10 ms warm-up: what is measured does not matter here, only
# what Catch2 writes (about 4 s of CPU less than -O1 and its 100 ms default)
g++ -O0 -o "$T/b" "$T/b.cpp" 2>"$T/cc.err" || fail "g++: $(tail -5 "$T/cc.err")"
"$T/b" --reporter xml --benchmark-samples 7 --benchmark-resamples 200 --benchmark-warmup-time 10 >"$T/out.xml" || fail "the benchmark failed"
bd init >/dev/null
bd ingest -q --plan tool --run r1 --host h "$T/out.xml" || fail "not loaded"
expect_rows "read as" "SELECT format FROM archive_member WHERE path = 'files/out.xml'" "catch2"
python3 "$LIB/harness_values.py" catch2 "$T/store.db" r1 "$T/out.xml" >/dev/null || fail "values differ"
expect_rows "sections" "SELECT b.params, json_extract(s.detail, '$.samples') FROM series s
                        JOIN benchmark b ON b.id = s.benchmark_id WHERE b.name = 'fib 12'" \
    '"{""section"":""outer/inner"",""test_case"":""fib""}",7'
expect_rows "version" "SELECT json_extract(attributes, '$.test_binary') FROM run WHERE name = 'r1'" "b"
# the JSON reporter (Catch2 3.x) writes no benchmark results
printf '{\n  "version": 1,\n  "metadata": {"name": "b", "rng-seed": 1, "catch2-version": "3.5.2"},\n  "test-run": {"test-cases": []}\n}\n' >"$T/catch2.json"
rc=0
bd ingest -q --plan tool --run r2 --host h "$T/catch2.json" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "JSON reporter output: exit $rc"
grep -q "catch2.json: Catch2's JSON reporter writes no benchmark results" "$T/err" || fail "$(cat "$T/err")"
echo ok
