# The results record's own fields: each mistake refused with its exact
# message, naming the line and field, and the store unchanged.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
before=$(snapshot)
R='{"record":"run","format":"benchdb-run/1","plan":"c","run":"x","host":"h"}'
check() { # RECORD EXPECTED-FIRST-LINE
    printf '%s\n%s\n' "$R" "$1" >"$T/s.jsonl"
    (cd "$T" && bd ingest -q s.jsonl) >/dev/null 2>"$T/err" && fail "loaded: $1"
    [ "$(head -n 1 "$T/err")" = "$2" ] || fail "$1: $(cat "$T/err")"
}
check '{"record":"results","format":"xml","block":1,"variant":"v","data":[]}' \
    'error: s.jsonl:2: results.format: expected one of jmh, google-benchmark, hyperfine, pyperf, go-bench, criterion, cargo-bench, pytest-benchmark, asv, catch2, nanobench, tinybench, vitest, benchmarkjs, benchmarkdotnet, bmf, csv, got "xml"'
check '{"record":"results","format":"jmh","block":1,"variant":"v","data":[],"path":"a.json"}' \
    'error: s.jsonl:2: results: expected either "path" or "data" (one of the two)'
check '{"record":"results","format":"jmh","block":1,"variant":"v"}' \
    'error: s.jsonl:2: results: expected either "path" or "data" (one of the two)'
check '{"record":"results","format":"jmh","variant":"v","data":[]}' \
    'error: s.jsonl:2: results.block: required field missing (expected an integer >= 1)'
check '{"record":"results","format":"jmh","block":1,"data":[]}' \
    'error: s.jsonl:2: results.variant: required field missing (expected a non-empty string)'
check '{"record":"results","format":"jmh","block":1,"variant":"v","path":"nope.json"}' \
    'error: s.jsonl:2: results.path: cannot open "nope.json": No such file or directory'
check '{"record":"results","format":"go-bench","block":1,"variant":"v","data":{"a":1}}' \
    'error: s.jsonl:2: results.data: expected a string (the go-bench text), got an object'
check '{"record":"results","format":"hyperfine","block":1,"variant":"v","data":"{\"results\":[{\"command\":\"x\",\"times\":[]}]}"}' \
    'error: s.jsonl:2: results.data: results[0].times: no values'
printf '%s\n%s\n' "$R" '{"record":"results","format":"jmh","block":1,"variant":"v","data":[]}' >"$T/s.jsonl"
printf '%s\n%s\n' "$R" '{"record":"results","format":"jmh","block":1,"variant":"v","path":"../x.json"}' >"$T/run.jsonl"
(cd "$T" && tar -cf t.tar run.jsonl)
(cd "$T" && bd ingest -q t.tar) >/dev/null 2>"$T/err" && fail "member path out of the container: loaded"
[ "$(head -n 1 "$T/err")" = 'error: t.tar[run.jsonl]:2: results.path: expected a relative path that stays inside the container, got "../x.json"' ] ||
    fail "member path out of the container: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "the store changed"
