# Bad harness files, one case per file under tests/data/formats/bad/FORMAT/:
# loading CASE.json or CASE.txt with --format FORMAT fails with exit 1 and
# exactly the stderr in CASE.err (malformed files, non-finite and negative
# raw values, missing fields, wrong units), and the store does not change.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
bd ingest -q "$DATA/good/example.jsonl"
before=$(snapshot)
n=0
for dir in "$BENCHDB_SRC"/tests/data/formats/bad/*/; do
    fmt=$(basename "$dir")
    for f in "$dir"*.json "$dir"*.txt; do
        [ -f "$f" ] || continue
        case_=$(basename "$f")
        n=$((n + 1))
        rc=0
        (cd "$dir" && bd ingest -q --format "$fmt" --plan p --run r --host h "$case_") >"$T/out" 2>"$T/err" || rc=$?
        [ "$rc" = 1 ] || fail "$fmt/$case_: exit status $rc, expected 1"
        cmp -s "$T/err" "${f%.*}.err" || fail "$fmt/$case_: stderr
$(cat "$T/err")
expected
$(cat "${f%.*}.err")"
    done
done
[ "$n" -ge 25 ] || fail "only $n cases"
[ "$(snapshot)" = "$before" ] || fail "the store changed"

# Usage errors (exit 2).
for args in "--format nope --plan p --run r --host h x.json" "--format jmh --run r --host h x.json" \
            "--format jmh --plan p --run r --host h a.json b.json" "--plan p x.jsonl" \
            "--format jmh --plan p --run r --host h --block 0 x.json" "--format jmh --plan p --run r --host h --attr x x.json"; do
    rc=0
    bd ingest $args >/dev/null 2>"$T/err" || rc=$?
    [ "$rc" = 2 ] || fail "ingest $args: exit status $rc, expected 2"
done
bd ingest --format nope --plan p --run r --host h x.json 2>&1 | head -1 | grep -qx \
    "error: ingest: --format 'nope': expected one of jmh, google-benchmark, hyperfine, pyperf, go-bench (see 'benchdb ingest --help')" ||
    fail "unknown format message"
