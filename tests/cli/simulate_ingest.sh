#!/bin/sh
# The store agrees with tools/calibration-check.py: ingest
# examples/calibration and recompute the checker's counts in SQL from the
# run_cell view (pooled t interval, df 8, t = R's qt(0.975, 8)).
set -eu
: "${BENCHDB_BIN:?}" "${BENCHDB_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
DB=$T/results.db
"$BENCHDB_BIN" --db "$DB" init >/dev/null
"$BENCHDB_BIN" --db "$DB" ingest --quiet "$BENCHDB_SRC/examples/calibration" >/dev/null 2>&1
"$BENCHDB_BIN" --db "$DB" sql --format csv "
WITH rc AS (
  SELECT h.name AS host, r.position AS pos, json_extract(r.attributes, '\$.profile') AS prof,
         c.benchmark_id, c.blocks AS n, c.mean_log AS m, c.sd_log AS sd
  FROM run_cell c JOIN run r ON r.id = c.run_id JOIN host h ON h.id = r.host_id
  WHERE r.plan_id = (SELECT id FROM plan WHERE name = 'calibration-sim')),
pairs AS (
  SELECT a.prof, CASE WHEN a.host = b.host THEN 'within' ELSE 'between' END AS kind,
         a.m - b.m AS d,
         2.3060041352041658 * sqrt(((a.n - 1) * a.sd * a.sd + (b.n - 1) * b.sd * b.sd) / (a.n + b.n - 2))
           * sqrt(1.0 / a.n + 1.0 / b.n) AS half
  FROM rc a JOIN rc b ON a.prof = b.prof AND a.benchmark_id = b.benchmark_id
   AND ((a.host = b.host AND a.pos = 1 AND b.pos = 2) OR (a.host < b.host AND a.pos = b.pos)))
SELECT prof, kind, count(*) AS n, sum(exp(d) BETWEEN 0.95 AND 1.05) AS in_band, sum(abs(d) > half) AS excluding
FROM pairs GROUP BY prof, kind ORDER BY prof, kind DESC" >"$T/got"
cat >"$T/want" <<'CSV'
prof,kind,n,in_band,excluding
protobuf-3,within,120,104,5
protobuf-3,between,240,214,23
protobuf-4,within,120,111,6
protobuf-4,between,240,220,19
CSV
tr -d '\r' <"$T/got" | diff "$T/want" - || { echo "FAIL: SQL counts differ from the checker's" >&2; exit 1; }
echo ok
