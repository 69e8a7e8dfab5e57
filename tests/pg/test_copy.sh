# benchdb copy between the engines (docs/copy.md): a SQLite store holding
# the tutorial's plans, evaluations and registrations (the store
# docs/tutorial.md's commands leave, as cli/tutorial recorded it) copied to PostgreSQL and from
# there back into a new SQLite file. On both copies `history --verify
# --all` finds every evaluation identical and `check` finds the store
# whole. The SQLite copy holds every row of every table the source holds,
# value for value and type for type (tests/cli/lib/same_rows.py: the
# stored bytes, the rules, the evaluations with their ids, rows, hashes and
# times, the derived rows), so every query gives it the source's rows; its
# schema hashes are the ones SQLite computed. On PostgreSQL: `list`
# (plans, runs, archives), every row of the rule and evaluation tables,
# every table's count, the stored bytes and the derived rows are the
# source's, and so are every shipped query's rows (each query of queries/
# once, with the first parameters tests/pg/queries.list gives it,
# --no-record; pg/queries runs every listed variant on both engines). A
# destination that holds rows is refused and left as it was; a copy that
# fails half-way (after the archives and their bytes) leaves nothing.
# Both passes copy the tutorial's store without the plans of its last
# steps (null-1 to null-20 and hume, 1.6 M of its 1.7 M values) and the
# evaluations that saw their archives: still every table with rows,
# evaluations with and without a judged plan, registrations (pre-registered,
# retroactive) against the rule, the custom charts' evaluations, the
# archives' bytes. What the whole store's 2.1 M rows added was the COPY
# batches' boundaries (8 MiB each): here the test-only
# $BENCHDB_TEST_COPY_BATCH makes them 64 KiB, so the smaller store crosses
# them in every large table (sample, series, the archives' bytes, the
# derived rows), and a row larger than a batch goes alone. The copy's speed
# on a large store is make bench's (bench/copy_bench.py; docs/testing.md).
# ctest: slow cost=20
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_copy
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"

# The store the tutorial's commands leave (docs/tutorial.md), as
# cli/tutorial recorded it (ctest fixture tutorial-sqlite: it runs first).
rec="${BENCHDB_BUILD:?set by ctest}/tutorial-sqlite/store"
[ -f "$rec/results.db" ] || fail "no store recorded by cli/tutorial in $rec (ctest runs it first)"
cp "$rec/results.db" . && cp -R "$rec/my-rules" "$rec/my-charts" . || fail "cannot take the tutorial's store"
src=results.db
# The archives of the last steps are the last ones; the evaluations made
# before them saw only the ones that stay (their fingerprints cover the
# first N archives by id), the later ones go with them.
last="p.name = 'hume' OR p.name LIKE 'null-%'"
run bd --db $src sql --write --timeout 900 "DELETE FROM archive WHERE id IN (SELECT r.archive_id FROM run r JOIN plan p \
ON p.id = r.plan_id WHERE $last); DELETE FROM plan AS p WHERE $last;
DELETE FROM evaluation WHERE archive_count > (SELECT count(*) FROM archive)"
expect_rc 0 "the smaller store"
# COPY's batches of 64 KiB instead of 8 MiB: the smaller store's tables
# cross their boundaries (above).
export BENCHDB_TEST_COPY_BATCH=65536
# Evaluations of every kind: with and without a judged plan, pre-registered
# and retroactive against a rule, and unregistered.
expect_eq "$(bd --db $src sql "SELECT count(DISTINCT registration) || ' ' || count(DISTINCT judged_plan IS NULL) \
FROM evaluation" --format csv | tail -1 | tr -d "\r")" "3 2" "the store holds evaluations of every kind"
nev=$(bd --db $src sql "SELECT count(*) FROM evaluation" --format csv | tail -1 | tr -d "\r")
nrule=$(bd --db $src sql "SELECT count(*) FROM rule" --format csv | tail -1 | tr -d "\r")
[ "$nev" -ge 5 ] && [ "$nrule" -ge 1 ] || fail "the tutorial's store holds evaluations ($nev) and rules ($nrule)"

pg_emptydb "$db" >/dev/null
run bd --db $src copy "$uri"
expect_rc 0 "SQLite -> PostgreSQL"
expect_out_has "copied " "the summary"
# The copy leaves the planner statistics of every table it filled, the
# small ones too (docs/postgresql.md).
expect_eq "$(pg_unanalyzed "$db")" "none" "tables with rows but no statistics after the copy"
run bd --db "$uri" copy back.db
expect_rc 0 "PostgreSQL -> SQLite"

# Under the sanitizers (BENCHDB_SANITIZED=1) the SQLite side of the checks
# below is left out: the source's and back.db's history --verify, check and
# queries, the answers the PostgreSQL copy's are compared with, and the
# comparisons themselves (same_rows.py is Python). The sanitized run keeps
# both copies (the SQLite source read and PostgreSQL written, PostgreSQL
# read and back.db written: the copy's code both ways, its 64 KiB batches)
# and every command on the PostgreSQL copy, each checked for its exit
# status and output. That is enough: the SQLite store's verify, check,
# list, sql and every shipped query run under the sanitizers in cli/
# (cli/tutorial, cli/history_verify, cli/query ...), and the comparisons
# are the plain pass's, which runs this test whole (docs/testing.md, "The
# PostgreSQL tests' SQLite side, left to the plain pass":
# tools/plain_only_cover.py's counts).
lite=1
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && lite=0
stores="$uri back.db"
[ $lite = 1 ] || stores=$uri
for store in $stores; do
    run bd --db "$store" history --verify --all --queries my-rules --queries my-charts
    expect_rc 0 "history --verify --all on $store"
    expect_err_has "verified $nev evaluations: $nev identical, 0 not" "every evaluation identical on $store"
    run bd --db "$store" check
    expect_rc 0 "check on $store"
done

# The SQLite copy: every row of every table, as the source holds it.
if [ $lite = 1 ]; then
    run python3 "$BENCHDB_SRC/tests/cli/lib/same_rows.py" $src back.db
    expect_rc 0 "every table's rows on the SQLite copy"
    checks=$((checks + 1))
    ! grep -v '^ok ingest_defer: ' "$T/out" | grep -q ': 0 rows$' || fail "a table without rows: $(grep ': 0 rows$' "$T/out")"
fi

# PostgreSQL: list, the rule and evaluation tables, every table's count.
stores="$uri back.db"
same() { # WHAT ARGS...: the output of benchdb ARGS on the source and on each of $stores
    what=$1
    shift
    if [ $lite = 0 ]; then # sanitized: PostgreSQL's side alone (above)
        bd --db "$uri" "$@" >b.txt 2>b.err
        rb=$?
        checks=$((checks + 1))
        [ "$rb" = 0 ] && [ -s b.txt ] || { fail "$what on $uri: exit $rb"; head -5 b.err >&2; }
        return
    fi
    bd --db $src "$@" >a.txt 2>a.err
    ra=$?
    for store in $stores; do
        bd --db "$store" "$@" >b.txt 2>b.err
        rb=$?
        checks=$((checks + 1))
        if [ "$ra" != "$rb" ] || ! cmp -s a.txt b.txt; then
            fail "$what differs on $store (exit $ra / $rb)"
            diff a.txt b.txt | head -5 >&2
        fi
    done
}
stores="$uri back.db"
for what in plans runs archives; do
    same "list $what" list $what --format csv
done
stores=$uri
same "the rules" sql "SELECT * FROM rule ORDER BY id" --format csv
same "the evaluations" sql "SELECT id, query_name, query_sha256, query_text, params, rows, row_count, outcome,
    evaluated_at, duration_ms, tool_version, data_fingerprint, archive_count, judged_plan, registration, rule_id
    FROM evaluation ORDER BY id" --format json --max-result-bytes 1G
# Every table's count in one row (a column a table): one process a store,
# not one a table (32 of them, sanitized benchdb's in that pass).
counts=$(for t in archive archive_chunk plan host variant benchmark run unit archive_member series sample gate event \
    block_score_data run_cell_data history_point_data; do printf '(SELECT count(*) FROM %s) AS n_%s, ' "$t" "$t"; done)
same "every table's count" sql "SELECT ${counts%, }" --format csv
same "the stored bytes" sql "SELECT archive_id, seq, data FROM archive_chunk ORDER BY archive_id, seq" --format csv \
    --max-result-bytes 1G
same "the derived rows" sql "SELECT run_id, benchmark_id, blocks, mean_log, sd_log, moments FROM run_cell_data
    ORDER BY run_id, benchmark_id" --format csv --digits 17
# The schema hashes: back on SQLite as SQLite computed them.
if [ $lite = 1 ]; then
    bd --db $src sql "SELECT id, schema_sha256 FROM evaluation ORDER BY id" --format csv >h1.txt
    bd --db back.db sql "SELECT id, schema_sha256 FROM evaluation ORDER BY id" --format csv >h2.txt
    bd --db "$uri" sql "SELECT id, schema_sha256 FROM evaluation ORDER BY id" --format csv >h3.txt
    checks=$((checks + 1))
    cmp -s h1.txt h2.txt || fail "the schema hashes came back to SQLite as they were"
    checks=$((checks + 1))
    ! cmp -s h1.txt h3.txt || fail "PostgreSQL's schema hashes are its own"
fi

# Every shipped query, once, with the first parameters pg/queries runs it with.
grep '^same ' "$BENCHDB_SRC/tests/pg/queries.list" | awk '!seen[$2]++' | while read -r _ name params; do
    failures=0
    set --
    for p in $params; do set -- "$@" --param "$p"; done
    same "query $name $params" query "$name" "$@" --no-record --format csv
done >q.log 2>&1
checks=$((checks + 1))
! grep -q FAIL q.log || { fail "shipped queries differ"; cat q.log >&2; }
nq=$(ls "$BENCHDB_SRC"/queries/*.sql | wc -l)
[ "$(grep '^same ' "$BENCHDB_SRC/tests/pg/queries.list" | awk '!seen[$2]++' | wc -l)" = "$nq" ] ||
    fail "tests/pg/queries.list names each of the $nq shipped queries"

# New ids continue after the copied ones on PostgreSQL.
run bd --db "$uri" query variability --record --param plan=calibration-sim
expect_rc 0 "a query recorded on the copy"
expect_err_has "recorded as evaluation $((nev + 1))" "its id follows the copied ones"

# A destination with rows is refused, and left as it was.
before=$(bd --db "$uri" sql "SELECT count(*) FROM evaluation" --format csv | tail -1 | tr -d "\r")
run bd --db $src copy "$uri"
expect_rc 1 "a destination that holds rows"
expect_err_has "the destination is not empty: its table archive holds rows" "says why"
expect_err_has "nothing was written there" "says nothing was written"
checks=$((checks + 1))
[ "$(bd --db "$uri" sql "SELECT count(*) FROM evaluation" --format csv | tail -1 | tr -d "\r")" = "$before" ] ||
    fail "the refused destination is unchanged"

# A copy that fails half-way leaves nothing: a plan the destination
# refuses (a PostgreSQL database whose plan table has a stricter check),
# after the archives and their bytes were written.
pg_emptydb "${db}_bad" >/dev/null
bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_bad" init >/dev/null
pg -d "${db}_bad" -c "ALTER TABLE plan ADD CONSTRAINT no_nightly CHECK (name <> 'nightly')" >/dev/null
run bd --db $src copy "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_bad"
expect_rc 1 "a copy the destination refuses half-way"
expect_err_has "table plan: " "names the table"
checks=$((checks + 1))
[ "$(pg -d "${db}_bad" -A -t -c "SELECT (SELECT count(*) FROM archive) + (SELECT count(*) FROM sample)")" = 0 ] ||
    fail "nothing stays of the failed copy"
pg_dropdb "${db}_bad" >/dev/null

# A copy into an empty database that fails (here a table the copy does not
# know, as an interrupted copy would) leaves the schema it made first, which
# commits on its own: no row, an empty store that a copy again fills. It
# said "nothing was written there" although the database now held the
# store's tables.
bd --db $src backup odd.db >/dev/null || fail "a copy of the source to change"
sqlite3 odd.db "CREATE TABLE my_notes (x)"
pg_emptydb "${db}_odd" >/dev/null
run bd --db odd.db copy "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_odd"
expect_rc 1 "a copy of a store with a table it does not know"
expect_err_has "the source holds a table this benchdb does not copy: my_notes (a newer benchdb's schema?); no row \
was written there (the copy first gave it the store's schema, which stays, empty: a copy again fills it)" \
    "says what stays"
expect_eq "$(pg -d "${db}_odd" -A -t -c "SELECT (SELECT count(*) FROM archive) + (SELECT count(*) FROM evaluation)")" 0 \
    "no row stays"
run bd --db $src copy "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_odd"
expect_rc 0 "a copy again fills it"
pg_dropdb "${db}_odd" >/dev/null
pg_dropdb "$db" >/dev/null

[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
