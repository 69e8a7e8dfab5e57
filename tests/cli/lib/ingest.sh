# Shared by tests/cli/ingest*.sh and check*.sh (sourced; not a test itself).
# Gives: $T (a temp dir, removed on exit), bd (benchdb on $T/store.db),
# fail, snapshot (row counts, archive hashes and PRAGMA integrity_check:
# equal snapshots mean an unchanged store), expect_rows.
set -eu
: "${BENCHDB_BIN:?set by ctest}" "${BENCHDB_SRC:?set by ctest}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DATA="$BENCHDB_SRC/tests/data/ingest"
LIB="$BENCHDB_SRC/tests/cli/lib"

bd() { "$BENCHDB_BIN" --db "$T/store.db" "$@"; }

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# One benchdb process: integrity_check's rows through its table-valued
# function, in the same statement (and read transaction) as the counts.
snapshot() {
    bd sql "SELECT (SELECT count(*) FROM archive), (SELECT count(*) FROM archive_chunk),
                   (SELECT count(*) FROM plan), (SELECT count(*) FROM host), (SELECT count(*) FROM variant),
                   (SELECT count(*) FROM benchmark), (SELECT count(*) FROM run), (SELECT count(*) FROM series),
                   (SELECT count(*) FROM sample), (SELECT count(*) FROM gate), (SELECT count(*) FROM event),
                   (SELECT group_concat(sha256) FROM (SELECT sha256 FROM archive ORDER BY id)),
                   (SELECT group_concat(integrity_check, ' | ') FROM pragma_integrity_check) AS integrity" --format csv
}

# expect_rows LABEL SQL EXPECTED: the query's CSV rows (no header) must equal EXPECTED.
expect_rows() {
    got=$(bd sql "$2" --format csv | tail -n +2 | tr -d '\r')
    [ "$got" = "$3" ] || fail "$1: expected
$3
got
$got"
}
