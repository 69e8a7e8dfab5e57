# Escapes, the ingest and check leftovers (docs/reliability.md):
# what ingest and check print for a person escapes control characters
# (text_escape_controls), so that an archive's file name or a run's name
# holding ESC or CR cannot drive the terminal. The notice of a replaced run
# used to be written to stderr raw. Here: a file named v<ESC>[2J<CR>1.jsonl
# holding a run named r<ESC>[2J<CR>2, replaced from another archive; the
# file given again (skipped); its stored bytes damaged (check's error).
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
# run_kept CMD...: run, its stdout and stderr also kept in all.txt.
run_kept() {
    run "$@"
    cat "$T/out" "$T/err" >>all.txt
}
ex="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
bd init >/dev/null
v1=$(printf 'v\033[2J\r1.jsonl')
sed 's/"run":"vm-a-2"/"run":"r\\u001b[2J\\r2"/' "$ex" >"$v1"
# v2: that run again, with other values (another byte stream).
{
    sed -n 11,12p "$ex" | sed 's/"run":"vm-a-2"/"run":"r\\u001b[2J\\r2"/'
    echo '{"record":"samples","benchmark":"roundtrip","block":1,"variant":"native","unit":"ops/s","values":[7,8,9]}'
} >v2.jsonl
run_kept bd ingest "$v1"
expect_rc 0 "the archive named with ESC and CR"
expect_eq "$(bd sql "SELECT count(*) FROM run WHERE name = 'r' || char(27) || '[2J' || char(13) || '2'" --format csv | tail -n 1 | tr -d '\r')" 1 \
    "the run's name stored as given"

run_kept bd ingest "$v1"
expect_rc 0 "the same file again"
expect_eq "$(cat "$T/err")" \
    "v\\x1b[2J\\r1.jsonl: skipped: already stored as archive 1 \"v\\x1b[2J\\r1.jsonl\" (sha256 $(sha256sum <"$v1" | cut -c1-12)...)" \
    "the skip notice escapes the file name"

run_kept bd ingest --replace v2.jsonl
expect_rc 0 "--replace"
expect_eq "$(cat "$T/err")" \
    'v2.jsonl:1: replaced run "r\x1b[2J\r2" of plan "calibration-example" stored from archive "v\x1b[2J\r1.jsonl"' \
    "the replace notice escapes the run's and the archive's names"
grep -q '^ingest: 1 archive loaded, 0 skipped, 0 failed; 1 run, 3 values; ' "$T/out" || fail "summary: $(cat "$T/out")"

bd sql --write "UPDATE archive SET stored_size = 5 WHERE id = 1" >/dev/null
run_kept bd check
expect_rc 1 "check on the damaged archive"
expect_err_has "error: check: archive 1 \"v\\x1b[2J\\r1.jsonl\": chunks hold " "check escapes the archive's name"
expect_out_has "check: 2 archives re-read and re-hashed: PROBLEMS" "check's line"

# Nothing raw reached the terminal in any of these.
if grep -q "$(printf '\033')" all.txt || grep -q "$(printf '\r')" all.txt; then
    fail "a raw ESC or CR was printed"
fi
finish
