# Values are inserted by statements of 64, 8 and 1 rows (sink/values.c): every
# value lands at its own iteration and kind whatever the series' length,
# across the boundaries of those shapes (1, 7, 8, 9, 63, 64, 65, 75, 137).
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
{
    echo '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r","host":"h"}'
    for n in 1 7 8 9 63 64 65 75 137; do
        v=$(seq -s, 1 "$n")
        w=$(seq -s, 1001 $((1000 + n)))
        echo "{\"record\":\"samples\",\"benchmark\":\"b$n\",\"block\":1,\"variant\":\"x\",\"unit\":\"ns\",\"values\":[$v],\"warmup\":[$w]}"
    done
} >"$T/a.jsonl"
bd init >/dev/null
bd ingest --quiet "$T/a.jsonl"
# value = iteration for measured values, 1000 + iteration for warmups;
# 429 of each; per series n and total = n(n+1)/2.
expect_rows "values at their iterations" \
    "SELECT sum(warmup = 0 AND value = iteration), sum(warmup = 1 AND value = 1000 + iteration), count(*) FROM sample" \
    "429,429,858"
expect_rows "series n and total" \
    "SELECT group_concat(n || ':' || total, ' ') FROM (SELECT n, total FROM series ORDER BY n)" \
    "1:1.0 7:28.0 8:36.0 9:45.0 63:2016.0 64:2080.0 65:2145.0 75:2850.0 137:9453.0"
bd check >/dev/null || fail "check"
echo ok
