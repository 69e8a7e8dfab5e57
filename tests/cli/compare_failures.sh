# compare says what the harness reported failed: a Google Benchmark
# benchmark that called SkipWithError (error_occurred), a hyperfine command
# run with --ignore-failure that exited non-zero, asv's failed and skipped
# benchmarks. Such a benchmark has no values (it would show as removed, or
# not at all) or values of a failing command; the first line names it, on
# files and on a store alike (docs/queries.md, "The pull-request comment").
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
H=$BENCHDB_SRC/tests/data/harness

# Google Benchmark 1.7.1: BM_Parse runs in base, errors in head (3 repetitions).
cp "$H/google-benchmark/error_base.json" base.json
cp "$H/google-benchmark/error_head.json" head.json
run bd compare base.json head.json
expect_rc 0 "files"
expect_err_has "compare: inconclusive (0 slower, 0 faster, 1 removed, 1 inconclusive, 0 unchanged): no cell has samples enough for the U test to reach p ≤ 0.05, so none could be judged slower or faster; the harness reported 1 failure: BM_Parse in head.json (error: input file missing, 3 times)" \
    "the first line names the benchmark that failed, where, and the harness's message"
checks=$((checks + 1))
[ "$(head -n 1 "$T/err" | cut -c1-20)" = "compare: inconclusiv" ] || fail "the summary is stderr's first line"

run bd compare base.json head.json --format markdown
expect_rc 0 "files, markdown"
checks=$((checks + 1))
head -n 1 "$T/out" | grep -qF -- "— gate: passes, judging no cell: none has samples enough for p ≤ 0.05; the harness reported 1 failure: BM_Parse in head.json (error: input file missing, 3 times)" ||
    fail "the comment's first line names the failure: $(head -n 1 "$T/out")"
checks=$((checks + 1))
grep -qxF -- "- 1 removed (in base.json, not in head.json): BM_Parse (failed)" "$T/out" ||
    fail "the comment's removed benchmark marked as failed: $(grep removed "$T/out")"

run bd compare base.json head.json --format json --envelope
expect_rc 0 "files, json"
checks=$((checks + 1))
python3 - "$T/out" <<'PY' || fail "the envelope's failures"
import json, sys
d = json.load(open(sys.argv[1]))
want = [{"sides": ["head.json"], "benchmark": "BM_Parse", "what": "error: input file missing", "times": 3}]
assert d["failures"] == want, d.get("failures")
PY

# The same files in a store: compare on the runs says the same.
bd init --db s.db >/dev/null
bd ingest --db s.db --plan p --run base --host h base.json >/dev/null 2>&1
bd ingest --db s.db --plan p --run head --host h head.json >/dev/null 2>&1
run bd compare --db s.db --no-record base head
expect_rc 0 "store"
expect_err_has "compare: inconclusive (0 slower, 0 faster, 1 removed, 1 inconclusive, 0 unchanged): no cell has samples enough for the U test to reach p ≤ 0.05, so none could be judged slower or faster; the harness reported 1 failure: BM_Parse in head (error: input file missing, 3 times)" \
    "the store's runs: the same first line"
run bd query compare --db s.db -p plan=p -p a=base -p b=head --no-record
expect_err_has "inconclusive (0 slower, 0 faster, 1 removed, 1 inconclusive, 0 unchanged): no cell has samples enough for the U test to reach p ≤ 0.05, so none could be judged slower or faster; the harness reported 1 failure: BM_Parse in head (error: input file missing, 3 times)" \
    "query compare (the saved query alone): the same first line"
run bd query compare --db s.db -p plan=p -p a=base -p b=head --no-record --format markdown
checks=$((checks + 1))
head -n 1 "$T/out" | grep -qF -- "; the harness reported 1 failure: BM_Parse in head (error: input file missing, 3 times)" ||
    fail "query compare's Markdown names the failure: $(head -n 1 "$T/out")"
run bd compare --db s.db --no-record --by host h h2 --plan p
checks=$((checks + 1))
grep -q "harness reported" "$T/err" && fail "--by host: a host of no run reports nothing: $(cat "$T/err")"

# Google Benchmark 1.8 and later: SkipWithMessage writes "skipped": true
# and "skip_message" (json_reporter.cc), its times 0 and iterations 0. Such
# a row was a measured 0 (the head "faster" by 100% with 4 repetitions or
# more); it is an event, benchmark-skipped, and said so. head.json's rows of
# BM_Parse rewritten as 1.8 writes them.
python3 - head.json skip.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    if b.pop("error_occurred", False):
        b.pop("error_message")
        b["skipped"], b["skip_message"] = True, "needs AVX-512"
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
run bd compare base.json skip.json
expect_rc 0 "skipped rows"
expect_err_has "compare: inconclusive (0 slower, 0 faster, 1 removed, 1 inconclusive, 0 unchanged): no cell has samples enough for the U test to reach p ≤ 0.05, so none could be judged slower or faster; the harness reported 1 failure: BM_Parse in skip.json (skipped: needs AVX-512, 3 times)" \
    "a skipped benchmark: no values, and said"
bd ingest --db s.db --plan p --run skip --host h skip.json >/dev/null 2>&1
got=$(bd sql --db s.db "SELECT (SELECT count(*) FROM series se JOIN run r ON r.id = se.run_id JOIN benchmark b ON b.id = se.benchmark_id
      WHERE r.name = 'skip' AND b.name = 'BM_Parse') || ' ' || (SELECT count(*) FROM event e JOIN run r ON r.id = e.run_id
      WHERE r.name = 'skip' AND e.name = 'benchmark-skipped')" --format csv | tail -n 1 | tr -d '\r')
expect_eq "$got" "0 3" "ingest: no series of the skipped benchmark, an event per skipped repetition"

# hyperfine --ignore-failure: the command's times are compared, and its exit codes said.
run bd compare a="$H/hyperfine/hyperfine-py_ignored_failure.json" b="$H/hyperfine/hyperfine-py_ignored_failure.json"
expect_rc 0 "hyperfine"
expect_err_has "; the harness reported 1 failure: kill -9 \$\$ in a and b (exit code 137 in 2 of 2 runs)" \
    "a command that exited non-zero, on both sides"

# asv: five failed or skipped benchmarks a side: two named, the rest after the tables.
run bd compare a="$H/asv/asv_cheetah_fcf8c079-py2.7-Cython-numpy1.8.json" b="$H/asv/asv_cheetah_fcf8c079-py2.7-Cython-numpy1.8.json"
expect_rc 0 "asv"
expect_err_has "; the harness reported 5 failures: time_AAA_failure in a and b (error), time_AAA_skip in a and b (skipped) and 3 more (listed after the tables)" \
    "the first line names two of five"
expect_err_has "compare: the harness reported a failure: time_other.time_parameterized/param1=3 in a and b (error)" \
    "every failure after the tables, its params as the rows name them"
# The same asv file as two runs of a store: query compare (the saved query
# alone) names two in its first line, every one after the rows, and all
# five in its envelope.
A="$H/asv/asv_cheetah_fcf8c079-py2.7-Cython-numpy1.8.json"
bd init --db asv.db >/dev/null
for s in a b; do bd ingest --db asv.db --plan asv --run $s --host h "$A" >/dev/null 2>&1 || fail "ingest asv run $s"; done
run bd query compare --db asv.db -p plan=asv -p a=a -p b=b --no-record
expect_err_has "; the harness reported 5 failures: time_AAA_failure in a and b (error), time_AAA_skip in a and b (skipped) and 3 more (listed after the tables)" \
    "query compare: the first line names two of five"
expect_err_has "the harness reported a failure: time_other.time_parameterized/param1=3 in a and b (error)" \
    "query compare: every failure after the rows"
run bd query compare --db asv.db -p plan=asv -p a=a -p b=b --no-record --format json --envelope
checks=$((checks + 1))
python3 - "$T/out" <<'PY' || fail "query compare's envelope: every failure"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["failures"]
assert len(f) == 5 and f[0] == {"sides": ["a", "b"], "benchmark": "time_AAA_failure", "what": "error", "times": 1}, f
PY

# Vitest 4.1: a benchmark that threw is written without statistics (no
# mean, "samples": []); the file was refused for it, now it is a failure.
run bd compare a="$H/vitest/vitest4_threw.json" b="$H/vitest/vitest4_threw.json"
expect_rc 0 "vitest"
expect_err_has "; the harness reported 1 failure: a.bench.js > strings > throws in a and b (error: no result: Vitest writes no statistics for a benchmark that threw)" \
    "Vitest's benchmark that threw"

# tinybench 6: a task that threw has state "errored" and its Error, which
# JSON.stringify writes as {} (as tinybench 6.2.5's tasks are saved).
printf '%s\n' '[{"name":"sum","result":{"state":"completed","latency":{"samples":[0.1,0.2,0.3],"mean":0.2}}},' \
    '{"name":"throws","result":{"state":"errored","error":{},"runtime":"node"}}]' >tb.json
run bd compare a=tb.json b=tb.json
expect_err_has "; the harness reported 1 failure: throws in a and b (error, state errored)" \
    "tinybench's errored task without a message: its state"

# A file of nothing but failures has no value to compare: compare says so
# as its answer (nothing compared, exit 4 with --gate, the comment written
# for the pull request), naming the side and the harness's failures; ingest
# still refuses it, saying the harness reported them all failed (not only
# "no measured values").
python3 - head.json allerr.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"] = [b for b in d["benchmarks"] if b.get("error_occurred")]
json.dump(d, open(sys.argv[2], "w"))
PY
run bd compare base.json allerr.json --gate
expect_rc 4 "every benchmark failed: nothing compared"
expect_eq "$(head -n 1 "$T/err")" "compare: nothing compared (0 slower, 0 faster, 2 removed, 0 unchanged): no cell has values both in base.json and in another side; allerr.json holds no measured value: every benchmark it ran failed; the harness reported 1 failure: BM_Parse in allerr.json (error: input file missing, 3 times)" \
    "every benchmark failed: the first line says so, with the failures"
run bd compare base.json allerr.json --gate --format markdown
expect_rc 4 "every benchmark failed, the comment"
expect_eq "$(head -n 1 "$T/out" | cut -c1-60)" "**Nothing compared** (0 slower, 0 faster, 2 removed, 0 uncha" \
    "every benchmark failed: a comment to post, its answer first"
run bd --db fails.db init
run bd --db fails.db ingest --plan p --run r --host h allerr.json
expect_rc 1 "ingest of a file whose every benchmark failed"
expect_err_has "error: allerr.json: no measured values read as google-benchmark: the harness reported every benchmark it ran failed or skipped (3 events, the first: benchmark-error BM_Parse)" \
    "ingest: why there is nothing: the harness's failures"

# Files without failures: the line is as before.
run bd compare "$H/google-benchmark/items_base.json" "$H/google-benchmark/items_head.json"
checks=$((checks + 1))
grep -q "harness reported" "$T/err" && fail "no failure, nothing said: $(cat "$T/err")"

finish
