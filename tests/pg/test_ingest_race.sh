# Ingest's cached ids on PostgreSQL (docs/reliability.md): the sink, which
# serves both engines, kept the ids of plans (hosts, variants, cells) it
# had read for the archives after. While `ingest a1.jsonl x a2.jsonl`
# waited for x (a FIFO), `delete --plan P` removed P and another ingest
# created plan Q: a2's run failed with the server's raw foreign-key error
# (PostgreSQL gives no id twice; on SQLite, cli/ingest_plan_race, it was
# stored under Q). Now no id outlives the transaction that read it.
#
# And within one transaction: a plan's id is read FOR KEY SHARE and a
# delete locks the plans it may remove FOR UPDATE first, so a delete that
# meets an ingest storing a run of the plan waits for its commit, then
# removes that run with the plan (it failed on the run's foreign key).
#
# Driven step by step through FIFOs and the server's own view of its
# sessions (pg_stat_activity), no timing.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
B=$BENCHDB_BIN
db=benchdb_ingest_race
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"

rec() { # rec PLAN RUN: a run record and one samples record
    printf '{"record":"run","format":"benchdb-run/1","plan":"%s","run":"%s","host":"h"}\n' "$1" "$2"
    printf '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1,2,3]}\n'
}
rec P r1 >a1.jsonl
rec P r2 >a2.jsonl
rec F rf >fifo-content.jsonl
rec Q q1 >q.jsonl
rec P r0 >p0.jsonl

sql() { pg -d "$db" -A -t -c "$1"; }
runs() { sql "SELECT p.name || '/' || r.name FROM run r JOIN plan p ON p.id = r.plan_id ORDER BY r.id"; }
# until SQL: polls (at most 30 s) until the query answers t.
until_true() {
    n=0
    while [ "$(sql "$1")" != t ] && [ $n -lt 600 ]; do
        sleep 0.05
        n=$((n + 1))
    done
    [ $n -lt 600 ] || fail "test setup: waited 30 s for: $1 (sessions: $(sql "SELECT state || ' ' ||
        coalesce(wait_event_type, '-') || ' ' || left(query, 40) FROM pg_stat_activity WHERE datname = '$db'"))"
}

fresh() {
    rm -f x
    pg_emptydb "$db" && bd --db "$uri" init >/dev/null || fail "a store on PostgreSQL"
}

# 1. Between archives: ingest a1 x a2, x a FIFO; once a1 is stored,
# delete P and create Q; then x is written.
fresh
bd --db "$uri" ingest -q p0.jsonl
mkfifo x
"$B" --db "$uri" ingest -q a1.jsonl x a2.jsonl >first.out 2>first.err &
first=$!
until_true "SELECT count(*) = 1 FROM archive WHERE name = 'a1.jsonl'"
run bd --db "$uri" delete --plan P
expect_rc 0 "delete --plan P while the first ingest waits for x"
run bd --db "$uri" ingest -q q.jsonl
expect_rc 0 "ingest of plan Q"
cat fifo-content.jsonl >x
first_rc=0
wait "$first" || first_rc=$?
expect_eq "$first_rc" 0 "the first ingest's status ($(cat first.err))"
expect_eq "$(cat first.err)" "" "no error (the run's foreign key)"
expect_eq "$(runs)" "Q/q1
F/rf
P/r2" "a2's run stored under a new plan P"
run bd --db "$uri" check
expect_rc 0 "check after the race"

# 2. Within a transaction: an ingest of a stream from a FIFO has stored a
# run of plan P (uncommitted; the stream not ended) when delete --plan P
# starts: the delete waits for the ingest's commit, then removes P with
# every run, the new one too.
fresh
bd --db "$uri" ingest -q p0.jsonl
mkfifo x
"$B" --db "$uri" ingest -q x >held.out 2>held.err &
held=$!
exec 3>x
# the run record (its plan read, its run inserted) and 15 gates (the
# reading thread hands records over 16 at a time), then blank lines past
# the 64 KiB a stream's start is sniffed from
{
    head -n 1 a1.jsonl
    for g in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do printf '{"record":"gate","name":"g%s","passed":true}\n' "$g"; done
    head -c 70000 /dev/zero | tr '\0' '\n'
} >&3
# the ingest has written into table run (the lock it holds until its end)
until_true "SELECT count(*) = 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
            WHERE c.relname = 'run' AND l.mode = 'RowExclusiveLock' AND l.granted"
"$B" --db "$uri" delete --plan P >del.out 2>del.err 3>&- &
del=$!
until_true "SELECT count(*) = 1 FROM pg_stat_activity WHERE datname = '$db' AND wait_event_type = 'Lock'"
tail -n 1 a1.jsonl >&3
exec 3>&-
held_rc=0 del_rc=0
wait "$held" || held_rc=$?
wait "$del" || del_rc=$?
expect_eq "$held_rc" 0 "the ingest that held plan P ($(cat held.err))"
expect_eq "$del_rc" 0 "the delete that waited for it ($(cat del.err))"
expect_eq "$(runs)" "" "P and both its runs deleted"
expect_eq "$(sql "SELECT count(*) FROM plan")" 0 "no plan left"
run bd --db "$uri" check
expect_rc 0 "check after the delete"

pg_dropdb "$db"
finish
