# The setup of the cli/rel_query_* tests (docs/reliability.md): the
# shared helpers (common.sh, bounded.sh), a store s.db holding the example
# archive, named by $BENCHDB, and no limit or busy timeout from the
# environment. $B is the binary, for commands run under run_bounded.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/cli/lib/bounded.sh"
B=$BENCHDB_BIN
unset BENCHDB_TIMEOUT BENCHDB_BUSY_TIMEOUT BENCHDB_QUERIES
bd --db s.db init >/dev/null
bd --db s.db ingest --quiet "$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
export BENCHDB="$T/s.db"
