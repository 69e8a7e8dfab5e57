# benchdb copy into a file that does not exist, interrupted (docs/copy.md):
# the copy writes a temporary beside DEST (DEST.partial-XXXXXX) and
# renames it to DEST once committed, so that DEST never holds an empty or
# half-filled store. Before, the store was made at DEST as the copy began:
# Ctrl-C left an empty but valid store there, which a second copy then
# filled without a word. Ctrl-C (SIGINT), SIGTERM and SIGHUP mid-copy now
# leave no file, neither DEST nor the temporary nor SQLite's files beside
# it; the process still ends by the signal (exit 128 + N), and a copy
# again makes DEST whole. The copy is held mid-way, inside its
# transaction after its first table, by the test-only
# $BENCHDB_TEST_COPY_HOLD (it creates the file named and waits until it
# is removed), so the signal lands there every time, never racing the copy.
# backup, which made its file the same way already, now removes its
# temporary on those signals too.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
unset BENCHDB_TEST_COPY_HOLD BENCHDB_TEST_BACKUP_HOLD
H=$BENCHDB_SRC/tests/data/harness/google-benchmark
bd --db a.db init >/dev/null
bd --db a.db ingest --plan p --run base --host h "$H/gbench_test1_run1.json" >/dev/null 2>&1 || fail "ingest"
bd --db a.db ingest --plan p --run head --host h "$H/gbench_test3_run0.json" >/dev/null 2>&1 || fail "ingest"

# interrupted SIG: a copy into new.db, held after its first table, sent SIG.
interrupted() {
    rm -f hold
    # A job of a non-interactive shell ignores SIGINT: the signal's
    # default restored for the copy, as a terminal's Ctrl-C finds it.
    BENCHDB_TEST_COPY_HOLD="$T/hold" python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$BENCHDB_BIN" --db a.db copy new.db >copy.out 2>copy.err &
    pid=$!
    n=0
    while [ ! -e hold ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
    [ -e hold ] || fail "test setup: the copy did not reach its hold"
    checks=$((checks + 1))
    [ ! -e new.db ] || fail "$1: new.db exists while the copy runs (the store is made under another name)"
    kill -"$1" "$pid"
    rc=0
    wait "$pid" || rc=$?
    rm -f hold
}

for sig in INT TERM HUP; do
    interrupted $sig
    case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
    expect_eq "$rc" "$want" "SIG$sig: the copy ends by the signal"
    expect_eq "$(ls -a | grep '^new\.db' | tr '\n' ' ')" "" "SIG$sig mid-copy: no file left (no DEST, no temporary, no -wal or -shm)"
done

# A copy again makes it whole, and only then is it there.
run bd --db a.db copy new.db
expect_rc 0 "a copy after the interrupted ones"
expect_out_has "copied " "the summary"
expect_eq "$(ls -a | grep '^new\.db' | tr '\n' ' ')" "new.db " "the store, nothing beside it"
run bd --db new.db check
expect_rc 0 "the copy is whole"
expect_eq "$(bd --db new.db sql "SELECT count(*) FROM run" --format csv | tail -n 1 | tr -d '\r')" 2 "its runs"

# backup writes FILE.partial-XXXXXX and renames it once whole; Ctrl-C
# while it copies the pages left that temporary behind (no handler
# removed it). Held before its pages by the test-only
# $BENCHDB_TEST_BACKUP_HOLD.
for sig in INT TERM; do
    rm -f hold
    BENCHDB_TEST_BACKUP_HOLD="$T/hold" python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$BENCHDB_BIN" --db a.db backup saved.db >backup.out 2>backup.err &
    pid=$!
    n=0
    while [ ! -e hold ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
    [ -e hold ] || fail "test setup: the backup did not reach its hold"
    kill -"$sig" "$pid"
    rc=0
    wait "$pid" || rc=$?
    rm -f hold
    case $sig in INT) want=130 ;; TERM) want=143 ;; esac
    expect_eq "$rc" "$want" "backup, SIG$sig: ends by the signal"
    expect_eq "$(ls -a | grep '^saved\.db' | tr '\n' ' ')" "" "backup, SIG$sig: no file left (no FILE, no temporary)"
done
run bd --db a.db backup saved.db
expect_rc 0 "a backup after the interrupted ones"
expect_eq "$(ls -a | grep '^saved\.db' | tr '\n' ' ')" "saved.db " "the backup, nothing beside it"

# A copy that fails mid-way leaves nothing either (the source's table the
# copy does not know stops it before any row: a failure, not a signal).
bd --db a.db sql --write "CREATE TABLE extra (x)" >/dev/null 2>&1 || fail "a table of the user's"
run bd --db a.db copy other.db
expect_rc 1 "a table the copy does not know"
expect_eq "$(ls -a | grep '^other\.db' | tr '\n' ' ')" "" "a failed copy: no file left"
finish
