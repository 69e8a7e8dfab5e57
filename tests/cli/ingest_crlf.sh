# CRLF line ends and blank lines load exactly like LF: same rows, same values.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
sed 's/"plan":"calibration-example"/"plan":"crlf"/' "$DATA/good/example.jsonl" | awk '{ printf "%s\r\n", $0; if (NR == 3) printf "\r\n  \r\n" }' >"$T/crlf.jsonl"
[ "$(grep -c "$(printf '\r')\$" "$T/crlf.jsonl")" = 16 ] || fail "test setup: CRLF"
bd ingest --quiet "$DATA/good/example.jsonl" "$T/crlf.jsonl" || fail "CRLF archive refused"
q="SELECT b.name, s.block, v.name, s.fork, s.unit, s.n, s.total, (SELECT group_concat(value, ' ') FROM sample WHERE series_id = s.id)
   FROM series s JOIN run r ON r.id = s.run_id JOIN plan p ON p.id = r.plan_id JOIN benchmark b ON b.id = s.benchmark_id
   JOIN variant v ON v.id = s.variant_id WHERE p.name = :p ORDER BY s.id"
lf=$(bd sql "$q" --param p=calibration-example --format csv)
crlf=$(bd sql "$q" --param p=crlf --format csv)
[ -n "$lf" ] && [ "$lf" = "$crlf" ] || fail "CRLF rows differ:
$lf
---
$crlf"
expect_rows attrs "SELECT count(DISTINCT attributes), count(*) FROM run" "2,4"
echo ok
