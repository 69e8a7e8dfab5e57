# Every refused archive in tests/data/ingest/bad/ (made by make_bad.py):
# 'benchdb ingest NAME.jsonl' exits 1, prints exactly the error line in
# NAME.err followed by the not-stored note, and leaves the store unchanged.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
bd ingest --quiet "$DATA/good/example.jsonl"
before=$(snapshot)
n=0
bad=0
for f in "$DATA"/bad/*.jsonl; do
    name=$(basename "$f" .jsonl)
    cp "$f" "$T/$name.jsonl"
    rc=0
    (cd "$T" && bd ingest "$name.jsonl") >"$T/out" 2>"$T/err" || rc=$?
    expected="$(cat "$DATA/bad/$name.err")
note: $name.jsonl: archive not stored (nothing from it was written)"
    n=$((n + 1))
    if [ "$rc" != 1 ]; then
        echo "FAIL $name: exit status $rc, expected 1" >&2
        bad=$((bad + 1))
    elif [ "$(cat "$T/err")" != "$expected" ]; then
        printf 'FAIL %s: stderr differs\n--- expected\n%s\n--- got\n%s\n' "$name" "$expected" "$(cat "$T/err")" >&2
        bad=$((bad + 1))
    elif [ "$(snapshot)" != "$before" ]; then
        echo "FAIL $name: the store changed" >&2
        bad=$((bad + 1))
    fi
done
[ "$n" -ge 50 ] || fail "only $n cases found in $DATA/bad"
[ "$bad" = 0 ] || fail "$bad of $n cases failed"
echo "ok: $n refused archives"
