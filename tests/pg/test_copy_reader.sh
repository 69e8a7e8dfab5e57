# A store copied into a server (`benchdb copy postgresql://...` into an
# empty database, docs/copy.md) is made there as `benchdb init` makes one:
# the role benchdb_reader may read every table and view of it, and what no
# reader may do (large objects, advisory locks) is taken from PUBLIC in its
# database (docs/postgresql.md, "Read-only analysis"). A team that moves
# its SQLite store with copy then reads it as the docs say, as a member of
# the role: a saved query with --no-record, `list`, `check`, `history
# --verify`; its writes are refused, and a recording command (query,
# backtest, compare) says it ran but could not record, and --no-record
# (compare shows its answer first, and says the role may only read). Before, copy made the store but not
# the role's grants: a member read nothing ("permission denied for table").
# copy --quiet prints nothing, the grants made all the same.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_copy_reader
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
alice=benchdb_copy_reader_alice
pg_dropdb "$db" >/dev/null
pg_dropdb "${db}_q" >/dev/null
pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $alice" >/dev/null

# The SQLite store: a plan, a registered rule and a recorded evaluation.
run bd --db s.db init
expect_rc 0 "init the SQLite store"
# shellcheck disable=SC2046 # a glob for the shell to expand
run bd --db s.db ingest -q $(calibration_archives)
expect_rc 0 "ingest"
run bd --db s.db rule register placement-rule --published-at 2026-10-20T16:00:00Z
expect_rc 0 "rule register"
run bd --db s.db query placement-rule --param plan=calibration-sim
expect_rc 0 "a recorded evaluation"
[ "$failures" -eq 0 ] || exit 1

# As docs/postgresql.md says: createdb, then the copy into it.
pg_emptydb "$db" >/dev/null
run bd --db s.db copy "$uri"
expect_rc 0 "copy into an empty database"
expect_out_has "read-only analysis: log in as a member of benchdb_reader" "copy says how readers log in, as init does"
grants=$(pg -d "$db" -A -t -c "SELECT count(*) FILTER (WHERE NOT has_table_privilege('benchdb_reader', c.oid, 'SELECT')) \
|| ' ' || count(*) FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace \
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v')")
case $grants in
"0 "[1-9]*) ;;
*) fail "benchdb_reader may read every table and view of the copy (tables it may not read, of all: $grants)" ;;
esac
expect_eq "$(pg -d "$db" -A -t -c "SELECT has_function_privilege('public', 'lo_from_bytea(oid, bytea)', 'EXECUTE') \
|| ' ' || has_function_privilege('public', 'pg_advisory_lock(bigint)', 'EXECUTE') \
|| ' ' || has_schema_privilege('public', 'public', 'CREATE')")" "false false false" \
    "large objects, advisory locks and creating in the schema taken from PUBLIC in the copy's database"

# A member of the role reads the copy with benchdb, as the docs say.
pg -d postgres -c "CREATE ROLE $alice LOGIN IN ROLE benchdb_reader" >/dev/null
as_alice="postgresql://$alice@$PGHOST:$PGPORT/$db"
run bd --db "$as_alice" query placement-rule --param plan=calibration-sim --no-record
expect_rc 0 "a member runs the rule with --no-record"
expect_err_has "not adopted" "the rule's verdict"
run bd --db "$as_alice" list
expect_rc 0 "a member lists the plans"
expect_out_has "calibration-sim" "list names the copied plan"
run bd --db "$as_alice" history --verify --all
expect_rc 0 "a member verifies the copied evaluations"
expect_err_has "verified 1 evaluation: 1 identical, 0 not" "the evaluation is identical on the copy"
run bd --db "$as_alice" check
expect_rc 0 "a member checks the copy"
# Recording is a write: what a member runs without --no-record says so,
# with the command's name and what to do, as query does (backtest and
# compare said "error: cannot record the evaluation: ..." alone).
nev=$(pg -d "$db" -A -t -c "SELECT count(*) FROM evaluation")
run bd --db "$as_alice" backtest gate-percent --plan calibration-sim
expect_rc 1 "a member's recorded back-test"
expect_err_has "error: backtest gate-percent: ran, but cannot record the evaluation: the role $alice may only read \
this store (a member of benchdb_reader); it is written by the role $PGUSER, which owns its tables: connect as \
$PGUSER or a member of it (--no-record runs it without recording)" \
    "backtest names itself, what the role may do and who writes, and says --no-record (not to run it again)"
# compare shows its answer, then says the role may only read and who
# writes (before: no table at all, and "run it again to record it", which
# changes nothing for a reader).
run bd --db "$as_alice" compare --plan calibration-sim --by variant chill native --metric primary --gate
expect_rc 1 "a member's recorded compare"
expect_err_has "error: compare: ran, but cannot record the evaluation: the role $alice may only read this store \
(a member of benchdb_reader); it is written by the role $PGUSER, which owns its tables: connect as $PGUSER or a \
member of it (--no-record runs it without recording)" \
    "compare names itself, what the role may do and who writes, and says --no-record"
expect_out_has "vs base" "a member's compare shows its table all the same"
checks=$((checks + 1))
grep -q "gate:" "$T/err" && fail "no gate's line naming another status than 1: $(cat "$T/err")"
expect_eq "$(tail -n 1 "$T/err" | cut -c1-27)" "error: compare: ran, but ca" "the error is said last"
run bd --db "$as_alice" compare --plan calibration-sim --by variant chill native --metric primary --gate \
    --format json --envelope
expect_rc 1 "a member's recorded compare, --envelope"
checks=$((checks + 1))
python3 - "$T/out" <<'PY' || fail "the envelope's exit is the command's (1), with no gate's note naming another"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit"] == 1, d.get("exit")
assert not any("gate:" in n for n in d.get("notes", [])), d.get("notes")
PY
run bd --db "$as_alice" query placement-rule --param plan=calibration-sim
expect_rc 1 "a member's recorded query"
expect_err_has "error: query placement-rule: ran, but cannot record the evaluation" "query says so too"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM evaluation")" "$nev" "nothing recorded"
nseries=$(pg -d "$db" -A -t -c "SELECT count(*) FROM series")
run bd --db "$as_alice" sql --write "DELETE FROM series"
expect_rc 1 "a member's write is refused"
expect_err_has "error: sql: the role $alice may only read this store" "before any statement runs, saying who writes"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM series")" "$nseries" "the series stay"

# --quiet: nothing printed, the grants made all the same.
pg_emptydb "${db}_q" >/dev/null
run bd --db s.db copy --quiet "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_q"
expect_rc 0 "copy --quiet"
[ -s "$T/out" ] && fail "copy --quiet prints nothing: $(head -2 "$T/out")"
expect_eq "$(pg -d "${db}_q" -A -t -c "SELECT has_table_privilege('benchdb_reader', 'evaluation', 'SELECT')")" "t" \
    "benchdb_reader may read the quiet copy's evaluations"

# The team's CI role, owner of its database, no superuser and without
# CREATEROLE (docs/postgresql.md, "A store on a server"), copies: the copy
# stands and says what is left to a superuser, whose init on the store
# then gives the readers what they need (before, the warning sent it to "a
# role with CREATEROLE", which may grant neither the owner's tables nor
# the schema benchstats).
ci=benchdb_copy_reader_ci
pg_dropdb "${db}_ci" >/dev/null
pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $ci" -c "CREATE ROLE $ci LOGIN" \
    -c "CREATE DATABASE ${db}_ci OWNER $ci TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" >/dev/null
pg -d "${db}_ci" -c "CREATE EXTENSION benchstats" -c "GRANT USAGE ON SCHEMA benchstats TO $ci" >/dev/null
run bd --db s.db copy "postgresql://$ci@$PGHOST:$PGPORT/${db}_ci"
expect_rc 0 "copy as the database's owner"
expect_err_has "as a superuser, run 'benchdb init' on this store" "says who finishes the readers' grants, and how"
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_ci" init
expect_rc 0 "a superuser's init on the copy"
expect_out_has "read-only analysis: log in as a member of benchdb_reader" "readers may log in"
run bd --db "postgresql://$alice@$PGHOST:$PGPORT/${db}_ci" query placement-rule --param plan=calibration-sim --no-record
expect_rc 0 "a member runs the rule on the CI role's copy"
# A table the CI role makes later (a migration's, run as the store's
# owner) is read too: the superuser's init set the default privileges of
# the tables' owner (before, its own, which covered no table of the store).
pg -U "$ci" -d "${db}_ci" -c "CREATE TABLE later_table (x BIGINT)" >/dev/null
expect_eq "$(pg -d "${db}_ci" -A -t -c "SELECT has_table_privilege('benchdb_reader', 'later_table', 'SELECT')")" "t" \
    "a table the owner makes later is read by benchdb_reader"
run bd --db "postgresql://$ci@$PGHOST:$PGPORT/${db}_ci" ingest -q --plan p --run r --host h \
    "$BENCHDB_SRC/examples/go-bench/crc-old.txt"
expect_rc 0 "the CI role ingests after the superuser's init (its advisory lock granted back)"
pg_dropdb "${db}_ci" >/dev/null
pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $ci" >/dev/null

pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $alice" >/dev/null
pg_dropdb "$db" >/dev/null
pg_dropdb "${db}_q" >/dev/null
finish
