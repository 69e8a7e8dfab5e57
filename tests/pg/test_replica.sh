# Readers on a hot standby (docs/scale-out.md, "Readers on streaming
# replicas"), tested for real: two throwaway clusters on loopback, a
# primary (tests/pg/cluster.sh) and a standby made from it by
# pg_basebackup and fed by streaming replication. Archives ingested into
# the primary (one of them after the standby started) reach the standby;
# saved queries with --no-record, `list` and `sql` on the standby give the
# primary's rows; a recording query, an ingest and a rule registration on
# the standby fail at once with a message saying to use --no-record or
# the primary (not PostgreSQL's "cannot execute INSERT in a read-only
# transaction"), leaving nothing; `report --evaluation` draws a recorded
# evaluation there (its chart's companion recorded on the primary); a
# login that is only a member of benchdb_reader reads the standby. Both clusters are stopped at the end.
# ctest: slow
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/cli/lib/bounded.sh"
: "${BENCHDB_PGROOT:?BENCHDB_PGROOT must name the server tree (run through ctest)}"
: "${BENCHDB_PSQL:?BENCHDB_PSQL must name psql}"
unset PGSERVICE PGSERVICEFILE PGOPTIONS PGDATABASE PGPASSWORD PGPASSFILE PGSSLMODE PGHOSTADDR PGAPPNAME
chmod 755 "$T"
primary=$T/primary
standby_pid=
cleanup() {
    [ -n "$standby_pid" ] && as_user "$bin/pg_ctl" -D "$sdata" -m immediate -w -t 30 stop >/dev/null 2>&1
    sh "$BENCHDB_SRC/tests/pg/cluster.sh" stop "$primary" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

sh "$BENCHDB_SRC/tests/pg/cluster.sh" start "$primary" >start.log 2>&1 || {
    cat start.log >&2
    fail "the primary did not start"
    exit 1
}
. "$primary/env"
pport=$PGPORT
base=$primary
[ -f "$primary/base" ] && base=$(cat "$primary/base")
pdata=$base/data
bin=$(echo "$BENCHDB_PGROOT"/lib/postgresql/*/bin)
[ "$base" = "$primary" ] || bin=$(echo "$base"/pgroot/lib/postgresql/*/bin)
user=$(stat -c %U "$pdata")
if [ "$(id -un)" = "$user" ]; then as_user() { "$@"; }; else as_user() { runuser -u "$user" -- "$@"; }; fi
psql_at() { "$BENCHDB_PSQL" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U benchdb -p "$@"; }

# The store on the primary.
psql_at "$pport" -d postgres -c "CREATE DATABASE results TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" ||
    fail "create the database"
P="postgresql://benchdb@127.0.0.1:$pport/results"
bd --db "$P" init >/dev/null || fail "init on the primary"
bd --db "$P" ingest -q "$BENCHDB_SRC"/examples/calibration/p3-*.jsonl.zst "$BENCHDB_SRC"/examples/calibration/p4-vm-a-*.jsonl.zst ||
    fail "ingest on the primary"
bd --db "$P" query variability --record --param plan=calibration-sim >/dev/null 2>&1 || fail "a recorded query on the primary"
psql_at "$pport" -d results -c "CREATE ROLE alice LOGIN IN ROLE benchdb_reader" || fail "a reader's login"

# The standby: a base backup of the primary, streaming from it.
sdata=$base/standby
as_user "$(dirname "$BENCHDB_PSQL")/pg_basebackup" -h 127.0.0.1 -p "$pport" -U benchdb -D "$sdata" -R -X stream -c fast >basebackup.log 2>&1 || {
    cat basebackup.log >&2
    fail "pg_basebackup"
    exit 1
}
checks=$((checks + 1))
[ -f "$sdata/standby.signal" ] || fail "the base backup is a standby's (standby.signal)"
tries=0
while :; do
    tries=$((tries + 1))
    sport=$(awk -v s="$$$tries" 'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
    [ "$sport" = "$pport" ] && continue
    if as_user "$bin/pg_ctl" -D "$sdata" -l "$base/standby.log" -o "-p $sport -c hot_standby=on" -w -t 60 start \
        >/dev/null 2>&1; then
        standby_pid=started
        break
    fi
    [ "$tries" -lt 8 ] && grep -q "could not bind\|Address already in use" "$base/standby.log" && continue
    tail -n 20 "$base/standby.log" >&2
    fail "the standby did not start"
    exit 1
done
S="postgresql://benchdb@127.0.0.1:$sport/results"
expect_eq "$(psql_at "$sport" -d postgres -A -t -c "SELECT pg_is_in_recovery()")" t "the standby is in recovery"
expect_eq "$(psql_at "$pport" -d postgres -A -t -c "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" 1 \
    "the primary streams to it"

# An archive ingested after the standby started reaches it by streaming.
bd --db "$P" ingest -q "$BENCHDB_SRC"/examples/calibration/p4-vm-[bc]-*.jsonl.zst || fail "ingest after the standby"
want=$(psql_at "$pport" -d results -A -t -c "SELECT count(*) || ' ' || (SELECT count(*) FROM sample) FROM archive")
i=0
while [ "$(psql_at "$sport" -d results -A -t -c "SELECT count(*) || ' ' || (SELECT count(*) FROM sample) FROM archive")" != "$want" ] &&
    [ $i -lt 60 ]; do
    sleep 0.5
    i=$((i + 1))
done
expect_eq "$(psql_at "$sport" -d results -A -t -c "SELECT count(*) || ' ' || (SELECT count(*) FROM sample) FROM archive")" \
    "$want" "the standby holds the primary's archives and values"

# Readers on the standby: the primary's rows.
# Under the sanitizers (BENCHDB_SANITIZED=1) each command below runs on the
# standby alone, checked for its exit status (a sanitizer's report exits
# 86) and for output; the same commands on the primary are the answers the
# standby's are compared with, and the comparison is the plain pass's,
# which runs this test whole. That is enough: the standby's side is what
# only this test reaches (a reader on a server in recovery), and the same
# saved queries, list, sql and history on a PostgreSQL store run under the
# sanitizers in pg/commands (docs/testing.md, "The larger cli and pg tests
# trimmed under the sanitizers": tools/plain_only_cover.py's counts).
same() { # WHAT ARGS...
    what=$1
    shift
    if [ "${BENCHDB_SANITIZED:-0}" = 1 ]; then
        bd --db "$S" "$@" >s.txt 2>s.err
        rs=$?
        checks=$((checks + 1))
        if [ "$rs" != "${want_rc:-0}" ] || [ ! -s s.txt ]; then
            fail "$what: exit $rs on the standby, or no output"
            cat s.err >&2
        fi
        return
    fi
    bd --db "$P" "$@" >p.txt 2>p.err
    rp=$?
    bd --db "$S" "$@" >s.txt 2>s.err
    rs=$?
    checks=$((checks + 1))
    if [ "$rp" != "${want_rc:-0}" ] || [ "$rs" != "$rp" ] || ! cmp -s p.txt s.txt || [ ! -s p.txt ]; then
        fail "$what: the standby's output is not the primary's (exit $rp / $rs)"
        diff p.txt s.txt | head -5 >&2
        cat s.err >&2
    fi
}
same "placement-rule --no-record" query placement-rule --param plan=calibration-sim --no-record --format csv
same "variability --no-record" query variability --param plan=calibration-sim --no-record --format csv
same "comparisons --no-record" query comparisons --param plan=calibration-sim --no-record --format csv
same "compare --no-record" query compare --param plan=calibration-sim --param by=variant --param a=native \
    --param b=chill --no-record --format csv
same "list runs" list runs --format csv
same "sql" sql "SELECT count(*), sum(value) FROM sample" --format csv
same "history" history --format csv
# (the evaluation saw fewer archives than both stores hold now: exit 1 on both)
want_rc=1 same "history --verify" history --verify --all --format csv

# What writes fails at once on the standby, saying what to do.
nev=$(psql_at "$pport" -d results -A -t -c "SELECT count(*) FROM evaluation")
for cmd in "query variability --record --param plan=calibration-sim" "ingest $BENCHDB_SRC/examples/git-perf/p0001-git-git.jsonl" \
    "rule register placement-rule"; do
    run_bounded 10 "$BENCHDB_BIN" --db "$S" $cmd
    expect_rc 1 "$cmd on the standby"
    expect_bounded "$cmd on the standby fails at once" 10 200
    expect_err_has "the server is a hot standby" "$cmd: says the store is a standby"
    expect_err_has "run saved queries there with --no-record, or run this command against the primary" \
        "$cmd: says what to do"
    checks=$((checks + 1))
    ! grep -q "read-only transaction" "$T/err" || fail "$cmd: not PostgreSQL's raw error"
done
expect_eq "$(psql_at "$pport" -d results -A -t -c "SELECT count(*) FROM evaluation")" "$nev" "nothing recorded"

# report --evaluation draws a recorded evaluation on the standby, read-only
# (it was refused as a command that writes); a chart whose companion
# evaluation is not recorded yet says to run it on the primary, where it is
# recorded, after which the standby draws the primary's page.
caught_up() { # waits until the standby holds the primary's evaluations
    want=$(psql_at "$pport" -d results -A -t -c "SELECT count(*) FROM evaluation")
    i=0
    while [ "$(psql_at "$sport" -d results -A -t -c "SELECT count(*) FROM evaluation")" != "$want" ] && [ $i -lt 60 ]; do
        sleep 0.5
        i=$((i + 1))
    done
}
run bd --db "$S" report --evaluation 1 -o s1.html
expect_rc 0 "report --evaluation on the standby"
expect_err_has "report: wrote s1.html: evaluation 1 of variability" "the page drawn"
bd --db "$P" query placement-rule --param plan=calibration-sim >/dev/null 2>&1
gate=$(psql_at "$pport" -d results -A -t -c "SELECT max(id) FROM evaluation")
caught_up
# report QUERY records what it draws: sent to the primary or to
# --evaluation, not told to use --no-record, which report has not.
run_bounded 10 "$BENCHDB_BIN" --db "$S" report variability --param plan=calibration-sim -o s3.html
expect_rc 1 "report QUERY on the standby"
expect_bounded "report QUERY on the standby fails at once" 10 200
expect_err_has "error: report variability: the server is a hot standby (a read-only replica in recovery), where the \
evaluation report draws cannot be recorded: run it against the primary, or draw an evaluation recorded there with \
'benchdb report --evaluation ID'" "report QUERY on the standby: says what to do"
checks=$((checks + 1))
[ ! -e s3.html ] || fail "report QUERY on the standby: no page written"
run bd --db "$S" report --evaluation "$gate" -o s2.html
expect_rc 1 "report --evaluation on the standby, its companion not recorded"
expect_err_has "its chart draws comparisons with the evaluation's parameters, and no such evaluation on the data it saw is recorded" "says what is missing"
expect_err_has "the server is a hot standby, where nothing is recorded: run this command against the primary" \
    "and where to run it"
checks=$((checks + 1))
[ ! -e s2.html ] || fail "no page written"
run bd --db "$P" report --evaluation "$gate" -o p2.html
expect_rc 0 "report --evaluation on the primary records the companion"
caught_up
run bd --db "$S" report --evaluation "$gate" -o s2.html
expect_rc 0 "report --evaluation on the standby, its companion recorded on the primary"
checks=$((checks + 1))
cmp -s p2.html s2.html || fail "the standby draws the primary's page"
nev=$(psql_at "$pport" -d results -A -t -c "SELECT count(*) FROM evaluation")

# A login that is only a member of benchdb_reader reads the standby.
A="postgresql://alice@127.0.0.1:$sport/results"
run bd --db "$A" query placement-rule --param plan=calibration-sim --no-record --format csv
expect_rc 0 "benchdb_reader: a saved query on the standby"
bd --db "$P" query placement-rule --param plan=calibration-sim --no-record --format csv >p.txt 2>/dev/null
checks=$((checks + 1))
cmp -s p.txt "$T/out" || fail "benchdb_reader: the primary's rows"
run bd --db "$A" sql "SELECT count(*) FROM evaluation" --format csv
expect_rc 0 "benchdb_reader: sql on the standby"
expect_eq "$(tail -1 "$T/out" | tr -d '\r')" "$nev" "benchdb_reader: the recorded evaluations"
run bd --db "$A" sql "SELECT pg_read_file('PG_VERSION')"
expect_rc 1 "benchdb_reader: a server file stays out of reach"
finish
