# benchdb copy whose connection to a server is lost mid-copy (docs/copy.md):
# the error is one sentence, libpq's lines joined ("server closed the
# connection unexpectedly; this probably means the server terminated
# abnormally before or while processing the request; nothing was written
# there"). Before, libpq's wrapped line was cut as a sentence ("abnormally;
# before or while") and its closing full stop met ours ("the request.;
# nothing was written there"); and a source whose connection was lost
# before its next table was described made the copy report a SQLite
# syntax error of its own ("cannot write the destination: near ")":
# syntax error") instead of the lost source. Both ways: a server source
# into a new SQLite file (which is then not there) and a SQLite source
# into a server. The copy is held after its first table by the test-only
# $BENCHDB_TEST_COPY_HOLD while the test ends its server session
# (pg_terminate_backend): no race.
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
unset BENCHDB_TEST_COPY_HOLD
src=benchdb_copy_lost_src dst=benchdb_copy_lost_dst
H=$BENCHDB_SRC/tests/data/harness/google-benchmark
pg_emptydb "$src" >/dev/null
suri="postgresql://$PGUSER@$PGHOST:$PGPORT/$src"
bd --db "$suri" init >/dev/null 2>&1 || fail "init the server store"
bd --db "$suri" ingest --plan p --run base --host h "$H/gbench_test1_run1.json" >/dev/null 2>&1 || fail "ingest"
bd --db s.db init >/dev/null
bd --db s.db ingest --plan p --run base --host h "$H/gbench_test1_run1.json" >/dev/null 2>&1 || fail "ingest"

# lost DB SOURCE DEST: copies SOURCE to DEST, held after its first table,
# while the sessions on database DB are ended.
lost() {
    rm -f hold
    BENCHDB_TEST_COPY_HOLD="$T/hold" "$BENCHDB_BIN" --db "$2" copy "$3" >copy.out 2>copy.err &
    pid=$!
    n=0
    while [ ! -e hold ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
    [ -e hold ] || fail "test setup: the copy did not reach its hold"
    pg -d postgres -A -t -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '$1'" \
        >/dev/null || fail "test setup: pg_terminate_backend"
    rm -f hold
    rc=0
    wait "$pid" || rc=$?
}

# checks WHAT: the error of the last copy is one sentence of libpq's.
one_sentence() {
    expect_eq "$rc" 1 "$1: the copy fails"
    expect_eq "$(grep -c . copy.err)" 1 "$1: one line"
    checks=$((checks + 1))
    grep -q '\.;\|?;\|abnormally;\|near ")"\|syntax error' copy.err && fail "$1: not one sentence: $(cat copy.err)"
    checks=$((checks + 1))
    grep -q "; nothing was written there$" copy.err || fail "$1: the end: $(cat copy.err)"
}

lost "$src" "$suri" new.db
one_sentence "the server source lost"
checks=$((checks + 1))
grep -q "^error: copy: new.db: table [a-z_]*: cannot read the source: " copy.err ||
    fail "the server source lost: names the table and the source: $(cat copy.err)"
expect_eq "$(ls -a | grep '^new\.db' | tr '\n' ' ')" "" "the server source lost: no file left"

pg_emptydb "$dst" >/dev/null
lost "$dst" s.db "postgresql://$PGUSER@$PGHOST:$PGPORT/$dst"
expect_eq "$rc" 1 "the server destination lost: the copy fails"
expect_eq "$(grep -c . copy.err)" 1 "the server destination lost: one line"
checks=$((checks + 1))
grep -q '\.;\|?;\|abnormally;' copy.err && fail "the server destination lost: not one sentence: $(cat copy.err)"

pg_dropdb "$src" >/dev/null
pg_dropdb "$dst" >/dev/null
finish
