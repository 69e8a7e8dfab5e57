# A connection to the server lost in the middle (the server stopped or
# restarted, the session terminated) stops history --verify and site at
# once, saying how many evaluations were not tried and the first of them,
# as ingest does (docs/postgresql.md, "A store on a server"), instead of a
# message about the next read ("cannot read the history: no connection to
# the server") that dropped the rows verified and said nothing of the
# rest. The session is terminated while it waits for a table another
# session holds locked (a row of history --verify says why, as the server
# said it: terminated by an administrator): history_point_data, which the first evaluation's
# re-run reads (a gate); rule, which only the pages of a registered rule's
# evaluations read (compare, 4 and 5), so that site has drawn 1 to 3.
# ctest: cost=3
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_lost
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
pg_emptydb "$db" >/dev/null
bd --db "$uri" init >/dev/null 2>&1 || fail "init"
bd simulate -q --history 6 --hosts 1 --cells 2 --seed 3 --plan nightly n && bd --db "$uri" ingest -q n || fail "ingest"
bd --db "$uri" rule register compare >/dev/null 2>&1 || fail "rule register compare"
for p in 5 10 20; do bd --db "$uri" query gate-percent -p plan=nightly -p percent=$p >/dev/null 2>&1; done
for b in 5 6; do bd --db "$uri" query compare -p plan=nightly -p a=ci-a-0004 -p b=ci-a-000$b >/dev/null 2>&1; done
expect_eq "$(pg -d "$db" -A -t -c "SELECT string_agg(query_name, ' ' ORDER BY id) FROM evaluation")" \
    "gate-percent gate-percent gate-percent compare compare" "5 evaluations recorded"
[ "$failures" -eq 0 ] || exit 1

# lost TABLE CMD...: CMD, run while another session holds TABLE locked; its
# session terminated once it waits for the lock. Events, not fixed sleeps.
holding="SELECT pg_sleep(60)"
holder_is="datname = '$db' AND query = '$holding' AND pid <> pg_backend_pid()"
waiting="datname = '$db' AND wait_event_type = 'Lock'"
lost() {
    table=$1
    shift
    pg -d "$db" -c "BEGIN" -c "LOCK TABLE $table IN ACCESS EXCLUSIVE MODE" -c "$holding" >/dev/null 2>&1 &
    holder=$!
    i=0
    until [ "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE $holder_is AND state = 'active'")" = 1 ]; do
        i=$((i + 1))
        [ "$i" -le 400 ] || { fail "the holding session did not start"; break; }
        sleep 0.05
    done
    env BENCHDB_BUSY_TIMEOUT=60 "$BENCHDB_BIN" --db "$uri" "$@" >"$T/out" 2>"$T/err" &
    cmd=$!
    i=0
    until [ "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE $waiting")" = 1 ]; do
        i=$((i + 1))
        [ "$i" -le 400 ] || { fail "$* did not wait for the lock on $table"; break; }
        sleep 0.05
    done
    pg -d "$db" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $waiting" >/dev/null
    wait "$cmd"
    rc=$?
    pg -d "$db" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE $holder_is" >/dev/null
    wait "$holder"
}

lost history_point_data history --verify --all
expect_eq "$rc" 1 "history --verify that lost its connection: exit 1"
expect_err_has "verified 1 evaluation: 0 identical, 1 not" "the one it tried, counted"
expect_err_has "error: history: the connection to the store was lost: 4 evaluations not verified (the first: 2); run it again once the server is back" \
    "says it stopped, how many are left, the first of them, and what to do"
expect_eq "$(grep -c 'no connection' "$T/err")" 0 "no message of the next read"
expect_eq "$(tail -n +3 "$T/out" | cut -c1-31 | sed 's/ *$//')" " 1  gate-percent  cannot re-run" \
    "the row of the one it tried, why it could not be re-run"
# The server's reason, which libpq gave first, not "no connection to the
# server" of the calls after it (src/store/db_pg.c).
expect_out_has "terminating connection due to administrator command" "the row says why the connection was lost"
expect_eq "$(grep -c 'no connection' "$T/out")" 0 "not the message of a later call"

lost rule site www
expect_eq "$rc" 1 "site that lost its connection: exit 1"
expect_eq "$(cat "$T/err")" "error: site: the connection to the store was lost: 2 evaluations not drawn (the first: 4), nor the histories' pages and the index; run it again once the server is back" \
    "says it stopped, how many evaluations are left, the first of them, and what to do"
[ -f www/index.html ] && fail "no index of the evaluations not drawn"
expect_eq "$(ls www/e | tr '\n' ' ')" "1.html 2.html 3.html " "the pages drawn before it"
# The server back: both run whole.
run bd --db "$uri" history --verify --all
expect_err_has "verified 5 evaluations: 5 identical, 0 not" "history --verify once the server is back"
run bd --db "$uri" site -q www
expect_rc 0 "site once the server is back"
[ -f www/index.html ] && [ -f www/e/5.html ] || fail "the whole site once the server is back"
pg_dropdb "$db" >/dev/null
finish
