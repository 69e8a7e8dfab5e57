# Interrupted recording, the query half (docs/reliability.md): a query
# recording its evaluation while an ingest held the write lock longer than
# the busy timeout failed with "database is locked" and printed nothing.
# Now its result is printed all the same, stderr says it was not recorded,
# why, and how to run it again, and the exit status is 1; nothing is
# recorded, and the next run records with the next id. The lock is held by
# a second process (lib/hold_lock.py, BEGIN IMMEDIATE as an ingest takes
# it), and $BENCHDB_BUSY_TIMEOUT lowers the 60 s busy timeout to 0.5 s.
. "$BENCHDB_SRC/tests/cli/lib/rel_query.sh"
mkdir q
printf -- '-- name: n\n-- summary: counts values\n-- outcome: ok\nSELECT count(*) AS n, 1 AS ok FROM sample\n' >q/n.sql
evaluations() { bd sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r'; }
bd query --queries q n --no-record >want.table 2>/dev/null
bd query --queries q n --no-record --format csv >want.csv 2>/dev/null
locked="another process held the store's write lock for longer than the busy timeout (0.5 s, from \$BENCHDB_BUSY_TIMEOUT)"
again="run it again to record it (--no-record runs it without recording)"

# hold_lock: a second process takes the write lock and keeps it until
# release_lock.
hold_lock() {
    rm -f locked release
    python3 "$BENCHDB_SRC/tests/cli/lib/hold_lock.py" s.db "$T" &
    holder=$!
    n=0
    while [ ! -e locked ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
    [ -e locked ] || fail "test setup: the lock was not taken"
}
release_lock() {
    touch release
    wait "$holder"
}

hold_lock
# 1. The query runs, prints its result, and says it could not record it.
run_bounded 30 env BENCHDB_BUSY_TIMEOUT=0.5 "$B" query --queries q n
expect_bounded "a query under a held lock" 10 64
expect_rc 1 "a query under a held lock"
expect_eq "$(cat "$T/out")" "$(cat want.table)" "its result is printed"
expect_eq "$(cat "$T/err")" "result: ok holds in all 1 row
error: query n: ran, but cannot record the evaluation: $locked; $again" "it says why it was not recorded"
run_bounded 30 env BENCHDB_BUSY_TIMEOUT=0.5 "$B" query --queries q n --format csv --gate
expect_rc 1 "--gate under a held lock: 1, whatever the gate says"
expect_eq "$(cat "$T/out")" "$(cat want.csv)" "--gate: its result is printed"
expect_err_has "gate: ok holds in every row (exit 0, but 1: not recorded)" "--gate: the gate's answer, and why 1"
run_bounded 30 env BENCHDB_BUSY_TIMEOUT=0.5 "$B" query --queries q n --format json --envelope
expect_rc 1 "--envelope under a held lock"
expect_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["rows"], d["evaluation"], d["not_recorded"])' "$T/out")" \
    "[{'n': 22, 'ok': 1}] None cannot record the evaluation: $locked" "--envelope: rows, no evaluation, why"
# 2. The same for sql --write: it says what held it up.
run_bounded 30 env BENCHDB_BUSY_TIMEOUT=0.5 "$B" sql --write "INSERT INTO plan(name) VALUES ('p')"
expect_rc 1 "sql --write under a held lock"
expect_eq "$(cat "$T/err")" "error: sql: $locked; nothing of this statement was stored" "sql --write: message"
release_lock

# 3. Nothing was recorded or stored, and the next run records evaluation 1.
expect_eq "$(evaluations)" 0 "nothing recorded under the lock"
expect_eq "$(bd sql "SELECT count(*) FROM plan WHERE name = 'p'" --format csv | tail -n 1 | tr -d '\r')" 0 \
    "nothing stored under the lock"
run bd query --queries q n
expect_rc 0 "the query once the lock is released"
expect_err_has "recorded as evaluation 1 (see 'benchdb history n')" "recorded as evaluation 1"

# 4. A lock released within the busy timeout is waited for: recorded.
hold_lock
(sleep 0.5 && touch release) &
run_bounded 60 env BENCHDB_BUSY_TIMEOUT=20 "$B" query --queries q n
expect_rc 0 "a query waiting for a lock released in time"
expect_err_has "recorded as evaluation 2 " "recorded as evaluation 2"
wait "$holder"

# 5. $BENCHDB_BUSY_TIMEOUT must be a number of seconds from 0 to a week.
for bad in -1 x 604801 inf; do
    run env BENCHDB_BUSY_TIMEOUT="$bad" "$B" query --queries q n
    expect_rc 1 "\$BENCHDB_BUSY_TIMEOUT=$bad"
    expect_eq "$(cat "$T/err")" \
        "error: \$BENCHDB_BUSY_TIMEOUT '$bad': expected a number of seconds from 0 to 604800 (a week)" \
        "\$BENCHDB_BUSY_TIMEOUT=$bad: message"
done
expect_eq "$(evaluations)" 2 "two evaluations in all"
bd check >/dev/null || fail "check after the locked runs"
finish
