# Concurrency (docs/reliability.md): four 'benchdb ingest' processes load
# four archives into one store at once while another process runs a saved
# query in a loop (recording its evaluations: one more writer). No command
# fails (they wait: busy timeout), every archive is stored exactly once,
# and every answer of the query is a consistent store: as many samples and
# runs as whole archives hold. Then four more processes each give all four
# archives again, in different orders: all skipped, nothing stored twice.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is missing (scripts/install-deps installs it)" >&2; exit 1; }
values=40000
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && values=10000
python3 "$LIB/gen_archive.py" "$T/gen.jsonl" --values "$values" --iterations 100 >/dev/null
for i in 1 2 3 4; do
    sed "s/\"plan\":\"big\"/\"plan\":\"conc$i\"/" "$T/gen.jsonl" >"$T/a$i.jsonl"
done
bd init >/dev/null
# Rows of one archive, from a store holding only it.
"$BENCHDB_BIN" --db "$T/one.db" init >/dev/null
"$BENCHDB_BIN" --db "$T/one.db" ingest --quiet "$T/a1.jsonl"
per=$("$BENCHDB_BIN" --db "$T/one.db" sql "SELECT (SELECT count(*) FROM sample) || ' ' || (SELECT count(*) FROM run)" --format csv | tail -n 1 | tr -d '\r')
S=${per% *} R=${per#* }
[ "$S" -gt 0 ] && [ "$R" -gt 0 ] || fail "test setup: rows per archive: $per"

mkdir "$T/q"
cat >"$T/q/consistent.sql" <<'SQL'
-- name: consistent
-- summary: whole archives only: samples, runs and archives counted in one snapshot
SELECT (SELECT count(*) FROM archive) AS archives, (SELECT count(*) FROM run) AS runs,
       (SELECT count(*) FROM sample) AS samples,
       (SELECT count(*) FROM run r WHERE NOT EXISTS (SELECT 1 FROM series se WHERE se.run_id = r.id)) AS empty_runs;
SQL
# The query loop: alternately recorded (a writer) and not; every answer
# and every failure kept. It runs until told to stop, and at least 5 times.
(
    i=0
    while [ ! -e "$T/stop" ] || [ "$i" -lt 5 ]; do
        rec=--no-record
        [ $((i % 2)) = 0 ] && rec=--record
        # shellcheck disable=SC2086
        if "$BENCHDB_BIN" --db "$T/store.db" query --queries "$T/q" consistent --format csv $rec >"$T/qout" 2>"$T/qerr"; then
            tail -n +2 "$T/qout" | tr -d '\r' >>"$T/answers"
        else
            { echo "query $i failed:"; cat "$T/qerr"; } >>"$T/qfail"
        fi
        i=$((i + 1))
    done
) &
qpid=$!

pids=""
for i in 1 2 3 4; do
    "$BENCHDB_BIN" --db "$T/store.db" ingest --quiet "$T/a$i.jsonl" >"$T/out$i" 2>"$T/err$i" &
    pids="$pids $!"
done
k=1
for p in $pids; do
    wait "$p" || fail "ingest $k failed: $(cat "$T/err$k")"
    [ ! -s "$T/err$k" ] || fail "ingest $k printed: $(cat "$T/err$k")"
    k=$((k + 1))
done

# Again, all four archives in four orders at once: every one skipped.
pids=""
k=0
for order in "1 2 3 4" "4 3 2 1" "2 4 1 3" "3 1 4 2"; do
    k=$((k + 1))
    set --
    for i in $order; do set -- "$@" "$T/a$i.jsonl"; done
    "$BENCHDB_BIN" --db "$T/store.db" ingest "$@" >/dev/null 2>"$T/again.$k.err" &
    pids="$pids $!"
done
for p in $pids; do
    wait "$p" || fail "a second ingest failed"
done
touch "$T/stop"
wait "$qpid"

[ ! -e "$T/qfail" ] || fail "a query failed: $(cat "$T/qfail")"
n=0
while IFS=, read -r archives runs samples empty; do
    n=$((n + 1))
    [ "$samples" = $((archives * S)) ] && [ "$runs" = $((archives * R)) ] && [ "$empty" = 0 ] ||
        fail "answer $n: inconsistent store: $archives archives, $runs runs, $samples samples, $empty empty runs (per archive: $R runs, $S samples)"
done <"$T/answers"
[ "$n" -ge 5 ] || fail "only $n answers"
expect_rows "each archive once" "SELECT name, count(*) FROM archive GROUP BY name ORDER BY name" \
    "$T/a1.jsonl,1
$T/a2.jsonl,1
$T/a3.jsonl,1
$T/a4.jsonl,1"
expect_rows "all rows" "SELECT count(*), (SELECT count(*) FROM run) FROM sample" "$((4 * S)),$((4 * R))"
expect_rows "integrity" "PRAGMA integrity_check" "ok"
expect_rows "every recorded evaluation stored" "SELECT count(*) >= 3 FROM evaluation" "1"
skips=$(cat "$T"/again.*.err | grep -c "skipped: already stored" || true)
[ "$skips" = 16 ] || fail "expected 16 skip notices, got $skips: $(cat "$T"/again.*.err)"
echo "ok: $n consistent answers; answers by archives stored: $(cut -d, -f1 "$T/answers" | sort | uniq -c | tr -s ' \n' ' ')"
