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
    pg -d postgres -c "DROP DATABASE IF EXISTS \"$1\"" \
        -c "CREATE DATABASE \"$1\" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'" \
        -c "ALTER DATABASE \"$1\" SET search_path = public, benchstats, pg_catalog" &&
        pg -d "$1" -c "CREATE EXTENSION benchstats"
}

# pg_dropdb NAME
pg_dropdb() { pg -d postgres -c "DROP DATABASE IF EXISTS \"$1\""; }
