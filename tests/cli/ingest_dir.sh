# A directory is searched recursively for *.jsonl and *.jsonl.zst, loaded
# in byte order of the paths; other files are left alone; usage errors.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v zstd >/dev/null || { echo "zstd CLI missing"; exit 77; }
bd init >/dev/null
mkdir -p "$T/runs/b/deep" "$T/runs/a"
ex="$DATA/good/example.jsonl"
for p in runs/b/deep/z runs/a/y runs/c runs/B; do
    sed "s/\"plan\":\"calibration-example\"/\"plan\":\"$(basename $p)\"/" "$ex" >"$T/$p.jsonl"
done
zstd -q --rm "$T/runs/a/y.jsonl"
cp "$ex" "$T/runs/notes.txt"
cp "$ex" "$T/runs/a/x.json"
(cd "$T" && bd ingest --quiet runs/) || fail "directory refused"
expect_rows order "SELECT name FROM archive ORDER BY id" "runs/B.jsonl
runs/a/y.jsonl.zst
runs/b/deep/z.jsonl
runs/c.jsonl"
expect_rows encoding "SELECT content_encoding FROM archive WHERE name LIKE '%.zst'" "identity"
out=$(cd "$T" && bd ingest runs 2>/dev/null)
case "$out" in "ingest: 0 archives loaded, 4 skipped, 0 failed;"*) ;; *) fail "second pass: $out" ;; esac
# Usage errors exit 2 and change nothing.
rc=0; bd ingest >/dev/null 2>&1 || rc=$?; [ "$rc" = 2 ] || fail "no argument: exit $rc"
rc=0; bd ingest --max-line-bytes 12Q "$ex" 2>"$T/err" || rc=$?; [ "$rc" = 2 ] || fail "bad size: exit $rc"
head -n 1 "$T/err" | grep -qx "error: ingest: --max-line-bytes '12Q': expected a positive number of bytes, optionally with K, M, G or T (see 'benchdb ingest --help')" ||
    fail "bad size: $(cat "$T/err")"
rc=0; bd ingest --bogus "$ex" 2>/dev/null || rc=$?; [ "$rc" = 2 ] || fail "unknown option: exit $rc"
bd ingest --help | grep -q "^usage: benchdb \[--db FILE\] ingest" || fail "--help"
echo ok
