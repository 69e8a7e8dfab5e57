# Hostile queries (docs/reliability.md): 'benchdb sql' without --write and
# saved queries from --queries (recorded or not) cannot change the store by
# any route, reach another file or learn an address; --timeout stops a
# runaway query with a clear message and exit 1.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
bd() { "$BENCHDB_BIN" --db "$T/s.db" "$@"; }
bd init >/dev/null
bd ingest --quiet "$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
mkdir q

# Everything a reader could observe, and the file's own bytes after a
# checkpoint: an unchanged state means nothing was written.
state() {
    "$BENCHDB_BIN" --db "$T/s.db" sql "SELECT (SELECT group_concat(name || ':' || sql, ';') FROM sqlite_schema),
        (SELECT count(*) FROM archive), (SELECT count(*) FROM run), (SELECT count(*) FROM sample),
        (SELECT count(*) FROM evaluation), (SELECT group_concat(name) FROM plan)" --format csv | sha256sum
    ls "$T" | grep -Ev '^(out|err|want)$'
}
# Checkpointed so that the file itself can be compared too.
bd sql --write "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
before=$(state)
file_before=$(sha256sum <"$T/s.db")

# Each statement is refused on three routes: sql without --write, and a
# saved query from --queries run with and without recording.
# Under the sanitizers (BENCHDB_SANITIZED=1) every statement takes the
# first route, and the saved query's two routes only the statements marked
# below: the guard that refuses them is one and the same (SQLite's
# authorizer, store_begin_readonly with STORE_RO_UNTRUSTED on both
# commands), so every statement meets it sanitized on the first route; the
# saved query's own refusals (src/query/evaluate.c, prepare_guarded:
# refused as prepared, with SQLITE_AUTH or another error code, or
# prepared but not read-only; recorded or not) are reached by the marked
# ones (measured statement by statement). The plain pass runs every
# statement on all three routes (docs/testing.md, "The larger cli and pg
# tests trimmed under the sanitizers": tools/plain_only_cover.py's counts).
refused() { # STATEMENT [sql-only]
    run bd sql "$1"
    expect_rc 1 "sql refuses: $1"
    [ "${2:-}" = sql-only ] && [ "${BENCHDB_SANITIZED:-0}" = 1 ] && return
    printf -- '-- name: hostile\n-- summary: tries to change the store\n%s\n' "$1" >q/hostile.sql
    run bd query --queries q hostile
    expect_rc 1 "a recorded saved query refuses: $1"
    expect_err_has "error: query hostile (q/hostile.sql): " "saved query message: $1"
    run bd query --queries q hostile --no-record
    expect_rc 1 "an unrecorded saved query refuses: $1"
}
for stmt in \
    "INSERT INTO plan(name) VALUES ('x')" "UPDATE run SET name = 'x'" "DELETE FROM sample" \
    "REPLACE INTO host(name) VALUES ('h')" "DROP TABLE sample" "ALTER TABLE run ADD COLUMN x" \
    "CREATE TABLE x(a)" "CREATE TEMP TABLE x(a)" "CREATE TEMP VIEW v AS SELECT 1" \
    "CREATE TEMP TRIGGER tr AFTER INSERT ON plan BEGIN SELECT 1; END" \
    "CREATE TRIGGER tr AFTER INSERT ON plan BEGIN DELETE FROM run; END" "CREATE INDEX i ON run(name)" \
    "CREATE VIRTUAL TABLE v USING fts4(a)" \
    "ATTACH 'other.db' AS o" "ATTACH ':memory:' AS m" "DETACH main" \
    "VACUUM" "VACUUM INTO 'copy.db'" "REINDEX" "ANALYZE" \
    "PRAGMA journal_mode = DELETE" "PRAGMA query_only = 0" "PRAGMA user_version = 7" \
    "PRAGMA writable_schema = ON" "PRAGMA foreign_keys = OFF" "PRAGMA wal_checkpoint" \
    "PRAGMA wal_checkpoint(TRUNCATE)" "PRAGMA incremental_vacuum" "PRAGMA optimize" "PRAGMA shrink_memory" \
    "SELECT load_extension('$BENCHDB_EXT')" "SELECT fts3_tokenizer('simple')" \
    "BEGIN IMMEDIATE" "WITH x AS (SELECT 1) DELETE FROM run" "UPDATE sqlite_master SET sql = 'x'" \
    "INSERT INTO sqlite_temp_master VALUES ('table', 'x', 'x', 0, 'CREATE TABLE x(a)')"; do
    case $stmt in
    # the statements the saved query's routes take under the sanitizers too
    # (refused as prepared, with SQLITE_AUTH or, fts3_tokenizer, another
    # error code; or prepared and not read-only: VACUUM)
    "INSERT INTO plan"* | "BEGIN IMMEDIATE" | "PRAGMA wal_checkpoint" | "ATTACH ':memory:'"* | \
        "SELECT fts3_tokenizer"* | "VACUUM") refused "$stmt" ;;
    *) refused "$stmt" sql-only ;;
    esac
done
run bd sql "SELECT load_extension('/nonexistent')"
expect_err_has "error: sql: not authorized to use function: load_extension" "load_extension message"
run bd sql "SELECT fts3_tokenizer('simple')"
expect_err_has "error: sql: not authorized to use function: fts3_tokenizer" "fts3_tokenizer message (it would print an address)"
run bd sql "PRAGMA wal_checkpoint"
expect_err_has "error: sql: the store is opened read-only" "a checkpoint is refused"
[ ! -e other.db ] && [ ! -e copy.db ] || fail "a refused statement created a file"
expect_eq "$(state)" "$before" "the store reads the same after every refusal"
expect_eq "$(sha256sum <"$T/s.db")" "$file_before" "the store file is byte for byte the same"

# Reading stays possible: inspecting PRAGMAs and queries.
run bd sql "PRAGMA table_info(run)" --format csv
expect_rc 0 "PRAGMA table_info"
run bd sql "PRAGMA integrity_check" --format csv
expect_out "$(printf 'integrity_check\r\nok\r')" "PRAGMA integrity_check"
run bd sql "SELECT count(*) FROM sample" --format csv
expect_rc 0 "a plain SELECT"
# Table-valued functions (a regression: the guard refused them all, as
# connecting one asks to update the schema table's columns).
run bd sql "SELECT group_concat(value, ' ') AS v FROM json_each('[1,2,3]')" --format csv
expect_out "$(printf 'v\r\n1 2 3\r')" "json_each under the guard"
run bd sql "SELECT count(*) AS n FROM pragma_table_info('run') WHERE name = 'archive_id'" --format csv
expect_out "$(printf 'n\r\n1\r')" "pragma_table_info() under the guard"
printf -- '-- name: tvf\n-- summary: a table-valued function\n-- param: j = [1,[2]]\nSELECT count(*) AS n FROM json_tree(:j)\n' >q/tvf.sql
run bd query --queries q tvf --no-record --format csv
expect_out "$(printf 'n\r\n4\r')" "json_tree in a saved query"

# --timeout: a runaway query is stopped, on both commands.
loop="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
run timeout 120 "$BENCHDB_BIN" --db "$T/s.db" sql --timeout 1 "$loop"
expect_rc 1 "sql --timeout stops a runaway query"
expect_eq "$(cat "$T/err")" "error: sql: stopped after 1 s (--timeout 1; raise it with --timeout SECONDS)" "sql --timeout message"
printf -- '-- name: forever\n-- summary: never ends\n%s\n' "$loop" >q/forever.sql
run timeout 120 "$BENCHDB_BIN" --db "$T/s.db" query --queries q forever --timeout 0.5
expect_rc 1 "query --timeout stops a runaway saved query"
expect_eq "$(cat "$T/err")" "error: query forever: stopped after 0.5 s (--timeout 0.5; raise it with --timeout SECONDS)" "query --timeout message"
run timeout 120 "$BENCHDB_BIN" --db "$T/s.db" sql --write --timeout 1 "$loop"
expect_rc 1 "sql --write --timeout stops too"
run bd sql --timeout 30 "SELECT count(*) FROM sample" --format csv
expect_rc 0 "a query within its time limit"
expect_out "$(printf 'count(*)\r\n22\r')" "its answer"
for bad in 0 -1 x 1e999 nan ""; do
    run bd sql --timeout "$bad" "SELECT 1"
    expect_rc 2 "sql --timeout '$bad'"
    expect_err_has "error: sql: --timeout '$bad': expected a number of seconds > 0" "sql --timeout '$bad' message"
    run bd query --queries q forever --timeout "$bad"
    expect_rc 2 "query --timeout '$bad'"
done
expect_eq "$(state)" "$before" "the store is unchanged after the stopped queries"
finish
