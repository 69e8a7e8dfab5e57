# The role benchdb_reader reads and does nothing else (docs/reliability.md,
# docs/postgresql.md, "Read-only analysis"). init makes it a
# role that cannot log in; analysts log in as roles of their own that are
# its members. As such a member, with psql (no benchdb in the way): a large
# object is refused even in a writable transaction (COMMIT; BEGIN READ
# WRITE; lo_from_bytea, and lo_create), advisory locks are refused (the
# session-level and the transaction-level ones), no member can change the
# shared role's settings or password, another member's, or make the role
# log in (and what a member may change of benchdb_reader through SET ROLE
# reaches no session: the role does not log in). A writer that may insert
# archives keeps the advisory lock ingest takes. An ingest waiting for a
# lock held by another session (an advisory lock on its archive's key, a
# row another transaction is writing) says on stderr what it waits for and
# who holds it, and gives up after $BENCHDB_BUSY_TIMEOUT with a message;
# once the lock is gone it loads. An ingest by a member of the role is
# refused before it reads anything, naming the role that writes. init run by a role that may not take
# those functions from PUBLIC says so.
# ctest: cost=7
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_reader_t
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
alice=benchdb_reader_t_alice bob=benchdb_reader_t_bob writer=benchdb_reader_t_ci owner=benchdb_reader_t_owner
late=benchdb_reader_t_late
archive="$BENCHDB_SRC/examples/calibration/p4-vm-c-1.jsonl.zst"
key=$(sha256sum "$archive" | cut -c1-16)

roles_drop() {
    for r in $alice $bob $writer $owner $late; do
        pg -d postgres -c "SET client_min_messages = warning" -c "DROP ROLE IF EXISTS $r" >/dev/null 2>&1
    done
}
pg_dropdb "$db" >/dev/null
pg_dropdb "${db}_owned" >/dev/null
roles_drop
pg_emptydb "$db" >/dev/null
# A role that writes, other than a superuser: granted before init.
pg -d postgres -c "CREATE ROLE $writer LOGIN" >/dev/null
run bd --db "$uri" init
expect_rc 0 "init"
[ "$failures" -eq 0 ] || exit 1
pg -d "$db" -c "GRANT INSERT ON archive TO $writer" >/dev/null
run bd --db "$uri" init
expect_rc 0 "init again (grants the lock to the writer that may insert archives)"
pg -d postgres -c "CREATE ROLE $alice LOGIN IN ROLE benchdb_reader" -c "CREATE ROLE $bob LOGIN IN ROLE benchdb_reader" \
    -c "ALTER ROLE $bob SET statement_timeout = '60s'" >/dev/null
as_alice() { pg -U "$alice" -d "$db" -A -t "$@"; }
los() { pg -d "$db" -A -t -c "SELECT count(*) FROM pg_largeobject_metadata"; }

# ---- the role itself does not log in ----
run pg -U benchdb_reader -d "$db" -c "SELECT 1"
expect_rc 2 "benchdb_reader cannot log in"
expect_err_has 'role "benchdb_reader" is not permitted to log in' "the server says so"
run as_alice -c "SELECT count(*) FROM plan"
expect_rc 0 "a member reads"

# ---- large objects ----
run as_alice -c "COMMIT" -c "BEGIN READ WRITE" -c "SELECT lo_from_bytea(0, 'stored')" -c "COMMIT"
expect_rc 1 "COMMIT; BEGIN READ WRITE; lo_from_bytea"
expect_err_has "permission denied for function lo_from_bytea" "refused by the grants"
run as_alice -c "SELECT lo_create(0)"
expect_rc 1 "lo_create"
expect_err_has "permission denied for function lo_create" "refused by the grants"
expect_eq "$(los)" 0 "no large object stored"

# ---- settings and passwords ----
run as_alice -c "ALTER ROLE benchdb_reader SET statement_timeout = 0"
expect_rc 1 "a member cannot change benchdb_reader's settings"
expect_err_has "permission denied" "refused"
run as_alice -c "ALTER ROLE benchdb_reader PASSWORD 'x'"
expect_rc 1 "nor its password"
run as_alice -c "ALTER ROLE $bob SET statement_timeout = 0"
expect_rc 1 "nor another member's settings"
run as_alice -c "ALTER ROLE $bob PASSWORD 'x'"
expect_rc 1 "nor another member's password"
run as_alice -c "SET ROLE benchdb_reader" -c "ALTER ROLE benchdb_reader LOGIN"
expect_rc 1 "nor make benchdb_reader log in"
# As benchdb_reader (SET ROLE), PostgreSQL lets a role change its own
# settings and password: they reach no session, as nobody logs in as it.
as_alice -c "SET ROLE benchdb_reader" -c "ALTER ROLE benchdb_reader SET statement_timeout = 0" \
    -c "ALTER ROLE benchdb_reader PASSWORD 'x'" >/dev/null 2>&1
run pg -U benchdb_reader -d "$db" -c "SELECT 1"
expect_rc 2 "benchdb_reader still cannot log in, with a password set"
expect_eq "$(pg -U "$bob" -d "$db" -A -t -c "SHOW statement_timeout")" "1min" "another member's limit holds"
pg -d postgres -c "ALTER ROLE benchdb_reader RESET ALL" -c "ALTER ROLE benchdb_reader PASSWORD NULL" >/dev/null

# ---- advisory locks ----
run as_alice -c "SELECT pg_advisory_lock(CAST(x'$key' AS BIGINT))"
expect_rc 1 "pg_advisory_lock on an archive's key"
expect_err_has "permission denied for function pg_advisory_lock" "refused"
run as_alice -c "BEGIN" -c "SELECT pg_advisory_xact_lock(CAST(x'$key' AS BIGINT))"
expect_rc 1 "pg_advisory_xact_lock"
run as_alice -c "SELECT pg_try_advisory_lock_shared(1)"
expect_rc 1 "pg_try_advisory_lock_shared"
expect_eq "$(pg -d "$db" -A -t -c "SELECT has_function_privilege('$writer', 'pg_advisory_xact_lock(bigint)', 'EXECUTE')")" \
    t "a writer that may insert archives keeps the lock ingest takes"
expect_eq "$(pg -d "$db" -A -t -c "SELECT has_function_privilege('$alice', 'pg_advisory_xact_lock(bigint)', 'EXECUTE')")" \
    f "a reader does not have it"

# ---- ingest as a member: refused before anything is read, saying who writes ----
# Before, each file failed on its own with PostgreSQL's "permission denied
# for function pg_advisory_xact_lock", the first thing an ingest asks.
auri="postgresql://$alice@$PGHOST:$PGPORT/$db"
n0=$(pg -d "$db" -A -t -c "SELECT count(*) FROM archive")
run bd --db "$auri" ingest "$archive" "$archive"
expect_rc 1 "ingest as a member of benchdb_reader"
expect_eq "$(cat "$T/err")" "error: ingest: the role $alice may only read this store (a member of benchdb_reader); it is written by the role $PGUSER, which owns its tables: connect as $PGUSER or a member of it; nothing was read or written" \
    "ingest as a reader: what the role may do, and who writes, once"
expect_eq "$(cat "$T/out")" "" "ingest as a reader: no summary of files not tried"
run bd --db "$auri" ingest --plan p --run r --host h "$BENCHDB_SRC/tests/data/harness/google-benchmark/error_base.json"
expect_rc 1 "a harness file as a member of benchdb_reader"
expect_err_has "error: ingest: the role $alice may only read this store" "the same"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM archive")" "$n0" "nothing stored"
# A writer granted its writes after init lacks the lock init grants: said
# before any file, with the remedy (it failed file by file, as above).
pg -d postgres -c "CREATE ROLE $late LOGIN" >/dev/null
pg -d "$db" -c "GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA public TO $late" \
    -c "GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO $late" >/dev/null
run bd --db "postgresql://$late@$PGHOST:$PGPORT/$db" ingest "$archive"
expect_rc 1 "ingest by a writer made after init"
expect_eq "$(cat "$T/err")" "error: ingest: the role $late may add archives but not take the lock an ingest takes on each (pg_advisory_xact_lock): a role granted its writes after 'benchdb init' gets it from 'benchdb init' run again on this store as a superuser; nothing was read or written" \
    "a writer without the lock: said, with the remedy"

# ---- an ingest waiting for a lock says so, and gives up ----
# hold SQL SQL: another session (psql, as the messages name it) holding
# what the SQL takes, returning once it holds it (its pg_sleep has begun);
# release: that session ends, and with it what it held. Events, not fixed
# sleeps: the holder sleeps until released, at most a minute.
holding="SELECT pg_sleep(60)"
holder_is="datname = '$db' AND query = '$holding' AND pid <> pg_backend_pid()"
hold() {
    pg -d "$db" -c "$1" -c "$2" -c "$holding" -c "ROLLBACK" >/dev/null 2>&1 &
    holder=$!
    i=0
    until [ "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE $holder_is AND state = 'active'")" = 1 ]; do
        i=$((i + 1))
        [ "$i" -le 400 ] || { fail "the holding session did not start"; break; }
        sleep 0.05
    done
}
release() {
    pg -d "$db" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE $holder_is" >/dev/null
    wait "$holder"
}
hold "BEGIN" "SELECT pg_advisory_lock(CAST(x'$key' AS BIGINT))"
t0=$(date +%s)
run env BENCHDB_BUSY_TIMEOUT=2 "$BENCHDB_BIN" --db "$uri" ingest "$archive"
t1=$(date +%s)
expect_rc 1 "an ingest behind an advisory lock on its archive"
expect_err_has "note: waiting for an advisory lock (key $key), held by process" "says it waits, and for what"
expect_err_has "(role $PGUSER, psql, " "and who holds it"
expect_err_has "giving up after 2 s (\$BENCHDB_BUSY_TIMEOUT)" "and how long it waits"
expect_err_has "the store is busy: another process holds its write lock (waited 2 s; \$BENCHDB_BUSY_TIMEOUT raises it)" \
    "gives up with a message"
checks=$((checks + 1))
[ $((t1 - t0)) -le 5 ] || fail "gave up after $((t1 - t0)) s, not about 2"
release
hold "BEGIN" "INSERT INTO plan(name) VALUES ('calibration-sim')"
run env BENCHDB_BUSY_TIMEOUT=2 "$BENCHDB_BIN" --db "$uri" ingest "$archive"
expect_rc 1 "an ingest behind a row another transaction writes"
expect_err_has "note: waiting for a row that another transaction is writing or has locked, held by process" \
    "says it waits, and for what"
expect_err_has "the store is busy" "gives up with a message"
release
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM archive")" 0 "nothing stored"
run bd --db "$uri" ingest "$archive"
expect_rc 0 "with the locks gone the archive loads"
expect_out_has "1 archive loaded" "loaded"
checks=$((checks + 1))
grep -q "waiting" "$T/err" && fail "no wait said when there is none"

# ---- the connection lost in the middle of an ingest ----
# The session is terminated while it waits for the second archive's lock
# (as when the server stops or restarts): that archive fails with the
# server's reason, and the ingest stops, saying how many archives it did
# not try and what to do, instead of a failure and a note for each of
# them ("cannot store: no connection to the server", 164 times for a
# night's directory). Only the first archive is stored.
c="$BENCHDB_SRC/examples/calibration"
set -- "$c/p3-vm-a-1.jsonl.zst" "$c/p3-vm-a-2.jsonl.zst" "$c/p3-vm-b-1.jsonl.zst" "$c/p3-vm-b-2.jsonl.zst"
key2=$(sha256sum "$2" | cut -c1-16)
hold "BEGIN" "SELECT pg_advisory_lock(CAST(x'$key2' AS BIGINT))"
env BENCHDB_BUSY_TIMEOUT=60 "$BENCHDB_BIN" --db "$uri" ingest "$@" >"$T/out" 2>"$T/err" &
ingest=$!
waiting="datname = '$db' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted)"
i=0
until [ "$(pg -d "$db" -A -t -c "SELECT count(*) FROM pg_stat_activity WHERE $waiting")" = 1 ]; do
    i=$((i + 1))
    [ "$i" -le 400 ] || { fail "the ingest did not wait for the second archive's lock"; break; }
    sleep 0.05
done
pg -d "$db" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $waiting" >/dev/null
wait "$ingest"
irc=$?
release
checks=$((checks + 1))
[ "$irc" = 1 ] || fail "an ingest that lost its connection: exit $irc, not 1"
expect_err_has "error: $2: cannot store: terminating connection due to administrator command" "the archive's failure"
expect_err_has "error: ingest: the connection to the store was lost: 2 archives not tried (the first: $3); run the \
ingest again once the server is back: the archives stored are skipped" "says it stopped, how many are left, and what to do"
expect_eq "$(grep -c 'cannot store' "$T/err")" 1 "one failure said, not one per archive left"
expect_out_has "ingest: 1 archive loaded, 0 skipped, 1 failed" "the summary"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM archive WHERE name LIKE '%p3-vm-%'")" 1 "the first archive stored"

# ---- init by a role that may not take functions from PUBLIC ----
pg -d postgres -c "CREATE ROLE $owner LOGIN CREATEROLE" \
    -c "CREATE DATABASE ${db}_owned OWNER $owner TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" \
    >/dev/null
pg -d "${db}_owned" -c "CREATE EXTENSION benchstats" >/dev/null
# The extension a superuser installed, its schema not granted to the
# owner: init says who lacks what and the grant that gives it, before any
# migration ("permission denied for schema benchstats" before).
run bd --db "postgresql://$owner@$PGHOST:$PGPORT/${db}_owned" init
expect_rc 1 "init as the database's owner, without the use of the schema benchstats"
expect_err_has "the role $owner may not use the schema benchstats, which holds the extension's functions (as a \
superuser: GRANT USAGE ON SCHEMA benchstats TO $owner; docs/postgresql.md)" "says who lacks what, and the grant"
expect_eq "$(pg -d "${db}_owned" -A -t -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" "0" \
    "nothing made"
# So does copy, naming itself and the store, not init.
bd --db empty.db init >/dev/null || fail "an empty SQLite store"
run bd --db empty.db copy "postgresql://$owner@$PGHOST:$PGPORT/${db}_owned"
expect_rc 1 "copy into it as its owner, without the use of the schema benchstats"
expect_err_has "error: copy: postgresql://$owner@$PGHOST:$PGPORT/${db}_owned: the role $owner may not use the schema \
benchstats" "copy says so, naming the destination (not 'init:')"
pg -d "${db}_owned" -c "GRANT USAGE ON SCHEMA benchstats TO $owner" >/dev/null
# A database a superuser made without giving it to the role (createdb
# without -O): PostgreSQL 15 lets only the owner create in public. Init and
# copy say who lacks what and how to give it ("migration
# 0007_baseline.sql failed: permission denied for schema public" before),
# and make nothing.
pg -d postgres -c "CREATE DATABASE ${db}_other TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" >/dev/null
pg -d "${db}_other" -c "CREATE EXTENSION benchstats" -c "GRANT USAGE ON SCHEMA benchstats TO $owner" >/dev/null
run bd --db "postgresql://$owner@$PGHOST:$PGPORT/${db}_other" init
expect_rc 1 "init in a database the role does not own"
expect_err_has "the role $owner may not create tables in the schema public of the database ${db}_other, where the \
store's tables go (PostgreSQL 15 lets only the database's owner create there; as a superuser: ALTER DATABASE \
${db}_other OWNER TO $owner, or make it with createdb -O $owner; docs/postgresql.md)" "says who lacks what, and the remedy"
run bd --db empty.db copy "postgresql://$owner@$PGHOST:$PGPORT/${db}_other"
expect_rc 1 "copy into it"
expect_err_has "error: copy: postgresql://$owner@$PGHOST:$PGPORT/${db}_other: the role $owner may not create tables in \
the schema public" "copy says so"
expect_eq "$(pg -d "${db}_other" -A -t -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" "0" \
    "nothing made"
pg -d postgres -c "ALTER DATABASE ${db}_other OWNER TO $owner" >/dev/null
run bd --db "postgresql://$owner@$PGHOST:$PGPORT/${db}_other" init
expect_rc 0 "init once the role owns the database, as the message says"
pg_dropdb "${db}_other" >/dev/null
run bd --db "postgresql://$owner@$PGHOST:$PGPORT/${db}_owned" init
expect_rc 0 "init as the database's owner"
expect_err_has "warning: benchdb_reader may still create large objects and take advisory locks in this database: taking those from PUBLIC takes a superuser" \
    "says what it could not do"
expect_err_has "as one, run 'benchdb init' on this store, or the SQL of docs/postgresql.md" "and what to do"
# The owner holds the schema benchstats without the grant option: its GRANT
# to benchdb_reader granted nothing (a warning the session drops), and init
# said "read-only analysis: log in as a member of benchdb_reader" while a
# member's every saved query failed ("function lookback_baseline(...) does
# not exist"). It says what the role lacks, and who can give it.
expect_err_has "warning: the role benchdb_reader still lacks the use of the schema benchstats (the functions) in this \
database, which this role may not grant: its members' saved queries would fail; as a superuser, run 'benchdb init' on \
this store" "says what the reader role still lacks"
checks=$((checks + 1))
grep -q "read-only analysis: log in as a member" "$T/out" && fail "init says readers may log in while they cannot read"
# A superuser's init on the owner's store completes it: the schema, the
# tables, and the default privileges of the tables' owner, so that a table
# the owner makes later (a migration's) is read too (before, the defaults
# were the superuser's own and covered no table of the store).
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/${db}_owned" init
expect_rc 0 "a superuser's init on the owner's store"
expect_out_has "read-only analysis: log in as a member of benchdb_reader" "now readers may"
checks=$((checks + 1))
grep -q "still lacks" "$T/err" && fail "nothing lacking after a superuser's init: $(cat "$T/err")"
run bd --db "postgresql://$alice@$PGHOST:$PGPORT/${db}_owned" sql "SELECT geomean(2.0) AS g"
expect_rc 0 "a member uses the functions"
pg -U "$owner" -d "${db}_owned" -c "CREATE TABLE later_table (x BIGINT)" >/dev/null
expect_eq "$(pg -d "${db}_owned" -A -t -c "SELECT has_table_privilege('benchdb_reader', 'later_table', 'SELECT')")" "t" \
    "a table the owner makes later is read by benchdb_reader"

pg_dropdb "$db" >/dev/null
pg_dropdb "${db}_owned" >/dev/null
roles_drop
finish
