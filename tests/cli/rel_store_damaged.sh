# Damage named as damage (docs/reliability.md): a damaged
# schema_migration page was reported as "the store's schema is at version
# 0 ... run 'benchdb migrate'", and migrate then failed with "table archive
# already exists", never mentioning damage. Now the store's pages are
# damaged at test time in three ways (schema_migration's page made a valid
# but empty page, the same page zeroed, a page of sample zeroed) and every
# command says "the store is damaged (...)" with what to do, changes
# nothing, and 'check' names the damage and exits 1.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd() { "$BENCHDB_BIN" --db "$T/d.db" "$@"; }
example="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
mkdir q
printf -- '-- name: n\n-- summary: counts values\nSELECT count(*) AS n FROM sample\n' >q/n.sql
"$BENCHDB_BIN" --db good.db init >/dev/null
"$BENCHDB_BIN" --db good.db ingest --quiet "$example"
"$BENCHDB_BIN" --db good.db sql --write "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
value() { "$BENCHDB_BIN" --db good.db sql "$1" --format csv | tail -n 1 | tr -d '\r'; }
page_size=$(value "PRAGMA page_size")
migration_page=$(value "SELECT rootpage FROM sqlite_schema WHERE name = 'schema_migration'")
sample_page=$(value "SELECT rootpage FROM sqlite_schema WHERE name = 'sample'")
[ -n "$page_size" ] && [ "$migration_page" -gt 1 ] && [ "$sample_page" -gt 1 ] || fail "test setup: pages"
advice="'benchdb check' shows what is damaged; restore the file from a backup, or ingest the archives again into a new store"

# damage PAGE [HEADER-BYTES]: d.db is good.db with PAGE zeroed, then its
# first bytes set (printf escapes).
damage() {
    cp good.db d.db
    dd if=/dev/zero of=d.db bs="$page_size" seek=$(($1 - 1)) count=1 conv=notrunc 2>/dev/null
    if [ $# -gt 1 ]; then
        # shellcheck disable=SC2059
        printf "$2" | dd of=d.db bs=1 seek=$((($1 - 1) * page_size)) conv=notrunc 2>/dev/null
    fi
    sum=$(sha256sum <d.db)
}

# refused_everywhere WHY: every command refuses d.db with the damage named.
refused_everywhere() {
    for cmd in "sql SELECT(1)" "sql --write SELECT(1)" "ingest --quiet $example" "query --queries q n" \
        "query --queries q n --no-record" "history" "migrate" "migrate --status" "init" "rule list"; do
        # shellcheck disable=SC2086
        run bd $cmd
        expect_rc 1 "$cmd on a damaged store"
        expect_eq "$(cat "$T/err")" "error: $T/d.db: the store is damaged ($1): $advice" "$cmd: message"
    done
    expect_eq "$(sha256sum <d.db)" "$sum" "the damaged store is unchanged"
}

# 1. schema_migration's page holds no rows, yet is a valid page: SQLite
#    reads it without complaint (the attack's case).
damage "$migration_page" '\015\000\000\000\000\020\000\000'
why="its schema_migration table, which records every migration applied, is empty"
refused_everywhere "$why"
run bd check
expect_rc 1 "check on an emptied schema_migration"
expect_eq "$(cat "$T/err")" "error: check: schema: the store is damaged ($why)" "check names the damage"
expect_eq "$(head -n 1 "$T/out")" "check: 1 problem found" "check: the one problem, first"
expect_eq "$(sed -n 2p "$T/out")" "check: schema: PROBLEMS" "check: schema line"

# 2. The same page zeroed: SQLite finds the file malformed.
damage "$migration_page"
refused_everywhere "database disk image is malformed"
run bd check
expect_rc 1 "check on a zeroed schema_migration page"
expect_err_has "error: check: schema: the store is damaged (database disk image is malformed)" "check: schema damaged"
expect_err_has "Page $migration_page: btreeInitPage() returns error code 11" "check: integrity_check names the page"

# 3. A page of sample zeroed: the store opens; reading sample says damaged.
damage "$sample_page"
run bd sql "SELECT count(*) FROM sample"
expect_rc 1 "sql reading a damaged table"
expect_eq "$(cat "$T/err")" "error: sql: the store is damaged (database disk image is malformed): $advice" "sql: damage named"
run bd query --queries q n --no-record
expect_rc 1 "a saved query reading a damaged table"
expect_eq "$(cat "$T/err")" "error: query n: the store is damaged (database disk image is malformed): $advice" "query: damage named"
run bd check
expect_rc 1 "check on a zeroed sample page"
expect_err_has "Page $sample_page: btreeInitPage() returns error code 11" "check: integrity_check names the page"
expect_eq "$(sha256sum <d.db)" "$sum" "the damaged store is unchanged"
finish
