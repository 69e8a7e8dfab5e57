# tinybench, Vitest bench and Benchmark.js, the real npm packages
# (tests/jsbench, installed by scripts/install-deps with npm ci): each runs a
# tiny benchmark, benchdb ingests what it wrote (the format recognised by its
# content), and tests/jsbench/check_values.mjs, reading the same file on its
# own, checks every stored value, its name, metric, unit, fork and
# position. Fails, never skips, when node or the modules are missing.
# ctest: slow
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
. "$BENCHDB_SRC/tests/cli/lib/npm_wait.sh"
npm_wait
J=$BENCHDB_SRC/tests/jsbench
command -v node >/dev/null || fail "node is missing (scripts/install-deps installs it)"
for m in tinybench vitest benchmark; do
    [ -f "$J/node_modules/$m/package.json" ] || fail "tests/jsbench/node_modules/$m is missing (scripts/install-deps)"
done
bd init >/dev/null

# check NAME FORMAT FILE: ingest FILE as run NAME (format detected), then
# compare every stored value with the file.
check() {
    bd ingest -q --plan js --run "$1" --host h "$3" || fail "$1: not loaded"
    expect_rows "$1: read as" "SELECT m.format FROM archive_member m JOIN series s ON s.member_id = m.id
                               JOIN run r ON r.id = s.run_id WHERE r.name = '$1' GROUP BY m.format" "$2"
    bd sql "SELECT b.name, s.metric, s.unit, s.fork, x.warmup, x.iteration, x.value
            FROM sample x JOIN series s ON s.id = x.series_id JOIN benchmark b ON b.id = s.benchmark_id
            JOIN run r ON r.id = s.run_id WHERE r.name = '$1'" --format json >"$T/$1.stored.json" || fail "$1: sql"
    node "$J/check_values.mjs" "$2" "$3" "$T/$1.stored.json" >"$T/$1.check" || fail "$1: $(cat "$T/$1.check")"
    echo "$1: $(cat "$T/$1.check")"
}

node "$J/tinybench_run.mjs" "$T/tb-retained.json" retain || fail "tinybench did not run"
check tb-retained tinybench "$T/tb-retained.json"
expect_rows "tinybench: latency and throughput samples" "SELECT count(*), sum(n) FROM series s JOIN run r ON r.id = s.run_id
             WHERE r.name = 'tb-retained'" "4,32"
node "$J/tinybench_run.mjs" "$T/tb-mean.json" || fail "tinybench did not run"
check tb-mean tinybench "$T/tb-mean.json"
expect_rows "tinybench without samples: latency's and throughput's means, marked" "SELECT count(*) FROM series s JOIN run r ON r.id = s.run_id
             WHERE r.name = 'tb-mean' AND s.n = 1 AND s.detail ->> 'stored' = 'mean'" "4"

(cd "$J" && ./node_modules/.bin/vitest bench --run --root "$J" --outputJson "$T/vitest.json" sum.bench.js) \
    >"$T/vitest.log" 2>&1 || fail "vitest bench failed: $(tail -n 20 "$T/vitest.log")"
check vitest vitest "$T/vitest.json"
expect_rows "vitest: named FILE > GROUP > NAME, the statistics in detail" \
    "SELECT b.name, s.detail ->> 'sampleCount' FROM series s JOIN benchmark b ON b.id = s.benchmark_id
     JOIN run r ON r.id = s.run_id WHERE r.name = 'vitest' ORDER BY b.name" \
    "sum.bench.js > sum > loop,6
sum.bench.js > sum > reduce,6"

node "$J/benchmarkjs_run.cjs" "$T/bjs.json" || fail "Benchmark.js did not run"
check bjs benchmarkjs "$T/bjs.json"
node "$J/benchmarkjs_run.cjs" "$T/bjs-suite.json" suite || fail "Benchmark.js did not run"
check bjs-suite benchmarkjs "$T/bjs-suite.json"
bd check >/dev/null || fail "check after the JavaScript harnesses"
echo ok
