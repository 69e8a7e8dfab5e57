# A full disk (docs/reliability.md): with the file system
# full, 'sql', 'check' and 'query --no-record' failed with "disk I/O
# error": reading a WAL-mode store needs a -shm file, which SQLite could
# not size. Now reads work on a full disk, and a command that would write
# is refused up front with "the disk is full" and the commands that still
# read; once space is freed, everything works again and nothing was lost.
# A 1 MiB tmpfs filled to the last block (root only; skipped otherwise), as
# tests/cli/rel_diskfull does.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/cli/lib/tmpfs.sh"
skip_without_tmpfs m 1M
bd() { "$BENCHDB_BIN" --db m/s.db "$@"; }
example="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
mkdir q
printf -- '-- name: n\n-- summary: counts values\nSELECT count(*) AS n FROM sample\n' >q/n.sql
bd init >/dev/null
bd ingest --quiet "$example"
[ ! -e m/s.db-shm ] || fail "test setup: a -shm was left (the fill below must have to create one)"
dd if=/dev/zero of=m/filler bs=4k 2>/dev/null || true
expect_eq "$(df --output=avail m | tail -n 1 | tr -d ' ')" 0 "test setup: the disk is full"
sum=$(sha256sum <m/s.db)

for pass in 1 2; do # twice: the first run may leave a short -shm behind
    run bd sql "SELECT count(*) AS n FROM sample" --format csv
    expect_out "$(printf 'n\r\n22\r')" "sql on a full disk ($pass)"
    run bd check
    expect_rc 0 "check on a full disk ($pass)"
    expect_eq "$(head -n 1 "$T/out")" "check: ok" "check on a full disk: ok ($pass)"
    run bd query --queries q n --no-record --format csv
    expect_out "$(printf 'n\r\n22\r')" "query --no-record on a full disk ($pass)"
    run bd history
    expect_rc 0 "history on a full disk ($pass)"
done
still="commands that only read still work ('sql' without --write, 'query --no-record', 'history', 'check')"
for cmd in "query --record --queries q n" "ingest --quiet $example" "sql --write SELECT(1)"; do
    # shellcheck disable=SC2086
    run bd $cmd
    expect_rc 1 "$cmd on a full disk"
    expect_eq "$(cat "$T/err")" "error: m/s.db: cannot write the store here: the disk is full; $still" "$cmd on a full disk: message"
    expect_eq "$(cat "$T/out")" "" "$cmd on a full disk: no result printed as if recorded"
done
expect_eq "$(sha256sum <m/s.db)" "$sum" "the store is unchanged"

rm m/filler
run bd query --record --queries q n
expect_rc 0 "query once space is freed"
expect_err_has "recorded as evaluation 1 (see 'benchdb history n')" "the evaluation is recorded"
run bd check
expect_eq "$(head -n 1 "$T/out")" "check: ok" "check at the end"
finish
