# benchstat's p on tied samples through ingest and `benchdb compare`: the
# reproducer of docs/functions.md (mann_whitney), B/op of base [1,2,2,2]
# against head [1 x11, 2 x3], where benchstat v2 prints
# "~ (p=0.324 n=4+14)" (go-moremath counts the mass of the baseline's
# lowest possible U; the exact lower tail is 0, which once gave p = 0.000
# and a false "better"). The p of every tie pattern is checked against
# go-moremath's algorithm by unit/rank (test_mw_ties) and sql/fn_benchstat_ties.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd init >/dev/null

bench() { # FILE VALUE...: one line of Go benchmark text per B/op value
    f=$1
    shift
    { printf 'goos: linux\ngoarch: amd64\npkg: example.com/ties\n'
      for v in "$@"; do printf 'BenchmarkAlloc-8\t1000\t100 ns/op\t%s B/op\n' "$v"; done; } >"$f"
}
bench base.txt 1 2 2 2
bench head.txt 1 1 1 1 1 1 1 1 1 1 1 2 2 2
bd ingest --quiet --format go-bench --plan ties --run base --host h base.txt || fail "ingest base"
bd ingest --quiet --format go-bench --plan ties --run head --host h head.txt || fail "ingest head"

# cell KEY: KEY of the one cell row of the last run's JSON output
cell() {
    python3 -c 'import json, sys; r = [r for r in json.load(open(sys.argv[1])) if r["kind"] == "cell"]; print(repr(r[0][sys.argv[2]]) if len(r) == 1 else "rows: %d" % len(r))' "$T/out" "$1"
}
run bd compare --plan ties --metric B/op --format json --no-record base head
expect_rc 0 "compare (json)"
p=$(cell p)
verdict=$(cell verdict)
expect_eq "$(printf '%.3f' "$p")" "0.324" "p of the reproducer"
expect_eq "$p" "$(python3 -c 'print(repr(11 / 34))')" "p = 11/34 to the last bit"
expect_eq "$verdict" "'~'" "the reproducer's verdict"

# The table prints benchstat's p and "~" on the B/op row.
run bd compare --plan ties --metric B/op --no-record base head
expect_rc 0 "compare (table)"
row=$(grep 'Alloc' "$T/out")
case $row in
*'~'*0.324*) checks=$((checks + 1)) ;;
*) fail "table row lacks '~' and 0.324: $row" ;;
esac

# With --method exact the p is the conditional distribution's two-sided
# p, min(1, 2 min(P(W <= 43), P(W >= 43))) = 2 (240 + 15) / 3060 = 1/6.
run bd compare --plan ties --metric B/op --method exact --format json --no-record base head
expect_rc 0 "compare --method exact"
expect_eq "$(cell p)" "$(python3 -c 'print(repr(1 / 6))')" "exact p of the reproducer"

finish
