# What is recorded can be drawn, and a report that fails records nothing
# (docs/reliability.md):
#  - `report QUERY` checks what can fail before it records: --format svg of
#    a table view, a chart naming a column the rows lack, a companion query
#    that is not there or whose rows cannot be drawn, an output that cannot
#    be written; then records the evaluation (and its companion) and draws;
#  - an evaluation whose result holds text that is not UTF-8 or holds a NUL
#    byte (a value or a column's name) is not recorded: the result is
#    printed, the error names row, column and byte and what to do; so every
#    recorded evaluation is valid UTF-8 JSON, and report draws every one
#    (one recorded so by an earlier benchdb too, with a warning).
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd simulate -q --history 8 --hosts 1 --cells 2 --plan nightly n
bd ingest -q n || fail "ingest a history"
bd simulate -q --groups 1 --hosts 2 --positions 1 --cells 2 --forks 1 --iterations 2 --warmups 0 sim
bd ingest -q sim || fail "ingest a plan"
nevals() { bd sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r'; }

# --- Item 13: the attack. injected-steps draws a table: --format svg fails,
# and recorded an evaluation all the same.
run bd report injected-steps --format svg
expect_rc 1 "svg of a table view"
expect_err_has "report: query injected-steps has no chart" "says why"
expect_eq "$(nevals)" 0 "nothing recorded"
run bd report injected-steps --format svg -o z.svg
expect_rc 1 "the same with -o"
[ -e z.svg ] && fail "no file written"
expect_eq "$(nevals)" 0 "still nothing recorded"

# Variants: what only the rows tell (a column the chart names, a band
# parameter), a companion that is not there or whose rows cannot be drawn,
# an output that cannot be written.
mkdir q
printf -- '-- name: nocol\n-- param: plan  the plan\n-- chart: bar label=x value=y\nSELECT 1 AS x WHERE :plan IS NOT NULL;\n' >q/nocol.sql
printf -- '-- name: noband\n-- param: plan  the plan\n-- chart: bar label=x value=x band=lo,1\nSELECT 1 AS x WHERE :plan IS NOT NULL;\n' >q/noband.sql
printf -- '-- name: nofrom\n-- param: plan  the plan\n-- chart: bar label=x value=x from=nosuch\nSELECT 1 AS x WHERE :plan IS NOT NULL;\n' >q/nofrom.sql
printf -- '-- name: badfrom\n-- param: plan  the plan\n-- chart: bar label=x value=y from=compan\nSELECT 1 AS x WHERE :plan IS NOT NULL;\n' >q/badfrom.sql
printf -- '-- name: compan\n-- param: plan  the plan\nSELECT 2 AS x WHERE :plan IS NOT NULL;\n' >q/compan.sql
run bd report nocol --queries q -p plan=p
expect_rc 1 "a chart naming a missing column"
expect_err_has "report: query nocol: chart: value=y: no such column (its columns: x)" "names the column, before any record"
run bd report noband --queries q -p plan=p
expect_rc 1 "a band naming no parameter"
expect_err_has "chart: band: 'lo' is neither a number nor a numeric parameter of the evaluation" "says so"
run bd report nofrom --queries q -p plan=p
expect_rc 1 "a companion that is not there"
expect_err_has "chart from=nosuch: no saved query named 'nosuch'" "names it"
run bd report badfrom --queries q -p plan=p
expect_rc 1 "a companion whose rows lack the chart's column"
expect_err_has "query compan: chart: value=y: no such column" "the companion's column"
run bd report comparisons -p plan=calibration-sim -o missing-dir/x.html
expect_rc 1 "an output that cannot be written"
expect_err_has "report: cannot write missing-dir/x.html" "names it"
expect_eq "$(nevals)" 0 "none of them recorded anything (nor a companion)"
# What works still records: the rule and, for a chart from a companion,
# the companion run now.
run bd report placement-rule -p plan=calibration-sim -o pr.html
expect_rc 0 "a page"
expect_err_has "from evaluation 2 of comparisons (recorded now)" "the rule, then its companion"
expect_eq "$(nevals)" 2 "both recorded"
run bd report injected-steps -o z.html
expect_rc 0 "the table view as HTML"
expect_eq "$(nevals)" 3 "recorded"

# --- Item 10: the attack. A result holding text that is not UTF-8 was
# recorded, and could not be drawn.
printf -- "-- name: ff\nSELECT CAST(X'61ff62' AS TEXT) AS a, 1 AS n;\n" >q/ff.sql
printf -- "-- name: nul\nSELECT char(97,0,98) AS b, 1 AS n;\n" >q/nul.sql
printf -- "-- name: name\nSELECT 1 AS \"a\377b\";\n" >q/name.sql
run bd query --record ff --queries q
expect_rc 1 "a value that is not UTF-8"
expect_out_has 'a\xffb' "the result is printed, escaped"
expect_err_has "error: query ff: ran, but cannot record the evaluation: row 1, column a holds a byte that is not UTF-8 (0xff at byte 2): JSON text cannot hold it; return it as bytes instead (hex(a) or CAST(a AS BLOB)) (--no-record runs it without recording)" "names row, column and byte, and what to do"
run bd query --record nul --queries q
expect_rc 1 "a value holding a NUL byte"
expect_err_has "row 1, column b holds a NUL byte (0x00 at byte 2)" "the variant: NUL"
run bd query --record name --queries q
expect_rc 1 "a column's name that is not UTF-8"
expect_err_has 'the name of column 1 (a\xffb) holds a byte that is not UTF-8 (0xff at byte 2)' "names the column"
run bd query ff --queries q --no-record
expect_rc 0 "--no-record shows it"
run bd report ff --queries q -o ff.html
expect_rc 1 "report of it"
expect_err_has "report ff: cannot record the evaluation: row 1, column a holds a byte that is not UTF-8" "says why"
[ -e ff.html ] && fail "no page"
expect_eq "$(nevals)" 3 "none of them recorded"
run bd query ff --queries q --format json --no-record
expect_rc 0 "JSON output without recording"
# Bytes are recorded as bytes: hex() records.
printf -- "-- name: hexed\nSELECT hex(CAST(X'61ff62' AS TEXT)) AS a, CAST(char(97,0,98) AS BLOB) AS b;\n" >q/hexed.sql
run bd query --record hexed --queries q
expect_rc 0 "the bytes as hex and as a blob"
expect_eq "$(nevals)" 4 "recorded"

# Every recorded evaluation is valid UTF-8 JSON, and each is drawn.
bd sql "SELECT id FROM evaluation ORDER BY id" --format csv | tail -n +2 | tr -d '\r' >ids
bd sql "SELECT hex(params), hex(rows) FROM evaluation" --format csv | tail -n +2 | tr -d '\r' | python3 -c '
import json, sys
for line in sys.stdin:
    for h in line.strip().split(","):
        json.loads(bytes.fromhex(h).decode("utf-8"))
' || fail "every record is UTF-8 JSON"
while read -r id; do
    bd report --evaluation "$id" -o "e$id.html" 2>/dev/null || fail "evaluation $id is drawn"
done <ids
checks=$((checks + 2))

# An evaluation an earlier benchdb recorded with such bytes is drawn, the
# bytes as U+FFFD, with a warning; one with \u0000 in its JSON too.
bd query --record hexed --queries q >/dev/null 2>&1
bd sql --write "UPDATE evaluation SET rows = '[{\"a\": \"a' || CAST(X'ff' AS TEXT) || 'b\", \"b\": \"a\\u0000b\"}]' WHERE id = 5" >/dev/null ||
    fail "an old record"
run bd report --evaluation 5 -o old.html
expect_rc 0 "an old record with bytes that are not UTF-8"
expect_err_has "warning: evaluation 5: its recorded rows hold 1 byte that is not UTF-8 (recorded by an earlier benchdb): drawn as U+FFFD" "says so"
grep -q "a$(printf '\357\277\275')b" old.html || fail "the byte drawn as U+FFFD"
checks=$((checks + 1))

finish
