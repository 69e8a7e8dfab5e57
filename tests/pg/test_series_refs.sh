# series' references on PostgreSQL (schema/benchdb.schema, migration 0009):
# run, benchmark, variant and unit are checked once per statement by
# triggers instead of by foreign keys. Integrity is what the foreign keys
# gave, and what SQLite's still give: each statement below is run on both
# engines (SQLite through `benchdb sql --write`, its foreign keys on) and
# must be refused or accepted on both, PostgreSQL with the foreign key's
# error; a run's delete removes its series, values and block scores; and
# with two sessions (psql reading a FIFO, steps driven by the server's
# view of its sessions, no timing) a delete and an insert of a series that
# refers to the row deleted never leave a series without it.
# ctest: plain-only
#   (its benchdb code runs sanitized elsewhere: every line of src/ it
#   reaches, a sanitized test reaches too; tools/plain_only_cover.py)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
db=benchdb_series_refs
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"

printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"P","run":"r1","host":"h"}' \
    '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1,2,3]}' \
    '{"record":"samples","benchmark":"c","block":1,"variant":"v","unit":"ns","values":[4,5]}' >a.jsonl
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"P","run":"r2","host":"h"}' \
    '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[6,7]}' >b.jsonl
pg_emptydb "$db" >/dev/null && bd --db "$uri" init >/dev/null && bd --db "$uri" ingest -q a.jsonl b.jsonl ||
    fail "a store on PostgreSQL"
bd --db "$T/s.db" init >/dev/null && bd --db "$T/s.db" ingest -q a.jsonl b.jsonl || fail "a store on SQLite"

sql() { pg -d "$db" -A -t -c "$1"; }
# lite SQL: on the SQLite store, through benchdb sql (its foreign keys on),
# the rows as CSV without the header.
lite() { bd --db "$T/s.db" sql --write -f csv "$1" | tail -n +2 | tr -d '\r'; }
# same WHAT RC SQL: SQL exits with RC on both engines (0 accepted, 1
# refused), and on PostgreSQL a refusal says ERROR (the foreign key's
# words, checked by the callers).
same() {
    bd --db "$T/s.db" sql --write "$3" >lite.out 2>lite.err
    lrc=$?
    pg -d "$db" -A -t -c "$3" >pg.out 2>pg.err
    prc=$?
    [ "$prc" -le 1 ] || prc=1 # psql: 1 or 3 for an error in the statement
    expect_eq "$lrc/$prc" "$2/$2" "$1 (SQLite, PostgreSQL: $(cat lite.err) / $(cat pg.err))"
}
# counts: the rows of series, sample, block_score_data and series without
# their run, benchmark, variant or unit, on each engine.
COUNTS="SELECT (SELECT count(*) FROM series) || ' ' || (SELECT count(*) FROM sample) || ' ' ||
  (SELECT count(*) FROM block_score_data) || ' ' || (SELECT count(*) FROM series s WHERE
  NOT EXISTS (SELECT 1 FROM run WHERE id = s.run_id) OR NOT EXISTS (SELECT 1 FROM benchmark WHERE id = s.benchmark_id)
  OR NOT EXISTS (SELECT 1 FROM variant WHERE id = s.variant_id) OR NOT EXISTS (SELECT 1 FROM unit WHERE name = s.unit)) AS c"
counts_both() { # counts_both EXPECTED WHAT
    expect_eq "$(lite "$COUNTS")" "$1" "$2 (SQLite)"
    expect_eq "$(sql "$COUNTS")" "$1" "$2 (PostgreSQL)"
}
counts_both "3 7 3 0" "the stores ingested"

# 1. A series whose run, benchmark, variant or unit does not exist.
ins="INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total) VALUES"
same "a missing run" 1 "$ins (99, 1, 2, 1, 0, 'ns', 1, 1)"
grep -qF 'violates foreign key constraint "series_run_id_fkey"' pg.err || fail "the run's refusal: $(cat pg.err)"
grep -qF 'Key (run_id)=(99) is not present in table "run"' pg.err || fail "the run's detail: $(cat pg.err)"
same "a missing benchmark" 1 "$ins (1, 99, 2, 1, 0, 'ns', 1, 1)"
grep -qF 'Key (benchmark_id)=(99) is not present in table "benchmark"' pg.err || fail "the benchmark's: $(cat pg.err)"
same "a missing variant" 1 "$ins (1, 1, 2, 99, 0, 'ns', 1, 1)"
grep -qF 'Key (variant_id)=(99) is not present in table "variant"' pg.err || fail "the variant's: $(cat pg.err)"
same "a missing unit" 1 "$ins (1, 1, 2, 1, 0, 'furlongs', 1, 1)"
grep -qF 'Key (unit)=(furlongs) is not present in table "unit"' pg.err || fail "the unit's: $(cat pg.err)"
same "one bad row among good ones" 1 "$ins (1, 1, 2, 1, 0, 'ns', 1, 1), (1, 1, 3, 1, 0, 'ns', 1, 1), (98, 1, 4, 1, 0, 'ns', 1, 1)"
same "an update to a missing run" 1 "UPDATE series SET run_id = 99 WHERE benchmark_id = 2"
counts_both "3 7 3 0" "nothing stored by the refused statements"
# By COPY, as ingest sends series: one statement, one bad row, nothing kept.
printf '1\t1\t5\t1\t0\tns\t1\t1\n97\t1\t6\t1\t0\tns\t1\t1\n' >rows.tsv
pg -d "$db" -c "COPY series(run_id, benchmark_id, block, variant_id, fork, unit, n, total) FROM STDIN" <rows.tsv \
    >pg.out 2>pg.err && fail "COPY of a series of a missing run accepted"
grep -qF 'Key (run_id)=(97) is not present in table "run"' pg.err || fail "COPY's refusal: $(cat pg.err)"
expect_eq "$(sql "SELECT count(*) FROM series")" 3 "nothing stored by the refused COPY"
# And as ingest sends them, its transaction marked (benchdb.ingest_defer),
# where the rows are checked once per statement.
defer="SELECT set_config('benchdb.ingest_defer', '1', true)"
copy="COPY series(run_id, benchmark_id, block, variant_id, fork, unit, n, total) FROM STDIN"
pg -1 -d "$db" -c "$defer" -c "$copy" <rows.tsv >pg.out 2>pg.err && fail "a marked COPY of a series of a missing run accepted"
grep -qF 'Key (run_id)=(97) is not present in table "run"' pg.err || fail "the marked COPY's refusal: $(cat pg.err)"
printf '1\t1\t5\t1\t0\tns\t1\t1\n1\t1\t6\t1\t0\tparsecs\t1\t1\n' >rows.tsv
pg -1 -d "$db" -c "$defer" -c "$copy" <rows.tsv >pg.out 2>pg.err && fail "a marked COPY of a missing unit accepted"
grep -qF 'Key (unit)=(parsecs) is not present in table "unit"' pg.err || fail "the marked COPY's refusal: $(cat pg.err)"
expect_eq "$(sql "SELECT count(*) FROM series")" 3 "nothing stored by the refused COPYs"
same "a good row" 0 "$ins (1, 1, 2, 1, 0, 'ns', 2, 6)"

# 2. Deletes and key changes of the rows referred to.
same "deleting a benchmark still referred to" 1 "DELETE FROM benchmark WHERE name = 'c'"
grep -qF 'update or delete on table "benchmark" violates foreign key constraint "series_benchmark_id_fkey" on table "series"' pg.err ||
    fail "the benchmark delete's refusal: $(cat pg.err)"
grep -qF 'Key (id)=(2) is still referenced from table "series"' pg.err || fail "its detail: $(cat pg.err)"
same "deleting a variant still referred to" 1 "DELETE FROM variant"
same "deleting a unit still referred to" 1 "DELETE FROM unit WHERE name = 'ns'"
grep -qF 'Key (name)=(ns) is still referenced from table "series"' pg.err || fail "the unit's: $(cat pg.err)"
same "changing a referred benchmark's id" 1 "UPDATE benchmark SET id = 50 WHERE id = 1"
same "changing a referred run's id" 1 "UPDATE run SET id = 50 WHERE id = 1"
same "changing a referred unit's name" 1 "UPDATE unit SET name = 'nanoseconds' WHERE name = 'ns'"
same "deleting units no series refers to" 0 "DELETE FROM unit WHERE name IN ('furlongs', 'ops/min', 'MB/s')"
same "changing an unreferred unit's name" 0 "UPDATE unit SET name = 'Ops/s' WHERE name = 'ops/s'"
pg -d "$db" -c "TRUNCATE benchmark CASCADE" >pg.out 2>pg.err && fail "TRUNCATE benchmark accepted"
grep -qF 'Table "series" references "benchmark"' pg.err || fail "TRUNCATE's refusal: $(cat pg.err)"
counts_both "4 7 4 0" "nothing removed by the refused statements"
# A run's delete removes its series, their values and block scores.
same "deleting run r1" 0 "DELETE FROM run WHERE name = 'r1'"
counts_both "1 2 1 0" "r1's series, values and block scores gone with it"
same "deleting benchmark c, now unreferred" 0 "DELETE FROM benchmark WHERE name = 'c'"
run bd --db "$uri" check
expect_rc 0 "check after the deletes"

# 3. Two sessions. session NAME: a psql reading the FIFO NAME.in (fd 4 or
# 5), its output in NAME.out and NAME.err.
until_true() {
    n=0
    while [ "$(sql "$1")" != t ] && [ $n -lt 600 ]; do
        sleep 0.05
        n=$((n + 1))
    done
    [ $n -lt 600 ] || fail "test setup: waited 30 s for: $1"
}
# done NAME: the SQL a session sends after its statements, and
# idle_in_txn NAME waits for it (psql sends each statement alone, so a
# session is idle in its transaction between BEGIN and the next one too);
# waits_for_lock NAME: until session NAME waits for a lock.
done_sql() { echo "SET application_name = '$1-done';"; }
idle_in_txn() { until_true "SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = '$1-done' AND state = 'idle in transaction'"; }
waits_for_lock() { until_true "SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = '$1' AND wait_event_type = 'Lock'"; }
start_session() { # start_session NAME FD
    rm -f "$1.in" && mkfifo "$1.in"
    PGAPPNAME=$1 "$BENCHDB_PSQL" -X -q -A -t -d "$db" <"$1.in" >"$1.out" 2>"$1.err" &
    eval "pid_$1=\$!"
    eval "exec $2>$1.in"
}
run_id=$(sql "SELECT id FROM run WHERE name = 'r2'")
sed 's/"r2"/"r3"/' b.jsonl >c.jsonl
bd --db "$uri" ingest -q c.jsonl || fail "ingest of run r3"
other=$(sql "SELECT id FROM run WHERE name = 'r3'")

# 3a. An insert first: a run's delete waits for the inserting transaction,
# then removes the series it committed too.
start_session ins 4
start_session del 5
echo "BEGIN; $ins ($run_id, 1, 7, 1, 0, 'ns', 1, 1); $(done_sql ins)" >&4
idle_in_txn ins
echo "DELETE FROM run WHERE id = $run_id;" >&5
waits_for_lock del
echo "COMMIT;" >&4
exec 4>&- 5>&-
wait "$pid_ins" "$pid_del"
expect_eq "$(cat ins.err del.err)" "" "the insert and the delete that waited for it succeed"
expect_eq "$(sql "SELECT count(*) FROM series WHERE run_id = $run_id")" 0 "the run's series, the one inserted meanwhile too"

# 3b. A delete first: an insert referring to the deleted benchmark waits,
# then is refused.
bench=$(sql "INSERT INTO benchmark(name) VALUES ('d') RETURNING id")
start_session del 5
start_session ins 4
echo "BEGIN; DELETE FROM benchmark WHERE id = $bench; $(done_sql del)" >&5
idle_in_txn del
echo "$ins ($other, $bench, 9, 1, 0, 'ns', 1, 1);" >&4
waits_for_lock ins
echo "COMMIT;" >&5
exec 4>&- 5>&-
wait "$pid_ins" "$pid_del"
grep -qF "Key (benchmark_id)=($bench) is not present in table \"benchmark\"" ins.err ||
    fail "the insert that waited for the delete is refused: $(cat ins.err)"
expect_eq "$(sql "SELECT count(*) FROM series WHERE benchmark_id = $bench")" 0 "no series of the deleted benchmark"

# 3c. An insert first: a delete of the variant it refers to waits, then is
# refused.
var=$(sql "INSERT INTO variant(name) VALUES ('w') RETURNING id")
start_session ins 4
start_session del 5
echo "BEGIN; $ins ($other, 1, 10, $var, 0, 'ns', 1, 1); $(done_sql ins)" >&4
idle_in_txn ins
echo "DELETE FROM variant WHERE id = $var;" >&5
waits_for_lock del
echo "COMMIT;" >&4
exec 4>&- 5>&-
wait "$pid_ins" "$pid_del"
expect_eq "$(cat ins.err)" "" "the insert"
grep -qF "Key (id)=($var) is still referenced from table \"series\"" del.err ||
    fail "the delete that waited for the insert is refused: $(cat del.err)"
expect_eq "$(sql "SELECT count(*) FROM variant WHERE id = $var")" 1 "the variant kept"
expect_eq "$(sql "$COUNTS" | cut -d' ' -f4)" 0 "no series without its run, benchmark, variant or unit"

# 4. sample_values' reference to series (PostgreSQL alone: SQLite's
# sample has none, its trigger cascades a series' delete and check finds
# orphans), triggers since version 15 instead of a foreign key, with its
# errors. An ingest's series were inserted by its own transaction, which
# no other sees: the check leaves them unlocked (no xmax), where the
# foreign key's check locked every one.
expect_eq "$(sql "SELECT count(*) FROM series WHERE xmax <> CAST('0' AS xid)")" 0 "no series locked by its values' check"
vals() { pg -d "$db" -A -t -c "$1" >pg.out 2>pg.err; }
refused_values() { # refused_values WHAT KEY: the statement just run refused for the series KEY
    grep -qF 'violates foreign key constraint "sample_values_series_id_fkey"' pg.err &&
        grep -qF "Key (series_id)=($2) is not present in table \"series\"" pg.err || fail "$1: $(cat pg.out pg.err)"
}
nvals=$(sql "SELECT count(*) FROM sample_values")
vals "INSERT INTO sample_values(series_id, value) VALUES (999, '{1.0}')" && fail "values of a missing series accepted"
refused_values "values of a missing series" 999
s1=$(sql "SELECT min(series_id) FROM sample_values")
vals "UPDATE sample_values SET series_id = 998 WHERE series_id = $s1" && fail "values moved to a missing series"
refused_values "values moved to a missing series" 998
# By COPY, and in a marked ingest transaction with its own series: one bad
# row among good ones, nothing kept.
sid=$(sql "SELECT nextval(pg_get_serial_sequence('series', 'id'))")
printf '%s\t{3.0}\n%s\t{4.0}\n' "$sid" 997 >values.tsv
pg -1 -d "$db" -c "$defer" -c "INSERT INTO series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total)
    VALUES ($sid, $other, 1, 20, 1, 0, 'ns', 1, 3)" -c "COPY sample_values(series_id, value) FROM STDIN" \
    <values.tsv >pg.out 2>pg.err && fail "COPY of values of a missing series accepted"
refused_values "COPY of values of a missing series" 997
expect_eq "$(sql "SELECT count(*) FROM sample_values")/$(sql "SELECT count(*) FROM series WHERE id = $sid")" "$nvals/0" \
    "nothing stored by the refused statements"
# A series' id changed, or series truncated, while values refer to it.
vals "UPDATE series SET id = 990 WHERE id = $s1" && fail "a series with values re-keyed"
grep -qF 'Key (id)=('"$s1"') is still referenced from table "sample_values"' pg.err || fail "the re-key's refusal: $(cat pg.err)"
vals "TRUNCATE series CASCADE" && fail "TRUNCATE series accepted"
grep -qF 'Table "sample_values" references "series"' pg.err || fail "TRUNCATE's refusal: $(cat pg.err)"
# A series' delete removes its values.
vals "DELETE FROM series WHERE id = $s1" || fail "a series' delete: $(cat pg.err)"
expect_eq "$(sql "SELECT count(*) FROM sample_values WHERE series_id = $s1")" 0 "its values deleted with it"
# 4a. A delete of a series first: values inserted for it meanwhile wait
# (the series locked FOR KEY SHARE), then are refused.
s2=$(sql "$ins ($other, 1, 30, 1, 0, 'ns', 1, 1) RETURNING id")
start_session del 5
start_session ins 4
echo "BEGIN; DELETE FROM series WHERE id = $s2; $(done_sql del)" >&5
idle_in_txn del
echo "INSERT INTO sample_values(series_id, value) VALUES ($s2, '{5.0}');" >&4
waits_for_lock ins
echo "COMMIT;" >&5
exec 4>&- 5>&-
wait "$pid_ins" "$pid_del"
grep -qF "Key (series_id)=($s2) is not present in table \"series\"" ins.err ||
    fail "the values that waited for their series' delete are refused: $(cat ins.err)"
# 4b. Values first: the series' delete waits for them, then removes them.
s3=$(sql "$ins ($other, 1, 31, 1, 0, 'ns', 1, 1) RETURNING id")
start_session ins 4
start_session del 5
echo "BEGIN; INSERT INTO sample_values(series_id, value) VALUES ($s3, '{6.0}'); $(done_sql ins)" >&4
idle_in_txn ins
echo "DELETE FROM series WHERE id = $s3;" >&5
waits_for_lock del
echo "COMMIT;" >&4
exec 4>&- 5>&-
wait "$pid_ins" "$pid_del"
expect_eq "$(cat ins.err del.err)" "" "the values and the delete that waited for them succeed"
expect_eq "$(sql "SELECT count(*) FROM sample_values v WHERE NOT EXISTS (SELECT 1 FROM series WHERE id = v.series_id)")" 0 \
    "no values without their series"

pg_dropdb "$db" >/dev/null
finish
