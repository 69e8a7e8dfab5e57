# Read-only analysis on PostgreSQL holds whatever the SQL does
# (docs/reliability.md; docs/postgresql.md, "Read-only
# analysis"): `sql` without --write, connected as a superuser, commits
# nothing whatever the SQL text does with transactions (ending the
# read-only transaction and beginning another, SET and set_config of the
# read-only settings, RESET, DO, CALL, PREPARE TRANSACTION, savepoints,
# several statements in one string, comments and strings hiding a ';' or a
# COMMIT), reads as benchdb_reader (no server file), and what a read-only
# transaction lets through (a data-modifying WITH, SELECT INTO, EXPLAIN
# ANALYZE of a write, nextval) is refused by the server; a saved query,
# recorded or run with --no-record, and its needs line, run under one and
# the same check: only the SQL SQLite's read-only guard accepts on
# benchdb's schema (no pg_read_file, pg_terminate_backend, pg_sleep, lo_*,
# set_config, query_to_xml, dblink), and nothing PostgreSQL reads
# otherwise than SQLite (a subscript, E'' strings, dollar quotes, nested
# comments). After every attack the store is as it was: its rows, tables,
# large objects, prepared transactions and settings.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_readonly
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
victim=benchdb_readonly_victim

pg_emptydb "$db" >/dev/null
run bd --db "$uri" init
expect_rc 0 "init"
run bd --db "$uri" ingest -q "$BENCHDB_SRC/examples/calibration/p4-vm-c-1.jsonl.zst"
expect_rc 0 "an archive"
[ "$failures" -eq 0 ] || exit 1
# dblink, when the server has it, so that its functions are really there.
pg -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS dblink" >/dev/null 2>&1

# What an attack could change: rows, tables, large objects, prepared
# transactions, the settings of this database and of the session's role.
state() {
    pg -d "$db" -A -t -c "SELECT (SELECT count(*) FROM plan) || ' plans, ' || (SELECT count(*) FROM sample) ||
' samples, ' || (SELECT count(*) FROM evaluation) || ' evaluations, ' || (SELECT count(*) FROM pg_class WHERE
relnamespace = CAST('public' AS regnamespace)) || ' relations, ' || (SELECT count(*) FROM pg_largeobject_metadata) ||
' large objects, ' || (SELECT count(*) FROM pg_prepared_xacts) || ' prepared, settings: ' || (SELECT
coalesce(string_agg(array_to_string(setconfig, ','), ';'), '') FROM pg_db_role_setting WHERE setdatabase = (SELECT oid
FROM pg_database WHERE datname = current_database()) OR setrole = (SELECT oid FROM pg_roles WHERE rolname =
current_user))"
}
before=$(state)

# attack WHAT SQL [STDERR]: sql without --write refuses it (exit 1), with
# that message when given, and the store is unchanged.
attack() {
    run bd --db "$uri" sql "$2"
    expect_rc 1 "sql: $1"
    [ -z "${3:-}" ] || expect_err_has "$3" "sql: $1: the message"
    expect_eq "$(state)" "$before" "sql: $1: the store unchanged"
}
ins="INSERT INTO plan(name) VALUES ('x')"
tc="error: sql: the store is opened read-only: transaction control"

# ---- ending the read-only transaction, beginning a writable one ----
attack "COMMIT; BEGIN READ WRITE; INSERT; COMMIT" "COMMIT; BEGIN READ WRITE; $ins; COMMIT" "$tc (COMMIT) is refused"
attack "COMMIT; CREATE TABLE" "COMMIT; CREATE TABLE t1 (x int)" "$tc (COMMIT) is refused"
attack "DELETE; COMMIT" "DELETE FROM evaluation; COMMIT" \
    "DELETE is not a statement that only reads (SELECT, WITH, VALUES, TABLE, EXPLAIN, SHOW)"
attack "ROLLBACK; INSERT" "ROLLBACK; $ins" "$tc (ROLLBACK) is refused"
attack "END; BEGIN; INSERT; END" "END; BEGIN; $ins; END" "$tc (END) is refused"
attack "abort; start transaction read write (lower case)" "abort; start transaction read write; $ins; commit" \
    "$tc (ABORT) is refused"
attack "a SELECT first, then COMMIT" "SELECT 1; COMMIT; $ins" "$tc (COMMIT) is refused"
attack "TABLE, then COMMIT" "TABLE plan; COMMIT; $ins; COMMIT" "$tc (COMMIT) is refused"
attack "SAVEPOINT; RELEASE" "SAVEPOINT a; RELEASE a; COMMIT; $ins" "$tc (SAVEPOINT) is refused"
attack "PREPARE TRANSACTION" "PREPARE TRANSACTION 'x'" "PREPARE is not a statement that only reads"
attack "SET SESSION CHARACTERISTICS" "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE; COMMIT; $ins" \
    "SET is not a statement that only reads"
attack "SET default_transaction_read_only" "SET default_transaction_read_only = off; COMMIT; $ins" \
    "SET is not a statement that only reads"
attack "SET transaction_read_only" "SET transaction_read_only = off; $ins" "SET is not a statement that only reads"
attack "RESET ALL" "RESET ALL; COMMIT; $ins" "RESET is not a statement that only reads"
attack "set_config, then COMMIT" "SELECT set_config('default_transaction_read_only', 'off', false); COMMIT; $ins" \
    "set_config() is refused: it changes the session or runs SQL given as text"
attack "pg_catalog.set_config of the transaction" "SELECT pg_catalog.set_config('transaction_read_only', 'off', true)" \
    "set_config() is refused"
attack "a quoted \"set_config\" back to the session's own role" "SELECT \"set_config\"('role', 'none', false)" \
    "set_config() is refused"
attack "SQL as text (query_to_xml)" "SELECT query_to_xml('SELECT set_config(''role'', ''none'', false)', true, true, '')" \
    "query_to_xml() is refused"
attack "dblink_exec into another session" \
    "SELECT dblink_exec('dbname=$db user=$PGUSER host=$PGHOST port=$PGPORT', '$(echo "$ins" | sed "s/'/''/g")')" \
    "dblink_exec() is refused"
attack "a name in Unicode escapes" "SELECT U&\"set\\005fconfig\"('role', 'none', false)" "Unicode escapes"
attack "DO" "DO \$\$BEGIN $ins; END\$\$" "DO is not a statement that only reads"
attack "CALL" "CALL benchdb_no_such_procedure()" "CALL is not a statement that only reads"
attack "COPY TO PROGRAM" "COPY (SELECT 1) TO PROGRAM 'true'" "COPY is not a statement that only reads"
attack "LOCK" "LOCK TABLE plan" "LOCK is not a statement that only reads"
attack "VACUUM" "VACUUM plan" "VACUUM is not a statement that only reads"
attack "NOTIFY" "NOTIFY benchdb" "NOTIFY is not a statement that only reads"
attack "a parenthesised statement" "(SELECT 1)" "a statement beginning with '(' is not one that only reads"
# Comments and strings that hide a ';' or a COMMIT from a lexer that reads
# them otherwise than the server: PostgreSQL's block comments nest.
attack "a COMMIT after a nested comment" "/* /* */ SELECT 1 */ COMMIT; $ins" "$tc (COMMIT) is refused"
attack "a COMMIT after a line comment" " -- SELECT
commit; $ins" "$tc (COMMIT) is refused"
attack "a ';' in an E'' string" "SELECT E'\\';COMMIT;$ins;--'" ""
attack "a ';' in a dollar-quoted string, then COMMIT" "SELECT \$\$;\$\$; COMMIT; $ins" "$tc (COMMIT) is refused"
# What a read-only transaction itself refuses.
attack "a data-modifying WITH" "WITH d AS (DELETE FROM evaluation RETURNING 1) SELECT count(*) FROM d" \
    "in a read-only transaction"
attack "SELECT INTO" "SELECT * INTO TABLE t2 FROM plan" "in a read-only transaction"
attack "EXPLAIN ANALYZE of an INSERT" "EXPLAIN ANALYZE $ins" "in a read-only transaction"
attack "nextval" "SELECT nextval(pg_get_serial_sequence('plan', 'id'))" "permission denied for sequence plan_id_seq"
# As benchdb_reader: no large object, no server file, no advisory lock.
attack "a large object" "SELECT lo_from_bytea(0, 'x')" "permission denied for function lo_from_bytea"
attack "a server file" "SELECT pg_read_file('/etc/hostname')" "permission denied for function pg_read_file"
attack "an advisory lock" "SELECT pg_advisory_lock(1)" "permission denied for function pg_advisory_lock"

# What only reads still runs, as benchdb_reader.
run bd --db "$uri" sql "SELECT current_user AS u" -f csv
expect_eq "$(tr -d '\r' <"$T/out")" "u
benchdb_reader" "sql reads as benchdb_reader"
run bd --db "$uri" sql " -- a comment
SELECT 1 AS a; /* /* nested */ */ VALUES (2); TABLE plan; EXPLAIN SELECT 1; SHOW search_path" -f csv
expect_rc 0 "SELECT, VALUES, TABLE, EXPLAIN and SHOW run"
run bd --db "$uri" sql "WITH p AS (SELECT name FROM plan) SELECT count(*) AS n FROM p" -f csv
expect_eq "$(tr -d '\r' <"$T/out")" "n
1" "WITH runs"
run bd --db "$uri" sql --write "$ins"
expect_rc 0 "--write writes"
pg -d "$db" -c "DELETE FROM plan WHERE name = 'x'" >/dev/null

# ---- saved queries: recorded or not, the same check ----
mkdir -p "$T/q"
# saved WHAT NAME SQL STDERR [once]: the query refused recorded and with
# --no-record (exit 1, the same message), nothing recorded, the store
# unchanged.
# Under the sanitizers (BENCHDB_SANITIZED=1) a query marked "once" is run
# with --no-record alone: both routes check its text with one and the same
# code (src/query/evaluate.c, pg_checked: SQLite's guard on benchdb's
# schema, then the rewrite for the server), which meets every attack
# sanitized on the first; the recorded route's own part (and the same
# message recorded or not) is taken by the queries not marked, one refused
# by the guard and one by the rewrite. The plain pass runs every query on
# both routes (docs/testing.md, "The larger cli and pg tests trimmed under
# the sanitizers": tools/plain_only_cover.py's counts).
saved() {
    printf -- '-- name: %s\n-- summary: an attack\n%s\n' "$2" "$3" >"$T/q/$2.sql"
    run bd --db "$uri" query --queries "$T/q" "$2" --no-record
    expect_rc 1 "query --no-record: $1"
    expect_err_has "$4" "query --no-record: $1: the message"
    if [ "${5:-}" = once ] && [ "${BENCHDB_SANITIZED:-0}" = 1 ]; then
        expect_eq "$(state)" "$before" "query: $1: the store unchanged"
        return
    fi
    cp "$T/err" "$T/err.norecord"
    run bd --db "$uri" query --queries "$T/q" "$2" --record
    expect_rc 1 "query, recorded: $1"
    checks=$((checks + 1))
    cmp -s "$T/err" "$T/err.norecord" || fail "query: $1: recorded and --no-record say different things"
    expect_eq "$(state)" "$before" "query: $1: the store unchanged"
}
alien="is not SQL a saved query may run on a server"
saved "pg_read_file" readfile "SELECT pg_read_file('/etc/hostname') AS f" "$alien: no such function: pg_read_file"
saved "pg_read_file, schema-qualified" readfile2 "SELECT pg_catalog.pg_read_file('/etc/hostname') AS f" "$alien" once
saved "pg_ls_dir" lsdir "SELECT pg_ls_dir('/') AS f" "$alien: no such function: pg_ls_dir" once
pg -d "$db" -c "SET application_name = '$victim'" -c "SELECT pg_sleep(120)" >/dev/null 2>&1 &
vpid=$!
i=0 # until it runs
until [ "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$victim' \
AND state = 'active'")" = 1 ] || [ "$i" -ge 200 ]; do
    i=$((i + 1))
    sleep 0.05
done
saved "pg_terminate_backend" terminate "SELECT pg_terminate_backend(pid) AS t FROM pg_stat_activity \
WHERE application_name = '$victim'" "$alien: no such" once
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$victim'")" 1 \
    "the other session still runs"
pg -d "$db" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '$victim'" >/dev/null
wait "$vpid" 2>/dev/null
saved "pg_sleep" sleep "SELECT pg_sleep(30) AS s" "$alien: no such function: pg_sleep" once
saved "a large object" lo "SELECT lo_from_bytea(0, X'61') AS o" "$alien: no such function: lo_from_bytea" once
saved "set_config" setconfig "SELECT set_config('role', 'none', false) AS r" "$alien: no such function: set_config" once
saved "SQL as text" xml "SELECT query_to_xml('SELECT 1', true, true, '') AS x" "$alien: no such function: query_to_xml" once
saved "dblink" dblink "SELECT dblink_exec('dbname=$db', 'DELETE FROM sample') AS d" "$alien: no such function: dblink_exec" once
saved "the server's catalogues" authid "SELECT rolname FROM pg_authid" "$alien: no such table: pg_authid" once
saved "a write" write "DELETE FROM evaluation" "is not read-only; a saved query may only read the store (not authorized)" once
saved "a subscript SQLite reads as a name" subscript \
    "SELECT (t_ci(s.value)) [pg_read_file('/etc/hostname')] FROM sample s" \
    "the query holds a name quoted with [ ] or \` \`"
saved "an E'' string" estring "SELECT E'\\'' AS x" "$alien" once
# SQLite reads a string where PostgreSQL's nested comment ends and code
# follows: SELECT 1 AS a, pg_sleep(30) AS b on the server.
saved "a nested comment" nested "SELECT 1 AS a /* /* */, '*/, pg_sleep(30) AS b --' AS c" \
    "the query nests a comment in another" once
saved "a dollar-quoted string" dollar "SELECT \$q\$x\$q\$ AS a" "the query holds a dollar-quoted string" once
# A needs line runs under the same check as the query.
printf -- '-- name: needs\n-- summary: an attack in a needs line\n-- needs: pg_terminate_backend(0)\n-- unmet: never\nSELECT 1 AS a\n' \
    >"$T/q/needs.sql"
for mode in --no-record --record; do
    run bd --db "$uri" query --queries "$T/q" needs $mode
    expect_rc 1 "a needs line's attack ${mode:-recorded}"
    expect_err_has "needs (line 3) is not SQL a saved query may run on a server: no such function: pg_terminate_backend" \
        "a needs line's attack ${mode:-recorded}: the message"
done
expect_eq "$(state)" "$before" "needs: the store unchanged"
# What only reads still runs and is recorded.
printf -- '-- name: fine\n-- summary: reads\nSELECT count(*) AS n FROM plan\n' >"$T/q/fine.sql"
run bd --db "$uri" query --queries "$T/q" fine --no-record -f csv
expect_eq "$(tr -d '\r' <"$T/out")" "n
1" "a saved query that reads runs"
run bd --db "$uri" query --queries "$T/q" fine --record -f csv
expect_rc 0 "and is recorded (--record: a lookup)"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM evaluation")" 1 "one evaluation"

# ---- A statistics function past the statement_timeout ----
# The server interrupts a statement only where its code asks
# (CHECK_FOR_INTERRUPTS): change_points over 200,000 values with a window
# holding them all (O(n^2) a split) ran for minutes past `sql --timeout 1`
# and was deaf to pg_cancel_backend, a reader's way to hold a server's
# core. It now asks the server's interrupts as it computes (stats/stop.h).
. "$BENCHDB_SRC/tests/cli/lib/bounded.sh"
cp="WITH c(x) AS (SELECT generate_series(1, 200000)) SELECT length(CAST(change_points(x, (x % 7) +
CAST(x > 100000 AS INTEGER) * 5 + CAST(x > 150000 AS INTEGER) * 3, 1000000) AS TEXT)) AS n FROM c"
run_bounded 60 "$BENCHDB_BIN" --db "$uri" sql --timeout 1 "$cp"
expect_bounded "sql: change_points past --timeout" 30 256
expect_rc 1 "sql: change_points past --timeout: stopped"
expect_eq "$(cat "$T/err")" "error: sql: stopped after 1 s (--timeout 1; raise it with --timeout SECONDS)" \
    "sql: change_points past --timeout: the timeout's message"
slow=benchdb_readonly_slow
pg -d "$db" -c "SET application_name = '$slow'" -c "SET statement_timeout = 0" \
    -c "SET search_path = benchstats, public" -c "$cp" >"$T/slow.out" 2>&1 &
spid=$!
i=0 # until it runs
until [ "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$slow' \
AND state = 'active' AND query LIKE '%change_points%'")" = 1 ] || [ "$i" -ge 200 ]; do
    i=$((i + 1))
    sleep 0.05
done
checks=$((checks + 1))
[ "$i" -lt 200 ] || fail "the session computes change_points: $(cat "$T/slow.out")"
sleep 1 # the 200,000 rows collected (milliseconds): inside the one call
pg -d "$db" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = '$slow'" >/dev/null
i=0 # until it is cancelled: at most 30 s (the computation alone takes minutes)
while [ "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$slow'")" != 0 ] &&
    [ "$i" -lt 300 ]; do
    i=$((i + 1))
    sleep 0.1
done
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$slow'")" 0 \
    "pg_cancel_backend ends change_points' computation"
pg -d "$db" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '$slow'" >/dev/null
wait "$spid" 2>/dev/null
checks=$((checks + 1))
grep -q "canceling statement due to user request" "$T/slow.out" || fail "the session says it was cancelled: $(cat "$T/slow.out")"
# Within the limit the same function gives its result (a small window).
run bd --db "$uri" sql --format csv "WITH c(x) AS (SELECT generate_series(1, 2000)) SELECT CAST(change_points(x,
(x % 7) + CAST(x > 1000 AS INTEGER) * 5, 100) AS TEXT) AS cp FROM c"
expect_rc 0 "change_points within the limit"
expect_out_has '""seq"": 1002, ""index"": 1001,' "change_points within the limit: the step found"

pg_dropdb "$db" >/dev/null
finish
