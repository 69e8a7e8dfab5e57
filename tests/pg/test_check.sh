# benchdb check on a store on PostgreSQL (--db postgresql://...): the same
# data as an SQLite store (copied by store.py) gives the same stdout lines
# where the checks are the same, with PostgreSQL's stand-ins for SQLite's
# integrity and foreign-key pragmas (the extension's version, every foreign
# key enforced, every row's parent present); the same damage, made through
# psql as a superuser on one and through sql --write on the other, gives
# the same error line on both, exit 1; what PostgreSQL alone can be
# (a foreign key's triggers disabled, benchstats at another version) is
# named; a role that cannot read the store fails with the reason.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
. "$BENCHDB_SRC/tests/pg/lib.sh"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
good=benchdb_check_good
db=benchdb_check
uri="postgresql://$PGUSER@$PGHOST:$PGPORT/$db"

# ---- the same store on both engines (as tests/cli/check_store.sh makes it) ----
ex="$BENCHDB_SRC/tests/data/ingest/good/example.jsonl"
sed 's/"plan":"calibration-example"/"plan":"z"/' "$ex" | zstd -q -c >"$T/z.jsonl.zst"
run bd --db "$T/good.db" init
(cd "$T" && bd --db "$T/good.db" ingest --quiet "$ex" z.jsonl.zst)
# Every JSON column's table gets a row: an evaluation, a series' detail.
mkdir -p "$T/q" && printf -- '-- name: e\nSELECT count(*) AS runs FROM run\n' >"$T/q/e.sql"
bd --db "$T/good.db" query --queries "$T/q" e --record >/dev/null 2>&1
bd --db "$T/good.db" sql --write "UPDATE series SET detail = '{\"mode\":\"avgt\"}' WHERE id = 1" >/dev/null
pg_emptydb "$good"
bd --db "postgresql://$PGUSER@$PGHOST:$PGPORT/$good" init >/dev/null
run python3 "$BENCHDB_SRC/tests/pg/store.py" copy "$T/good.db" "$good"
expect_rc 0 "copy the store into PostgreSQL"
[ "$failures" -eq 0 ] || exit 1

# fresh: both stores as made above (PostgreSQL's copied from its template;
# the old one dropped by the same psql: one process and connection a store).
fresh() {
    cp "$T/good.db" "$T/s.db"
    rm -f "$T/s.db-wal" "$T/s.db-shm"
    pg -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS \"$db\"" \
        -c "CREATE DATABASE $db TEMPLATE $good"
}

# Under the sanitizers (BENCHDB_SANITIZED=1) the SQLite side of the checks
# below is left out: the damage made by sql --write on the SQLite copy, its
# check, and the comparisons of its exit status, stderr and stdout with
# PostgreSQL's. The sanitized run keeps the SQLite store the PostgreSQL
# data come from (its ingest and recorded query), every damage on
# PostgreSQL and every check there, each checked for its exit status
# (1: a sanitizer's report exits 86), its first line ("1 problem found")
# and the error lines asserted below, and the damage PostgreSQL refuses
# (psql). That is enough: cli/check_store runs the same damages on an
# SQLite store under the sanitizers, each checked for its error line, and
# the comparisons are correctness checks, the plain pass's, which runs
# this test whole (docs/testing.md, "The larger cli and pg tests trimmed
# under the sanitizers": tools/plain_only_cover.py's counts).
lite=1
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && lite=0

# ---- a sound store ----
fresh
version=$(pg_known)
extversion=$(sed -n "s/^default_version = '\(.*\)'/\1/p" "$BENCHDB_SRC/src/pg/benchstats.control")
# every reference of the schema: SQLite's foreign keys, of which series'
# four to run, benchmark, variant and unit are triggers on PostgreSQL
# (schema/benchdb.schema), checked and counted as foreign keys there too;
# and PostgreSQL's one more, sample_values' to series (triggers too since
# version 15; SQLite's sample has none: its check looks for orphans)
fkeys=$(($(grep -c 'REFERENCES' "$BENCHDB_SRC/schema/schema.sql") + 1))
if [ "$lite" = 1 ]; then
    run bd --db "$T/s.db" check
    expect_rc 0 "check on the sound SQLite store"
    cp "$T/out" "$T/lite.out"
fi
run bd --db "$uri" check
expect_rc 0 "check on the sound PostgreSQL store"
checks=$((checks + 1))
[ ! -s "$T/err" ] || fail "sound store: stderr $(cat "$T/err")"
if [ "$lite" = 1 ]; then
    grep -v '^check: integrity_check: ' "$T/lite.out" >"$T/lite.same"
    grep -v '^check: extension benchstats: \|^check: foreign keys: ' "$T/out" >"$T/pg.same"
    checks=$((checks + 1))
    cmp -s "$T/lite.same" "$T/pg.same" || { fail "sound store: stdout differs from SQLite's"; diff "$T/lite.same" "$T/pg.same" >&2; }
fi
expect_out_has "check: schema: version $version (migrations 1 to $version recorded): ok" "schema line"
expect_out_has "check: extension benchstats: version $extversion: ok" "the extension's version"
expect_out_has "check: foreign keys: $fkeys constraints, all validated and enforced: ok" "every foreign key enforced"
expect_out_has "check: foreign_key_check: ok" "no dangling row"
expect_out_has "check: 2 archives re-read and re-hashed: ok" "archives re-hashed"
expect_out_has "check: 16 series: n and total match their values" "series"
expect_out_has "check: 7 JSON columns: valid JSON in every row" "JSON columns"
expect_eq "$(head -n 1 "$T/out")" "check: ok" "check: ok"

# damaged LABEL SQLITE-SQL PG-SQL: the damage made on each engine; check
# must fail on both (exit 1) with the same stderr, one problem, and stdout
# lines the same where the checks are.
damaged() {
    fresh
    pg -d "$db" -c "$3" >/dev/null || fail "$1: damaging the PostgreSQL store"
    bd --db "$uri" check >"$T/pg.out" 2>"$T/pg.err"
    prc=$?
    # (the schema's damage keeps its SQLite side: SQLite's check of it
    # reaches lines of src/store/migrate.c that no other sanitized test does)
    if [ "$lite" = 0 ] && [ "$1" != schema ]; then
        checks=$((checks + 1))
        [ "$prc" = 1 ] && [ -s "$T/pg.err" ] || fail "$1: exit $prc on PostgreSQL: $(cat "$T/pg.err")"
        checks=$((checks + 1))
        [ "$(head -n 1 "$T/pg.out")" = "check: 1 problem found" ] || fail "$1: stdout $(cat "$T/pg.out") stderr $(cat "$T/pg.err")"
        return
    fi
    bd --db "$T/s.db" sql --write "$2" >/dev/null || fail "$1: damaging the SQLite store"
    bd --db "$T/s.db" check >"$T/lite.out" 2>"$T/lite.err"
    lrc=$?
    checks=$((checks + 1))
    [ "$lrc" = 1 ] && [ "$prc" = 1 ] || fail "$1: exit $lrc on SQLite, $prc on PostgreSQL: $(cat "$T/pg.err")"
    checks=$((checks + 1))
    [ -s "$T/lite.err" ] && cmp -s "$T/lite.err" "$T/pg.err" || fail "$1: stderr differs
SQLite:     $(cat "$T/lite.err")
PostgreSQL: $(cat "$T/pg.err")"
    grep -v '^check: integrity_check: ' "$T/lite.out" >"$T/lite.same"
    grep -v '^check: extension benchstats: \|^check: foreign keys: ' "$T/pg.out" >"$T/pg.same"
    checks=$((checks + 1))
    cmp -s "$T/lite.same" "$T/pg.same" || { fail "$1: stdout differs"; diff "$T/lite.same" "$T/pg.same" >&2; }
    checks=$((checks + 1))
    [ "$(head -n 1 "$T/pg.out")" = "check: 1 problem found" ] || fail "$1: stdout $(cat "$T/pg.out") stderr $(cat "$T/pg.err")"
}
# The last byte of archive 2 (stored as it came: zstd) flipped; bytes cut
# to an empty zstd frame; bytes that are no zstd; a chunk deleted; a chunk
# renumbered.
flip="set_byte(data, length(data) - 1, get_byte(data, length(data) - 1) # 1)"
last=$(tail -c 1 "$T/z.jsonl.zst" | od -An -tx1 | tr -d ' \n')
flipped=$(printf '%02x' $((0x$last ^ 1)))
damaged tampered "UPDATE archive_chunk SET data = substr(data, 1, length(data) - 1) || x'$flipped' WHERE archive_id = 2" \
    "UPDATE archive_chunk SET data = $flip WHERE archive_id = 2"
grep -q 'do not match the recorded size' "$T/pg.err" || fail "tampered: $(cat "$T/pg.err")"
damaged zstd-cut "UPDATE archive_chunk SET data = x'28b52ffd0000' WHERE archive_id = 1" \
    "UPDATE archive_chunk SET data = '\\x28b52ffd0000' WHERE archive_id = 1"
damaged zstd-garbled "UPDATE archive_chunk SET data = x'0011223344556677' WHERE archive_id = 1" \
    "UPDATE archive_chunk SET data = '\\x0011223344556677' WHERE archive_id = 1"
damaged chunk-deleted "DELETE FROM archive_chunk WHERE archive_id = 2" "DELETE FROM archive_chunk WHERE archive_id = 2"
damaged chunk-missing "UPDATE archive_chunk SET seq = 1 WHERE archive_id = 1" \
    "UPDATE archive_chunk SET seq = 1 WHERE archive_id = 1"
grep -q 'chunk 0 missing' "$T/pg.err" || fail "chunk-missing: $(cat "$T/pg.err")"
damaged stored-size "UPDATE archive SET stored_size = 5 WHERE id = 2" "UPDATE archive SET stored_size = 5 WHERE id = 2"
# A series' total and n; an iteration renumbered; a derived block score.
damaged total "UPDATE series SET total = 3611.7500001 WHERE id = 1" "UPDATE series SET total = 3611.7500001 WHERE id = 1"
grep -q 'series 1: total is 3611.7500001 but its values add up to 3611.75' "$T/pg.err" || fail "total: $(cat "$T/pg.err")"
damaged n "UPDATE series SET n = 4 WHERE id = 1" "UPDATE series SET n = 4 WHERE id = 1"
# A measured value and a value's count changed (on PostgreSQL in
# sample_values' arrays, which check reads there instead of sample's rows):
# the same line as SQLite's.
damaged value "UPDATE sample SET value = value + 0.5 WHERE series_id = 1 AND warmup = 0 AND iteration = 2" \
    "UPDATE sample_values SET value[2] = value[2] + 0.5 WHERE series_id = 1"
grep -q 'series 1: total is 3611.75 but its values add up to 3612.25' "$T/pg.err" || fail "value: $(cat "$T/pg.err")"
damaged count "UPDATE sample SET count = 2 WHERE series_id = 1 AND warmup = 0 AND iteration = 2" \
    "UPDATE sample_values SET count = '{1,2,1}' WHERE series_id = 1"
grep -q 'series 1: n is 3 but it has 4 measured values' "$T/pg.err" || fail "count: $(cat "$T/pg.err")"
# An iteration renumbered and values of no series: damage SQLite's check
# finds, which PostgreSQL's schema cannot hold (sample is a view of a row
# of arrays per series, whose positions are the iterations, with a foreign
# key to series): made on SQLite, refused by the server.
impossible() {
    fresh
    if [ "$lite" = 1 ]; then
        bd --db "$T/s.db" sql --write "$2" >/dev/null || fail "$1: damaging the SQLite store"
        bd --db "$T/s.db" check >"$T/lite.out" 2>"$T/lite.err"
        lrc=$?
        checks=$((checks + 1))
        [ "$lrc" = 1 ] && [ "$(head -n 1 "$T/lite.out")" = "check: 1 problem found" ] ||
            fail "$1: SQLite's check: $(head -n 1 "$T/lite.out") $(cat "$T/lite.err")"
    fi
    pg -d "$db" -c "$3" >"$T/pg.out" 2>"$T/pg.err"
    prc=$?
    checks=$((checks + 1))
    [ "$prc" != 0 ] && grep -q "$4" "$T/pg.err" || fail "$1: PostgreSQL took it: $(cat "$T/pg.out" "$T/pg.err")"
}
impossible iteration "UPDATE sample SET iteration = 7 WHERE series_id = 1 AND warmup = 0 AND iteration = 3" \
    "UPDATE sample SET iteration = 7 WHERE series_id = 1 AND warmup = 0 AND iteration = 3" 'cannot update view "sample"'
impossible orphan "INSERT INTO sample(series_id, warmup, iteration, value) VALUES (999, 0, 1, 1.0), (999, 0, 2, 1.0)" \
    "INSERT INTO sample_values(series_id, value) VALUES (999, '{1.0, 1.0}')" \
    'violates foreign key constraint "sample_values_series_id_fkey"'
damaged block-score "UPDATE block_score_data SET score = score * 2 WHERE run_id = 1 AND benchmark_id = 1 AND block = 2 AND variant_id = 2" \
    "UPDATE block_score_data SET score = score * 2 WHERE run_id = 1 AND benchmark_id = 1 AND block = 2 AND variant_id = 2"
# A block score missing, one of no series: SQLite's count and first key.
damaged block-score-gone "DELETE FROM block_score_data WHERE run_id = 1 AND benchmark_id = 1 AND block = 2 AND variant_id = 2" \
    "DELETE FROM block_score_data WHERE run_id = 1 AND benchmark_id = 1 AND block = 2 AND variant_id = 2"
grep -q 'block_score_data: 1 row differs from its series (the first: run 1, benchmark 1, block 2, variant 2)' "$T/pg.err" ||
    fail "block-score-gone: $(cat "$T/pg.err")"
damaged block-score-extra "INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit) VALUES (1, 1, 99, 2, 1.0, 1, 'ns')" \
    "INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit) VALUES (1, 1, 99, 2, 1.0, 1, 'ns')"
grep -q 'block_score_data: 1 row differs from its series (the first: run 1, benchmark 1, block 99, variant 2)' "$T/pg.err" ||
    fail "block-score-extra: $(cat "$T/pg.err")"
# A gate of a run that does not exist: around the foreign key (SQLite's
# pragma off; PostgreSQL's constraint triggers disabled, then enabled).
damaged foreign-key "PRAGMA foreign_keys = OFF; INSERT INTO gate(run_id, name, passed) VALUES (77, 'x', 1)" \
    "ALTER TABLE gate DISABLE TRIGGER ALL; INSERT INTO gate(run_id, name, passed) VALUES (77, 'x', 1); ALTER TABLE gate ENABLE TRIGGER ALL"
grep -q 'foreign_key_check: gate row 5 refers to a missing row of run' "$T/pg.err" || fail "foreign key: $(cat "$T/pg.err")"
# A series of a unit that does not exist: around the foreign key, and on
# PostgreSQL around the trigger that stands for it.
damaged series-ref "PRAGMA foreign_keys = OFF; UPDATE series SET unit = 'furlongs' WHERE id = 16" \
    "ALTER TABLE series DISABLE TRIGGER series_check_refs_update; UPDATE series SET unit = 'furlongs' WHERE id = 16;
     ALTER TABLE series ENABLE TRIGGER series_check_refs_update"
grep -q 'foreign_key_check: series row 16 refers to a missing row of unit' "$T/pg.err" || fail "series' reference: $(cat "$T/pg.err")"
# A malformed JSON text in the one text column holding JSON (around its
# CHECK constraint: ignored on SQLite; on PostgreSQL dropped and added
# back NOT VALID).
damaged json "PRAGMA ignore_check_constraints = ON; UPDATE benchmark SET params = '{\"a\":' WHERE id = 1" \
    "ALTER TABLE benchmark DROP CONSTRAINT benchmark_params_check; UPDATE benchmark SET params = '{\"a\":' WHERE id = 1;
     ALTER TABLE benchmark ADD CONSTRAINT benchmark_params_check CHECK (benchdb_json_valid(params)) NOT VALID"
grep -q 'benchmark 1: params is not valid JSON' "$T/pg.err" || fail "json: $(cat "$T/pg.err")"
# A migration's record missing.
damaged schema "DELETE FROM schema_migration WHERE version = 2" "DELETE FROM schema_migration WHERE version = 2"
grep -q "records $((version - 1)) migrations from 1 to $version" "$T/pg.err" || fail "schema: $(cat "$T/pg.err")"
# Within a relative 1e-12 a total is the same, as on SQLite.
fresh
pg -d "$db" -c "UPDATE series SET total = total * (1 + 4e-13) WHERE id = 1" >/dev/null
run bd --db "$uri" check
expect_rc 0 "a total within 1e-12 is not flagged"

# ---- what only PostgreSQL can be ----
fresh
pg -d "$db" -c "ALTER TABLE gate DISABLE TRIGGER ALL" >/dev/null
run bd --db "$uri" check
expect_rc 1 "a foreign key not enforced"
expect_eq "$(cat "$T/err")" "error: check: foreign keys: gate_archive_id_fkey of gate is not enforced: its triggers are disabled (ALTER TABLE gate ENABLE TRIGGER ALL)
error: check: foreign keys: gate_run_id_fkey of gate is not enforced: its triggers are disabled (ALTER TABLE gate ENABLE TRIGGER ALL)" "named, with the remedy"
expect_out_has "check: foreign keys: $fkeys constraints, NOT all validated and enforced" "its line"
expect_out_has "check: 2 problems found" "one problem each"
fresh
pg -d "$db" -c "ALTER TABLE series DISABLE TRIGGER series_insert_refs" >/dev/null
run bd --db "$uri" check
expect_rc 1 "series' references not enforced"
expect_eq "$(cat "$T/err")" "error: check: foreign keys: series' references to run, benchmark, variant and unit are not enforced: 14 of their 15 triggers are enabled (ALTER TABLE ... ENABLE TRIGGER USER on series, run, benchmark, variant and unit)" "named, with the remedy"
expect_out_has "check: foreign keys: $fkeys constraints, NOT all validated and enforced" "its line"
fresh
pg -d "$db" -c "ALTER TABLE series DISABLE TRIGGER series_delete_values" >/dev/null
run bd --db "$uri" check
expect_rc 1 "sample_values' reference not enforced"
expect_eq "$(cat "$T/err")" "error: check: foreign keys: sample_values' reference to series is not enforced: 4 of its 5 triggers are enabled (ALTER TABLE ... ENABLE TRIGGER USER on sample_values and series)" "named, with the remedy"
fresh
pg -d "$db" -c "ALTER TABLE gate DROP CONSTRAINT gate_run_id_fkey; ALTER TABLE gate ADD CONSTRAINT gate_run_id_fkey FOREIGN KEY (run_id) REFERENCES run(id) NOT VALID" >/dev/null
run bd --db "$uri" check
expect_rc 1 "a foreign key NOT VALID"
expect_eq "$(cat "$T/err")" "error: check: foreign keys: gate_run_id_fkey of gate is NOT VALID: rows from before it were never checked (ALTER TABLE gate VALIDATE CONSTRAINT gate_run_id_fkey)" "named, with the remedy"
fresh
pg -d "$db" -c "UPDATE pg_extension SET extversion = '0.0' WHERE extname = 'benchstats'" >/dev/null
run bd --db "$uri" check
expect_rc 1 "benchstats at another version"
expect_eq "$(cat "$T/err")" "error: check: extension benchstats: version 0.0 is installed, this benchdb expects $extversion (as a superuser: ALTER EXTENSION benchstats UPDATE)" "named"

# ---- a role that may only read ----
fresh
run bd --db "$uri" check
expect_rc 0 "check again"
# A role that may read the tables (and use benchstats) but nothing else.
pg -d postgres -c "DROP ROLE IF EXISTS benchdb_check_ro" -c "CREATE ROLE benchdb_check_ro LOGIN" >/dev/null
pg -d "$db" -c "GRANT USAGE ON SCHEMA benchstats TO benchdb_check_ro" -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO benchdb_check_ro" >/dev/null
run bd --db "postgresql://benchdb_check_ro@$PGHOST:$PGPORT/$db" check
expect_rc 0 "check as a role that may only read"
expect_eq "$(head -n 1 "$T/out")" "check: ok" "and finds nothing wrong"

# ---- a store the role cannot read ----
pg -d "$db" -c "REVOKE SELECT ON archive_chunk FROM benchdb_check_ro" >/dev/null
run bd --db "postgresql://benchdb_check_ro@$PGHOST:$PGPORT/$db" check
expect_rc 1 "a table the role cannot read"
expect_err_has "error: check: foreign_key_check: permission denied for table archive_chunk" "named"
pg -d "$db" -c "REVOKE SELECT ON ALL TABLES IN SCHEMA public FROM benchdb_check_ro" >/dev/null
run bd --db "postgresql://benchdb_check_ro@$PGHOST:$PGPORT/$db" check
expect_rc 1 "a store the role cannot read at all"
expect_err_has "error: postgresql://benchdb_check_ro@$PGHOST:$PGPORT/$db: cannot read the store's schema version: permission denied for table schema_migration (the role needs SELECT on the store's tables" "the store and the table named"

pg_dropdb "$db" >/dev/null
pg_dropdb "$good" >/dev/null
pg -d postgres -c "DROP ROLE benchdb_check_ro" >/dev/null
finish
