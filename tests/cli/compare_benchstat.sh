# benchstat v2's golden tests (tests/data/benchstat, golang/perf
# cmd/benchstat/testdata) through ingest and `benchdb compare`: every row
# of crcIgnore, units, zero, smallSample, issue19565, issue19634, the CSV
# golden and the package documentation's examples that compare two files
# (example01, 02, 03, 08) must have its medians, ±, change, p, n, notes
# and geomean row as benchstat prints them (tests/data/benchstat/
# check_compare.py says how). Inputs benchstat reads as one file with
# -col note are split by note (gen_compare_data.py). Where benchdb's exact
# arithmetic deliberately differs from benchstat's (the median's order
# statistics for 21 to 30 values follow the last bits of Go's lgamma),
# the last case shows benchdb's choice.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
D=$BENCHDB_SRC/tests/data/benchstat
CHECK="python3 $D/check_compare.py"
bd init >/dev/null

go_bench() { # PLAN RUN FILE
    bd ingest --quiet --format go-bench --plan "$1" --run "$2" --host benchstat "$3" || fail "ingest $3"
}

# check NAME GOLDEN COMPARE-ARGS...: compare as CSV, kept as NAME.csv for
# the golden's checks, which check_goldens runs for every case at the end.
pairs=
check() {
    name=$1 golden=$2
    shift 2
    run bd compare --format csv "$@"
    expect_rc 0 "$name: compare"
    cp "$T/out" "$T/$name.csv"
    pairs="$pairs $name:$golden"
}
# check_goldens: every case's golden checks in one Python process
# (check_compare.py takes GOLDEN OURS pairs and prints a summary line
# naming each golden); each case fails with its own name.
check_goldens() {
    set --
    for p in $pairs; do set -- "$@" "$D/${p#*:}" "$T/${p%%:*}.csv"; done
    run $CHECK "$@"
    for p in $pairs; do
        checks=$((checks + 1))
        grep -q "^${p#*:}: [0-9]* checks, 0 failed\$" "$T/out" || fail "${p%%:*}: differs from ${p#*:}"
    done
    [ "$rc" = 0 ] || cat "$T/out" >&2
    grep ' checks, ' "$T/out"
}

go_bench crc old "$D/crc-old.txt"
go_bench crc new "$D/crc-new.txt"
check crcIgnore crcIgnore.stdout --plan crc old new

go_bench docs old.txt "$D/old.txt"
go_bench docs new.txt "$D/new.txt"
for ex in example01 example03 example08 csvOldNew; do
    check "$ex" "$ex.stdout" old.txt new.txt
done
# example02 shows only the json rows of old.txt against new.txt (-filter).
run bd compare --format csv old.txt new.txt
grep -v 'gob' "$T/out" | grep -v '^geomean' >"$T/example02.csv"
pairs="$pairs example02:example02.stdout"

for case in smallSample issue19565 issue19634; do
    go_bench "$case" before "$D/compare/$case-before.txt"
    go_bench "$case" after "$D/compare/$case-after.txt"
    check "$case" "$case.stdout" --plan "$case" before after
done

bd ingest --quiet "$D/compare/units-before.jsonl" "$D/compare/units-after.jsonl" || fail "ingest units"
check units units.stdout --plan units --exact-units text-bytes before after
bd ingest --quiet "$D/compare/zero-before.jsonl" "$D/compare/zero-after.jsonl" || fail "ingest zero"
check zero zero.stdout --plan zero --exact-units a-bytes,b-bytes,c-bytes,x,y before after
check_goldens

# The checker itself fails on a wrong number: one median changed.
sed 's/^\(cell,BenchmarkFloatSub\/100,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\)115.0,/\1115.1,/' \
    "$T/issue19634.csv" >"$T/wrong.csv"
cmp -s "$T/issue19634.csv" "$T/wrong.csv" && fail "the corrupted copy differs"
run $CHECK "$D/issue19634.stdout" "$T/wrong.csv"
expect_rc 1 "a wrong median fails the check"

# 24 values: benchdb's exact binomial masses give the median's interval
# (x7, x17), where benchstat (go-moremath's exp(lgamma) masses, go1.19)
# takes (x8, x18). With values k^2, k = 1..24: median 156.5, and ± is
# 100 max(17^2/156.5 - 1, 1 - 7^2/156.5) = 85% here, 107% in benchstat.
awk 'BEGIN { for (k = 1; k <= 24; k++) printf "BenchmarkSquares 1 %d ns/op\n", k * k }' >sq-a.txt
awk 'BEGIN { for (k = 1; k <= 24; k++) printf "BenchmarkSquares 1 %d ns/op\n", 2 * k * k }' >sq-b.txt
go_bench squares a sq-a.txt
go_bench squares b sq-b.txt
run bd compare --plan squares --format csv a b
expect_rc 0 "squares: compare"
pm=$(awk -F, '$1 == "cell" { print $9 }' "$T/out")
expect_eq "$(printf '%.6f' "$pm")" "$(awk 'BEGIN { printf "%.6f", 100 * (289 / 156.5 - 1) }')" \
    "24 values: ± from x7 and x17 (exact binomial masses)"

finish
