# Transaction control (docs/reliability.md): transaction control cannot drop an
# evaluation. The attack: a saved query `BEGIN` (or `SAVEPOINT sp1`) ran,
# benchdb printed "recorded as evaluation 1" while the INSERT stayed inside
# the open transaction and was rolled back when the store closed; the next
# evaluation reused the id. Now every transaction-control statement is
# refused in a saved query and in `sql` without --write, nothing is
# recorded, and the evaluations that follow get ids 1, 2 and stay. With
# --write, the SQL's own BEGIN ... COMMIT is honoured, and a transaction it
# leaves open is rolled back with an error (exit 1), never reported done.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd() { "$BENCHDB_BIN" --db "$T/s.db" "$@"; }
bd init >/dev/null
bd ingest --quiet "$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
mkdir q
rows() { "$BENCHDB_BIN" --db "$T/s.db" sql "$1" --format csv | tail -n +2 | tr -d '\r' | paste -sd ' ' -; }

# refused STATEMENT SHOWN: a saved query and sql both refuse it, naming it.
refused() {
    printf -- '-- name: tx\n-- summary: transaction control\n%s\n' "$1" >q/tx.sql
    run bd query --record --queries q tx
    expect_rc 1 "saved query: $1"
    expect_eq "$(cat "$T/err")" "error: query tx (q/tx.sql): is not read-only; a saved query may only read the store (transaction control ($2) is refused)" "saved query message: $1"
    expect_eq "$(cat "$T/out")" "" "saved query $1: no result, no 'recorded as'"
    run bd query --queries q tx --no-record
    expect_rc 1 "saved query --no-record: $1"
    run bd sql "$1"
    expect_rc 1 "sql: $1"
    expect_eq "$(cat "$T/err")" "error: sql: the store is opened read-only: transaction control ($2) is refused (pass --write to change it)" "sql message: $1"
}
refused "BEGIN" "BEGIN"
refused "begin immediate transaction" "BEGIN"
refused "BEGIN EXCLUSIVE" "BEGIN"
refused "SAVEPOINT sp1" "SAVEPOINT sp1"
refused "COMMIT" "COMMIT"
refused "END" "COMMIT"
refused "ROLLBACK" "ROLLBACK"
refused "RELEASE sp1" "RELEASE sp1"
refused "ROLLBACK TO sp1" "ROLLBACK TO sp1"
expect_eq "$(rows "SELECT count(*) FROM evaluation")" 0 "nothing recorded by the refused queries"

# The evaluations after them are recorded, committed and numbered 1, 2.
printf -- '-- name: ok\n-- summary: reads\nSELECT count(*) AS n FROM run\n' >q/ok.sql
run bd query --record --queries q ok
expect_err_has "recorded as evaluation 1 (see 'benchdb history ok')" "first evaluation"
run bd query --record --queries q ok
expect_err_has "recorded as evaluation 2 (see 'benchdb history ok')" "second evaluation"
expect_eq "$(rows "SELECT id, query_name FROM evaluation ORDER BY id")" "1,ok 2,ok" "both evaluations are stored"

# sql --write: the SQL's own transaction, whole or not at all.
run bd sql --write "BEGIN; INSERT INTO plan(name) VALUES ('open')"
expect_rc 1 "sql --write leaving BEGIN open"
expect_eq "$(cat "$T/err")" "error: sql: the SQL leaves a transaction open (BEGIN or SAVEPOINT without COMMIT or RELEASE): rolled back, nothing of it was stored" "BEGIN left open: message"
run bd sql --write "SAVEPOINT a; INSERT INTO plan(name) VALUES ('open')"
expect_rc 1 "sql --write leaving SAVEPOINT open"
run bd sql --write "BEGIN; INSERT INTO plan(name) VALUES ('failed'); INSERT INTO nosuch VALUES (1)"
expect_rc 1 "sql --write failing inside BEGIN"
expect_eq "$(sed 's/; the nearest tables and views: .*//' "$T/err")" "error: sql: no such table: nosuch
error: sql: the transaction the SQL opened was rolled back: nothing of it was stored" "failure inside BEGIN: message"
expect_eq "$(rows "SELECT count(*) FROM plan WHERE name IN ('open', 'failed')")" 0 "nothing of the open transactions was stored"
run bd sql --write "BEGIN; INSERT INTO plan(name) VALUES ('c1'); INSERT INTO plan(name) VALUES ('c2'); COMMIT"
expect_rc 0 "sql --write BEGIN ... COMMIT"
run bd sql --write "SAVEPOINT a; INSERT INTO plan(name) VALUES ('r1'); RELEASE a"
expect_rc 0 "sql --write SAVEPOINT ... RELEASE"
expect_eq "$(rows "SELECT name FROM plan WHERE name IN ('c1', 'c2', 'r1') ORDER BY name")" "c1 c2 r1" "committed transactions are stored"
finish
