# benchdb list shows plans, runs and archives (through the output formats);
# benchdb delete removes an archive, a run or a plan atomically with what
# it stored, counts it (a dry run counts the same and changes nothing),
# removes archives left with nothing, keeps recorded evaluations, and
# leaves check clean; loading the same archive again restores the rows.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
H="$BENCHDB_SRC/tests/data/harness"
bd init >/dev/null
(cd "$DATA/good" && bd ingest -q example.jsonl)
example_rows() {
    bd sql "SELECT r.name, b.name, b.params, s.block, v.name, s.fork, s.unit, s.n, s.total,
                   (SELECT group_concat(value || '/' || warmup, ' ') FROM sample WHERE series_id = s.id)
            FROM series s JOIN run r ON r.id = s.run_id JOIN archive a ON a.id = r.archive_id
            JOIN benchmark b ON b.id = s.benchmark_id JOIN variant v ON v.id = s.variant_id
            WHERE a.name = 'example.jsonl' AND s.archive_id IS NULL ORDER BY 1, 2, 3, 4, 5, 6" --format csv
}
example_rows >"$T/example.rows"
cp "$H/go-bench/config_and_allocs.txt" "$T/go.txt"
printf 'BenchmarkMore 10 5 ns/op\n' >"$T/more.txt"
(cd "$T" && bd ingest -q --plan calibration-example --run vm-a-3 --host vm-b --position 3 --source abc go.txt)
(cd "$T" && bd ingest -q --append --plan calibration-example --run vm-a-1 --host vm-a --variant native more.txt)

expect_list() { # ARGS EXPECTED-CSV
    got=$(bd list $1 --format csv | tr -d '\r')
    [ "$got" = "$2" ] || fail "list $1: expected
$2
got
$got"
}
expect_list plans "plan,runs,hosts,cells,values,first_started_at,last_started_at
calibration-example,3,2,6,34,2026-10-21T03:57:00Z,2026-10-21T03:57:00Z"
expect_list runs "plan,run,host,position,source,started_at,variants,cells,values,blocks,archive
calibration-example,vm-a-1,vm-a,1,844fd45e700040dbe036acea9f98f95922897d3e,2026-10-21T03:57:00Z,\"chill,native\",3,17,1-2,1
calibration-example,vm-a-2,vm-a,2,,,\"chill,native\",1,4,1,1
calibration-example,vm-a-3,vm-b,3,abc,,default,3,13,1,2"
sha1=$(sha256sum <"$DATA/good/example.jsonl" | cut -d' ' -f1)
bd list archives --format csv | tr -d '\r' | cut -d, -f1,2,3,5 >"$T/archives"
[ "$(cat "$T/archives")" = "id,name,sha256,format
1,example.jsonl,$sha1,benchdb-run/1
2,go.txt,$(bd sql "SELECT sha256 FROM archive WHERE id = 2" --format csv | tail -n 1 | tr -d '\r'),files
3,more.txt,$(bd sql "SELECT sha256 FROM archive WHERE id = 3" --format csv | tail -n 1 | tr -d '\r'),files" ] ||
    fail "list archives: $(cat "$T/archives")"
rc=0; bd list archives --plan nope --format json >nope.out 2>nope.err || rc=$?
[ "$rc" = 2 ] || fail "list of a plan the store lacks: exit $rc, expected 2 (a usage error)"
grep -q "error: list: --plan: plan 'nope' does not exist; plans: calibration-example" nope.err ||
    fail "list of an unknown plan names the plans: $(cat nope.err)"
# delete of a run or plan the store lacks: a usage error naming the nearest.
plan1=$(bd sql "SELECT name FROM plan ORDER BY name LIMIT 1" --format csv | tail -n 1 | tr -d '\r')
rc=0; bd delete --run "$plan1/xyzzy" 2>"$T/err" || rc=$?
[ "$rc" = 2 ] || fail "delete a missing run: exit $rc"
grep -q "^error: delete: run 'xyzzy' is not a run of plan $plan1; runs: " "$T/err" || fail "missing run: $(cat "$T/err")"
rc=0; bd delete --plan "${plan1}x" 2>"$T/err" || rc=$?
[ "$rc" = 2 ] || fail "delete a missing plan: exit $rc"
grep -q "did you mean '$plan1'?" "$T/err" || fail "missing plan, the nearest: $(cat "$T/err")"
bd list runs --format markdown >"$T/md"
[ "$(head -n 1 "$T/md")" = "**3 runs of 1 plan on 2 hosts: 34 values, started on 2026-10-21**" ] ||
    fail "list runs as markdown: the answer first: $(head -n 1 "$T/md")"
sed -n 3p "$T/md" | tr -s ' ' | grep -q '^| plan | run | host | position |' || fail "list runs as markdown: the table"
# In a terminal's table the same first line, on stderr: what the rows
# hold in words (it was the bare table), counted from the rows.
for what in plans runs archives; do
    bd list $what >"$T/out" 2>"$T/err" || fail "list $what"
    echo "$what: $(cat "$T/err")"
done >"$T/lines"
[ "$(cat "$T/lines")" = "plans: 1 plan: 3 runs, 34 values, started on 2026-10-21
runs: 3 runs of 1 plan on 2 hosts: 34 values, started on 2026-10-21
archives: 3 archives, $(bd sql "SELECT sum(size) FROM archive" --format csv | tail -n 1 | tr -d '\r') bytes, holding 3 runs" ] ||
    fail "list's first lines: $(cat "$T/lines")"
bd list runs --format csv 2>"$T/err" >/dev/null
[ -s "$T/err" ] && fail "list --format csv: a program's output, no line on stderr: $(cat "$T/err")"
rc=0; bd list things 2>/dev/null || rc=$?; [ "$rc" = 2 ] || fail "list things: exit $rc"

# A recorded evaluation stays whatever is deleted.
mkdir -p q && printf -- '-- name: runs\nSELECT count(*) AS runs FROM run\n' >q/runs.sql
bd query --queries q runs --record >/dev/null 2>&1 || true
evals=$(bd sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r')
[ "$evals" -ge 1 ] || fail "test setup: no evaluation recorded"

# An archive the store lacks: said with the ids it holds (before, "no
# archive 99 in the store" alone).
rc=0; bd delete --archive 99 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "delete a missing archive: exit $rc"
[ "$(cat "$T/err")" = "error: delete: no archive 99 in the store (its 3 archives have ids from 1 to 3: 'benchdb list archives')" ] ||
    fail "a missing archive, said with the ids held: $(cat "$T/err")"

# The appended archive alone: its one series goes, the run stays.
before=$(snapshot)
bd delete --archive 3 --dry-run >"$T/dry" || fail "dry run"
[ "$(snapshot)" = "$before" ] || fail "a dry run changed the store"
bd delete --archive 3 >"$T/out" 2>"$T/err" || fail "delete archive 3"
[ "$(sed 's/would remove/removed/' "$T/dry")" = "$(cat "$T/out")" ] || fail "dry run and delete disagree: $(cat "$T/dry") / $(cat "$T/out")"
[ "$(cat "$T/out")" = "delete: removed 1 archive (2 members, 1 chunk of stored bytes), 0 runs, 1 series, 1 sample row, 0 gates, 0 events, 0 plans" ] ||
    fail "delete archive 3: $(cat "$T/out")"
grep -q "^note: the $evals recorded evaluation" "$T/err" || fail "evaluations note: $(cat "$T/err")"
expect_rows vm-a-1 "SELECT count(*) FROM series s JOIN run r ON r.id = s.run_id WHERE r.name = 'vm-a-1'" "6"
bd check >/dev/null || fail "check after deleting an appended archive"

# Appending again, then deleting the archive that opened the run: the run
# goes with everything in it, and the appending archive, left empty, too.
(cd "$T" && bd ingest -q --append --plan calibration-example --run vm-a-1 --host vm-a --variant native more.txt)
bd delete --archive 1 >"$T/out" || fail "delete archive 1"
[ "$(cat "$T/out")" = "delete: removed 2 archives (2 members, 2 chunks of stored bytes), 2 runs, 9 series, 23 sample rows, 2 gates, 2 events, 0 plans" ] ||
    fail "delete archive 1: $(cat "$T/out")"
expect_rows left "SELECT (SELECT group_concat(name) FROM archive), (SELECT group_concat(name) FROM run)" "go.txt,vm-a-3"
bd check >/dev/null || fail "check after deleting archive 1"
expect_rows evaluations "SELECT count(*) FROM evaluation" "$evals"

# Loading the example again restores the same rows.
(cd "$DATA/good" && bd ingest -q example.jsonl)
example_rows >"$T/restored.rows"
cmp -s "$T/example.rows" "$T/restored.rows" || fail "restored rows differ: $(diff "$T/example.rows" "$T/restored.rows")"

# A plan: every run, the archives and the plan row.
bd delete --plan calibration-example >"$T/out" || fail "delete plan"
case "$(cat "$T/out")" in "delete: removed 2 archives "*", 3 runs, "*", 1 plan") ;; *) fail "delete plan: $(cat "$T/out")" ;; esac
expect_rows empty "SELECT (SELECT count(*) FROM archive), (SELECT count(*) FROM run), (SELECT count(*) FROM plan),
                   (SELECT count(*) FROM series), (SELECT count(*) FROM sample), (SELECT count(*) FROM block_score_data),
                   (SELECT count(*) FROM archive_chunk), (SELECT count(*) FROM archive_member)" "0,0,0,0,0,0,0,0"
bd check >/dev/null || fail "check after deleting the plan"

# A plan or run the store lacks is a usage error naming what there is (exit
# 2), a missing archive a failure (exit 1), and usage errors (exit 2).
rc=0; bd delete --run nope/x 2>"$T/err" || rc=$?
[ "$rc" = 2 ] || fail "delete a run of a missing plan: exit $rc"
grep -q "^error: delete: plan 'nope' does not exist; plans: " "$T/err" || fail "missing plan: $(cat "$T/err")"
rc=0; bd delete --archive 99 2>"$T/err" || rc=$?; [ "$rc" = 1 ] || fail "delete a missing archive: exit $rc"
[ "$(cat "$T/err")" = "error: delete: no archive 99 in the store (it holds none)" ] ||
    fail "a missing archive, an empty store: $(cat "$T/err")"
for args in "" "--archive 1 --plan p" "--archive x" "--run plan" "--run /x" "--plan p extra"; do
    rc=0; bd delete $args 2>/dev/null || rc=$?
    [ "$rc" = 2 ] || fail "delete $args: exit $rc"
done
echo ok
