# The harness fails, with the reason, when the server cannot start: a
# server tree whose pg_ctl cannot start the server (it writes a FATAL
# line to the server's log, as PostgreSQL does) makes cluster.sh start
# exit 1 with that line; one without a server says so; stop then cleans
# up. (The real cluster is the fixture's: tests/pg/cluster.sh.)
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
chmod 755 "$T"
tree=$T/tree/lib/postgresql/15/bin
mkdir -p "$tree"
cat >"$tree/postgres" <<'SH'
#!/bin/sh
echo "postgres (PostgreSQL) 15 (a stand-in)"
SH
cat >"$tree/initdb" <<'SH'
#!/bin/sh
while [ "$1" != -D ]; do shift; done
mkdir -p "$2" && : >"$2/postgresql.conf"
SH
cat >"$tree/pg_ctl" <<'SH'
#!/bin/sh
while [ "$1" != -l ]; do shift; done
echo 'FATAL:  could not create shared memory segment: No space left on device' >"$2"
exit 1
SH
chmod -R 755 "$T/tree"

run env BENCHDB_PGROOT="$T/tree" sh "$BENCHDB_SRC/tests/pg/cluster.sh" start "$T/cluster"
expect_rc 1 "a server that does not start"
expect_err_has "FATAL:  could not create shared memory segment: No space left on device" "the server log's reason"
expect_err_has "pg cluster: PostgreSQL did not start (reason above)" "the harness's own line"
checks=$((checks + 1))
[ ! -f "$T/cluster/env" ] || fail "env written for a cluster that did not start"
run env BENCHDB_PGROOT="$T/tree" sh "$BENCHDB_SRC/tests/pg/cluster.sh" stop "$T/cluster"
expect_rc 0 "stop after a failed start"
checks=$((checks + 1))
[ ! -d "$T/cluster" ] || fail "stop left $T/cluster"

run env BENCHDB_PGROOT="$T/none" sh "$BENCHDB_SRC/tests/pg/cluster.sh" start "$T/cluster"
expect_rc 1 "no server tree"
expect_err_has "pg cluster: no server in $T/none" "the missing tree named"

[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
