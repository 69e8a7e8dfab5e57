# The derived rows an ingest computes before each commit, in one call of
# benchdb_ingest_finish() (schema/benchdb.schema), whose statements keep
# one generic plan each for the session (PL/pgSQL's cache, plan_cache_mode
# since migration 0010), give SQLite's rows with those plans, made at the
# first archive, and after a refused archive rolled back in the middle of
# the session: one
# ingest of fourteen archives, two of them refused, on both engines; every
# derived table the same, and nothing of the refused ones stored.
# ctest: plain-only
#   (its benchdb code runs sanitized elsewhere: every line of src/ it
#   reaches, a sanitized test reaches too; tools/plain_only_cover.py)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_kept
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
pg_emptydb "$db" && bd --db "$uri" init >/dev/null
rc=$?
expect_rc 0 "a store on PostgreSQL"
run bd simulate -q --cells 3 --blocks 2 --forks 1 --iterations 2 --warmups 0 --seed 9 "$T/in"
expect_rc 0 "simulate"
set -- "$T"/in/*
[ $# -eq 12 ] || fail "simulate wrote $# archives, not 12"
# Sorted by name: the refused ones fourth and eighth.
cp "$BENCHDB_SRC/tests/data/bad/run-twice.jsonl" "$(dirname "$4")/$(basename "$4" .jsonl.zst)-x.jsonl"
cp "$BENCHDB_SRC/tests/data/bad/samples-duplicate-series.jsonl" "$(dirname "$7")/$(basename "$7" .jsonl.zst)-x.jsonl"
run bd --db "$T/s.db" init
run bd --db "$T/s.db" ingest -q "$T/in"
expect_rc 1 "ingest on SQLite: two refused"
run bd --db "$uri" ingest -q "$T/in"
expect_rc 1 "ingest on PostgreSQL: two refused"
pg_same_rows "archives" "SELECT name FROM archive ORDER BY name"
pg_same_rows "runs" "SELECT p.name, r.name FROM run r JOIN plan p ON p.id = r.plan_id ORDER BY 1, 2"
pg_same_rows "block_score_data" "SELECT r.name, b.name, b.params, x.block, v.name, x.score, x.n, x.unit FROM block_score_data x \
JOIN run r ON r.id = x.run_id JOIN benchmark b ON b.id = x.benchmark_id JOIN variant v ON v.id = x.variant_id ORDER BY 1, 2, 3, 4, 5"
pg_same_rows "history_point_data" "SELECT r.name, b.name, b.params, v.name, x.metric, x.started, x.position, x.series, x.n, x.total, x.unit \
FROM history_point_data x JOIN run r ON r.id = x.run_id JOIN benchmark b ON b.id = x.benchmark_id \
JOIN variant v ON v.id = x.variant_id ORDER BY 1, 2, 3, 4, 5"
pg_same_rows "run_cell_data" "SELECT r.name, b.name, b.params, x.blocks, x.mean_log, x.sd_log, x.moments FROM run_cell_data x \
JOIN run r ON r.id = x.run_id JOIN benchmark b ON b.id = x.benchmark_id ORDER BY 1, 2, 3"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(*) FROM archive")" 12 "the twelve good archives stored, the refused not"
expect_eq "$(pg -d "$db" -A -t -c "SELECT count(DISTINCT run_id) FROM run_cell_data")" 12 "every stored run has its cells"
pg_dropdb "$db" >/dev/null
finish
