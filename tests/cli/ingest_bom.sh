# A harness file that starts with UTF-8's byte order mark (EF BB BF: what
# Windows PowerShell 5's `Set-Content -Encoding UTF8` and Notepad write)
# loads as the same file without it, in every format: the same series and
# values. Before, a JSON file with one was "not harness output benchdb
# reads", and Go text lost its first line unseen (the mark made it no
# Benchmark line), in ingest and in compare on files alike. A UTF-16 file
# is refused saying so.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
H=$BENCHDB_SRC/tests/data/harness
bd init >/dev/null
n=0
for f in google-benchmark/error_head.json jmh/sample_mode.json hyperfine/bencher_two.json \
    pyperf/pyperf_mult_list_py36.json go-bench/config_and_allocs.txt cargo-bench/criterion_bencher_run1.txt \
    pytest-benchmark/fib_run1.json catch2/catch2_2.13_run1.xml tinybench/tinybench6_retained.json \
    bmf/bencher_report_latency.json benchmarkdotnet/launches_overhead_params.json nanobench/json_template_run1.json \
    asv/v2_params_samples.json vitest/bencher_vitest_two.json benchmarkjs/benchmarkjs_suite.json; do
    n=$((n + 1))
    base=$(basename "$f")
    mkdir -p "$T/plain$n" "$T/bom$n"
    cp "$H/$f" "$T/plain$n/$base"
    { printf '\357\273\277'; cat "$H/$f"; } >"$T/bom$n/$base"
    bd ingest --quiet --plan plain --run "r$n" --host h "$T/plain$n/$base" || fail "$f: refused without the mark"
    bd ingest --quiet --plan bom --run "r$n" --host h "$T/bom$n/$base" 2>"$T/err" ||
        fail "$f: refused with a byte order mark: $(cat "$T/err")"
done
q="SELECT r.name, b.name, b.params, s.metric, s.unit, s.fork, (SELECT group_concat(value, ' ') FROM
     (SELECT value FROM sample WHERE series_id = s.id ORDER BY iteration, warmup))
   FROM series s JOIN run r ON r.id = s.run_id JOIN plan p ON p.id = r.plan_id JOIN benchmark b ON b.id = s.benchmark_id
   WHERE p.name = :p ORDER BY r.id, s.id"
plain=$(bd sql "$q" --param p=plain --format csv)
bom=$(bd sql "$q" --param p=bom --format csv)
[ "$(printf '%s\n' "$plain" | wc -l)" -gt 60 ] || fail "test setup: too few series: $plain"
printf '%s\n' "$plain" >"$T/plain.csv"
printf '%s\n' "$bom" >"$T/bom.csv"
[ "$plain" = "$bom" ] || fail "the series with a byte order mark differ:
$(diff "$T/plain.csv" "$T/bom.csv")"

# compare on files: Go text as benchstat reads it, its first line kept.
printf '\357\273\277BenchmarkX-8 100 5 ns/op\nBenchmarkX-8 100 6 ns/op\n' >"$T/bom.txt"
printf 'BenchmarkX-8 100 5 ns/op\nBenchmarkX-8 100 6 ns/op\n' >"$T/plain.txt"
"$BENCHDB_BIN" compare "$T/bom.txt" "$T/plain.txt" >"$T/out" 2>"$T/err" || fail "compare: $(cat "$T/err")"
grep -q '^X-8 .*(p=1.000 n=2)' "$T/out" || fail "compare: both values of the marked file: $(cat "$T/out")"

# UTF-16 (Windows PowerShell 5's '>'): refused, saying it is UTF-16, not
# that the format is unknown.
python3 -c "import sys; open(sys.argv[1], 'wb').write('BenchmarkX-8 100 5 ns/op\r\n'.encode('utf-16'))" "$T/u16.txt"
before=$(snapshot)
bd ingest --plan u --run r --host h "$T/u16.txt" 2>"$T/err" && fail "UTF-16 loaded"
grep -qF "u16.txt: UTF-16 text (byte order mark FF FE), which benchdb does not read: save it as UTF-8" "$T/err" ||
    fail "ingest names UTF-16: $(cat "$T/err")"
bd ingest --plan u --run r --host h --format go-bench "$T/u16.txt" 2>"$T/err" && fail "UTF-16 loaded as go-bench"
grep -qF "no measured values read as go-bench (its content is UTF-16 text, which benchdb does not read: save it as UTF-8)" "$T/err" ||
    fail "--format: names UTF-16: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "UTF-16: the store changed"
"$BENCHDB_BIN" compare "$T/u16.txt" "$T/plain.txt" >"$T/out" 2>"$T/err" && fail "compare read UTF-16"
grep -qF "u16.txt: UTF-16 text (byte order mark FF FE), which benchdb does not read" "$T/err" ||
    fail "compare names UTF-16: $(cat "$T/err")"
echo ok
