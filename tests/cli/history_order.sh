#!/bin/sh
# Histories: the order of a history's runs (start times in any RFC 3339
# form, ties, runs without a start time), that it does not depend on the
# order archives were ingested in, and that history_point_data follows
# every change of series and runs (replace, update, delete) and is filled
# by the migration on a store that had data before it.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }

# One host, one cell; each archive one run. The start times, in UTC:
#   r-a 01:00:00.500   (written 03:00:00.5+02:00)
#   r-b 01:00:00       (written in lower case: 2026-03-01t01:00:00z)
#   r-c 23:59:60 on 28 Feb, a leap second (read as :59, before r-b)
#   r-d 01:00:01       position 2   } equal start times:
#   r-e 01:00:01       position 1   } position first,
#   r-f 01:00:01       position 1, plan q (r-e is plan p): then plan name
#   r-g, r-h           no start time: last, by position, then plan, then run
mkdir a
arch() { # NAME PLAN POSITION STARTED VALUE
    pos=${3:+,\"position\":$3}
    st=${4:+,\"started_at\":\"$4\"}
    printf '{"record":"run","format":"benchdb-run/1","plan":"%s","run":"%s","host":"h1"%s%s,"source":"rev-%s"}\n' \
        "$2" "$1" "$pos" "$st" "$1" >"a/$1.jsonl"
    printf '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[%s]}\n' "$5" >>"a/$1.jsonl"
    printf '{"record":"samples","benchmark":"b","block":2,"variant":"v","unit":"ns","values":[%s,%s]}\n' "$5" "$5" >>"a/$1.jsonl"
}
arch r-a p 1 "2026-03-01T03:00:00.5+02:00" 10
arch r-b p 1 "2026-03-01t01:00:00z" 11
arch r-c p 1 "2026-02-28T23:59:60Z" 12
arch r-d p 2 "2026-03-01T01:00:01Z" 13
arch r-e p 1 "2026-03-01T01:00:01Z" 14
arch r-f q 1 "2026-03-01T01:00:01Z" 15
arch r-g p 3 "" 16
arch r-h q 3 "" 17

# Two stores, the archives ingested in opposite orders.
for f in a/*.jsonl; do echo "$f"; done >fwd.txt
sort -r fwd.txt >rev.txt
BENCHDB=fwd.db bd init >/dev/null
BENCHDB=rev.db bd init >/dev/null
# shellcheck disable=SC2046
BENCHDB=fwd.db bd ingest -q $(cat fwd.txt)
# shellcheck disable=SC2046
BENCHDB=rev.db bd ingest -q $(cat rev.txt)

trend() { BENCHDB=$1 bd query trend --param benchmark=b --format csv --no-record | cut -d, -f6-9,11-13 | tr -d '\r'; }
trend fwd.db >fwd.csv
trend rev.db >rev.csv
printf '%s\n' "seq,started_at,run,plan,n,value,unit" \
    "1,2026-02-28T23:59:60Z,r-c,p,3,12.0,ns" \
    "2,2026-03-01t01:00:00z,r-b,p,3,11.0,ns" \
    "3,2026-03-01T03:00:00.5+02:00,r-a,p,3,10.0,ns" \
    "4,2026-03-01T01:00:01Z,r-e,p,3,14.0,ns" \
    "5,2026-03-01T01:00:01Z,r-f,q,3,15.0,ns" \
    "6,2026-03-01T01:00:01Z,r-d,p,3,13.0,ns" \
    "7,,r-g,p,3,16.0,ns" \
    "8,,r-h,q,3,17.0,ns" >want.csv
cmp -s fwd.csv want.csv || { fail "history order"; diff want.csv fwd.csv >&2; }
cmp -s fwd.csv rev.csv || { fail "history order depends on ingest order"; diff fwd.csv rev.csv >&2; }
checks=$((checks + 2))

run env BENCHDB=fwd.db "$BENCHDB_BIN" sql "SELECT run, started FROM history_point WHERE run IN ('r-a', 'r-b', 'r-c', 'r-g') ORDER BY run" --format csv
expect_out "$(printf 'run,started\r\nr-a,2026-03-01T01:00:00.500Z\r\nr-b,2026-03-01T01:00:00.000Z\r\nr-c,2026-02-28T23:59:59.000Z\r\nr-g,\r')" "started, normalised"

# history_point_data equals a fresh rebuild from series (docs/schema.md).
REBUILD="SELECT s.run_id, s.benchmark_id, s.variant_id, s.metric, r.host_id,
  strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(r.started_at, 18, 2) = '60'
    THEN upper(substr(r.started_at, 1, 17) || '59' || substr(r.started_at, 20)) ELSE upper(r.started_at) END),
  r.position, count(*), sum(s.n), min(s.unit)
  FROM series s JOIN run r ON r.id = s.run_id GROUP BY s.run_id, s.benchmark_id, s.variant_id, s.metric"
HAVE="SELECT run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n, unit FROM history_point_data"
same_as_rebuild() { # DB WHAT
    run env BENCHDB=$1 "$BENCHDB_BIN" sql "SELECT count(*) FROM (SELECT * FROM ($REBUILD) EXCEPT SELECT * FROM ($HAVE))"
    expect_out "$(printf 'count(*)\n--------\n       0')" "$2: every point its series make is there"
    run env BENCHDB=$1 "$BENCHDB_BIN" sql "SELECT count(*) FROM (SELECT * FROM ($HAVE) EXCEPT SELECT * FROM ($REBUILD))"
    expect_out "$(printf 'count(*)\n--------\n       0')" "$2: no point without its series"
    run env BENCHDB=$1 "$BENCHDB_BIN" sql "SELECT count(*) FROM history_point_data h WHERE abs(h.total - (SELECT sum(total) FROM series s WHERE s.run_id = h.run_id AND s.benchmark_id = h.benchmark_id AND s.variant_id = h.variant_id AND s.metric = h.metric)) > 1e-9 * abs(h.total)"
    expect_out "$(printf 'count(*)\n--------\n       0')" "$2: totals match"
}
same_as_rebuild fwd.db "after ingest"

# --replace: the run's points are replaced with the new archive's.
arch r-a p 1 "2026-03-02T00:00:00Z" 20
run env BENCHDB=fwd.db "$BENCHDB_BIN" ingest -q --replace a/r-a.jsonl
expect_rc 0 "ingest --replace"
same_as_rebuild fwd.db "after --replace"
run sh -c "BENCHDB=fwd.db \"$BENCHDB_BIN\" query trend --param benchmark=b --format csv --no-record | cut -d, -f6,8,12 | tail -3"
expect_out "$(printf '6,r-a,20.0\n7,r-g,16.0\n8,r-h,17.0')" "the replaced run moved to its new start time"

# A run's start time set later (as a harness file might): its points follow.
run env BENCHDB=fwd.db "$BENCHDB_BIN" sql --write "UPDATE run SET started_at = '2026-01-01T00:00:00-01:00', position = 9 WHERE name = 'r-h'"
expect_rc 0 "update a run's start time"
same_as_rebuild fwd.db "after a run update"
run sh -c "BENCHDB=fwd.db \"$BENCHDB_BIN\" query trend --param benchmark=b --format csv --no-record | cut -d, -f6,8 | sed -n 2p"
expect_out "1,r-h" "the updated run comes first"

# Series deleted one by one: the point shrinks, then goes.
run env BENCHDB=fwd.db "$BENCHDB_BIN" sql --write "DELETE FROM series WHERE block = 2 AND run_id = (SELECT id FROM run WHERE name = 'r-b')"
same_as_rebuild fwd.db "after deleting one series of a point"
run env BENCHDB=fwd.db "$BENCHDB_BIN" sql "SELECT series, n, total FROM history_point_data WHERE run_id = (SELECT id FROM run WHERE name = 'r-b')" --format csv
expect_out "$(printf 'series,n,total\r\n1,1,11.0\r')" "the point keeps one series"
run env BENCHDB=fwd.db "$BENCHDB_BIN" sql --write "DELETE FROM series WHERE run_id = (SELECT id FROM run WHERE name = 'r-b')"
same_as_rebuild fwd.db "after deleting a point's last series"
run env BENCHDB=fwd.db "$BENCHDB_BIN" sql "SELECT count(*) FROM history_point WHERE run = 'r-b'"
expect_out "$(printf 'count(*)\n--------\n       0')" "the point is gone"
# A series moved to another metric: two points.
run env BENCHDB=fwd.db "$BENCHDB_BIN" sql --write "UPDATE series SET metric = 'other' WHERE block = 2 AND run_id = (SELECT id FROM run WHERE name = 'r-c')"
same_as_rebuild fwd.db "after moving a series"

# The migration fills history_point_data on a store that had data before
# it: take rev.db back to the schema before migration 0007, then migrate.
python3 - rev.db <<'PY' || fail "could not take the store back before 0007"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
v = c.execute("SELECT version FROM schema_migration WHERE name LIKE '%_history.sql'").fetchone()[0]
c.executescript("""
DROP VIEW history_point; DROP TRIGGER run_update_history; DROP TRIGGER series_insert_history;
DROP TRIGGER series_delete_history; DROP TRIGGER series_update_history; DROP TABLE history_point_data;
""")
# Migrations after it are taken back too: 0008_ingest_scores (the block
# scores' insert trigger without its WHEN), then 0007_summaries.
trig = c.execute("SELECT sql FROM sqlite_schema WHERE name = 'series_insert_block_score'").fetchone()[0]
if "ingest_defer" in trig:
    c.executescript("DROP TRIGGER series_insert_block_score;\n" + trig.replace(
        "\nWHEN new.archive_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM ingest_defer)", "") + ";")
if c.execute("SELECT 1 FROM sqlite_schema WHERE name = 'run_cell_data'").fetchone():
    c.executescript("""
    DROP VIEW calibration_comparison; DROP VIEW calibration_pair; DROP VIEW plan_run; DROP VIEW run_cell;
    DROP TRIGGER block_score_insert_run_cell; DROP TRIGGER block_score_delete_run_cell;
    DROP TRIGGER block_score_update_run_cell; DROP TRIGGER run_update_run_cell; DROP TABLE run_cell_data; DROP TABLE ingest_defer;
    CREATE VIEW run_cell AS SELECT run_id, benchmark_id, count(*) AS blocks FROM block_ratio GROUP BY 1, 2;
    ALTER TABLE evaluation DROP COLUMN schema_sha256;
    """)
c.execute("DELETE FROM schema_migration WHERE version >= ?", (v,))
c.commit()
PY
run env BENCHDB=rev.db "$BENCHDB_BIN" migrate
expect_rc 0 "migrate a store that has data"
same_as_rebuild rev.db "after the migration"
trend rev.db >mig.csv
cmp -s mig.csv want.csv || { fail "history after the migration"; diff want.csv mig.csv >&2; }
checks=$((checks + 1))

finish
