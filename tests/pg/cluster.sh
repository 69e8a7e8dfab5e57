#!/bin/sh
# cluster.sh start DIR | stop DIR
#
# A throwaway PostgreSQL cluster for the tests of tests/pg (ctest fixture
# "pg": tests/CMakeLists.txt runs start before them and stop after them,
# also when they fail). start runs initdb from build/pgroot (Debian's
# server, with the benchstats extension beside it: tests/pg/pgroot.sh) into
# DIR/data as an unprivileged user (the caller, or the `postgres` user when
# run as root: PostgreSQL refuses to run as root), C locale and UTF-8, and
# starts it with pg_ctl -w on a free loopback port, TCP only, trust
# authentication for the user benchdb, durability off (a test cluster). It
# writes DIR/env for the tests (tests/pg/lib.sh reads it). When the server
# cannot start, it fails with the reason from the server's log, never
# skips. stop stops it (fast) and removes what start made.
#
# When that user cannot reach the build directory (a checkout under a
# home directory only root may enter), the server tree and the data go to a
# directory of their own under $TMPDIR instead (DIR/base names it), so that
# nothing above the build directory needs its permissions changed; so they
# do when BENCHDB_PG_IN_TMPDIR=1 (ctest, when the tests' $TMPDIR is a
# memory file system: tests/CMakeLists.txt).
#
# Environment: BENCHDB_PGROOT (build/pgroot), set by ctest; BENCHDB_PG_TESTS=1
# (set by ctest) for the tests' settings below; BENCHDB_PG_CONF, lines added
# to postgresql.conf (bench/pg_bench.py; ctest sets it empty, so that a
# caller's exported bench settings never reach the tests' cluster).
set -u
cmd=${1:-} dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: cluster.sh start|stop DIR" >&2; exit 2; }
root=${BENCHDB_PGROOT:?BENCHDB_PGROOT is not set}

fail() {
    echo "pg cluster: $*" >&2
    exit 1
}

# The user that runs the server: ourselves, or postgres (another
# unprivileged system user, created if need be) when we are root.
if [ "$(id -u)" = 0 ]; then
    user=postgres
    if ! id "$user" >/dev/null 2>&1; then
        user=benchdb-pg
        id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user" ||
            fail "cannot create an unprivileged user to run PostgreSQL (useradd $user failed)"
    fi
    as_user() { runuser -u "$user" -- "$@"; }
else
    user=$(id -un)
    as_user() { "$@"; }
fi

# Where the server tree and the data are: in the build directory, or in
# DIR/base's directory.
locate() {
    base=$dir
    [ -f "$dir/base" ] && base=$(cat "$dir/base")
    tree=$root
    [ "$base" = "$dir" ] || tree=$base/pgroot
    bin=$(echo "$tree"/lib/postgresql/*/bin)
}

stop_cluster() {
    locate
    if [ -f "$base/data/postmaster.pid" ]; then
        as_user "$bin/pg_ctl" -D "$base/data" -m fast -w -t 30 stop >/dev/null 2>&1 ||
            as_user "$bin/pg_ctl" -D "$base/data" -m immediate -w -t 30 stop >/dev/null 2>&1
    fi
    [ "$base" = "$dir" ] || rm -rf "$base"
}

case $cmd in
stop)
    [ -d "$dir" ] || exit 0
    stop_cluster
    rm -rf "$dir"
    exit 0
    ;;
start) ;;
*)
    echo "usage: cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac

[ -x "$(echo "$root"/lib/postgresql/*/bin)/postgres" ] || fail "no server in $root (build the target pgroot: cmake --build build)"
# A cluster left over by an interrupted run goes first.
[ -d "$dir" ] && stop_cluster
rm -rf "$dir"
mkdir -p "$dir" || fail "cannot create $dir"
in_tmp=${BENCHDB_PG_IN_TMPDIR:-0}
if [ "$(id -u)" = 0 ]; then
    chown "$user" "$dir" || fail "cannot give $dir to $user"
    # The build directory out of the user's reach: under $TMPDIR too.
    if ! as_user test -w "$dir" || ! as_user test -x "$(echo "$root"/lib/postgresql/*/bin)/postgres"; then
        in_tmp=1
    fi
fi
if [ "$in_tmp" = 1 ]; then
    # A directory of the user's own under $TMPDIR, with a copy of the
    # server tree (10 MB): when the build directory is out of the user's
    # reach, or when ctest asks for it (BENCHDB_PG_IN_TMPDIR=1: the tests'
    # $TMPDIR is a memory file system, where the server creates its
    # databases' files for a thirtieth of the CPU: tests/CMakeLists.txt).
    base=$(mktemp -d "${TMPDIR:-/tmp}/benchdb-pg.XXXXXX") || fail "cannot create a directory under ${TMPDIR:-/tmp}"
    echo "$base" >"$dir/base"
    chmod 755 "$base" && cp -a "$root" "$base/pgroot" && chown "$user" "$base" ||
        fail "cannot copy the server tree to $base"
fi
locate
as_user test -w "$base" || fail "the user $user cannot write to $base"

if ! as_user "$bin/initdb" -D "$base/data" -U benchdb -A trust -E UTF8 --locale=C --no-sync --no-instructions \
        >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    fail "initdb failed (above)"
fi
cat >>"$base/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
fsync = off
synchronous_commit = off
full_page_writes = off
max_worker_processes = 8
max_parallel_workers = 4
EOF
# For the tests (ctest sets BENCHDB_PG_TESTS=1; make bench's figure 11 does
# not: it measures the server as configured there): no JIT compilation,
# which changes no result, only the CPU (each large query compiled afresh
# costs more than it saves on a test's data). (Autovacuum every second,
# which gave the tables a test has just filled their statistics sooner,
# was tried and left out: the plans it brings sum doubles in another order,
# and pg/ingest compares such sums with SQLite's to the last bit.)
# And WAL buffers of 1 MB instead of the 4 MB PostgreSQL gives 128 MB of
# shared buffers: a backend maps each page of them it writes WAL through,
# a page fault each (15-20 us on the virtual machines the suite runs on),
# and an ingest's backend went through all of them. When 1 MB fills, the
# backend writes it out itself, which with fsync off costs less than the
# faults did (bench/pg-ingest.md: 3,000-3,900 faults and about
# 60 ms of server CPU fewer an ingest).
if [ "${BENCHDB_PG_TESTS:-0}" = 1 ]; then
    printf 'jit = off\nwal_buffers = 1MB\n' >>"$base/data/postgresql.conf"
fi
# Settings of the caller's (make bench's figure 11: memory, checkpoints),
# one "name = value" a line, after the above.
[ -z "${BENCHDB_PG_CONF:-}" ] || printf '%s\n' "$BENCHDB_PG_CONF" >>"$base/data/postgresql.conf"

# A port no other server holds: random, retried when taken.
log=$base/server.log
tries=0
while :; do
    tries=$((tries + 1))
    port=$(awk -v s="$$$tries" 'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
    rm -f "$log"
    if as_user "$bin/pg_ctl" -D "$base/data" -l "$log" -o "-p $port" -w -t 60 start >/dev/null 2>&1; then
        break
    fi
    if [ "$tries" -lt 8 ] && grep -q "could not bind\|Address already in use" "$log"; then
        continue
    fi
    echo "pg cluster: the server did not start; its log ($log):" >&2
    tail -n 20 "$log" >&2
    fail "PostgreSQL did not start (reason above)"
done

cat >"$dir/env" <<EOF
PGHOST=127.0.0.1
PGPORT=$port
PGUSER=benchdb
EOF
echo "pg cluster: $("$bin/postgres" --version) on 127.0.0.1:$port (data in $base/data, run by $user)"
