# benchdb ingest into a store on PostgreSQL: the same archives give the
# same rows as on SQLite (every table, every value bit for bit, the derived
# tables the triggers keep); an archive ingested again is skipped; one
# with a series twice, or a run twice, is refused with the same message as
# on SQLite and leaves nothing; delete removes the same rows on both; eight
# ingests at once, four archives each given to two of them, store each
# archive exactly once (one loads it, the other waits on its advisory lock
# and skips it); a query during them sees whole archives only. --replace
# and --append give the same messages and rows as on SQLite; outside an
# ingest, sql --write keeps the derived tables as SQLite's triggers do.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_ingest
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"

newdb() {
    pg_emptydb "$1" && bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/$1" init >/dev/null
}
newdb "$db"
rc=$?
expect_rc 0 "a store on PostgreSQL"
[ "$failures" -eq 0 ] || exit 1

run bd simulate -q --history 6 --hosts 2 --cells 3 --steps 2 --seed 4 "$T/nightly"
expect_rc 0 "simulate"
# Under the sanitizers (BENCHDB_SANITIZED=1) the SQLite side of this test
# is left out (pg_lite, lib.sh): the SQLite stores that PostgreSQL's rows,
# messages and exit statuses are compared with ($T/s.db, $T/r.db; their
# ingests, refusals, sql --write and deletes), and the comparisons, which
# are the plain pass's: it runs this test whole. The sanitized run keeps
# every command on PostgreSQL (the ingests, the pipeline call and COPY, the
# eight at once, the refusals, --replace and --append, the run sent in
# parts), each checked for its exit status and messages, and every row
# query on PostgreSQL. That is enough: the same ingests into SQLite run
# under the sanitizers in cli/ (cli/report_pages ingests examples/,
# cli/ingest_* the refusals, --replace and --append; docs/testing.md, "The
# PostgreSQL tests' SQLite side, left to the plain pass":
# tools/plain_only_cover.py's counts).
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && pg_lite=0
if [ "$pg_lite" = 1 ]; then
    run bd --db "$T/s.db" init
    run bd --db "$T/s.db" ingest -q "$BENCHDB_SRC/examples" "$T/nightly"
    expect_rc 0 "ingest on SQLite"
fi
run bd --db "$uri" ingest -q "$BENCHDB_SRC/examples" "$T/nightly"
expect_rc 0 "ingest on PostgreSQL"
[ "$failures" -eq 0 ] || exit 1
# The planner's statistics of what was stored, taken by the ingest itself
# (each table by a tenth of its own rows, without waiting for autovacuum,
# which never analyzes a table under 50 rows: a gate right after an ingest
# plans from them), with no warning on the way: every table that holds
# rows has statistics (pg_class.reltuples -1: never analyzed), the one-row
# plan as much as sample_values (the planner took an unanalyzed plan for ten
# pages of rows, and regressions was ten times slower).
expect_eq "$(pg_unanalyzed "$db")" "none" "tables with rows but no statistics after the ingest"
# sample_values' statistics are of its key alone: its arrays' (nine tenths
# of the table's ANALYZE, used by no query) are not computed.
expect_eq "$(pg -d "$db" -A -t -c "SELECT string_agg(attname, ' ' ORDER BY attname) FROM pg_stats \
WHERE schemaname = current_schema() AND tablename = 'sample_values'")" "series_id" \
    "the columns of sample_values with planner statistics after the ingest"
# The two big tables analyzed: by the ingest, or by autovacuum when a
# worker held the table as the ingest came to it (its ANALYZE (SKIP_LOCKED)
# skips a locked table; the worker's statistics are as good). That the
# ingest analyzes by itself is what pg_unanalyzed above shows on the small
# tables, which autovacuum never analyzes.
analyzed() {
    pg -d "$db" -A -t -c "SELECT string_agg(relname || '=' || coalesce(CAST(last_analyze AS TEXT), \
CAST(last_autoanalyze AS TEXT), 'never'), ' ' \
ORDER BY relname) FROM pg_stat_user_tables WHERE relname IN ('sample_values', 'series')"
}
stats=$(analyzed)
case $stats in
*never*) fail "the ingest left tables it filled unanalyzed: $stats" ;;
esac
[ ! -s "$T/err" ] || fail "the ingest printed: $(head -3 "$T/err")"

# pg_same_rows (lib.sh) compares these two stores ($lite, $pguri), reals to
# 17 digits.
lite="$T/s.db" pguri=$uri
pg_same_rows "archives (but when)" "SELECT id, sha256, name, size, format, content_encoding, stored_size, tool_version \
FROM archive ORDER BY id"
pg_same_rows "archive chunks" "SELECT archive_id, seq, data FROM archive_chunk ORDER BY archive_id, seq"
pg_same_rows "archive members" "SELECT count(*) AS n FROM archive_member"
pg_same_rows "plans, hosts, variants" "SELECT 'plan' AS t, id, name FROM plan UNION ALL SELECT 'host', id, name FROM host \
UNION ALL SELECT 'variant', id, name FROM variant ORDER BY 1, 2"
pg_same_rows "benchmarks" "SELECT id, name, params FROM benchmark ORDER BY id"
pg_same_rows "runs" "SELECT * FROM run ORDER BY id"
pg_same_rows "series" "SELECT * FROM series ORDER BY id"
pg_same_rows "samples" "SELECT * FROM sample ORDER BY series_id, warmup, iteration"
pg_same_rows "gates and events" "SELECT 'gate' AS t, id, run_id, name, CAST(passed AS TEXT) AS v, at, detail FROM gate \
UNION ALL SELECT 'event', id, run_id, name, CAST(value AS TEXT), at, detail FROM event ORDER BY 1, 2"
pg_same_rows "units" "SELECT * FROM unit ORDER BY name"
pg_same_rows "block_score_data" "SELECT * FROM block_score_data ORDER BY run_id, benchmark_id, block, variant_id"
pg_same_rows "run_cell_data" "SELECT * FROM run_cell_data ORDER BY run_id, benchmark_id"
pg_same_rows "run_cell" "SELECT * FROM run_cell ORDER BY run_id, benchmark_id"
pg_same_rows "history_point_data" "SELECT * FROM history_point_data ORDER BY run_id, benchmark_id, variant_id, metric"
pg_same_rows "a saved query over what was ingested" "SELECT 1 AS x" # the connection stays usable
run bd --db "$uri" query regressions --no-record -f csv
expect_rc 0 "a saved query on the ingested store"
cp "$T/out" "$T/pg-regressions"
if [ "$pg_lite" = 1 ]; then
    run bd --db "$T/s.db" query regressions --no-record -f csv
    cmp -s "$T/out" "$T/pg-regressions" || fail "regressions differ between the engines after ingest"
fi

# ---- the two ways series go in: the same rows ----
# An archive's pending series, when at most 64 (a small archive), go in by
# one call of benchdb_series_values() sent in the pipeline, more by COPY
# (src/ingest/sink/statements.c, sink_copy_flush); $BENCHDB_TEST_PIPE_SERIES
# moves the line (0: always COPY, 100000: the call up to 64 KiB of rows).
# The simulated archives above (12 series each) took the call, the
# examples' 9,600 series COPY. Harness files whose series have counts
# (JMH's histogram bins), warmups, details, members, secondary metrics and
# quoted text go in each way into a store of its own and give SQLite's
# rows, ids included.
H="$BENCHDB_SRC/tests/data/harness"
run bd --db "$T/h.db" init
for way in call copy; do
    newdb "benchdb_ingest_$way"
done
n=0
for f in "$H"/jmh/*.json "$H"/pyperf/* "$H"/hyperfine/* "$H"/go-bench/*; do
    n=$((n + 1))
    bd --db "$T/h.db" ingest -q --plan harness --run "r$n" --host h "$f" >/dev/null 2>&1
    lrc=$?
    for way in call copy; do
        case $way in call) limit=100000 ;; copy) limit=0 ;; esac
        BENCHDB_TEST_PIPE_SERIES=$limit bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/benchdb_ingest_$way" ingest -q \
            --plan harness --run "r$n" --host h "$f" >/dev/null 2>"$T/err"
        prc=$?
        checks=$((checks + 1))
        [ "$lrc" = "$prc" ] || fail "$f by $way: exit $prc on PostgreSQL, $lrc on SQLite: $(head -2 "$T/err")"
    done
done
expect_eq "$(bd --db "$T/h.db" sql "SELECT (SELECT count(*) FROM sample WHERE count > 1) > 0 AND \
(SELECT count(*) FROM sample WHERE warmup = 1) > 0 AND (SELECT count(*) FROM series WHERE detail IS NOT NULL) > 0 \
AND (SELECT count(*) FROM series WHERE member_id IS NOT NULL) > 0 AND (SELECT count(*) FROM series \
WHERE metric <> 'primary') > 0 AS covered" -f csv | tail -n 1 | tr -d '\r')" 1 \
    "the harness files have counts, warmups, details, members and metrics"
for way in call copy; do
    lite="$T/h.db" pguri="postgresql://$PGUSER@$PGHOST:$PGPORT/benchdb_ingest_$way"
    pg_same_rows "series by $way" "SELECT * FROM series ORDER BY id"
    pg_same_rows "samples by $way" "SELECT * FROM sample ORDER BY series_id, warmup, iteration"
    pg_same_rows "block scores by $way" "SELECT * FROM block_score_data ORDER BY run_id, benchmark_id, block, variant_id"
    pg_same_rows "history points by $way" "SELECT * FROM history_point_data ORDER BY run_id, benchmark_id, variant_id, metric"
done
lite="$T/s.db" pguri=$uri

run bd --db "$uri" ingest "$T/nightly/ci-a-0001.jsonl.zst"
expect_rc 0 "an archive again"
expect_err_has "skipped: already stored as archive" "is skipped"

# From standard input (no hash before reading): skipped once read, as on
# SQLite.
bd --db "$uri" ingest - <"$T/nightly/ci-b-0003.jsonl.zst" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "an archive again from standard input"
expect_err_has "<stdin>: skipped: already stored as archive" "is skipped once read"

# Refused archives: the same message on both engines, nothing stored.
cp "$BENCHDB_SRC/tests/data/bad/samples-duplicate-series.jsonl" "$BENCHDB_SRC/tests/data/bad/run-twice.jsonl" "$T/"
rows="SELECT (SELECT count(*) FROM archive) || ' ' || (SELECT count(*) FROM run) || ' ' || \
(SELECT count(*) FROM series) || ' ' || (SELECT count(*) FROM sample) || ' ' || \
(SELECT count(*) FROM block_score_data) || ' ' || (SELECT count(*) FROM history_point_data) || ' ' || \
(SELECT count(*) FROM run_cell_data)"
before=$(pg -d "$db" -A -t -c "$rows")
for f in samples-duplicate-series.jsonl run-twice.jsonl; do
    if [ "$pg_lite" = 1 ]; then
        run bd --db "$T/s.db" ingest "$f"
        cp "$T/err" "$T/lite.err"
        expect_rc 1 "$f refused on SQLite"
    fi
    run bd --db "$uri" ingest "$f"
    expect_rc 1 "$f refused on PostgreSQL"
    if [ "$pg_lite" = 0 ]; then
        checks=$((checks + 1))
        ! grep -q 'Sanitizer\|runtime error:' "$T/err" || { fail "$f: a sanitizer's report"; head -20 "$T/err" >&2; }
        continue
    fi
    checks=$((checks + 1))
    cmp -s "$T/err" "$T/lite.err" || { fail "$f: another message on PostgreSQL"; diff "$T/lite.err" "$T/err" >&2; }
done
# (run-twice.jsonl's first run has had its series sent by COPY when the
# second is refused: the rollback takes them, and their derived rows.)
expect_eq "$(pg -d "$db" -A -t -c "$rows")" "$before" "nothing of them stored, derived rows included"

# Outside an ingest the per-row triggers keep the derived tables: a series
# added to a stored run, one changed, one deleted by sql --write give the
# same block scores, history points and cells on both engines.
for w in "INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total, metric) \
SELECT run_id, benchmark_id, block, variant_id, fork + 7, unit, n, total * 1.5, metric FROM series \
WHERE id = (SELECT min(id) FROM series WHERE metric = 'primary')" \
    "UPDATE series SET total = total * 3 WHERE id = (SELECT max(id) FROM series WHERE metric = 'primary' AND fork = 0)" \
    "DELETE FROM series WHERE id = (SELECT min(id) FROM series WHERE metric = 'primary' AND block = 2)"; do
    if [ "$pg_lite" = 1 ]; then
        run bd --db "$T/s.db" sql --write "$w"
        expect_rc 0 "sql --write on SQLite"
    fi
    run bd --db "$uri" sql --write "$w"
    expect_rc 0 "sql --write on PostgreSQL"
done
pg_same_rows "block_score_data after sql --write" "SELECT * FROM block_score_data ORDER BY run_id, benchmark_id, block, variant_id"
pg_same_rows "history_point_data after sql --write" "SELECT * FROM history_point_data ORDER BY run_id, benchmark_id, variant_id, metric"
pg_same_rows "run_cell_data after sql --write" "SELECT * FROM run_cell_data ORDER BY run_id, benchmark_id"

# ---- eight at once ----
db8=benchdb_ingest8
uri8="postgresql://$PGUSER@$PGHOST:$PGPORT/$db8"
newdb "$db8"
set -- "$T"/nightly/ci-a-0001.jsonl.zst "$T"/nightly/ci-a-0002.jsonl.zst "$T"/nightly/ci-b-0001.jsonl.zst \
    "$T"/nightly/ci-b-0002.jsonl.zst
i=0
for f in "$@" "$@"; do
    i=$((i + 1))
    (bd --db "$uri8" ingest "$f" >"$T/i$i.out" 2>"$T/i$i.err"; echo $? >"$T/i$i.rc") &
done
# While they run: every archive a query sees has all its runs' series.
partial=0
for k in 1 2 3 4 5 6 7 8 9 10; do
    n=$(pg -d "$db8" -A -t -c "SELECT count(*) FROM archive a WHERE NOT EXISTS (SELECT 1 FROM run r WHERE \
r.archive_id = a.id) OR EXISTS (SELECT 1 FROM run r WHERE r.archive_id = a.id AND NOT EXISTS \
(SELECT 1 FROM series s WHERE s.run_id = r.id))")
    [ "$n" = 0 ] || partial=$((partial + 1))
done
expect_eq "$partial" 0 "a query during the ingests sees whole archives only"
wait
bad=0
for i in 1 2 3 4 5 6 7 8; do
    if [ "$(cat "$T/i$i.rc")" != 0 ]; then
        bad=$((bad + 1))
        sed "s/^/  ingest $i: /" "$T/i$i.err" >&2
    fi
done
expect_eq "$bad" 0 "every ingest succeeded (loaded or skipped its archive)"
skips=$(cat "$T"/i*.err | grep -c "skipped: already stored")
expect_eq "$skips" 4 "one of each pair skipped"
expect_eq "$(pg -d "$db8" -A -t -c "SELECT count(*) FROM archive")" 4 "four archives stored"
expect_eq "$(pg -d "$db8" -A -t -c "SELECT count(DISTINCT sha256) FROM archive")" 4 "each once"
[ "$pg_lite" = 1 ] && lite8=$(bd --db "$T/s.db" sql "SELECT count(*) FROM sample s JOIN series se ON se.id = s.series_id \
JOIN run r ON r.id = se.run_id WHERE r.name IN ('ci-a-0001', 'ci-a-0002', 'ci-b-0001', 'ci-b-0002')" -f csv | tail -n 1 | tr -d '\r')
[ "$pg_lite" = 1 ] && expect_eq "$(pg -d "$db8" -A -t -c "SELECT count(*) FROM sample")" "$lite8" "every value of the four, once"

# ---- delete: the same rows removed on both engines ----
both_delete() {
    if [ "$pg_lite" = 0 ]; then # PostgreSQL's side alone (above)
        bd --db "$uri" delete "$@" >"$T/pg.out" 2>&1
        checks=$((checks + 1))
        ! grep -q 'Sanitizer\|runtime error:' "$T/pg.out" || { fail "delete $*: a sanitizer's report"; cat "$T/pg.out" >&2; }
        return
    fi
    bd --db "$T/s.db" delete "$@" >"$T/lite.out" 2>&1
    lrc=$?
    bd --db "$uri" delete "$@" >"$T/pg.out" 2>&1
    prc=$?
    checks=$((checks + 1))
    if [ "$lrc" != "$prc" ] || ! cmp -s "$T/lite.out" "$T/pg.out"; then
        fail "delete $*: SQLite (exit $lrc) and PostgreSQL (exit $prc) differ"
        diff "$T/lite.out" "$T/pg.out" >&2
    fi
}
both_delete --run nightly-sim/ci-a-0002 --dry-run
both_delete --run nightly-sim/ci-a-0002
both_delete --archive 3
both_delete --plan git-perf-p0001
both_delete --run nightly-sim/no-such-run
pg_same_rows "runs after the deletes" "SELECT id, name FROM run ORDER BY id"
pg_same_rows "archives after the deletes" "SELECT id, name FROM archive ORDER BY id"
pg_same_rows "values after the deletes" "SELECT count(*) AS n, sum(value) AS s FROM sample"
pg_same_rows "derived rows after the deletes" "SELECT (SELECT count(*) FROM block_score_data) AS b, \
(SELECT count(*) FROM history_point_data) AS h, (SELECT count(*) FROM run_cell_data) AS c"

# ---- --replace and --append: the same messages and rows on both engines ----
dbr=benchdb_ingest_r
urir="postgresql://$PGUSER@$PGHOST:$PGPORT/$dbr"
newdb "$dbr"
[ "$pg_lite" = 1 ] && run bd --db "$T/r.db" init
# both WHAT ARGS...: the same ingest (in $T) on both stores: the same exit
# status, standard output and standard error.
both() {
    what=$1
    shift
    if [ "$pg_lite" = 0 ]; then # PostgreSQL's side alone (above)
        (cd "$T" && bd --db "$urir" ingest "$@") >"$T/pg.out" 2>"$T/pg.err"
        rc=$?
        sed -e 's/; [0-9.]* s$//' -e 's/archive [0-9][0-9]* "/archive N "/g' "$T/pg.err" >"$T/err"
        checks=$((checks + 1))
        ! grep -q 'Sanitizer\|runtime error:' "$T/err" || { fail "$what: a sanitizer's report"; head -20 "$T/err" >&2; }
        return
    fi
    (cd "$T" && bd --db "$T/r.db" ingest "$@") >"$T/lite.out" 2>"$T/lite.err"
    lrc=$?
    (cd "$T" && bd --db "$urir" ingest "$@") >"$T/pg.out" 2>"$T/pg.err"
    prc=$?
    # the time taken aside; archive ids too: a refused archive's id is
    # gone on PostgreSQL (a sequence does not roll back), so later ones
    # differ from SQLite's
    for f in lite.out lite.err pg.out pg.err; do
        sed -e 's/; [0-9.]* s$//' -e 's/archive [0-9][0-9]* "/archive N "/g' "$T/$f" >"$T/$f.x"
        mv "$T/$f.x" "$T/$f"
    done
    cp "$T/pg.err" "$T/err"
    checks=$((checks + 1))
    if [ "$lrc" != "$prc" ] || ! cmp -s "$T/lite.out" "$T/pg.out" || ! cmp -s "$T/lite.err" "$T/pg.err"; then
        fail "$what: SQLite (exit $lrc) and PostgreSQL (exit $prc) differ"
        diff "$T/lite.out" "$T/pg.out" >&2
        diff "$T/lite.err" "$T/pg.err" >&2
    fi
    rc=$prc
}
lite="$T/r.db" pguri=$urir # pg_same_rows compares these now
ex="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
cp "$ex" "$T/v1.jsonl"
{ sed -n 11,12p "$ex"; echo '{"record":"samples","benchmark":"roundtrip","block":1,"variant":"native","unit":"ops/s","values":[7,8,9]}'; } >"$T/v2.jsonl"
sed -n 1,10p "$ex" | sed 's/"values":\[51234.5,50987.0\]/"values":[1,2]/' >"$T/v3.jsonl"
H="$BENCHDB_SRC/tests/data/harness"
mkdir -p "$T/base" "$T/head"
cp "$H/jmh/sample_mode.json" "$T/base/jmh.json"
cp "$H/google-benchmark/repetitions_with_date.json" "$T/base/gbench.json"
cp "$H/go-bench/config_and_allocs.txt" "$T/base/go.txt"
cp "$T"/base/* "$T/head/"
printf 'BenchmarkExtra-8 100 42 ns/op\n' >"$T/extra.txt"
both "v1" v1.jsonl
expect_rc 0 "v1"
both "a run stored by another archive" v2.jsonl
expect_rc 1 "a run stored by another archive is refused"
expect_err_has 'run "vm-a-2" of plan "calibration-example" is already stored (archive N "v1.jsonl")' "naming it"
both "--replace" --replace v2.jsonl
expect_rc 0 "--replace on PostgreSQL"
expect_err_has 'v2.jsonl:1: replaced run "vm-a-2" of plan "calibration-example" stored from archive "v1.jsonl"' \
    "the notice"
both "--replace leaving an archive without runs" --replace v3.jsonl
expect_rc 0 "--replace of v1's other run"
both "harness files" --plan pr-42 --run base --host ci-1 --source 844fd45 base/jmh.json base/gbench.json base/go.txt
expect_rc 0 "harness files"
both "harness files into head" --plan pr-42 --run head --host ci-1 head
sed -i 's/"real_time": 3.5,/"real_time": 3.75,/' "$T/head/gbench.json"
both "an edited file" --plan pr-42 --run head --host ci-1 head
expect_rc 1 "an edited file is refused"
expect_err_has "to add these files to it, pass --append" "with the hint"
both "an edited file, --replace" --replace --plan pr-42 --run head --host ci-1 head
expect_rc 0 "--replace of harness files"
both "--append" --append --plan pr-42 --run base --host ci-1 extra.txt
expect_rc 0 "--append on PostgreSQL"
both "--append of what is stored" --append --plan pr-42 --run base --host ci-1 base/jmh.json
expect_rc 1 "--append of a stored series is refused"
expect_err_has "is already stored in this run by archive" "naming the archive"
both "--append, a unit the stored run has otherwise" --append --plan pr-42 --run head --host ci-1 --format go-bench \
    extra.txt
both "--append to a run not stored" --append --plan pr-42 --run nowhere --host ci-1 extra.txt
expect_rc 1 "--append to a run not stored is refused"
# An archive adding to a compared run (a treatment and a baseline) that
# another archive opened: the closing call recomputes its run_cell_data
# (compared below), its block 1 having both variants' scores now.
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"calibration-example","run":"vm-a-2","host":"vm-a","append":true}' \
    '{"record":"samples","benchmark":"roundtrip","block":1,"variant":"chill","unit":"ops/s","values":[6,7]}' >"$T/a1.jsonl"
both "adding to a compared run" a1.jsonl
expect_rc 0 "adding to a compared run"
# By natural keys (ids differ after a refused archive, as said above).
RUN="(SELECT p.name || '/' || r.name FROM run r JOIN plan p ON p.id = r.plan_id WHERE r.id = x.run_id)"
SER="(SELECT p.name || '/' || r.name || ' ' || b.name || b.params || ' ' || CAST(s.block AS TEXT) || ' ' || \
v.name || ' ' || CAST(s.fork AS TEXT) || ' ' || s.metric FROM series s JOIN run r ON r.id = s.run_id \
JOIN plan p ON p.id = r.plan_id JOIN benchmark b ON b.id = s.benchmark_id JOIN variant v ON v.id = s.variant_id \
WHERE s.id = x.series_id)"
pg_same_rows "archives after --replace and --append" "SELECT sha256, name, size, format, content_encoding, stored_size \
FROM archive ORDER BY sha256"
pg_same_rows "archive members" "SELECT a.sha256, m.path, m.sha256 AS member, m.size, m.format FROM archive_member m \
JOIN archive a ON a.id = m.archive_id ORDER BY 1, 2"
pg_same_rows "runs" "SELECT $RUN AS run, h.name AS host, x.position, x.source, x.started_at, x.ended_at, x.attributes, \
a.sha256 FROM (SELECT id AS run_id, * FROM run) AS x JOIN host h ON h.id = x.host_id \
JOIN archive a ON a.id = x.archive_id ORDER BY 1"
pg_same_rows "series" "SELECT $SER AS k, x.unit, x.n, x.total, m.path, x.detail, a.sha256 FROM \
(SELECT id AS series_id, * FROM series) AS x LEFT JOIN archive_member m ON m.id = x.member_id \
LEFT JOIN archive a ON a.id = x.archive_id ORDER BY 1"
pg_same_rows "samples" "SELECT $SER AS k, x.warmup, x.iteration, x.value, x.count FROM sample x ORDER BY 1, 2, 3"
pg_same_rows "gates and events" "SELECT 'gate' AS t, $RUN AS run, name, CAST(passed AS TEXT) AS v, at, detail, \
(SELECT sha256 FROM archive WHERE id = x.archive_id) AS a FROM gate x UNION ALL SELECT 'event', $RUN, name, \
CAST(value AS TEXT), at, detail, (SELECT sha256 FROM archive WHERE id = x.archive_id) FROM event x ORDER BY 1, 2, 3"
pg_same_rows "block_score_data" "SELECT $RUN AS run, b.name, b.params, x.block, v.name AS variant, x.score, x.n, x.unit \
FROM block_score_data x JOIN benchmark b ON b.id = x.benchmark_id JOIN variant v ON v.id = x.variant_id \
ORDER BY 1, 2, 3, 4, 5"
pg_same_rows "history_point_data" "SELECT $RUN AS run, b.name, b.params, v.name AS variant, x.metric, h.name AS host, \
x.started, x.position, x.series, x.n, x.total, x.unit FROM history_point_data x \
JOIN benchmark b ON b.id = x.benchmark_id JOIN variant v ON v.id = x.variant_id JOIN host h ON h.id = x.host_id \
ORDER BY 1, 2, 3, 4, 5"
pg_same_rows "run_cell_data" "SELECT $RUN AS run, b.name, b.params, x.blocks, x.mean_log, x.sd_log, x.moments \
FROM run_cell_data x JOIN benchmark b ON b.id = x.benchmark_id ORDER BY 1, 2, 3"
pg_same_rows "appended series" "SELECT $SER AS k, (SELECT name FROM archive WHERE id = x.archive_id) AS appender \
FROM (SELECT id AS series_id, * FROM series) AS x WHERE x.archive_id IS NOT NULL ORDER BY 1"

# One run of 100,000 values (4.8 MB in COPY's binary rows): its series and
# values are sent in two parts, one before the run ends (SINK_COPY_BYTES).
run bd simulate -q --plan big --groups 1 --hosts 1 --positions 1 --cells 5 --blocks 2 --forks 1 \
    --iterations 5000 --warmups 0 "$T/big"
both "a run sent in parts" -q big
expect_rc 0 "a run sent in parts"
# (No sum of the values: PostgreSQL may add a group's rows in parallel
# parts, in an order that changes from run to run, and a double's sum
# with it; each value is compared instead.)
BIG="x.series_id IN (SELECT s.id FROM series s JOIN run r ON r.id = s.run_id JOIN plan p ON p.id = r.plan_id \
WHERE p.name = 'big')"
pg_same_rows "values per series of the run sent in parts" "SELECT $SER AS k, count(*) AS n, min(x.value) AS vmin, \
max(x.value) AS vmax, min(x.iteration) AS lo, max(x.iteration) AS hi FROM sample x WHERE $BIG \
GROUP BY x.series_id ORDER BY 1"
pg_same_rows "every value of the run sent in parts" "SELECT $SER AS k, x.warmup, x.iteration, x.value FROM sample x \
WHERE $BIG ORDER BY 1, 2, 3"

# An ingest that adds little to a large table (under a tenth of its rows)
# leaves its statistics to autovacuum (PostgreSQL's store only: the rows
# are not compared after this).
stats=$(analyzed)
run bd simulate -q --history 1 --cells 1 --seed 9 --plan tiny "$T/tiny"
run bd --db "$uri" ingest -q "$T/tiny"
expect_rc 0 "a small ingest"
expect_eq "$(analyzed)" "$stats" "a small ingest analyzes nothing"

# The ingest's functions read by key whatever the store held when their
# generic plans were made (its first archive): into a fresh store, the
# default plan's 12 archives of 800 series scan no table more than the
# migrations did (before version 15 the history points' insert scanned
# series, the series' reference check run, once per archive after the
# first; the values' check series, as first written).
dbs=benchdb_ingest_scans
newdb "$dbs" || fail "a fresh store for the scans"
run bd simulate -q --seed 5 "$T/default"
scans() {
    pg -d "$dbs" -A -t -c "SELECT string_agg(relname || ' ' || seq_scan, ', ' ORDER BY relname) FROM pg_stat_user_tables"
}
before=$(scans)
run bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/$dbs" ingest -q "$T/default"
expect_rc 0 "the default plan's 12 archives"
expect_eq "$(scans)" "$before" "tables scanned by the ingest"

pg_dropdb "$dbs" >/dev/null
pg_dropdb "$dbr" >/dev/null
pg_dropdb "$db8" >/dev/null
pg_dropdb "$db" >/dev/null
finish
