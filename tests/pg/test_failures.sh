# The failures a harness reported, said by compare on a store on
# PostgreSQL as on SQLite (cli/compare_failures): Google Benchmark's
# BM_Parse errored in the head run (SkipWithError); compare of the runs,
# by run, by host and by an attribute, ends its first line with it (the
# events read back by one portable statement, detail a json column here).
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_failures
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
G="$BENCHDB_SRC/tests/data/harness/google-benchmark"
pg_emptydb "$db" && bd --db "$uri" init >/dev/null || fail "a store on PostgreSQL"
[ "$failures" -eq 0 ] || exit 1
bd --db "$uri" ingest -q --plan p --run base --host hb --attr build=old "$G/error_base.json" || fail "ingest base"
bd --db "$uri" ingest -q --plan p --run head --host hh --attr build=new "$G/error_head.json" || fail "ingest head"
said="the harness reported 1 failure: BM_Parse in %s (error: input file missing, 3 times)"
run bd --db "$uri" compare --plan p base head --no-record
expect_rc 0 "by run"
# shellcheck disable=SC2059
expect_err_has "$(printf "$said" head)" "by run: the failure named"
run bd --db "$uri" compare --plan p --by host hb hh --no-record
expect_rc 0 "by host"
# shellcheck disable=SC2059
expect_err_has "$(printf "$said" hh)" "by host"
run bd --db "$uri" compare --plan p --by attr:build old new --no-record
expect_rc 0 "by attribute"
# shellcheck disable=SC2059
expect_err_has "$(printf "$said" new)" "by attribute"
pg_dropdb "$db" >/dev/null

finish
