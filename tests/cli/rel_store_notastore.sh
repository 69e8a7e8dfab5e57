# Files that are not stores (docs/reliability.md): an
# empty file given as --db silently became a new store on 'ingest' (a
# missing one got "no store here"), and '--db /dev/null' left
# /dev/null-journal behind. Only a regular file holding benchdb's schema is
# a store: an empty file is refused by every command but 'init' (which makes
# it a store) and 'migrate --status' (which lists every migration pending),
# and stays empty; a device, a FIFO or a directory is refused at once, by
# kind, with nothing created beside it.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
example="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
mkdir q
printf -- '-- name: n\n-- summary: counts runs\nSELECT count(*) AS n FROM run\n' >q/n.sql

# Every command that takes a store, on FILE.
commands() { # FILE
    printf '%s\n' "ingest --quiet $example" "sql SELECT(1)" "sql --write SELECT(1)" "check" "history" \
        "query --queries q n" "query --queries q n --no-record" "migrate" "rule list" "backup bk.db"
}

# An empty file: refused, left empty.
: >e.db
commands | while IFS= read -r cmd; do
    # shellcheck disable=SC2086
    run bd --db e.db $cmd
    expect_rc 1 "$cmd on an empty file"
    expect_eq "$(cat "$T/err")" "error: e.db: no store here: the file is empty (run 'benchdb init' to create a store in it)" "$cmd on an empty file: message"
    expect_eq "$(wc -c <e.db | tr -d ' ')" 0 "$cmd left the file empty"
    [ "$failures" = 0 ] || exit 1
done || failures=$((failures + 1))
ls e.db-* >/dev/null 2>&1 && fail "a side file was left beside the empty file: $(ls e.db-*)"
run bd --db e.db migrate --status --format csv
expect_rc 0 "migrate --status on an empty file"
expect_out_has "0001,0001_initial.sql,pending," "migrate --status: every migration pending"
expect_eq "$(wc -c <e.db | tr -d ' ')" 0 "migrate --status left the file empty"
run bd --db e.db init
expect_rc 0 "init on an empty file"
expect_out "created store e.db (schema version $(ls "$BENCHDB_SRC"/migrations/*.sql | wc -l))" "init makes an empty file a store"
run bd --db e.db ingest --quiet "$example"
expect_rc 0 "ingest once init made it a store"

# A missing file: as before.
run bd --db missing.db ingest --quiet "$example"
expect_rc 1 "ingest into a missing file"
expect_eq "$(cat "$T/err")" "error: missing.db: no store here (run 'benchdb init' to create one, or pass --db FILE)" "missing file: message"
[ ! -e missing.db ] || fail "ingest created missing.db"

# Not regular files: refused by kind in every command, init included, at
# once (a FIFO would block a reader forever: the test bounds each run).
mkfifo fifo
mkdir dir
# /dev/null-journal is only ever the old bug's leftover: removed to see
# whether a command makes it again.
rm -f /dev/null-journal /dev/null-wal /dev/null-shm
for f in /dev/null fifo dir; do
    case "$f" in
    /dev/null) kind="a character device" ;;
    fifo) kind="a FIFO (named pipe)" ;;
    dir) kind="a directory" ;;
    esac
    { commands; echo init; } | while IFS= read -r cmd; do
        # shellcheck disable=SC2086
        run timeout 20 "$BENCHDB_BIN" --db "$f" $cmd
        expect_rc 1 "$cmd on $f"
        expect_eq "$(cat "$T/err")" "error: $f: is $kind, not a store (a store is a regular file)" "$cmd on $f: message"
        [ "$failures" = 0 ] || exit 1
    done || failures=$((failures + 1))
done
for side in /dev/null-journal /dev/null-wal /dev/null-shm fifo-journal fifo-wal fifo-shm dir-journal dir-wal dir-shm; do
    [ ! -e "$side" ] || fail "$side was created"
done
[ -z "$(ls dir)" ] || fail "something was created in dir: $(ls dir)"
finish
