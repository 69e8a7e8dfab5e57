# PRAGMAs (docs/reliability.md): the read-only guard's PRAGMA list
# is an allow-list compared without regard to case or schema. The attack:
# `sql "PRAGMA WAL_CHECKPOINT"` passed the guard (the lower-case form was
# refused), and as saved queries `PRAGMA OPTIMIZE` and `PRAGMA
# SHRINK_MEMORY` ran and were recorded. Each spelling is refused on the
# three read-only routes with a message naming the PRAGMA, nothing is
# recorded, the store file stays byte for byte the same; PRAGMAs that only
# read still work in any case, as do pragma_*() table-valued functions.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd() { "$BENCHDB_BIN" --db "$T/s.db" "$@"; }
bd init >/dev/null
bd ingest --quiet "$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
mkdir q
bd sql --write "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
file_before=$(sha256sum <"$T/s.db")
evaluations() { "$BENCHDB_BIN" --db "$T/s.db" sql "SELECT count(*) FROM evaluation" --format csv | tail -n 1 | tr -d '\r'; }

# refused STATEMENT REASON: refused by sql and by a saved query, recorded or not.
refused() {
    run bd sql "$1"
    expect_rc 1 "sql refuses: $1"
    expect_eq "$(cat "$T/err")" "error: sql: the store is opened read-only: $2 (pass --write to change it)" \
        "sql message: $1"
    printf -- '-- name: p\n-- summary: a pragma\n%s\n' "$1" >q/p.sql
    run bd query --record --queries q p
    expect_rc 1 "a recorded saved query refuses: $1"
    expect_eq "$(cat "$T/err")" "error: query p (q/p.sql): is not read-only; a saved query may only read the store ($2)" \
        "saved query message: $1"
    expect_eq "$(cat "$T/out")" "" "nothing printed for: $1"
    run bd query --queries q p --no-record
    expect_rc 1 "an unrecorded saved query refuses: $1"
}
for p in WAL_CHECKPOINT wal_checkpoint Wal_Checkpoint OPTIMIZE optimize SHRINK_MEMORY shrink_memory \
    INCREMENTAL_VACUUM "main.WAL_CHECKPOINT" "main.optimize" "temp.SHRINK_MEMORY" STATS VDBE_TRACE; do
    name=${p#*.}
    refused "PRAGMA $p" "PRAGMA $name is not one of the PRAGMAs that only read"
done
refused "PRAGMA WAL_CHECKPOINT(TRUNCATE)" "PRAGMA WAL_CHECKPOINT is not one of the PRAGMAs that only read"
refused "PRAGMA main.OPTIMIZE(0xfffe)" "PRAGMA OPTIMIZE is not one of the PRAGMAs that only read"
# A PRAGMA that reads without an argument sets with one, in any case.
refused "PRAGMA USER_VERSION = 7" "PRAGMA USER_VERSION with a value (7) would set it"
refused "PRAGMA main.Journal_Mode = DELETE" "PRAGMA Journal_Mode with a value (DELETE) would set it"
refused "PRAGMA QUERY_ONLY(0)" "PRAGMA QUERY_ONLY with a value (0) would set it"
refused "PRAGMA FOREIGN_KEYS = OFF" "PRAGMA FOREIGN_KEYS with a value (OFF) would set it"
# Through the table-valued form too: the guard sees the PRAGMA it runs.
refused "SELECT * FROM PRAGMA_OPTIMIZE" "PRAGMA optimize is not one of the PRAGMAs that only read"

expect_eq "$(evaluations)" 0 "no evaluation was recorded"
expect_eq "$(sha256sum <"$T/s.db")" "$file_before" "the store file is byte for byte the same"

# Reads stay possible, in any case and schema-qualified.
run bd sql "PRAGMA USER_VERSION" --format csv
expect_out "$(printf 'user_version\r\n0\r')" "PRAGMA USER_VERSION (a query)"
run bd sql "PRAGMA main.Journal_Mode" --format csv
expect_out "$(printf 'journal_mode\r\nwal\r')" "PRAGMA main.Journal_Mode (a query)"
run bd sql "PRAGMA MAIN.TABLE_INFO(plan)" --format csv
expect_out "$(printf 'cid,name,type,notnull,dflt_value,pk\r\n0,id,INTEGER,0,,1\r\n1,name,TEXT,1,,0\r')" "PRAGMA MAIN.TABLE_INFO(plan)"
run bd sql "PRAGMA INTEGRITY_CHECK" --format csv
expect_out "$(printf 'integrity_check\r\nok\r')" "PRAGMA INTEGRITY_CHECK"
run bd sql "SELECT name FROM pragma_table_info('plan') ORDER BY cid" --format csv
expect_out "$(printf 'name\r\nid\r\nname\r')" "pragma_table_info() under the guard"
printf -- '-- name: cols\n-- summary: columns of plan\nSELECT count(*) AS n FROM PRAGMA_TABLE_INFO('"'plan'"')\n' >q/cols.sql
run bd query --record --queries q cols --format csv
expect_out "$(printf 'n\r\n2\r')" "PRAGMA_TABLE_INFO in a saved query"
expect_eq "$(evaluations)" 1 "the one reading saved query was recorded"
finish
