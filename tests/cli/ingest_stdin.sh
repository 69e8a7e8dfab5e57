# '-' reads standard input: it loads like the file, a second time it is
# rolled back and skipped (the hash is known only at the end), and the same
# bytes given as a file are skipped too.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
out=$(bd ingest - <"$DATA/good/example.jsonl" 2>"$T/err")
[ ! -s "$T/err" ] || fail "stderr: $(cat "$T/err")"
case "$out" in "ingest: 1 archive loaded, 0 skipped, 0 failed; 2 runs, 20 values (and 2 warmups); "*) ;; *) fail "summary: $out" ;; esac
sha=$(sha256sum <"$DATA/good/example.jsonl" | cut -d' ' -f1)
expect_rows archive "SELECT sha256, name, content_encoding, size FROM archive" "$sha,-,zstd,$(wc -c <"$DATA/good/example.jsonl")"
before=$(snapshot)
out=$(bd ingest - <"$DATA/good/example.jsonl" 2>"$T/err")
[ "$(cat "$T/err")" = "<stdin>: skipped: already stored as archive 1 \"-\" (sha256 ${sha%"${sha#????????????}"}...)" ] ||
    fail "stdin skip notice: $(cat "$T/err")"
case "$out" in "ingest: 0 archives loaded, 1 skipped, 0 failed; 0 runs, 0 values; "*) ;; *) fail "summary: $out" ;; esac
[ "$(snapshot)" = "$before" ] || fail "stdin re-ingest changed the store"
cp "$DATA/good/example.jsonl" "$T/copy.jsonl"
bd ingest "$T/copy.jsonl" 2>&1 | grep -q "skipped: already stored as archive 1" || fail "file with stored bytes not skipped"
[ "$(snapshot)" = "$before" ] || fail "file re-ingest changed the store"
# A refused stream from stdin: the error names <stdin>; nothing stored.
rc=0
printf '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r","host":"h"}\n{"record":"gate"}\n' |
    bd ingest - >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "exit $rc"
[ "$(cat "$T/err")" = 'error: <stdin>:2: gate.name: required field missing (expected a non-empty string)
note: <stdin>: archive not stored (nothing from it was written)' ] || fail "stdin error: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "refused stdin changed the store"
# A stream larger than the loader's queue, sent again: refused at line 1
# (its runs are stored), read to the end for its hash, then skipped.
python3 "$LIB/gen_archive.py" "$T/mid.jsonl" --values 200000 --iterations 500 >/dev/null
cat "$T/mid.jsonl" | bd ingest --quiet - || fail "mid-size stdin"
before=$(snapshot)
out=$(cat "$T/mid.jsonl" | bd ingest - 2>"$T/err") || fail "mid-size stdin again: $(cat "$T/err")"
grep -q "^<stdin>: skipped: already stored as archive 2 " "$T/err" || fail "mid-size skip: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "mid-size stdin re-ingest changed the store"
echo ok
