# Same bits on another SQLite (docs/functions.md): every shipped saved query
# runs in the SQLite that better-sqlite3 bundles (3.53, newer than Debian's
# 3.40: another json, math and window implementation, sum() and avg()
# compensated) with build/benchstats loaded, on the example data and a
# simulated history, and every value it returns is compared with benchdb's
# own result, numbers by their bits (tests/sqlite-newer/check_rules.mjs).
# In the plain pass only: node cannot load an extension built with the
# sanitizers. Fails when node, npm or better-sqlite3 is missing
# (scripts/install-deps installs them).
# ctest: plain-only slow
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/cli/lib/npm_wait.sh"
npm_wait

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "FAIL: node or npm is not installed here (scripts/install-deps installs them): the shipped rules cannot be run in a newer SQLite" >&2
    exit 1
fi
dir="$BENCHDB_SRC/tests/sqlite-newer"
(cd "$dir" && node -e "require('better-sqlite3')" 2>/dev/null) ||
    { echo "FAIL: tests/sqlite-newer/node_modules/better-sqlite3 is missing or does not load (scripts/install-deps runs npm ci there)" >&2; exit 1; }

bd init >/dev/null
bd ingest -q "$BENCHDB_SRC/examples" || fail "ingest the examples"
bd simulate -q --history 40 --hosts 2 --cells 2 --steps 2 --seed 4 --plan nightly nightly
bd ingest -q nightly || fail "ingest the history"

cal='"plan": "calibration-sim"'
cat >cases.json <<EOF
[
 {"query": "placement-rule", "params": {$cal}},
 {"query": "placement-rule", "params": {$cal, "direction": "reverse"}},
 {"query": "placement-rule", "params": {$cal, "level": 0.9, "band_lo": 0.98, "band_hi": 1.02, "margin": 0.1}},
 {"query": "placement-rule", "params": {$cal, "group_by": "machine_type"}},
 {"query": "comparisons", "params": {$cal}},
 {"query": "comparisons", "params": {$cal, "direction": "reverse", "level": 0.99}},
 {"query": "widest", "params": {$cal, "kind": "all", "limit": 3}},
 {"query": "widest", "params": {$cal, "kind": "between", "direction": "reverse"}},
 {"query": "verdicts", "params": {$cal}},
 {"query": "verdicts", "params": {$cal, "level": 0.8}},
 {"query": "cell-spread", "params": {$cal}},
 {"query": "aggregations", "params": {"plan": "git-perf-p0001"}},
 {"query": "aggregations", "params": {$cal, "benchmark": "serialize"}},
 {"query": "trend", "params": {"benchmark": "serialize"}},
 {"query": "regressions", "params": {"plan": "nightly"}},
 {"query": "regressions", "params": {"window": 10, "max_pvalue": 0.05}},
 {"query": "injected-steps", "params": {}},
 {"query": "gate-percent", "params": {"scope": "every"}},
 {"query": "gate-ttest", "params": {"scope": "every"}},
 {"query": "gate-ttest", "params": {"scope": "every", "model": "z_score"}},
 {"query": "gate-ttest", "params": {"scope": "every", "model": "log_normal", "boundary": 0.9}},
 {"query": "gate-zscore", "params": {"scope": "every"}},
 {"query": "gate-zscore", "params": {"scope": "every", "svs": "mean", "threshold": 2}},
 {"query": "compare", "params": {$cal, "by": "variant", "a": "chill", "b": "native", "metric": "primary", "sample": "run"}},
 {"query": "compare", "params": {$cal, "by": "variant", "a": "chill", "b": "native", "sample": "block", "adjust": "holm"}},
 {"query": "compare", "params": {"plan": "nightly", "a": "ci-a-0001", "b": "ci-a-0040", "method": "exact", "adjust": "bh", "threshold": 1}},
 {"query": "compare", "params": {"plan": "nightly", "a": "ci-a-0001", "b": "ci-b-0040", "method": "r"}},
 {"query": "versions", "params": {"plan": "git-perf-p0001", "versions": "v2.18.0,v2.19.0-rc0,HEAD"}},
 {"query": "versions", "params": {"plan": "git-perf-p0001", "aggregate": "median"}},
 {"query": "versions", "params": {"plan": "git-perf-p0001", "aggregate": "trimmed", "k": 1, "sort": "regression"}},
 {"query": "variability", "params": {$cal}},
 {"query": "variability", "params": {$cal, "variant": "chill", "metric": "*"}}
]
EOF
# Every shipped query has a case (a new one needs a line above).
for f in "$BENCHDB_SRC"/queries/*.sql; do
    q=$(basename "$f" .sql)
    grep -q "\"query\": \"$q\"" cases.json || fail "queries/$q.sql has no case in rule_newer_sqlite.sh"
done

run node "$dir/check_rules.mjs" "$BENCHDB_BIN" "$T/results.db" "$BENCHDB_BUILD/benchstats.so" "$BENCHDB_SRC/queries" cases.json
expect_rc 0 "the shipped rules give benchdb's bits in better-sqlite3's SQLite"
grep '^FAIL' "$T/out" | head -20 >&2
tail -n 1 "$T/out"
expect_out_has "32 cases" "every case ran"
expect_out_has ", 0 failed" "none differed"
grep -q '^SQLite 3\.4[0-3]\.' "$T/out" && fail "better-sqlite3 runs an SQLite as old as Debian's"
checks=$((checks + 1))

finish
