# Crash safety (docs/reliability.md): 'benchdb ingest' of four archives in
# one command is killed with SIGKILL at 50 moments spread over the time a
# whole ingest takes. After each kill: PRAGMA integrity_check is ok, every
# archive is wholly present (exactly its rows) or wholly absent, no row
# belongs to no archive, and re-running the same command completes with
# exactly the expected rows. Kill moments are spread by a measured duration
# (nothing asserts a time).
# ctest: plain-only slow cost=12
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); a SIGKILLed ingest shows ASan nothing more than a whole one)
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is missing (scripts/install-deps installs it)" >&2; exit 1; }
kills=50
values=30000
# one archive generated (deterministic), four plans made of it
python3 "$LIB/gen_archive.py" "$T/gen.jsonl" --values "$values" --iterations 100 >/dev/null
for i in 1 2 3 4; do
    sed "s/\"plan\":\"big\"/\"plan\":\"crash$i\"/" "$T/gen.jsonl" >"$T/a$i.jsonl"
done
rm "$T/gen.jsonl"
zstd -q --rm "$T/a4.jsonl" 2>/dev/null || true # one compressed archive when zstd is there
set -- "$T"/a1.jsonl "$T"/a2.jsonl "$T"/a3.jsonl "$T"/a4.jsonl*
archives="$*"

# One query for the whole state, one line each: the integrity check, the
# totals of every table (rows and names), then per archive its name, runs,
# series, samples, gates and stored chunks.
state="SELECT x FROM (
  SELECT 1 AS o, 'integrity ' || (SELECT group_concat(integrity_check) FROM pragma_integrity_check) AS x
  UNION ALL SELECT 2, 'totals ' || (SELECT count(*) FROM run) || ' ' || (SELECT count(*) FROM series) || ' ' ||
    (SELECT count(*) FROM sample) || ' ' || (SELECT count(*) FROM gate) || ' ' || (SELECT count(*) FROM archive_chunk)
    || ' names ' || (SELECT count(*) FROM plan) || ' ' || (SELECT count(*) FROM host) || ' ' ||
    (SELECT count(*) FROM benchmark) || ' ' || (SELECT count(*) FROM variant)
  UNION ALL SELECT 3, 'archive ' || a.name || ' ' ||
    (SELECT count(*) FROM run r WHERE r.archive_id = a.id) || ' ' ||
    (SELECT count(*) FROM series se JOIN run r ON r.id = se.run_id WHERE r.archive_id = a.id) || ' ' ||
    (SELECT count(*) FROM sample s JOIN series se ON se.id = s.series_id JOIN run r ON r.id = se.run_id
      WHERE r.archive_id = a.id) || ' ' ||
    (SELECT count(*) FROM gate g JOIN run r ON r.id = g.run_id WHERE r.archive_id = a.id) || ' ' ||
    (SELECT count(*) FROM archive_chunk c WHERE c.archive_id = a.id)
  FROM archive a) ORDER BY o, x"
snap() { bd sql "$state" --format csv | tail -n +2 | tr -d '\r'; }

# The expected rows: a whole ingest, timed to spread the kills.
bd init >/dev/null
cp "$T/store.db" "$T/fresh.db"
start=$(date +%s%N)
# shellcheck disable=SC2086
bd ingest --quiet $archives
full_ns=$(($(date +%s%N) - start))
snap >"$T/expected"
expected=$(cat "$T/expected")
grep '^archive ' "$T/expected" >"$T/expected.archives"
[ "$(wc -l <"$T/expected.archives")" = 4 ] || fail "test setup: four archives expected"
grep -qx 'integrity ok' "$T/expected" || fail "test setup: integrity"

# Checks the store after a kill; prints how many archives it holds.
check_after_kill() {
    snap >"$T/got"
    grep -qx 'integrity ok' "$T/got" || fail "kill $k: $(grep '^integrity' "$T/got")"
    grep '^archive ' "$T/got" >"$T/got.archives" || true
    # (one grep for all the lines: each must be one of the expected lines)
    line=$(grep -vxF -f "$T/expected.archives" "$T/got.archives" | head -n 1) || true
    [ -z "$line" ] || fail "kill $k: half-stored: $line (expected one of: $(cat "$T/expected.archives"))"
    # No row outside the stored archives: the totals are the sums over them.
    sums=$(awk '{r+=$3; s+=$4; v+=$5; g+=$6; c+=$7} END {printf "%d %d %d %d %d", r, s, v, g, c}' "$T/got.archives")
    grep -q "^totals $sums names " "$T/got" || fail "kill $k: rows outside any archive: $(grep '^totals' "$T/got") vs $sums"
    n=$(wc -l <"$T/got.archives")
    # Names (plans, hosts, benchmarks, variants) come and go with archives.
    if [ "$n" = 0 ]; then
        grep -qx "totals 0 0 0 0 0 names 0 0 0 0" "$T/got" || fail "kill $k: names left: $(grep '^totals' "$T/got")"
    fi
    echo "$n"
}

hist=""
k=0
while [ "$k" -lt "$kills" ]; do
    cp "$T/fresh.db" "$T/store.db"
    rm -f "$T/store.db-wal" "$T/store.db-shm"
    # Kill moment k of kills: spread evenly over 0.8 times a whole ingest
    # (measured once, with a cold start: most kills land inside the work).
    delay_us=$((full_ns / 1000 * 8 / 10 * (2 * k + 1) / (2 * kills)))
    # shellcheck disable=SC2086
    "$BENCHDB_BIN" --db "$T/store.db" ingest --quiet $archives 2>"$T/kill.err" &
    pid=$!
    sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    n=$(check_after_kill)
    hist="$hist $n"
    # The same command again completes, with exactly the expected rows.
    # shellcheck disable=SC2086
    bd ingest --quiet $archives || fail "kill $k: the re-run failed"
    [ "$(snap)" = "$expected" ] || fail "kill $k: after the re-run: $(snap) expected $expected"
    k=$((k + 1))
done
# How many archives each kill left stored (informative: it depends on timing).
echo "ok: $kills kills over $((full_ns / 1000000)) ms; archives stored at each kill:$hist"
