# The tinybench, Vitest, Benchmark.js, BenchmarkDotNet, Bencher Metric
# Format and CSV/TSV files of tests/data/harness (real tools' output and
# public samples, with hand-made edge cases: README.md there) each load with
# their format recognised from their content, and every value stored, warm-
# ups included, is the file's, as tests/cli/lib/values_js_net.py reads it
# independently of the C adapters (names, params, forks, metrics, units,
# values and warm-ups in order, events). Two files of a format into one run
# are blocks 1 and 2, each value again the file's.
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); these files of tests/data/harness load under ASan in cli/formats_samples)
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
S="$BENCHDB_SRC/tests/data/harness"
CHECK="python3 $LIB/values_js_net.py"
bd init >/dev/null
n=0
for fmt in tinybench vitest benchmarkjs benchmarkdotnet bmf csv; do
    set --
    for f in "$S/$fmt"/*; do
        name=$(basename "$f")
        bd ingest -q --plan formats --run "$name" --host h "$f" || fail "$name: not loaded"
        expect_rows "$name: read as" "SELECT m.format FROM archive_member m WHERE m.path = 'files/$name'" "$fmt"
        echo "$fmt $T/store.db $name $f" >>"$T/values"
        n=$((n + 1))
        set -- "$@" "$f"
    done
    # two files (the format's first twice when it has one) as blocks 1 and
    # 2, in the order of their names
    [ "$#" -ge 2 ] || set -- "$1" "$1"
    cp "$1" "$T/1-$fmt.${1##*.}"
    cp "$2" "$T/2-$fmt.${2##*.}"
    set -- "$T/1-$fmt.${1##*.}" "$T/2-$fmt.${2##*.}"
    bd ingest -q --plan formats --run "$fmt-two" --host h "$2" "$1" || fail "$fmt: two files not loaded"
    echo "$fmt $T/store.db $fmt-two $1 $2" >>"$T/values"
    expect_rows "$fmt: two blocks" "SELECT count(DISTINCT s.block), min(s.block), max(s.block) FROM series s
                                    JOIN run r ON r.id = s.run_id WHERE r.name = '$fmt-two'" "2,1,2"
done
[ "$n" -ge 10 ] || fail "only $n files"
# Every run's values (each file's, each format's two blocks) by one Python
# process, a line each (FAIL names the run); a run's values are its own, so
# a later load does not touch them.
set --
while read -r line; do
    # shellcheck disable=SC2086 # the words of a line: no spaces in them here
    set -- "$@" $line --
done <"$T/values"
out=$($CHECK "$@" 2>&1) || fail "values differ: $(printf '%s\n' "$out" | tail -n 1)"
echo "$out"
bd check >/dev/null || fail "check"
echo ok
