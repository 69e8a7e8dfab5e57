# benchdb copy between SQLite files (docs/copy.md): every table's rows,
# ids included, come over as they were (the derived tables bit for bit),
# `history --verify --all` finds every evaluation identical on the copy
# and `check` finds it whole; a destination that holds rows, the store
# itself, a file that is no store, and a source with a table the copy does
# not know are refused, with nothing written (a new file the copy made is
# removed). pg/copy copies between the engines.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
ex=$BENCHDB_SRC/examples
# Under the sanitizers host a's 4 calibration archives of 12
# (calibration_archives): the copy, the table-by-table comparisons,
# history --verify and check take the same paths (every table still holds
# rows; the evaluations are the same three).
cal=$(calibration_archives) min_samples=70000
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && min_samples=25000
bd --db a.db init >/dev/null
# shellcheck disable=SC2086
bd --db a.db ingest -q $cal "$ex/git-perf/p0001-git-git.jsonl" || fail "ingest"
bd --db a.db rule register variability --published-at 2020-01-01T00:00:00Z 2>/dev/null || fail "rule register"
bd --db a.db query placement-rule --param plan=calibration-sim >/dev/null 2>&1
bd --db a.db query variability --record --param plan=calibration-sim >/dev/null 2>&1 || fail "a recorded query"
bd --db a.db query variability --record --param plan=git-perf-p0001 >/dev/null 2>&1 || fail "a recorded query"

run bd --db a.db copy b.db
expect_rc 0 "a copy into a new file"
expect_out_has "copied " "says how many rows"
grep -q "^copied [0-9]* rows from a.db to b.db in [0-9.]* s$" "$T/out" ||
    fail "between SQLite files, no hash is written and the summary says nothing of hashes: $(cat "$T/out")"

# Every table, every column, in key order: the same text.
tables="archive:id archive_chunk:archive_id,seq plan:id host:id variant:id benchmark:id run:id unit:name
archive_member:id series:id sample:series_id,warmup,iteration gate:id event:id
block_score_data:run_id,benchmark_id,block,variant_id run_cell_data:run_id,benchmark_id
history_point_data:run_id,benchmark_id,variant_id,metric rule:id evaluation:id"
for tk in $tables; do
    t=${tk%%:*} k=$(echo "${tk#*:}" | tr , ' ' | sed 's/ /, /g')
    q="SELECT * FROM $t ORDER BY $k"
    bd --db a.db sql "$q" --format json --max-rows 10000000 --max-result-bytes 2G >a.json || fail "read $t"
    bd --db b.db sql "$q" --format json --max-rows 10000000 --max-result-bytes 2G >b.json || fail "read $t of the copy"
    checks=$((checks + 1))
    cmp -s a.json b.json || fail "table $t differs on the copy"
done
checks=$((checks + 1))
[ "$(bd --db b.db sql "SELECT count(*) FROM sample" --format csv | tail -1 | tr -d "\r")" -gt "$min_samples" ] || fail "the values came"

run bd --db b.db history --verify --all
expect_rc 0 "history --verify --all on the copy"
expect_err_has "verified 3 evaluations: 3 identical, 0 not" "every evaluation identical"
run bd --db b.db check
expect_rc 0 "check on the copy"
run bd --db b.db query variability --record --param plan=calibration-sim
expect_err_has "recorded as evaluation 4" "ids go on after the copied ones"

# Refused, nothing written.
run bd --db a.db copy b.db
expect_rc 1 "a destination with rows"
expect_err_has "error: copy: b.db: the destination is not empty: its table archive holds rows" "says which table"
expect_err_has "nothing was written there" "and that nothing was written"
expect_eq "$(bd --db b.db sql "SELECT count(*) FROM evaluation" --format csv | tail -1 | tr -d "\r")" 4 "the destination is unchanged"
run bd --db a.db copy a.db
expect_rc 2 "the store itself"
expect_err_has "DEST is the store itself" "says so"
ln -s a.db link.db
for same in ./a.db "$PWD/a.db" link.db; do
    run bd --db a.db copy "$same"
    expect_rc 2 "the store itself, as $same"
    expect_err_has "DEST is the store itself" "says so for $same (not 'the destination is not empty')"
done
# A link to nothing: SQLite followed it and made the store where it
# pointed (a name the link's maker chose, rows of archives in it). Refused
# as report -o refuses it, nothing made.
mkdir elsewhere
ln -s elsewhere/new.db dangling.db
run bd --db a.db copy dangling.db
expect_rc 1 "a link to nothing"
expect_eq "$(cat "$T/err")" "error: copy: dangling.db: is a symbolic link to a file that does not exist (not followed: name the file itself); nothing was written there" \
    "a link to nothing: says so"
checks=$((checks + 1))
[ -z "$(ls elsewhere)" ] || fail "nothing made where the link points"
echo "not a store" >notes.txt
run bd --db a.db copy notes.txt
expect_rc 1 "a file that is no store"
expect_eq "$(cat notes.txt)" "not a store" "the file is unchanged"
expect_eq "$(cat "$T/err")" "error: copy: notes.txt: not a benchdb store (the file is not an SQLite database); nothing was written there" \
    "a file that is no store: the message names it once"
# A destination whose directory is missing, or is a file: said so, not
# "its directory is not writable" (which sent a user to chmod), nothing made.
run bd --db a.db copy nodir/x.db
expect_rc 1 "a destination in a missing directory"
expect_eq "$(cat "$T/err")" "error: copy: nodir/x.db: cannot create the store here: its directory does not exist; nothing was written there" \
    "a missing directory: said so"
checks=$((checks + 1))
[ ! -e nodir ] || fail "a missing directory: nothing made"
run bd --db notes.txt/x.db init
expect_rc 1 "init under a file"
expect_eq "$(cat "$T/err")" "error: notes.txt/x.db: cannot create the store here: its directory's path holds a file that is not a directory" \
    "a file in the directory's path: said so"
# A server that is not there (nothing listens on port 1): libpq's two
# lines said as one sentence, the store named once, its password masked.
run bd --db a.db copy "postgresql://ci:s3cret@127.0.0.1:1/results"
expect_rc 1 "a server that is not there"
expect_eq "$(grep -c . "$T/err")" 1 "one line"
expect_err_has "error: copy: postgresql://ci:***@127.0.0.1:1/results: cannot connect to the PostgreSQL store: connection to server at \"127.0.0.1\", port 1 failed: Connection refused (is the server running on that host and accepting TCP/IP connections?); nothing was written there" \
    "a server that is not there: the message"
grep -q 's3cret\|results: postgresql\|\\n' "$T/err" && fail "no password, no name twice, no escaped line break: $(cat "$T/err")"
bd --db a.db sql --write "CREATE TABLE extra (x)" >/dev/null 2>&1 || fail "a table of the user's"
run bd --db a.db copy c.db
expect_rc 1 "a table the copy does not know"
expect_err_has "the source holds a table this benchdb does not copy: extra" "names it"
checks=$((checks + 1))
[ ! -e c.db ] || fail "the new file a failed copy made is removed"
run bd copy --help
expect_rc 0 "copy --help"
expect_out_has "usage: benchdb [--db FILE] copy DEST" "the synopsis"
finish
