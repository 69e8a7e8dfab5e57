# A member of benchdb_reader tries every command that writes
# (docs/postgresql.md, "Read-only analysis"): each is refused before it
# reads anything, once, said as ingest says it (store_may_change,
# src/store/may_write.c): what the role may do and who writes the store,
# and nothing changes. Before, delete and rule register failed with the
# server's "permission denied for table plan" / "... rule", sql --write
# with "the store refuses this change: ...", copy with "must be owner of
# table archive_chunk", init said the store was up to date and warned of
# grants the reader could not make, and the recording commands said "the
# store cannot be written (...); run it again to record it". A store with
# a migration pending: a reader's command said "run 'benchdb migrate'",
# which it cannot, or failed in the migration on "permission denied for
# schema public"; now it says who may apply them. A writer that does not
# own the tables is told the owner.
# ctest: cost=3
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_reader_writes
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
ana=benchdb_reader_writes_ana late=benchdb_reader_writes_late
roles_drop() {
    for r in $ana $late; do
        pg -d postgres -c "SET client_min_messages = warning" -c "DROP OWNED BY $r" >/dev/null 2>&1
        pg -d "$db" -c "SET client_min_messages = warning" -c "DROP OWNED BY $r" >/dev/null 2>&1
        pg -d "${db}_old" -c "SET client_min_messages = warning" -c "DROP OWNED BY $r" >/dev/null 2>&1
        pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1
    done
}
roles_drop
for d in "$db" "${db}_old" "${db}_empty"; do pg_dropdb "$d" >/dev/null; done
pg_emptydb "$db" >/dev/null
bd --db "$uri" init >/dev/null 2>&1 || fail "init"
bd simulate -q --history 4 --hosts 1 --cells 2 --seed 3 --plan nightly n && bd --db "$uri" ingest -q n || fail "ingest"
bd --db "$uri" query gate-percent -p plan=nightly -p percent=5 >/dev/null 2>&1 || fail "an evaluation recorded"
pg -d postgres -c "CREATE ROLE $ana LOGIN IN ROLE benchdb_reader" >/dev/null
[ "$failures" -eq 0 ] || exit 1
as_ana="postgresql://$ana@$PGHOST:$PGPORT/$db"
counts() { pg -d "$db" -A -t -c "SELECT (SELECT count(*) FROM archive) || ' ' || (SELECT count(*) FROM plan) || ' ' ||
    (SELECT count(*) FROM rule) || ' ' || (SELECT count(*) FROM evaluation) || ' ' || (SELECT count(*) FROM series)"; }
n0=$(counts)
who="the role $ana may only read this store (a member of benchdb_reader); it is written by the role $PGUSER, which owns its tables: connect as $PGUSER or a member of it"

# ---- each command that exists to write: refused once, before anything ----
run bd --db "$as_ana" delete --plan nightly
expect_rc 1 "delete as a member"
expect_eq "$(cat "$T/err")" "error: delete: $who; nothing was deleted" "delete: the role, who writes, once"
run bd --db "$as_ana" delete --run nightly/ci-a-0001
expect_eq "$(cat "$T/err")" "error: delete: $who; nothing was deleted" "delete --run: the same"
run bd --db "$as_ana" rule register gate-percent
expect_rc 1 "rule register as a member"
expect_eq "$(cat "$T/err")" "error: rule register: $who; nothing was registered" \
    "rule register: the same, and no warning about the rule before it"
run bd --db "$as_ana" sql --write "DELETE FROM series"
expect_rc 1 "sql --write as a member"
expect_eq "$(cat "$T/err")" "error: sql: $who; nothing was run (without --write, sql reads)" "sql --write: the same"
run bd --db "$as_ana" init
expect_rc 1 "init as a member"
expect_eq "$(cat "$T/err")" "error: init: $who; nothing was changed" "init: the same, no warning about grants"
expect_eq "$(cat "$T/out")" "" "init: no 'up to date', no 'log in as a member'"
run bd --db "$as_ana" migrate
expect_rc 0 "migrate as a member, the store up to date: nothing to write"
# A store made, empty: a copy into it is a write too.
pg_emptydb "${db}_empty" >/dev/null
bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_empty" init >/dev/null 2>&1 || fail "init the empty store"
bd --db s.db init >/dev/null && bd --db s.db ingest -q n || fail "the SQLite store"
run bd --db s.db copy "postgresql://$ana@$PGHOST:$PGPORT/${db}_empty"
expect_rc 1 "copy into a store as a member"
expect_eq "$(cat "$T/err")" "error: copy: postgresql://$ana@$PGHOST:$PGPORT/${db}_empty: $who; nothing was written there" \
    "copy: the same, the destination named"
# Recording is a write: each runs, then says the same, and not to run it again.
run bd --db "$as_ana" query gate-percent -p plan=nightly -p percent=5
expect_rc 1 "query as a member, recording"
expect_eq "$(tail -n 1 "$T/err")" "error: query gate-percent: ran, but cannot record the evaluation: $who (--no-record runs it without recording)" \
    "query: what the role may do and who writes, --no-record"
run bd --db "$as_ana" report gate-percent -p plan=nightly -p percent=5 -o r.html
expect_rc 1 "report as a member (it records its evaluation)"
expect_err_has "cannot record the evaluation: $who" "report: the same"
expect_eq "$(counts)" "$n0" "nothing changed: archives, plans, rules, evaluations, series"
run bd --db "$as_ana" history --verify --all
expect_rc 0 "history --verify reads only: a member runs it"

# ---- a migration pending: who may apply it ----
known=$(ls "$BENCHDB_SRC"/migrations/[0-9]*.sql | wc -l)
pg_emptydb "${db}_old" >/dev/null
pg -d "${db}_old" -c "CREATE EXTENSION benchstats" >/dev/null
pg -d postgres -c "ALTER DATABASE ${db}_old SET search_path = public, benchstats, pg_catalog" >/dev/null
pg_migrate "${db}_old" $((known - 1)) || fail "a store one migration behind"
pg -d "${db}_old" -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO benchdb_reader" \
    -c "GRANT USAGE ON SCHEMA benchstats TO benchdb_reader" >/dev/null
old="postgresql://$ana@$PGHOST:$PGPORT/${db}_old"
pending="the store's schema is at version $((known - 1)) and needs migrations up to $known, which the role $ana may not apply: it may only read this store (a member of benchdb_reader); the role $PGUSER owns its tables: connect as $PGUSER or a member of it and run 'benchdb migrate'"
run bd --db "$old" list
expect_rc 1 "list as a member, a migration pending"
expect_eq "$(cat "$T/err")" "error: $old: $pending" "list: who applies the migrations (not 'run benchdb migrate' alone)"
run bd --db "$old" migrate
expect_rc 1 "migrate as a member"
expect_eq "$(cat "$T/err")" "error: $old: $pending" "migrate: the same (not the migration's permission denied)"
run bd --db "$old" delete --plan nightly
expect_eq "$(cat "$T/err")" "error: $old: $pending" "delete: the same"
# A writer that does not own the tables cannot apply them either.
pg -d postgres -c "CREATE ROLE $late LOGIN" >/dev/null
pg -d "${db}_old" -c "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO $late" >/dev/null
run bd --db "postgresql://$late@$PGHOST:$PGPORT/${db}_old" migrate
expect_rc 1 "migrate by a writer that does not own the tables"
expect_err_has "needs migrations up to $known, which only the owner of its tables applies (or a superuser), the role $PGUSER, not $late: connect as $PGUSER or a member of it and run 'benchdb migrate'" \
    "the owner named"
expect_eq "$(pg -d "${db}_old" -A -t -c "SELECT max(version) FROM schema_migration")" "$((known - 1))" "nothing migrated"
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_old" migrate
expect_rc 0 "the owner migrates"

roles_drop
for d in "$db" "${db}_old" "${db}_empty"; do pg_dropdb "$d" >/dev/null; done
finish
