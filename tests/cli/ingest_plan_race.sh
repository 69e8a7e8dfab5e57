# Cached ids and concurrent deletes (docs/reliability.md): ingest kept the ids of plans,
# hosts, variants and cells it had read for the archives after. While
# `ingest a1.jsonl x a2.jsonl` waited for x, `delete --plan P` removed P
# and another ingest created plan Q, which took P's id (SQLite gives a
# freed largest id again): a2's run, plan "P" in its file, was stored
# under Q, and `check` said ok. Where the id is not given again (another
# plan holds a larger one) the same race failed with SQLite's "FOREIGN KEY
# constraint failed". Now no id outlives the transaction that read it.
#
# Driven step by step, no timing: x is a FIFO, so the first ingest stops
# opening it after a1 is committed (seen in the store) and goes on when
# the test writes x. The second and third processes run in between.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
B=$BENCHDB_BIN
export BENCHDB_BUSY_TIMEOUT=20 # nothing here waits for a lock; a bug would not hang the test

rec() { # rec PLAN RUN: a run record and one samples record
    printf '{"record":"run","format":"benchdb-run/1","plan":"%s","run":"%s","host":"h"}\n' "$1" "$2"
    printf '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1,2,3]}\n'
}
rec P r1 >a1.jsonl
rec P r2 >a2.jsonl
rec F rf >fifo-content.jsonl
rec Q q1 >q.jsonl
rec Z z1 >z.jsonl
rec P r0 >p0.jsonl

sql() { "$B" --db s.db sql "$1" --format csv | tail -n +2 | tr -d '\r'; }

# race STORE-SETUP ORDER: ingest a1 x a2 in the background; once a1 is
# stored, the other processes run in ORDER ("delete-first": delete P,
# then ingest Q; "create-first": ingest Q, then delete P); then x is
# written. Leaves the first ingest's status in $first_rc, its stderr in
# first.err.
race() {
    rm -f s.db s.db-* x
    bd --db s.db init >/dev/null
    [ "$1" = with-z ] && bd --db s.db ingest -q p0.jsonl z.jsonl
    mkfifo x
    "$B" --db s.db ingest -q a1.jsonl x a2.jsonl >first.out 2>first.err &
    first=$!
    n=0
    while [ "$(sql "SELECT count(*) FROM archive WHERE name = 'a1.jsonl'")" != 1 ] && [ $n -lt 600 ]; do
        sleep 0.05
        n=$((n + 1))
    done
    [ $n -lt 600 ] || fail "test setup: a1.jsonl was not stored"
    if [ "$2" = delete-first ]; then
        run bd --db s.db delete --plan P
        expect_rc 0 "$1 $2: delete --plan P while the first ingest waits"
        run bd --db s.db ingest -q q.jsonl
        expect_rc 0 "$1 $2: ingest of plan Q"
    else
        run bd --db s.db ingest -q q.jsonl
        expect_rc 0 "$1 $2: ingest of plan Q"
        run bd --db s.db delete --plan P
        expect_rc 0 "$1 $2: delete --plan P while the first ingest waits"
    fi
    cat fifo-content.jsonl >x
    first_rc=0
    wait "$first" || first_rc=$?
}

# 1. The attack: Q takes P's freed id (the store holds no other plan).
race empty delete-first
expect_eq "$(sql "SELECT id FROM plan WHERE name = 'Q'")" 1 "test setup: Q took P's freed id 1"
expect_eq "$first_rc" 0 "the first ingest's status ($(cat first.err))"
expect_eq "$(sql "SELECT p.name || '/' || r.name FROM run r JOIN plan p ON p.id = r.plan_id ORDER BY r.id")" \
    "Q/q1
F/rf
P/r2" "a2's run is stored under plan P (its file's), not under Q"
run bd --db s.db check
expect_rc 0 "check after the race"

# 2. The variant: P's id is not given again (P was stored first, Z holds
# a larger id); the cached id named no plan and the run failed on its
# foreign key.
race with-z delete-first
expect_eq "$(sql "SELECT id FROM plan WHERE name = 'Q'")" 3 "test setup: Q did not take P's id 1"
expect_eq "$first_rc" 0 "the first ingest's status, no id reuse ($(cat first.err))"
expect_eq "$(cat first.err)" "" "no error (the run's foreign key)"
expect_eq "$(sql "SELECT p.name || '/' || r.name FROM run r JOIN plan p ON p.id = r.plan_id ORDER BY r.id")" \
    "Z/z1
Q/q1
F/rf
P/r2" "no id reuse: a2's run stored under a new plan P (p0's run r0 and a1's r1 deleted with P)"

# 3. Q created before P is deleted (Q's id is larger than P's): the
# foreign key failed too.
race empty create-first
expect_eq "$first_rc" 0 "the first ingest's status, Q first ($(cat first.err))"
expect_eq "$(sql "SELECT p.name || '/' || r.name FROM run r JOIN plan p ON p.id = r.plan_id ORDER BY r.id")" \
    "Q/q1
F/rf
P/r2" "Q first: a2's run stored under a new plan P"
expect_eq "$(sql "SELECT count(*) FROM plan WHERE name = 'P'")" 1 "one plan P"
run bd --db s.db check
expect_rc 0 "check after the race, Q first"
finish
