# Read-only locations (docs/reliability.md): a store in a
# read-only directory refused even reads ("cannot read the schema: attempt
# to write a readonly database": SQLite could not create the -shm file WAL
# mode reads through), and a read-only store file made 'query' fail without
# its result or a word about --no-record. Now reads work wherever the file
# can be read, and every command that would write says why it cannot and
# which commands still read. Made at test time with mounts (root only,
# skipped otherwise): a tmpfs remounted read-only; a read-only directory
# holding a writable file (a read-only bind mount with the file bound
# read-write over it); a read-only file in a writable directory; and a
# read-only location whose -wal holds changes, which an immutable read
# would miss, refused with what to do.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/cli/lib/tmpfs.sh"
skip_without_tmpfs m 4M
example="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
mkdir q
printf -- '-- name: n\n-- summary: counts values\nSELECT count(*) AS n FROM sample\n' >q/n.sql
"$BENCHDB_BIN" --db good.db init >/dev/null
"$BENCHDB_BIN" --db good.db ingest --quiet "$example"
still="commands that only read still work ('sql' without --write, 'query --no-record', 'history', 'check')"

# reads DB: every reading command works and changes nothing.
reads() {
    sum=$(sha256sum <"$1")
    run bd --db "$1" sql "SELECT count(*) AS n FROM sample" --format csv
    expect_out "$(printf 'n\r\n22\r')" "sql on $1"
    run bd --db "$1" check
    expect_rc 0 "check on $1"
    expect_eq "$(head -n 1 "$T/out")" "check: ok" "check on $1: ok"
    run bd --db "$1" query --queries q n --no-record --format csv
    expect_out "$(printf 'n\r\n22\r')" "query --no-record on $1"
    run bd --db "$1" history
    expect_rc 0 "history on $1"
    run bd --db "$1" migrate --status
    expect_rc 0 "migrate --status on $1"
    expect_eq "$(sha256sum <"$1")" "$sum" "$1 unchanged by the reads"
}
# no_writes DB WHY: every writing command refuses, naming why.
no_writes() {
    for cmd in "query --record --queries q n" "ingest --quiet $example" "sql --write SELECT(1)" "migrate" "init" \
        "rule register --queries q n"; do
        # shellcheck disable=SC2086
        run bd --db "$1" $cmd
        expect_rc 1 "$cmd on $1"
        # (rule register first warns that n judges no plan)
        expect_eq "$(tail -n 1 "$T/err")" "error: $1: cannot write the store here: $2; $still" "$cmd on $1: message"
        expect_eq "$(cat "$T/out")" "" "$cmd on $1: nothing on stdout"
    done
}

# 1. A read-only file system.
cp good.db m/s.db
mount -o remount,ro m || fail "test setup: remount read-only"
reads m/s.db
no_writes m/s.db "the file system is mounted read-only"
expect_eq "$(ls m)" "s.db" "nothing created beside the store"
mount -o remount,rw m || fail "test setup: remount read-write"

# 2. A read-only directory holding a writable file.
mkdir -p rod m/rod-file
cp good.db m/rod-file/s.db
cp good.db rod/s.db
mount --bind rod rod && unmount_at_exit="$T/rod $unmount_at_exit" && mount -o remount,bind,ro rod ||
    fail "test setup: read-only directory"
mount --bind m/rod-file/s.db rod/s.db && unmount_at_exit="$T/rod/s.db $unmount_at_exit" ||
    fail "test setup: writable file in it"
reads rod/s.db
no_writes rod/s.db "the file system is mounted read-only"
expect_eq "$(ls rod)" "s.db" "nothing created in the read-only directory"

# 3. A read-only file in a writable directory.
mkdir rof
cp good.db rof/s.db
mount --bind rof/s.db rof/s.db && unmount_at_exit="$T/rof/s.db $unmount_at_exit" &&
    mount -o remount,bind,ro rof/s.db || fail "test setup: read-only file"
reads rof/s.db
no_writes rof/s.db "the file is read-only"

# 4. A -wal holding changes where no -shm can be made: refused, not misread.
cp good.db m/w.db
python3 - "$T/m/w.db" <<'EOF' || fail "test setup: a -wal with changes"
import os, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA wal_autocheckpoint = 0")
con.execute("INSERT INTO plan(name) VALUES ('in-the-wal')")
os._exit(0)  # as a kill: the -wal keeps the change
EOF
rm -f m/w.db-shm
mount -o remount,ro m || fail "test setup: remount read-only"
run bd --db m/w.db sql "SELECT name FROM plan"
expect_rc 1 "reading a -wal without -shm, read-only"
expect_eq "$(cat "$T/err")" "error: m/w.db: cannot read the store here: its write-ahead log (m/w.db-wal) holds changes that SQLite reads through a m/w.db-shm file, which cannot be created (the file system is mounted read-only); copy the store with its -wal file to a writable place and read it there" "-wal without -shm: message"
mount -o remount,rw m || fail "test setup: remount read-write"
run bd --db m/w.db sql "SELECT count(*) AS n FROM plan WHERE name = 'in-the-wal'" --format csv
expect_out "$(printf 'n\r\n1\r')" "once writable, the -wal's change is read"
finish
