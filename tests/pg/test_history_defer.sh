# History points of archives whose points' totals depend on the order
# their series are added (tests/cli/lib/order_archives.py; cli/history_defer
# compares SQLite's with its per-series triggers'): PostgreSQL's ingest
# (benchdb_ingest_finish(), sum(total ORDER BY id)) and SQLite's (the sink
# adds a point's series up as it stores them: migration
# 0012_ingest_history) store the same points, every total to the bit (its
# float8 bytes against the double SQLite holds), and an archive appending
# to a stored run (the triggers on both) adds to them in the same order.
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); the sums it checks are the server's and SQLite's)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_history_defer
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
pg_emptydb "$db" >/dev/null

python3 "$BENCHDB_SRC/tests/cli/lib/order_archives.py" "$T/ord" || fail "the archives"
for s in "$T/s.db" "$uri"; do
    run bd --db "$s" init
    expect_rc 0 "init $s"
    run bd --db "$s" ingest -q "$T/ord/a1.jsonl" "$T/ord/a2.jsonl" "$T/ord/a4.jsonl"
    expect_rc 0 "the runs into $s"
    run bd --db "$s" ingest -q "$T/ord/a3.jsonl"
    expect_rc 0 "the archive appending to o1 into $s"
done
[ "$failures" -eq 0 ] || finish

run python3 "$BENCHDB_SRC/tests/cli/lib/order_archives.py" --check "$T/s.db"
expect_rc 0 "SQLite's points against their series summed in order"
expect_out "12 points, 0 differ" "every point on SQLite"

# Every point by names, its total as the hex of its double: SQLite's from
# the stored real (benchdb sql --digits 17 prints a double's round trip,
# which Python turns into the same double), PostgreSQL's float8send.
q="SELECT r.name AS run, b.name AS benchmark, v.name AS variant, h.metric, ho.name AS host, h.started, h.position,
  h.series, h.n, h.total, h.unit FROM history_point_data h JOIN run r ON r.id = h.run_id
  JOIN benchmark b ON b.id = h.benchmark_id JOIN variant v ON v.id = h.variant_id JOIN host ho ON ho.id = h.host_id
  ORDER BY 1, 2, 3, 4"
bd --db "$T/s.db" sql "$q" -f csv --digits 17 >"$T/lite.csv" || fail "SQLite's points"
python3 - "$T/lite.csv" >"$T/lite.txt" <<'PY' || fail "SQLite's points as hex"
import csv, struct, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
for r in rows[1:]:
    r[9] = struct.pack(">d", float(r[9])).hex()
    print("|".join(r))
PY
pg -d "$db" -A -t -F'|' -c "SELECT r.name, b.name, v.name, h.metric, ho.name, h.started, h.position, h.series, h.n,
  encode(float8send(h.total), 'hex'), h.unit FROM history_point_data h JOIN run r ON r.id = h.run_id
  JOIN benchmark b ON b.id = h.benchmark_id JOIN variant v ON v.id = h.variant_id JOIN host ho ON ho.id = h.host_id
  ORDER BY 1, 2, 3, 4" >"$T/pg.txt" || fail "PostgreSQL's points"
checks=$((checks + 1))
expect_eq "$(wc -l <"$T/pg.txt" | tr -d ' ')" 12 "PostgreSQL's points"
cmp -s "$T/lite.txt" "$T/pg.txt" || { fail "the points differ (< SQLite, > PostgreSQL)"; diff "$T/lite.txt" "$T/pg.txt" >&2; }
run bd --db "$uri" check
expect_rc 0 "check on PostgreSQL"

pg_dropdb "$db" >/dev/null
finish
