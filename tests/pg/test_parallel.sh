# Parallel plans give the bits of serial ones: every benchstats aggregate
# over 200,000 rows, in one group and in four, once with parallelism off
# and once with a parallel plan forced (two workers, partial aggregates
# combined by the aggregates' combine functions after their states went
# through their serial and deserial functions), and the whole plan in one
# worker with the scalars. The plans are checked to be what they
# should, and the results must be the same text, so the same doubles.
# Each parallel statement's plan is the one it ran with, as auto_explain
# logs it (sent to psql as a LOG message), not a second run of it under
# EXPLAIN ANALYZE: a fifth of the test's CPU, all of it in the server.
# ctest: plain-only
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_parallel
pg_newdb "$db" >/dev/null || { fail "cannot create the database $db"; exit 1; }
run pg -d "$db" -c "
CREATE TABLE big AS
SELECT i, CAST((i * 7919) % 10007 - 5000 AS DOUBLE PRECISION) / 997 AS x,
       CAST((i * 104729) % 99991 + 1 AS DOUBLE PRECISION) / 7 AS xp,
       CASE WHEN i % 31 = 0 THEN NULL ELSE (i * 13) % 7 / 3 END AS g,
       CASE WHEN i > 120000 THEN 2 ELSE 1 END + CAST((i * 7919) % 211 AS DOUBLE PRECISION) / 1000 AS s,
       i % 4 AS k
FROM generate_series(CAST(1 AS BIGINT), 200000) AS i;
ANALYZE big;"
expect_rc 0 "the table big"
[ "$failures" -eq 0 ] || exit 1

serial="SET max_parallel_workers_per_gather = 0;"
parallel="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2; SET parallel_leader_participation = off;"
# The plan of every statement run after it, with the workers it launched,
# to psql's standard error.
plans="LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on;
SET auto_explain.log_timing = off; SET client_min_messages = log;"

for grp in "" "GROUP BY k ORDER BY k"; do
    what=${grp:-one group}
    run pg -d "$db" -A -t -v grp="$grp" -c "$serial" -f "$BENCHDB_SRC/tests/pg/parallel.sql"
    expect_rc 0 "serial ($what)"
    mv "$T/out" "$T/serial"
    [ -n "$grp" ] || cp "$T/serial" "$T/serial-one"
    run pg -d "$db" -A -t -v grp="$grp" -c "$parallel $plans" -f "$BENCHDB_SRC/tests/pg/parallel.sql"
    expect_rc 0 "parallel ($what)"
    checks=$((checks + 1))
    if ! cmp -s "$T/serial" "$T/out"; then
        fail "parallel results differ from serial ones ($what):"
        diff "$T/serial" "$T/out" | cut -c1-300 >&2
    fi
    [ "$(wc -l <"$T/serial")" -ge 6 ] || fail "too few results ($what)"
    # Each statement's plan: partial aggregates under a Gather, workers
    # launched. One file per logged plan, plan.1 to plan.6 in the order
    # they ran.
    rm -f "$T"/plan.*
    awk -v d="$T" '/LOG:  duration: .* plan:$/ { n++ } n { print >(d "/plan." n) }' "$T/err"
    for n in 1 2 3 4 5 6; do
        checks=$((checks + 1))
        if [ ! -f "$T/plan.$n" ]; then
            fail "no plan logged for statement $n ($what):"
            cat "$T/err" >&2
            continue
        fi
        grep -q "Query Text: SELECT" "$T/plan.$n" && grep -q "Partial .*Aggregate" "$T/plan.$n" &&
            grep -q "Gather" "$T/plan.$n" && grep -q "Workers Launched: [12]" "$T/plan.$n" ||
            { fail "statement $n ($what) has no parallel partial aggregation:"; cat "$T/plan.$n" >&2; }
    done
    [ ! -f "$T/plan.7" ] || fail "more plans logged than parallel.sql's 6 statements ($what)"
done

[ -n "${KEEP:-}" ] || # The whole plan in one worker (force_parallel_mode, PostgreSQL 15's name):
# the module loaded there, the aggregates and the scalars computed there.
# (PostgreSQL 15 does not run window functions in a worker.)
forced="SET force_parallel_mode = on;"
scalars="SELECT i, t_quantile(0.975, i), t_cdf(x, i), normal_quantile(CAST(i AS DOUBLE PRECISION) / 3001),
  ci_recip(ci_exp(CAST('{\"estimate\": 0.5, \"lo\": 0.25, \"hi\": 1, \"n\": 3}' AS jsonb))), benchdb_version()
  FROM big WHERE i <= 3000 ORDER BY i"
# (the serial results of parallel.sql in one group are the loop's above:
# the same statements, settings and rows; the scalars' serially here)
run pg -d "$db" -A -t -c "$serial" -c "$scalars"
expect_rc 0 "serial, with scalars"
cat "$T/serial-one" "$T/out" >"$T/serial"
run pg -d "$db" -A -t -v grp= -c "$forced" -f "$BENCHDB_SRC/tests/pg/parallel.sql" -c "$scalars"
expect_rc 0 "in a worker"
checks=$((checks + 1))
cmp -s "$T/serial" "$T/out" || { fail "results computed in a worker differ:"; diff "$T/serial" "$T/out" | cut -c1-300 >&2; }
[ "$(wc -l <"$T/out")" -ge 3005 ] || fail "too few results in a worker"
for stmt in "$scalars" "SELECT median(x), mann_whitney(x, g), change_points(i, s) FROM big WHERE i <= 3000"; do
    run pg -d "$db" -A -t -c "$forced" -c "EXPLAIN (COSTS OFF) $stmt"
    checks=$((checks + 1))
    grep -q "Single Copy: true" "$T/out" || { fail "not run in a worker: $stmt"; cat "$T/out" >&2; }
done

pg_dropdb "$db" >/dev/null
[ "$failures" -eq 0 ] || exit 1
echo "ok: $checks checks"
