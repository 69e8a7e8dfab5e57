# The command frame: help, version, exit codes, --db and $BENCHDB, init, migrate.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

run bd --version
expect_rc 0 "--version"
expect_out_has "benchdb 0." "--version names the program and version"

# Each help text is read once, kept in help.NAME ('benchdb help' in
# help.) and checked from there: the same text, a process fewer each.
run bd help
expect_rc 0 "help"
for c in help init migrate sql; do
    grep -q "^  $c " "$T/out" || fail "help lists '$c'"
done
# The exit codes are documented where a user looks first.
expect_out_has "  3  query --gate: the outcome does not hold in every row; compare --gate:" "help documents exit code 3"
expect_out_has "     a cell regressed" "and compare's"
expect_out_has "  4  query --gate: no rows; compare --gate: nothing compared; any query:" "help documents exit code 4"
# compare's line says it takes files (its everyday use), not only runs
expect_out_has "  compare    Compare two builds' result files, or runs, as benchstat does" "help: compare takes files"
cp "$T/out" "$T/help."
commands=$(sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' "$T/help.")

# Every command has --help, on stdout, exit 0, starting with its usage line.
for c in $commands; do
    run bd "$c" --help
    expect_rc 0 "$c --help"
    head -n 1 "$T/out" | grep -q "^usage: benchdb.* $c" || fail "$c --help starts with its usage line"
    run bd help "$c"
    expect_rc 0 "help $c"
    cp "$T/out" "$T/help.$c"
done

# Every help text fits 80 columns.
for c in "" $commands; do
    wide=$(awk 'length($0) > 80' "$T/help.$c" | head -n 1)
    expect_eq "$wide" "" "'benchdb help $c' fits 80 columns"
done

run bd
expect_rc 2 "no command"
run bd frobnicate
expect_rc 2 "unknown command"
expect_err_has "error: 'frobnicate' is not a benchdb command (see 'benchdb --help')" "unknown command message"
run bd qurey
expect_rc 2 "a mistyped command"
expect_err_has "error: 'qurey' is not a benchdb command; did you mean 'query'? (see 'benchdb --help')" "did you mean a command"
run bd help qurey
expect_rc 2 "help for a mistyped command"
expect_err_has "did you mean 'query'?" "help suggests the command"
run bd sql --fromat csv "SELECT 1"
expect_rc 2 "a mistyped option"
expect_err_has "error: sql: unknown option '--fromat'; did you mean '--format'? (see 'benchdb sql --help')" "did you mean an option"
run bd sql --wide=3 "SELECT 1"
expect_err_has "error: sql: option '--wide' takes no value" "a flag with a value"
run bd history --di 1 2
expect_rc 2 "an ambiguous abbreviation"
expect_err_has "error: history: option '--di' is ambiguous: --diff, --digits" "ambiguous option message"
run bd sql -x "SELECT 1"
expect_err_has "error: sql: unknown option '-x'" "an unknown short option"
run bd sql "SELECT 1" -p
expect_err_has "error: sql: option '-p' needs a value" "a short option without its value"
run bd --bogus init
expect_rc 2 "unknown global option"
expect_err_has "error: unknown option '--bogus'" "unknown global option message"
run bd init --bogus
expect_rc 2 "unknown command option"
expect_err_has "error: init: unknown option '--bogus'" "unknown command option message"
run bd --db
expect_rc 2 "--db without a value"
run bd help nosuch
expect_rc 2 "help for a missing command"

# A store must exist before anything reads it.
run bd sql "SELECT 1"
expect_rc 1 "sql without a store"
expect_err_has "error: results.db: no store here (run 'benchdb init' to create one, or pass --db FILE)" "missing store message"
[ ! -e results.db ] || fail "a read command must not create the store"

# init creates results.db in the current directory; a second init changes nothing.
run bd init
expect_rc 0 "init"
# The schema version is the number of migrations (migrations/NNNN_*.sql).
NMIG=$(ls "$BENCHDB_SRC"/migrations/*.sql | wc -l)
expect_out "created store results.db (schema version $NMIG)" "init message"
[ -f results.db ] || fail "init creates results.db"
run bd init
expect_rc 0 "second init"
expect_out "store results.db is up to date (schema version $NMIG)" "second init message"

# --db and $BENCHDB name another store; --db wins.
run bd --db other.db init
expect_rc 0 "init --db"
[ -f other.db ] || fail "--db other.db creates other.db"
BENCHDB=env.db run bd init
[ -f env.db ] || fail "\$BENCHDB=env.db creates env.db"
BENCHDB=env.db run bd --db=third.db init
[ -f third.db ] || fail "--db wins over \$BENCHDB"

# migrate
run bd migrate
expect_rc 0 "migrate on a current store"
expect_out "store results.db is up to date (schema version $NMIG)" "migrate message"
run bd migrate --status --format csv
expect_rc 0 "migrate --status"
expect_out_has "$(printf '0001,0001_initial.sql,applied,')" "status lists the applied migration"
# The state first, in words (it was the bare list): on stderr in a
# terminal, bold in Markdown, nothing on CSV's stderr.
expect_eq "$(cat "$T/err")" "" "migrate --status --format csv: the rows alone"
run bd migrate --status
expect_eq "$(cat "$T/err")" "schema at version $NMIG of $NMIG: up to date" "migrate --status: the state first"
run bd migrate --status --format markdown
expect_eq "$(head -n 1 "$T/out")" "**schema at version $NMIG of $NMIG: up to date**" "migrate --status as Markdown"
: >empty.db
run bd --db empty.db migrate --status
expect_eq "$(cat "$T/err")" "schema at version 0 of $NMIG: $NMIG migrations pending, from 0001_initial.sql: 'benchdb migrate' applies them" \
    "migrate --status of an empty file: every migration pending"
expect_eq "$(grep -c pending "$T/out")" "$NMIG" "and the rows say so"
run bd migrate --format csv
expect_rc 2 "migrate --format without --status: it shaped nothing"
expect_err_has "error: migrate: --format goes with --status (the list it prints)" "says so"

# A modified migration is reported.
bd sql --write "UPDATE schema_migration SET sha256 = 'x' WHERE version = 1" >/dev/null
run bd migrate --status
expect_out_has "modified" "status flags a modified migration"
expect_eq "$(cat "$T/err")" "schema at version $NMIG of $NMIG: 1 applied migration modified since (state modified)" \
    "migrate --status: the modified migration in the first line"
run bd init
expect_err_has "warning: migration 0001 (0001_initial.sql) differs from the text recorded when it was applied" "init warns about a modified migration"

# A store newer than this binary is refused and left untouched.
bd --db new.db init >/dev/null
bd --db new.db sql --write "INSERT INTO schema_migration VALUES (99, '0099_future.sql', 'x', 'now')" >/dev/null
bd --db new.db sql --write "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null 2>&1
sum_before=$(cksum <new.db)
for c in "sql SELECT(1)" "init" "migrate" "migrate --status"; do
    # shellcheck disable=SC2086
    run bd --db new.db $c
    expect_rc 1 "$c on a newer store"
    expect_err_has "error: new.db: the store's schema is at version 99, newer than this benchdb knows (up to $NMIG): use a newer benchdb; the store was left untouched" "$c newer-store message"
done
expect_eq "$(cksum <new.db)" "$sum_before" "a newer store is left byte for byte"

# A migration that fails rolls back whole: the message names its file and
# SQLite's reason, the store stays at its version with its tables as they
# were. (A store whose record says version 6 while it holds version 7's
# tables: 0007 cannot create run_cell_data again.) The sanitized pass's
# one failed migration on SQLite; pg/schema fails them on PostgreSQL.
bd --db mig.db init >/dev/null
bd --db mig.db sql --write "DELETE FROM schema_migration WHERE version > 6" >/dev/null
bd --db mig.db sql --write "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null 2>&1
sum_before=$(cksum <mig.db)
run bd --db mig.db migrate
expect_rc 1 "a migration that fails"
expect_err_has "error: mig.db: migration 0007_summaries.sql failed: table run_cell_data already exists" "the failed migration's file and reason"
expect_eq "$(sqlite3 mig.db 'SELECT max(version) FROM schema_migration')" "6" "the store stays at version 6"
expect_eq "$(cksum <mig.db)" "$sum_before" "a failed migration leaves the store byte for byte"

# A file that is not a store.
echo "hello, this is not a database file at all, only some plain text here" >notdb.db
run bd --db notdb.db sql "SELECT 1"
expect_rc 1 "sql on a text file"
expect_err_has "error: notdb.db: not a benchdb store" "not-a-store message"

# The views exist.
run bd sql "SELECT name FROM sqlite_schema WHERE type='view' ORDER BY 1" --format csv
expect_rc 0 "list views"
expect_out "$(printf 'name\r\nblock_ratio\r\nblock_score\r\ncalibration_comparison\r\ncalibration_pair\r\nhistory_point\r\nplan_run\r\nrun_cell\r')" "the views"

finish
