# 'benchdb check' passes on a sound store and finds each kind of damage:
# archive bytes that no longer hash to their SHA-256, a wrong size or
# stored_size, a missing chunk, a series whose n or total disagrees with its
# values, orphan samples, a dangling foreign key.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
ex="$DATA/good/example.jsonl"
sed 's/"plan":"calibration-example"/"plan":"z"/' "$ex" | zstd -q -c >"$T/z.jsonl.zst"
# fresh: a new store of the two archives. Made once by init and ingest and
# kept (store.db and any write-ahead log beside it), then copied for each
# case: the same bytes, two benchdb processes fewer a case (about 20 cases).
fresh() {
    rm -f "$T/store.db" "$T/store.db-wal" "$T/store.db-shm"
    if [ -f "$T/fresh/store.db" ]; then
        cp "$T/fresh/"store.db* "$T/"
        return
    fi
    bd init >/dev/null
    (cd "$T" && bd ingest --quiet "$ex" z.jsonl.zst)
    mkdir "$T/fresh"
    cp "$T/"store.db* "$T/fresh/"
}
fresh
# The schema's version and JSON columns, from the sources.
version=$(ls "$BENCHDB_SRC"/migrations/*.sql | wc -l)
json_columns=$(grep -o 'json_valid([a-z_]*)' "$BENCHDB_SRC/schema/schema.sql" | wc -l)
out=$(bd check 2>"$T/err") || fail "check on a sound store: $(cat "$T/err")"
# The answer first (it was the last line), then the line of each check.
[ "$out" = "check: ok
check: schema: version $version (migrations 1 to $version recorded): ok
check: integrity_check: ok
check: foreign_key_check: ok
check: 2 archives re-read and re-hashed: ok
check: 16 series: n and total match their values
check: 16 block scores: match their series
check: 6 run summaries: match their block ratios
check: 12 history points: match their series
check: orphan samples: none
check: $json_columns JSON columns: valid JSON in every row" ] || fail "sound store: $out"
[ ! -s "$T/err" ] || fail "sound store stderr: $(cat "$T/err")"

damaged() { # LABEL SQL EXPECTED-ERROR-LINE
    fresh
    bd sql --write "$2" >/dev/null
    rc=0
    out=$(bd check 2>"$T/err") || rc=$?
    [ "$rc" = 1 ] || fail "$1: exit $rc"
    [ "$(cat "$T/err")" = "$3" ] || fail "$1: stderr
$(cat "$T/err")
expected
$3"
    case "$out" in "check: 1 problem found"*) ;; *) fail "$1: stdout $out" ;; esac
}
zsha=$(sha256sum <"$T/z.jsonl.zst" | cut -d' ' -f1)
zsize=$(wc -c <"$T/z.jsonl.zst")
# Flip the last byte of the identity-stored zstd archive: hash differs.
printf '%s' "$(od -An -v -tx1 "$T/z.jsonl.zst" | tr -d ' \n')" >"$T/hex"
last=$(tail -c 2 "$T/hex")
flipped=$(printf '%02x' $((0x$last ^ 1)))
head -c $((zsize - 1)) "$T/z.jsonl.zst" >"$T/mod"
printf "\\$(printf '%03o' $((0x$flipped)))" >>"$T/mod"
msha=$(sha256sum <"$T/mod" | cut -d' ' -f1)
damaged tampered "UPDATE archive_chunk SET data = substr(data, 1, length(data) - 1) || x'$flipped' WHERE archive_id = 2" \
    "error: check: archive 2 \"z.jsonl.zst\": stored bytes ($zsize bytes, sha256 $msha) do not match the recorded size $zsize and sha256 $zsha"
damaged size "UPDATE archive SET size = size + 1 WHERE id = 2" \
    "error: check: archive 2 \"z.jsonl.zst\": stored bytes ($zsize bytes, sha256 $zsha) do not match the recorded size $((zsize + 1)) and sha256 $zsha"
damaged stored-size "UPDATE archive SET stored_size = 5 WHERE id = 2" \
    "error: check: archive 2 \"z.jsonl.zst\": chunks hold $zsize bytes, stored_size says 5"
damaged zstd-cut "UPDATE archive_chunk SET data = x'28b52ffd0000' WHERE archive_id = 1" \
    "error: check: archive 1 \"$ex\": stored zstd stream is truncated"
damaged zstd-garbled "UPDATE archive_chunk SET data = x'0011223344556677' WHERE archive_id = 1" \
    "error: check: archive 1 \"$ex\": stored bytes are not valid zstd: Unknown frame descriptor"
damaged missing-chunk "UPDATE archive_chunk SET seq = 1 WHERE archive_id = 1" \
    "error: check: archive 1 \"$ex\": chunk 0 missing"
damaged n "UPDATE series SET n = 4 WHERE id = 1" "error: check: series 1: n is 4 but it has 3 measured values"
damaged total "UPDATE series SET total = 3611.7500001 WHERE id = 1" \
    "error: check: series 1: total is 3611.7500001 but its values add up to 3611.75"
damaged block-score "UPDATE block_score_data SET score = score * 2 WHERE run_id = 1 AND benchmark_id = 1 AND block = 2 AND variant_id = 2" \
    "error: check: block_score_data: 2 rows differ from its series (the first: run 1, benchmark 1, block 2, variant 2); docs/schema.md shows how to rebuild it"
# A block score missing and one of no series: one row each (a row that
# differs counts on both sides, one on one side counts once).
damaged block-score-gone "DELETE FROM block_score_data WHERE run_id = 1 AND benchmark_id = 1 AND block = 2 AND variant_id = 2" \
    "error: check: block_score_data: 1 row differs from its series (the first: run 1, benchmark 1, block 2, variant 2); docs/schema.md shows how to rebuild it"
damaged block-score-extra "INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit) VALUES (1, 1, 99, 2, 1.0, 1, 'ns')" \
    "error: check: block_score_data: 1 row differs from its series (the first: run 1, benchmark 1, block 99, variant 2); docs/schema.md shows how to rebuild it"
damaged history-total "UPDATE history_point_data SET total = total * (1 + 1e-9) WHERE run_id = 1 AND benchmark_id = 1 AND variant_id = 1" \
    "error: check: history_point_data: 1 row differs from its series (the first: run 1, benchmark 1, variant 1, metric primary); docs/schema.md shows how to rebuild it"
damaged history-started "UPDATE history_point_data SET started = '1999-01-01T00:00:00.000Z' WHERE run_id = 1" \
    "error: check: history_point_data: 4 rows differ from its series (the first: run 1, benchmark 1, variant 1, metric primary); docs/schema.md shows how to rebuild it"
damaged history-gone "DELETE FROM history_point_data WHERE run_id = 1 AND benchmark_id = 2 AND variant_id = 2" \
    "error: check: history_point_data: 1 row differs from its series (the first: run 1, benchmark 2, variant 2, metric primary); docs/schema.md shows how to rebuild it"
damaged iteration "UPDATE sample SET iteration = 7 WHERE series_id = 1 AND warmup = 0 AND iteration = 3" \
    "error: check: series 1: n is 3 but it has 3 measured values (iterations not numbered 1..n)"
damaged orphan "INSERT INTO sample(series_id, warmup, iteration, value) VALUES (999, 0, 1, 1.0), (999, 0, 2, 1.0)" \
    "error: check: 2 sample rows belong to no series (the first to series 999)"
damaged foreign-key "PRAGMA foreign_keys = OFF; INSERT INTO gate(run_id, name, passed) VALUES (77, 'x', 1)" \
    "error: check: foreign_key_check: gate row 5 refers to a missing row of run"
# Within a relative 1e-12 a total is the same (summation order may differ).
fresh
bd sql --write "UPDATE series SET total = total * (1 + 4e-13) WHERE id = 1" >/dev/null
bd check >/dev/null || fail "total within 1e-12 flagged"
# A warmup value never counts: changing one leaves check content.
fresh
bd sql --write "UPDATE sample SET value = 1 WHERE warmup = 1" >/dev/null
bd check >/dev/null || fail "warmup change flagged"
rc=0; bd check extra >/dev/null 2>&1 || rc=$?; [ "$rc" = 2 ] || fail "usage: exit $rc"
echo ok
