# Shared by the tests of tests/pg (sourced after tests/cli/lib/common.sh):
# the throwaway cluster that the ctest fixture "pg" started
# (tests/pg/cluster.sh) and databases in it. A test fails, never skips,
# when the cluster is not there.
: "${BENCHDB_PG_CLUSTER:?BENCHDB_PG_CLUSTER must name the cluster directory (run through ctest)}"
: "${BENCHDB_PSQL:?BENCHDB_PSQL must name psql}"
if [ ! -f "$BENCHDB_PG_CLUSTER/env" ]; then
    echo "FAIL: no PostgreSQL cluster in $BENCHDB_PG_CLUSTER: the fixture pg/cluster-start failed (its output says why)" >&2
    exit 1
fi
# Only the cluster's connection settings, none of the caller's.
unset PGSERVICE PGSERVICEFILE PGOPTIONS PGDATABASE PGPASSWORD PGPASSFILE PGSSLMODE PGHOSTADDR PGAPPNAME
set -a
. "$BENCHDB_PG_CLUSTER/env"
set +a
export BENCHDB_PSQL

# pg [PSQL ARGS...]: psql, quiet, stopping at the first error.
pg() { "$BENCHDB_PSQL" -X -q -v ON_ERROR_STOP=1 "$@"; }

# pg_newdb NAME: a fresh database NAME as benchdb wants one (UTF-8, C
# collation, benchstats before pg_catalog in search_path) with the
# extension installed.
pg_newdb() {
    pg -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS \"$1\"" \
        -c "CREATE DATABASE \"$1\" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" \
        -c "ALTER DATABASE \"$1\" SET search_path = public, benchstats, pg_catalog" &&
        pg -d "$1" -c "CREATE EXTENSION benchstats"
}

# pg_emptydb NAME: a fresh, empty database NAME (UTF-8, C collation) for
# benchdb init to make a store in.
pg_emptydb() {
    pg -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS \"$1\"" \
        -c "CREATE DATABASE \"$1\" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
}

# pg_dropdb NAME
pg_dropdb() { pg -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS \"$1\""; }

# pg_migrate DB [TARGET]: applies migrations/postgresql in order up to
# version TARGET (default all), as benchdb does (src/store/migrations.c):
# the baseline (NNNN_baseline.sql) on an empty database, recording
# versions 1 to NNNN, then each later file one version; each in one
# transaction that takes the lock on schema_migration, checks the version
# it starts from and records what it made. One psql runs every step and
# stops at the first that fails (status 1), the later ones not applied.
pg_migrate() {
    _pg_steps 0 "${2:-9999}" | pg -d "$1" -f - >/dev/null || return 1
}

# The version a migration's file name starts with (0012_x.sql: 12) in $_v,
# and SQLite's file name of version $1 in $_as: the shell's own words,
# no process (pg/schema ran about 2,000 of them for these).
_pg_v() {
    _v=${1##*/}
    _v=${_v%%_*}
    while :; do case $_v in 0?*) _v=${_v#0} ;; *) break ;; esac; done
}
_pg_as() {
    _as=000$1
    _as=${_as#"${_as%????}"}
    for _as in "$BENCHDB_SRC"/migrations/"$_as"_*.sql; do _as=${_as##*/}; done
}

# _pg_steps FROM TO: the text of the steps after version FROM up to TO.
_pg_steps() {
    sha256sum "$BENCHDB_SRC"/migrations/postgresql/[0-9][0-9][0-9][0-9]_*.sql | while read -r _sha _f; do
        _pg_v "$_f"
        [ "$_v" -gt "$1" ] || continue
        [ "$_v" -le "$2" ] || break
        _pg_step "$_f" "$_sha"
    done
}

# _pg_step FILE SHA256: one step's text, its version from the file's name;
# each version it makes recorded with SQLite's migration name for it.
_pg_step() {
    _name=${1##*/}
    _pg_v "$1"
    case $_name in
    *_baseline.sql) _from=0 ;;
    *) _from=$((_v - 1)) ;;
    esac
    echo "SET client_min_messages = warning;"
    echo "BEGIN;"
    echo "CREATE TABLE IF NOT EXISTS schema_migration (version BIGINT PRIMARY KEY, name TEXT NOT NULL,"
    echo "  sha256 TEXT NOT NULL, applied_at TEXT NOT NULL);"
    echo "LOCK TABLE schema_migration IN EXCLUSIVE MODE;"
    echo "DO \$\$ BEGIN IF (SELECT coalesce(max(version), 0) FROM schema_migration) <> $_from THEN"
    echo "  RAISE EXCEPTION 'migration $_name cannot apply: the store is not at version $_from'; END IF; END \$\$;"
    cat "$1"
    _w=$((_from + 1))
    while [ "$_w" -le "$_v" ]; do
        _pg_as "$_w"
        echo "INSERT INTO schema_migration VALUES ($_w, '$_as', '$2',"
        echo "  to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'));"
        _w=$((_w + 1))
    done
    echo "COMMIT;"
}

# pg_unanalyzed DB: the tables of DB's store that hold rows but have no
# planner statistics (pg_class.reltuples -1: never analyzed), by name, or
# "none". Each table's rows counted (query_to_xml), not taken from the
# statistics views, which lag.
pg_unanalyzed() {
    pg -d "$1" -A -t -c "SELECT coalesce(string_agg(c.relname, ' ' ORDER BY c.relname), 'none') \
FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace \
WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.reltuples < 0 \
AND CAST(CAST((xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I', c.relname), \
false, true, '')))[1] AS TEXT) AS BIGINT) > 0"
}

# pg_known: the highest version migrations/postgresql reaches.
pg_known() {
    for _f in "$BENCHDB_SRC"/migrations/postgresql/[0-9][0-9][0-9][0-9]_*.sql; do :; done
    _pg_v "$_f"
    echo "$_v"
}

# pg_records: what schema_migration records after every migration, as
# "VERSION:NAME:SHA256 " for each version (the text that made it: the
# baseline, or the version's own file).
pg_records() {
    sha256sum "$BENCHDB_SRC"/migrations/postgresql/[0-9][0-9][0-9][0-9]_*.sql | while read -r _sha _f; do
        _pg_v "$_f"
        case $_f in *_baseline.sql) _w=1 ;; *) _w=$_v ;; esac
        while [ "$_w" -le "$_v" ]; do
            _pg_as "$_w"
            printf '%s:%s:%s ' "$_w" "$_as" "$_sha"
            _w=$((_w + 1))
        done
    done
}

# pg_migrate_rest DB: the migrations after the database's version, in one
# psql as pg_migrate.
pg_migrate_rest() {
    _from=$(pg -d "$1" -A -t -c "SELECT coalesce(max(version), 0) FROM schema_migration" 2>/dev/null || echo 0)
    _pg_steps "$_from" 9999 | pg -d "$1" -f - >/dev/null || return 1
}

# pg_schema DB: the database's schema as pg_dump prints it, without
# schema_migration, comments and blank lines.
pg_schema() {
    "$BENCHDB_PG_DUMP" --schema-only --no-owner --no-privileges -T schema_migration -d "$1" |
        grep -v '^--' | grep -v '^$' | grep -v '^SET \|^SELECT pg_catalog.set_config\|^\\restrict \|^\\unrestrict '
}

# pg_same_data DB: the same data on both engines: an SQLite store $T/s.db
# holding examples/ and a simulated nightly history ($T/nightly), copied
# into the store in database DB by store.py (not ingested, so that a test
# does not hang on ingest), the derived tables with it (copy-derived:
# triggers off while it loads). That PostgreSQL's triggers derive the same
# rows from the same series is pg/queries' check (store.py copy, then
# compare) and pg/schema's; here they cost most of the server's CPU of a
# test (a block score, a history point and a run's cell refreshed per
# series row: about 6 s of 7 in pg/commands). Status 0, or 1 with the
# reason on stderr.
pg_same_data() {
    bd simulate -q --history 8 --hosts 2 --cells 3 --steps 2 --seed 9 "$T/nightly" >/dev/null &&
        bd --db "$T/s.db" init >/dev/null &&
        bd --db "$T/s.db" ingest -q "$BENCHDB_SRC/examples" "$T/nightly" &&
        python3 "$BENCHDB_SRC/tests/pg/store.py" copy-derived "$T/s.db" "$1"
}

# pg_same_rows WHAT SQL [LINES]: the query gives identical rows (CSV, reals
# to 17 digits) on the SQLite store $lite and the PostgreSQL store $pguri
# (by default $T/s.db and $uri), at least LINES lines with the header
# (default 2: one row). Leaves them in $T/lite.out and $T/pg.out.
#
# A test that sets pg_lite=0 (under the sanitizers, BENCHDB_SANITIZED=1)
# leaves out the SQLite side of pg_same_rows and both: the PostgreSQL
# command alone runs, checked for its exit status, its output and a
# sanitizer's report. The plain pass runs the whole comparison; the SQLite
# store's commands run under the sanitizers in the cli/ tests (each test
# that sets it says why that is enough for it).
pg_lite=1
pg_same_rows() {
    if [ "$pg_lite" = 0 ]; then
        bd --db "${pguri:-$uri}" sql "$2" -f csv --digits 17 >"$T/pg.out" 2>"$T/pg.err"
        prc=$?
        checks=$((checks + 1))
        if [ "$prc" != 0 ]; then
            fail "$1: exit status $prc on PostgreSQL"
            head -5 "$T/pg.err" >&2
        elif [ "$(wc -l <"$T/pg.out")" -lt "${3:-2}" ]; then
            fail "$1: fewer rows than $((${3:-2} - 1)): $(cat "$T/pg.out")"
        fi
        return
    fi
    bd --db "${lite:-$T/s.db}" sql "$2" -f csv --digits 17 >"$T/lite.out" 2>&1
    bd --db "${pguri:-$uri}" sql "$2" -f csv --digits 17 >"$T/pg.out" 2>&1
    checks=$((checks + 1))
    if ! cmp -s "$T/lite.out" "$T/pg.out"; then
        fail "$1: differs (< SQLite, > PostgreSQL)"
        diff "$T/lite.out" "$T/pg.out" | head -10 | cut -c1-300 | sed 's/^/  /' >&2
    elif [ "$(wc -l <"$T/pg.out")" -lt "${3:-2}" ]; then
        fail "$1: fewer rows than $((${3:-2} - 1)): $(cat "$T/pg.out")"
    fi
}

# both WHAT ARGS...: the same command on $T/s.db and on $uri: the same exit
# status and identical stdout (each through $filter, with $store naming
# the store it came from), not empty when the command succeeds; with
# both_err=1, identical stderr too. Leaves stdout and stderr in
# $T/{lite,pg}.{out,err} and the PostgreSQL exit status in $rc.
filter=cat
both_err=
both() {
    what=$1
    shift
    if [ "$pg_lite" = 0 ]; then # PostgreSQL's side alone (pg_same_rows, above)
        bd --db "$uri" "$@" >"$T/pg.raw" 2>"$T/pg.err"
        prc=$?
        store=$uri
        $filter <"$T/pg.raw" >"$T/pg.out"
        checks=$((checks + 1))
        if grep -q 'Sanitizer\|runtime error:' "$T/pg.err"; then
            fail "$what: a sanitizer's report on PostgreSQL"
            head -20 "$T/pg.err" >&2
        elif [ "$prc" = 0 ] && [ ! -s "$T/pg.out" ]; then
            fail "$what: no output"
            sed 's/^/  pg stderr: /' "$T/pg.err" >&2
        fi
        rc=$prc
        return
    fi
    bd --db "$T/s.db" "$@" >"$T/lite.raw" 2>"$T/lite.err"
    lrc=$?
    bd --db "$uri" "$@" >"$T/pg.raw" 2>"$T/pg.err"
    prc=$?
    store=$T/s.db
    $filter <"$T/lite.raw" >"$T/lite.out"
    store=$uri
    $filter <"$T/pg.raw" >"$T/pg.out"
    checks=$((checks + 1))
    if [ "$lrc" != "$prc" ]; then
        fail "$what: exit status $lrc on SQLite, $prc on PostgreSQL"
        sed 's/^/  pg stderr: /' "$T/pg.err" >&2
    elif ! cmp -s "$T/lite.out" "$T/pg.out"; then
        fail "$what: stdout differs (< SQLite, > PostgreSQL)"
        diff "$T/lite.out" "$T/pg.out" | head -20 | cut -c1-300 | sed 's/^/  /' >&2
    elif [ -n "$both_err" ] && ! cmp -s "$T/lite.err" "$T/pg.err"; then
        fail "$what: stderr differs (< SQLite, > PostgreSQL)"
        diff "$T/lite.err" "$T/pg.err" | head -10 | cut -c1-300 | sed 's/^/  /' >&2
    elif [ "$prc" = 0 ] && [ ! -s "$T/pg.out" ]; then
        fail "$what: no output"
        sed 's/^/  pg stderr: /' "$T/pg.err" >&2
    fi
    rc=$prc
}
