#!/bin/sh
# The history points of the runs an ingest opens are added up by the ingest
# itself (migration 0012_ingest_history; src/ingest/sink/history.c), their
# insert trigger standing aside: every row must be what the per-series
# trigger gives, to the bit. Archives whose points' totals depend on the
# order their series are added (1e16 + 1 + 1 is 1e16, 1 + 1 + 1e16 is not;
# tests/cli/lib/order_archives.py), one appending to another's run (those
# series keep the trigger); the stored points are compared with
# - the points summed in Python in the archives' order, bit for bit;
# - the same store after every series went through the triggers again
#   (deleted and inserted in id order by `sql --write`, outside an ingest);
# - the rebuild statement of docs/schema.md run on a copy;
# and `check` finds the store whole.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
ORDER="$BENCHDB_SRC/tests/cli/lib/order_archives.py"

python3 "$ORDER" ord || fail "the archives"
run bd --db s.db init
expect_rc 0 "init"
run bd --db s.db ingest -q ord/a1.jsonl ord/a2.jsonl ord/a4.jsonl
expect_rc 0 "ingest of the runs"
run bd --db s.db ingest -q ord/a3.jsonl
expect_rc 0 "ingest of the archive appending to o1"
expect_eq "$(bd --db s.db sql "SELECT count(*) FROM series WHERE archive_id IS NOT NULL" -f csv | tail -n 1 | tr -d '\r')" \
    6 "series appended to o1 (the trigger's)"
expect_eq "$(bd --db s.db sql "SELECT count(*) FROM ingest_defer" -f csv | tail -n 1 | tr -d '\r')" 0 \
    "no ingest's mark left"

run python3 "$ORDER" --check s.db
expect_rc 0 "the stored points against their series summed in order"
expect_out "12 points, 0 differ" "every point"

# Every stored point, its total to 17 digits (a double's round trip).
points() {
    bd --db "$1" sql "SELECT run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                             printf('%!.17g', total) AS total, unit, typeof(total) AS t
                      FROM history_point_data ORDER BY run_id, benchmark_id, variant_id, metric" -f csv
}
points s.db >ingested.csv
expect_eq "$(wc -l <ingested.csv | tr -d ' ')" 13 "the points listed (a header and 12)"
grep -q '2026-03-01T01:00:00.500Z' ingested.csv && grep -q '2026-02-28T23:59:59.000Z' ingested.csv &&
    grep -q '2026-03-02T11:30:00.250Z' ingested.csv || fail "the runs' start times: $(cat ingested.csv)"
checks=$((checks + 1))

# The per-series triggers: every series deleted and inserted again in id
# order by sql --write (no ingest's mark: the triggers run), on a copy.
cp s.db t.db
run bd --db t.db sql --write "CREATE TEMP TABLE s AS SELECT * FROM series;
  DELETE FROM history_point_data; DELETE FROM series; INSERT INTO series SELECT * FROM s ORDER BY id"
expect_rc 0 "the series through the triggers again"
expect_eq "$(bd --db t.db sql "SELECT count(*) FROM series" -f csv | tail -n 1 | tr -d '\r')" 43 "the series again"
points t.db >triggers.csv
checks=$((checks + 1))
cmp -s ingested.csv triggers.csv || { fail "the ingest's points differ from the triggers' (< ingest, > triggers)";
    diff ingested.csv triggers.csv >&2; }

# The rebuild of docs/schema.md, on another copy.
cp s.db r.db
run bd --db r.db sql --write "DELETE FROM history_point_data;
      INSERT INTO history_point_data
      SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, r.host_id,
        strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(r.started_at, 18, 2) = '60'
          THEN upper(substr(r.started_at, 1, 17) || '59' || substr(r.started_at, 20))
          ELSE upper(r.started_at) END),
        r.position, 1, s.n, s.total, s.unit
      FROM series s JOIN run r ON r.id = s.run_id ORDER BY s.id
      ON CONFLICT (run_id, benchmark_id, variant_id, metric)
      DO UPDATE SET series = series + 1, n = n + excluded.n, total = total + excluded.total"
expect_rc 0 "the rebuild"
points r.db >rebuilt.csv
checks=$((checks + 1))
cmp -s ingested.csv rebuilt.csv || { fail "the ingest's points differ from the rebuild's (< ingest, > rebuild)";
    diff ingested.csv rebuilt.csv >&2; }

run bd --db s.db check
expect_rc 0 "check"
finish
