# A directory is searched recursively and every file whose content is a
# run archive is loaded, whatever its name, in byte order of the paths;
# other files are left alone, names starting with '.' are not looked at; a
# directory with nothing to load is an error; usage errors.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
bd init >/dev/null
mkdir -p "$T/runs/b/deep" "$T/runs/a" "$T/runs/.hidden"
ex="$DATA/good/example.jsonl"
for p in runs/b/deep/z runs/a/y runs/c runs/B runs/.hidden/h; do
    sed "s/\"plan\":\"calibration-example\"/\"plan\":\"$(basename $p)\"/" "$ex" >"$T/$p.jsonl"
done
zstd -q --rm "$T/runs/a/y.jsonl"
echo "not an archive" >"$T/runs/notes.txt"
cp "$ex" "$T/runs/a/x.json" # a run stream by its content
cp "$DATA/../harness/jmh/sample_mode.json" "$T/runs/jmh.json" # harness output: left for results records
(cd "$T" && bd ingest --quiet runs/) || fail "directory refused"
expect_rows order "SELECT name FROM archive ORDER BY id" "runs/B.jsonl
runs/a/x.json
runs/a/y.jsonl.zst
runs/b/deep/z.jsonl
runs/c.jsonl"
expect_rows encoding "SELECT content_encoding FROM archive WHERE name LIKE '%.zst'" "identity"
out=$(cd "$T" && bd ingest runs 2>/dev/null)
case "$out" in "ingest: 0 archives loaded, 5 skipped, 0 failed;"*) ;; *) fail "second pass: $out" ;; esac

# Nothing to load: an error naming the directory (exit 1), the store unchanged.
before=$(snapshot)
mkdir "$T/empty" "$T/harness"
echo "text" >"$T/empty/readme.txt"
cp "$DATA/../harness/jmh/sample_mode.json" "$T/harness/a.json"
rc=0; (cd "$T" && bd ingest empty) >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "empty directory: exit $rc"
[ "$(cat "$T/err")" = "error: empty: no file in a format benchdb reads here (benchdb-run/1 streams, tar or zip archives)" ] ||
    fail "empty directory: $(cat "$T/err")"
rc=0; (cd "$T" && bd ingest harness) >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "directory of harness files: exit $rc"
[ "$(cat "$T/err")" = "error: harness: holds harness output (1 file, e.g. harness/a.json (jmh)) but no run archive: load it into a run with --plan, --run and --host" ] ||
    fail "directory of harness files: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "a refused directory changed the store"

# Usage errors exit 2 and change nothing.
rc=0; bd ingest >/dev/null 2>&1 || rc=$?; [ "$rc" = 2 ] || fail "no argument: exit $rc"
rc=0; bd ingest --max-line-bytes 12Q "$ex" 2>"$T/err" || rc=$?; [ "$rc" = 2 ] || fail "bad size: exit $rc"
head -n 1 "$T/err" | grep -qx "error: ingest: --max-line-bytes '12Q': expected a number of bytes >= 1, with an optional suffix K, M, G or T (256M) (see 'benchdb ingest --help')" ||
    fail "bad size: $(cat "$T/err")"
rc=0; bd ingest --bogus "$ex" 2>/dev/null || rc=$?; [ "$rc" = 2 ] || fail "unknown option: exit $rc"
bd ingest --help | grep -q "^usage: benchdb \[--db FILE\] ingest" || fail "--help"
echo ok
