# The Criterion.rs, cargo bench, pytest-benchmark, asv, Catch2 and
# nanobench files of tests/data/harness (real tools' output and public
# samples, with hand-made edge cases: README.md there) each load with their
# format recognised from their content, and every value stored is the
# file's, as tests/cli/lib/harness_values.py reads it independently of the
# C adapters (names, params, forks, metrics, units, values in order,
# events). A Criterion directory loads its new/ files only, bringing each
# sample.json's benchmark.json and estimates.json along as members; asv's
# commit and pytest-benchmark's commit id become the run's source;
# nanobench's pyperf template is read as pyperf.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
S="$BENCHDB_SRC/tests/data/harness"
CHECK="python3 $LIB/harness_values.py"
bd init >/dev/null
n=0 read_as=
for fmt in cargo-bench pytest-benchmark asv catch2 nanobench; do
    for f in "$S/$fmt"/*; do
        name=${f##*/}
        want=$fmt
        case $name in pyperf_template.json) want=pyperf ;; esac
        bd ingest -q --plan formats --run "$name" --host h "$f" || fail "$name: not loaded"
        read_as="$read_as$name $want
"
        [ "$want" = pyperf ] || set -- "$@" "$fmt" "$T/store.db" "$name" "$f" --
        n=$((n + 1))
    done
done
[ "$n" -ge 12 ] || fail "only $n files"
# Every file's values, run by run, by one Python process (FAIL names the file).
$CHECK "$@" >/dev/null || fail "the values of a file differ (above)"
set --
# What each file was read as, every file's members in one benchdb process
# (a file's name is its member's path; the names are unique here): each
# member of that path, one a word, so that none or two fail too.
bd sql "SELECT substr(path, 7), group_concat(format, ' ') FROM archive_member WHERE path LIKE 'files/%'
        GROUP BY path" --format csv | tail -n +2 | tr -d '\r' >"$T/read_as"
while read -r name want; do
    [ -n "$name" ] || continue
    got=
    while IFS=, read -r path formats; do [ "$path" = "$name" ] && got=$formats; done <"$T/read_as"
    [ "$got" = "$want" ] || fail "$name: read as: expected
$want
got
$got"
done <<EOF2
$read_as
EOF2
# Criterion: the directory, new/ only (base/ holds a copy of an earlier run)
for run in run1 run2; do
    mkdir -p "$T/$run"
    cp -R "$S/criterion/$run" "$T/$run/criterion"
    # a saved baseline beside new/ is a copy, left out
    cp -R "$T/$run/criterion/fib 10/new" "$T/$run/criterion/fib 10/base"
    bd ingest -q --plan crit --run "$run" --host h "$T/$run/criterion" || fail "criterion $run: not loaded"
    set --
    while IFS= read -r f; do set -- "$@" "$f"; done <<EOF2
$(find "$S/criterion/$run" -name sample.json | LC_ALL=C sort)
EOF2
    [ "$#" = 3 ] || fail "criterion $run: $# sample files"
    $CHECK criterion "$T/store.db" "$run" "$@" >/dev/null || fail "criterion $run: values differ"
done
expect_rows "criterion members" "SELECT count(*), sum(path LIKE '%/new/benchmark.json'), sum(path LIKE '%/new/estimates.json'),
                                        sum(path LIKE '%/base/%'), sum(m.format = 'criterion')
                                 FROM archive_member m JOIN archive a ON a.id = m.archive_id JOIN run r ON r.archive_id = a.id
                                 WHERE r.name = 'run1'" "10,3,3,0,3"
# one file per benchmark: one block, not a block per file as repetitions are
expect_rows "criterion block" "SELECT DISTINCT s.block FROM series s JOIN run r ON r.id = s.run_id WHERE r.name = 'run1'" "1"
expect_rows "criterion detail" "SELECT json_extract(s.detail, '$.estimates.mean.point_estimate') IS NOT NULL,
                                       json_array_length(s.detail, '$.iters')
                                FROM series s JOIN run r ON r.id = s.run_id JOIN benchmark b ON b.id = s.benchmark_id
                                WHERE r.name = 'run1' AND b.name = 'fib 10'" "1,10"
# A sample.json given alone brings its companions; without them it is refused.
bd ingest -q --plan crit --run alone --host h "$S/criterion/run1/Fibonacci/Recursive/5/new/sample.json" ||
    fail "sample.json alone"
mkdir -p "$T/lonely"
cp "$S/criterion/run1/Fibonacci/Recursive/5/new/sample.json" "$T/lonely/"
rc=0
bd ingest -q --plan crit --run lonely --host h "$T/lonely/sample.json" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "sample.json without benchmark.json: exit $rc"
grep -q "sample.json: benchmark.json: not found beside sample.json" "$T/err" || fail "lonely: $(cat "$T/err")"
# Revisions from the files
expect_rows "asv source" "SELECT source FROM run WHERE name = 'v2_params_samples.json'" \
    "844fd45a9f0c3c1b2d3e4f5a6b7c8d9e0f1a2b3c"
expect_rows "asv machine" "SELECT json_extract(attributes, '$.machine') FROM run WHERE name = 'v2_params_samples.json'" \
    "ci-runner-1"
expect_rows "asv started" "SELECT started_at FROM run WHERE name = 'v2_params_samples.json'" "2024-05-29T16:27:30.000Z"
# the command line's --source wins over the file's
bd ingest -q --plan formats --run asv-src --host h --source given "$S/asv/v2_params_samples.json"
expect_rows "asv --source" "SELECT source FROM run WHERE name = 'asv-src'" "given"
bd check >/dev/null || fail "check"
echo ok
