# An ingest into PostgreSQL looks the names the last archive used (plans,
# hosts, variants, benchmarks) up again in one statement at the start of
# the next archive's transaction, passing them as arrays in PostgreSQL's
# text form (docs/postgresql.md, "ingest"; src/ingest/sink/names.c). Names
# that array syntax would misread (quotes, backslashes, commas, braces,
# blanks, the word NULL, the empty-looking "{}") and a benchmark stored
# with two params, the archives given in one ingest, give the same rows
# and ids as on SQLite; and the look-up again is what runs (the server's
# statement log holds it once per archive after the first, in the call
# that opens the archive), so that the
# archives cost one statement for their names, not one per name.
# ctest: plain-only
#   (its benchdb code runs sanitized elsewhere: every line of src/ it
#   reaches, a sanitized test reaches too; tools/plain_only_cover.py)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_names_again
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"
pg_emptydb "$db" && bd --db "$uri" init >/dev/null || fail "a store on PostgreSQL"
run bd --db "$T/s.db" init
[ "$failures" -eq 0 ] || exit 1

# archive N: one run of the odd plan on the odd host, the odd benchmark
# with two params and the odd variants, values 1..3 times N.
python3 - "$T/in" <<'PY' || fail "test setup: the archives"
import json, os, sys
d = sys.argv[1]
os.makedirs(d)
plan, host = 'p "q" \\ r, {x}', "NULL"
variants = ["a\\b", "{}", ' spaced ']
bench = 'b,"1"\\{'
for n in range(1, 5):
    recs = [{"record": "run", "format": "benchdb-run/1", "plan": plan, "run": "r%d" % n, "host": host,
             "treatment": variants[0], "baseline": variants[1]}]
    for params in ({}, {"k": "v,\"w\""}):
        for v in variants:
            recs.append({"record": "samples", "benchmark": bench, "params": params, "block": 1, "variant": v,
                         "unit": "ns", "values": [n, 2 * n, 3 * n]})
    recs.append({"record": "samples", "benchmark": "plain", "block": 1, "variant": "NULL", "unit": "ns",
                 "values": [n]})
    with open(os.path.join(d, "a%d.jsonl" % n), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in recs))
PY

log="$(cat "$BENCHDB_PG_CLUSTER/base" 2>/dev/null || echo "$BENCHDB_PG_CLUSTER")/server.log"
[ -f "$log" ] || log="$BENCHDB_PG_CLUSTER/server.log"
before=$(wc -l <"$log")
run env PGOPTIONS="-c log_statement=all" "$BENCHDB_BIN" --db "$uri" ingest -q "$T/in"
expect_rc 0 "ingest on PostgreSQL (the server logging its statements)"
run bd --db "$T/s.db" ingest -q "$T/in"
expect_rc 0 "ingest on SQLite"
[ "$failures" -eq 0 ] || exit 1

pg_same_rows "plans, hosts, variants" "SELECT 'plan' AS t, id, name FROM plan UNION ALL SELECT 'host', id, name FROM host \
UNION ALL SELECT 'variant', id, name FROM variant ORDER BY 1, 2" 7
pg_same_rows "benchmarks" "SELECT id, name, params FROM benchmark ORDER BY id" 4
pg_same_rows "runs by name" "SELECT r.id, p.name AS plan, r.name, h.name AS host, t.name AS treatment, b.name AS baseline \
FROM run r JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id JOIN variant t ON t.id = r.treatment_id \
JOIN variant b ON b.id = r.baseline_id ORDER BY r.id" 5
pg_same_rows "series by name" "SELECT s.id, r.name AS run, b.name, b.params, v.name AS variant, s.n, s.total FROM series s \
JOIN run r ON r.id = s.run_id JOIN benchmark b ON b.id = s.benchmark_id JOIN variant v ON v.id = s.variant_id \
ORDER BY s.id" 29
expect_eq "$(bd --db "$uri" sql "SELECT count(*) FROM plan" -f csv | tail -1 | tr -d '\r')" 1 "one plan, looked up again"
run bd --db "$uri" check
expect_rc 0 "check"

# The statements: the names' look-up again once in each archive after the
# first, inside the archive's opening call (benchdb_archive_open(), whose
# seventh to tenth parameters are the arrays; NULL in the first archive),
# and no single name's look-up there.
tail -n +"$((before + 1))" "$log" >"$T/statements"
opened=$(grep -c "FROM benchdb_archive_open(" "$T/statements")
# (the parameters are the line after the call's: benchdb_series_values()'s
# seventh is an array too)
again=$(grep -A1 "FROM benchdb_archive_open(" "$T/statements" | grep -c "parameters: .*\$7 = '{")
alone=$(grep -c "FROM benchdb_names_again(" "$T/statements")
single=$(grep -c "SELECT id FROM benchmark WHERE name = \$1 AND params = \$2 FOR KEY SHARE" "$T/statements")
expect_eq "$opened" 4 "each archive opened by one call"
expect_eq "$again" 3 "the look-up again in archives 2, 3 and 4"
expect_eq "$alone" 0 "no look-up again of its own (it is in the opening call)"
# The archive's other statements folded into the two calls (migration
# 0011_ingest_calls): its lock, look-up, row and mark in the opening one,
# its row's update and the derived rows in the closing one.
closed=$(grep -c "SELECT benchdb_archive_close(" "$T/statements")
apart=$(grep -c "pg_advisory_xact_lock(\$1)\|FROM archive WHERE sha256 = \|INSERT INTO archive(\|UPDATE archive SET sha256\|set_config('benchdb.ingest_defer'\|SELECT benchdb_ingest_finish(" "$T/statements")
expect_eq "$closed" 4 "each archive closed by one call"
expect_eq "$apart" 0 "no statement of its own for the archive's lock, look-up, row, mark or derived rows"
expect_eq "$single" 6 "each of the 3 (name, params) looked up alone in archive 1 only (before and after its insert)"
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
