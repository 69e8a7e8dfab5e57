# Busy stores (docs/reliability.md, "Concurrency"): a writer meeting another
# process's lock that keeps out readers too (an SQLite connection in
# exclusive locking mode; a writer of a store in rollback-journal mode)
# waited the busy timeout reading the store's first page, then again
# reading its schema, and ended with "s.db: cannot read the schema:
# database is locked" after twice the documented wait. Now every command
# waits once and says which store is busy, what it waited for and how
# long; the store is unchanged and usable once the lock is gone.
# The lock is held by Python's sqlite3 module (another program, as in the
# attack); the test waits on a file it creates, not on time.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
export BENCHDB_BUSY_TIMEOUT=0.5
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r","host":"h"}' \
    '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1,2,3]}' >a.jsonl
busy="s.db: the store is busy: another process holds a lock on it that keeps out readers and writers (waited 0.5 s for it; \$BENCHDB_BUSY_TIMEOUT raises the wait)"

# hold MODE: a Python process holding s.db locked until the file go is
# removed; MODE exclusive: locking_mode EXCLUSIVE and a read (WAL store);
# journal: the store in rollback-journal mode, BEGIN EXCLUSIVE.
hold() {
    rm -f ready
    touch go
    python3 - "$1" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect("s.db", isolation_level=None)
if sys.argv[1] == "exclusive":
    c.execute("PRAGMA locking_mode = EXCLUSIVE")
    c.execute("BEGIN")
    c.execute("SELECT count(*) FROM plan").fetchall()
else:
    c.execute("PRAGMA journal_mode = DELETE")
    c.execute("BEGIN EXCLUSIVE")
    c.execute("INSERT INTO host(name) VALUES ('held')")
open("ready", "w").close()
for _ in range(1200):
    if not os.path.exists("go"):
        break
    time.sleep(0.05)
c.execute("ROLLBACK")
PY
    holder=$!
    n=0
    while [ ! -e ready ] && [ $n -lt 600 ]; do sleep 0.05; n=$((n + 1)); done
    [ -e ready ] || fail "test setup: the lock was not taken"
}
release() {
    rm -f go
    wait "$holder"
}

for mode in exclusive journal; do
    rm -f s.db s.db-*
    bd --db s.db init >/dev/null
    bd --db s.db ingest -q a.jsonl
    sed 's/"run":"r"/"run":"r2"/' a.jsonl >b.jsonl
    hold $mode
    run bd --db s.db ingest -q b.jsonl
    expect_rc 1 "$mode: ingest under the lock"
    expect_eq "$(cat "$T/err")" "error: $busy" "$mode: ingest says which store is busy and how long it waited"
    run bd --db s.db delete --plan p
    expect_rc 1 "$mode: delete under the lock"
    expect_eq "$(cat "$T/err")" "error: $busy" "$mode: delete's message"
    run bd --db s.db sql "SELECT count(*) FROM run"
    expect_rc 1 "$mode: a read under the lock"
    expect_eq "$(cat "$T/err")" "error: $busy" "$mode: sql's message"
    release
    expect_eq "$(bd --db s.db sql "SELECT group_concat(name) || ' ' || (SELECT count(*) FROM host) FROM run" \
        --format csv | tail -n 1 | tr -d '\r')" "r 1" "$mode: nothing changed while busy (nor by the lock's holder)"
    run bd --db s.db ingest -q b.jsonl
    expect_rc 0 "$mode: ingest after the lock"
    run bd --db s.db check
    expect_rc 0 "$mode: check after the lock"
done
finish
