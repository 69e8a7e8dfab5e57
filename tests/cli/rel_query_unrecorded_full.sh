# Interrupted recording, the query half, on a disk that fills while the
# evaluation is recorded (docs/reliability.md): the result is printed all
# the same, stderr says it was not recorded because the disk is full, the
# exit status is 1, and the store is intact; once space is freed the same
# command records it. (A disk already full when the command starts is
# refused up front: cli/rel_store_full.) A 2 MiB tmpfs left with 256 KiB
# free, and a result whose rows take about 1.3 MB as JSON (root only;
# skipped otherwise).
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/cli/lib/tmpfs.sh"
skip_without_tmpfs m 2M
bd() { "$BENCHDB_BIN" --db m/s.db "$@"; }
unset BENCHDB_TIMEOUT BENCHDB_BUSY_TIMEOUT
mkdir q
printf -- '-- name: wide\n-- summary: 10000 rows of 100 hex digits\n%s\n' \
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000) SELECT x, hex(zeroblob(50)) AS h FROM c" \
    >q/wide.sql
bd init >/dev/null
bd ingest --quiet "$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
bd query --queries q wide --no-record --format csv >want.csv 2>/dev/null
bd sql "PRAGMA wal_checkpoint(TRUNCATE)" --write >/dev/null
free_kib=$(df --output=avail m | tail -n 1 | tr -d ' ')
dd if=/dev/zero of=m/filler bs=1k count=$((free_kib - 256)) 2>/dev/null || fail "test setup: filling the disk"
expect_eq "$(df --output=avail m | tail -n 1 | tr -d ' ')" 256 "test setup: 256 KiB left"

run bd query --record --queries q wide --format csv
expect_rc 1 "a query whose recording fills the disk"
expect_eq "$(cat "$T/out")" "$(cat want.csv)" "its result is printed"
expect_eq "$(tail -n 1 "$T/err")" \
    "error: query wide: ran, but cannot record the evaluation: the disk is full (database or disk is full); run it again to record it (--no-record runs it without recording)" \
    "it says the disk is full"
run bd sql "SELECT count(*) FROM evaluation" --format csv
expect_eq "$(tail -n 1 "$T/out" | tr -d '\r')" 0 "nothing recorded"
run bd check
expect_eq "$(head -n 1 "$T/out")" "check: ok" "the store is intact"

rm m/filler
run bd query --record --queries q wide --format csv
expect_rc 0 "the same query once space is freed"
expect_err_has "recorded as evaluation 1 (see 'benchdb history wide')" "recorded as evaluation 1"
run bd check
expect_eq "$(head -n 1 "$T/out")" "check: ok" "check at the end"
finish
