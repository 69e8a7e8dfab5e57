# zstd is detected by its magic bytes (not the name): a .zst original is
# stored as is ('identity'); concatenated frames are one stream; truncated
# or corrupt zstd and garbage bytes are refused with the store unchanged.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
bd init >/dev/null
ex="$DATA/good/example.jsonl"
# Two frames: the first 11 lines and the rest, compressed apart and joined.
head -n 11 "$ex" | zstd -q -c >"$T/part1.zst"
tail -n +12 "$ex" | zstd -q -c >"$T/part2.zst"
cat "$T/part1.zst" "$T/part2.zst" >"$T/frames.jsonl.zst"
[ "$(zstd -q -d -c "$T/frames.jsonl.zst" | sha256sum)" = "$(sha256sum <"$ex")" ] || fail "test setup: frames"
# Named .jsonl although compressed: detection is by content.
cp "$T/frames.jsonl.zst" "$T/misnamed.jsonl"
(cd "$T" && bd ingest --quiet misnamed.jsonl) || fail "concatenated frames refused"
sha=$(sha256sum <"$T/frames.jsonl.zst" | cut -d' ' -f1)
expect_rows identity "SELECT sha256, content_encoding, size, stored_size FROM archive" \
    "$sha,identity,$(wc -c <"$T/frames.jsonl.zst"),$(wc -c <"$T/frames.jsonl.zst")"
expect_rows stored "SELECT hex(data) FROM archive_chunk" "$(od -An -v -tx1 "$T/frames.jsonl.zst" | tr -d ' \n' | tr a-f A-F)"
expect_rows rows "SELECT count(*), sum(n), sum(total) FROM series" "8,20,411482.5"
bd check >/dev/null || fail "check after zstd ingest"

before=$(snapshot)
refused() { # NAME EXPECTED-ERROR-LINE
    rc=0
    (cd "$T" && bd ingest "$1") >/dev/null 2>"$T/err" || rc=$?
    [ "$rc" = 1 ] || fail "$1: exit $rc"
    [ "$(cat "$T/err")" = "$2
note: $1: archive not stored (nothing from it was written)" ] || fail "$1: stderr: $(cat "$T/err")"
    [ "$(snapshot)" = "$before" ] || fail "$1: the store changed"
}
# Truncated: the last frame cut short (another archive, so not skipped).
sed 's/vm-a-/vm-b-/' "$ex" | zstd -q -c >"$T/whole.zst"
n=$(wc -c <"$T/whole.zst")
head -c $((n - 7)) "$T/whole.zst" >"$T/truncated.jsonl.zst"
refused truncated.jsonl.zst "error: truncated.jsonl.zst: truncated zstd stream: the last frame ends early, after $((n - 7)) bytes"
# Corrupt: garbage after a complete frame.
{ cat "$T/whole.zst"; printf 'not zstd at all'; } >"$T/trailing.jsonl.zst"
refused trailing.jsonl.zst "error: trailing.jsonl.zst: corrupt zstd stream (Unknown frame descriptor) within the first $((n + 15)) bytes"
# Bytes that are neither zstd nor JSON Lines (nor anything else benchdb
# reads): refused for what they are, whatever the name says.
notfmt="not a format benchdb reads: expected a benchdb-run/1 stream (JSON Lines, optionally compressed), a tar or zip holding them, or harness output (jmh, google-benchmark, hyperfine, pyperf, go-bench, criterion, cargo-bench, pytest-benchmark, asv, catch2, nanobench, tinybench, vitest, benchmarkjs, benchmarkdotnet, bmf, csv) with --plan, --run and --host"
printf '\001\002\003garbage\n' >"$T/garbage.jsonl"
refused garbage.jsonl "error: garbage.jsonl: $notfmt"
printf '\377\376{"record":"run"}\n' >"$T/notutf8.jsonl"
refused notutf8.jsonl "error: notutf8.jsonl: $notfmt"
head -c 4096 /dev/urandom >"$T/random.bin"
rc=0
bd ingest "$T/random.bin" >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "random bytes: exit $rc"
[ "$(snapshot)" = "$before" ] || fail "random bytes: the store changed"
# One ingest of several archives, whose zstd contexts are reused from one
# archive to the next (docs/architecture.md, the source layer): a
# decompression that failed half-way (a frame cut short, garbage inside a
# frame) leaves nothing the next archive sees. The good archives load with
# every row, the bad ones are refused with their own messages.
sed 's/vm-a/vm-c/g' "$ex" | zstd -q -c >"$T/good-c.jsonl.zst"
sed 's/vm-a/vm-d/g' "$ex" | zstd -q -c >"$T/good-d.jsonl.zst"
m=$((n / 2))
{ head -c $m "$T/whole.zst"; printf 'garbage! garbage!'; tail -c +$((m + 18)) "$T/whole.zst"; } >"$T/inside.jsonl.zst"
[ "$(wc -c <"$T/inside.jsonl.zst")" = "$n" ] || fail "test setup: inside.jsonl.zst"
rc=0
(cd "$T" && bd ingest truncated.jsonl.zst good-c.jsonl.zst inside.jsonl.zst good-d.jsonl.zst) >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "mixed list: exit $rc"
grep -q "^error: truncated.jsonl.zst: truncated zstd stream" "$T/err" || fail "mixed list: $(cat "$T/err")"
grep -q "^error: inside.jsonl.zst: corrupt zstd stream" "$T/err" || fail "mixed list: $(cat "$T/err")"
[ "$(grep -c '^error:' "$T/err")" = 2 ] || fail "mixed list: $(cat "$T/err")"
expect_rows "mixed list" "SELECT h.name, count(*), sum(s.n), sum(s.total) FROM series s JOIN run r ON r.id = s.run_id
    JOIN host h ON h.id = r.host_id GROUP BY h.name ORDER BY h.name" "vm-a,8,20,411482.5
vm-c,8,20,411482.5
vm-d,8,20,411482.5"
bd check >/dev/null || fail "check after the mixed list"
echo ok
