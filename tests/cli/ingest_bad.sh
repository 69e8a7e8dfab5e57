# Every refused archive in tests/data/bad/ (made by tests/data/make_bad.py):
# 'benchdb ingest [NAME.args] ARCHIVE' exits 1, prints exactly the error
# line in NAME.err followed by the not-stored note, and leaves the store
# unchanged. Then one case generated here (too big to commit): a 100 MB
# line, refused at the default line limit.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
BAD="$BENCHDB_SRC/tests/data/bad"
bd init >/dev/null
bd ingest --quiet "$DATA/good/example.jsonl"
before=$(snapshot)
n=0
bad=0
check() { # NAME SHOWN: the last run (status in $rc, stderr in $T/err)
    expected="$(cat "$BAD/$1.err")
note: $2: archive not stored (nothing from it was written)"
    n=$((n + 1))
    if [ "$rc" != 1 ]; then
        echo "FAIL $1: exit status $rc, expected 1" >&2
        bad=$((bad + 1))
    elif [ "$(cat "$T/err")" != "$expected" ]; then
        printf 'FAIL %s: stderr differs\n--- expected\n%s\n--- got\n%s\n' "$1" "$expected" "$(cat "$T/err")" >&2
        bad=$((bad + 1))
    elif [ "$(snapshot)" != "$before" ]; then
        echo "FAIL $1: the store changed" >&2
        bad=$((bad + 1))
    fi
}
for e in "$BAD"/*.err; do
    name=$(basename "$e" .err)
    f=$(ls "$BAD/$name".jsonl* 2>/dev/null | head -n 1)
    [ -n "$f" ] || fail "$name: no archive beside $name.err"
    file=$(basename "$f")
    args=$(cat "$BAD/$name.args" 2>/dev/null || true)
    cp "$f" "$T/$file"
    rc=0
    # shellcheck disable=SC2086 # the options are words
    (cd "$T" && bd ingest $args "$file") >"$T/out" 2>"$T/err" || rc=$?
    check "$name" "$file"
done
[ "$n" -ge 50 ] || fail "only $n cases found in $BAD"

# A 100 MB line (of a string field), streamed on standard input: refused
# once the line passes the default limit of 64 MiB, never held whole.
rc=0
{ printf '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r1","host":"h1"}\n'; printf '{"record":"event","name":"'; head -c 100000000 /dev/zero | tr '\0' x; printf '"}\n'; } |
    bd ingest - >"$T/out" 2>"$T/err" || rc=$?
printf 'error: <stdin>:2: line longer than 67108864 bytes (the limit; raise it with --max-line-bytes)\n' >"$T/line.err"
BAD=$T check line "<stdin>"

[ "$bad" = 0 ] || fail "$bad of $n cases failed"
echo "ok: $n refused archives"
