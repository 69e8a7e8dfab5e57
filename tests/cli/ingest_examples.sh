# The issue's "done when", on the committed examples/ (skipped while the
# tree has none): 'benchdb ingest examples/' loads every archive, a second
# run skips them all, and a corrupted copy of one archive is refused with a
# message naming its file and line, the store left exactly as it was.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
ex="$BENCHDB_SRC/examples"
n=$(find "$ex" \( -name '*.jsonl' -o -name '*.jsonl.zst' \) -type f 2>/dev/null | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: no archives under examples/" >&2; exit 1; }
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
bd init >/dev/null
out=$(bd ingest "$ex" 2>"$T/err") || fail "examples/ refused: $(cat "$T/err")"
case "$out" in "ingest: $n archive"*" loaded, 0 skipped, 0 failed;"*) ;; *) fail "first pass: $out" ;; esac
out=$(bd ingest "$ex" 2>/dev/null) || fail "second pass failed"
case "$out" in "ingest: 0 archives loaded, $n skipped, 0 failed;"*) ;; *) fail "second pass: $out" ;; esac
bd check >/dev/null || fail "check after the examples"
# docs/archive-format.md quotes list's first lines and delete's refusals on
# examples/: each as the program prints it (its paragraphs joined, so that a
# quote may wrap), with the exit status it says.
doc=$(tr '\n' ' ' <"$BENCHDB_SRC/docs/archive-format.md" | tr -s ' ')
for what in plans archives; do
    line=$(bd list $what 2>&1 >/dev/null)
    case "$doc" in *"\`$line\`"*) ;; *) fail "docs/archive-format.md does not quote list $what's line: $line" ;; esac
done
for args in "2 --plan nope" "1 --archive 99"; do
    set -- $args
    want=$1
    shift
    rc=0
    line=$(bd delete "$@" 2>&1 >/dev/null) || rc=$?
    [ "$rc" = "$want" ] || fail "delete $*: exit status $rc, expected $want (as docs/archive-format.md says)"
    case "$doc" in *"\`$line\`"*) ;; *) fail "docs/archive-format.md does not quote delete $*'s message: $line" ;; esac
done
before=$(snapshot)
first=$(find "$ex" \( -name '*.jsonl' -o -name '*.jsonl.zst' \) -type f | LC_ALL=C sort | head -n 1)
zstd -q -d -c -f "$first" | sed '1s/.$//' >"$T/corrupt.jsonl"
rc=0
(cd "$T" && bd ingest corrupt.jsonl) >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "corrupted copy: exit $rc"
head -n 1 "$T/err" | grep -q "^error: corrupt.jsonl:1: invalid JSON at column " || fail "corrupted copy: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "the corrupted copy changed the store"
echo "ok: $n archives"
