# A bad line in the middle of an otherwise good archive: nothing from that
# archive is stored, the next archive of the same command loads, exit 1.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
ex="$DATA/good/example.jsonl"
{ head -n 8 "$ex"; echo '{"record":"samples", "benchmark": oops}'; tail -n +9 "$ex"; } >"$T/a-bad.jsonl"
sed 's/"plan":"calibration-example"/"plan":"next"/' "$ex" >"$T/b-good.jsonl"
before=$(snapshot)
rc=0
out=$(cd "$T" && bd ingest a-bad.jsonl b-good.jsonl 2>"$T/err") || rc=$?
[ "$rc" = 1 ] || fail "exit $rc"
[ "$(cat "$T/err")" = "error: a-bad.jsonl:9: invalid JSON at column 38: invalid token near 'oops'
note: a-bad.jsonl: archive not stored (nothing from it was written)" ] || fail "stderr: $(cat "$T/err")"
case "$out" in "ingest: 1 archive loaded, 0 skipped, 1 failed; 2 runs, 20 values (and 2 warmups); "*) ;; *) fail "summary: $out" ;; esac
expect_rows only-b "SELECT a.name, p.name, count(*) FROM run r JOIN archive a ON a.id = r.archive_id JOIN plan p ON p.id = r.plan_id GROUP BY 1, 2" \
    "b-good.jsonl,next,2"
expect_rows counts "SELECT (SELECT count(*) FROM archive), (SELECT count(*) FROM series), (SELECT count(*) FROM sample), (SELECT count(*) FROM gate), (SELECT count(*) FROM event)" \
    "1,8,22,2,2"
# A name that cannot be opened fails alone too.
rc=0
(cd "$T" && bd ingest --quiet missing.jsonl a-bad.jsonl) 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "missing file: exit $rc"
head -n 1 "$T/err" | grep -qx "error: missing.jsonl: cannot open: No such file or directory" || fail "missing: $(cat "$T/err")"
# --quiet drops the notices, not the note that completes an error.
grep -qx "note: a-bad.jsonl: archive not stored (nothing from it was written)" "$T/err" ||
    fail "--quiet: the refused archive's note: $(cat "$T/err")"
bd check >/dev/null || fail check
echo ok
