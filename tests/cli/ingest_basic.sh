# The example archive loads with every field where it belongs; a second
# ingest skips it by its SHA-256; unknown keys are warned about once.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
cp "$DATA/good/example.jsonl" "$T/example.jsonl"
out=$(cd "$T" && bd ingest example.jsonl 2>"$T/err")
[ ! -s "$T/err" ] || fail "unexpected stderr: $(cat "$T/err")"
case "$out" in
"ingest: 1 archive loaded, 0 skipped, 0 failed; 2 runs, 20 values (and 2 warmups); "*" s") ;;
*) fail "summary: $out" ;;
esac

sha=$(sha256sum "$T/example.jsonl" | cut -d' ' -f1)
size=$(wc -c <"$T/example.jsonl")
expect_rows archive "SELECT sha256, name, size, format, content_encoding, tool_version = '$("$BENCHDB_BIN" --version | cut -d' ' -f2)',
                            ingested_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z',
                            stored_size = (SELECT sum(length(data)) FROM archive_chunk) FROM archive" \
    "$sha,example.jsonl,$size,benchdb-run/1,zstd,1,1,1"
expect_rows runs "SELECT p.name, r.name, h.name, r.position, r.source, r.started_at, r.ended_at, t.name, b.name
                  FROM run r JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id
                  LEFT JOIN variant t ON t.id = r.treatment_id LEFT JOIN variant b ON b.id = r.baseline_id ORDER BY r.id" \
    "calibration-example,vm-a-1,vm-a,1,844fd45e700040dbe036acea9f98f95922897d3e,2026-10-21T03:57:00Z,2026-10-21T05:07:00Z,native,chill
calibration-example,vm-a-2,vm-a,2,,,,native,chill"
expect_rows attributes "SELECT attributes FROM run ORDER BY id" \
    '"{""cpu_platform"":""Intel Sapphire Rapids"",""image"":""ubuntu-2404-noble-amd64-v20261016"",""jdk"":""Temurin 17.0.20.1"",""kernel"":""7.0.0-1014-gcp"",""machine_type"":""c3-standard-8"",""profile"":""protobuf-4"",""spot"":false,""vcpus"":8}"
{}'
# Key order in params does not make another cell.
expect_rows cells "SELECT name, params FROM benchmark ORDER BY id" \
    'serialize,"{""format"":""binary"",""workload"":""large""}"
roundtrip,{}'
# n and total from the measured values only; warmups flagged and numbered apart.
expect_rows series "SELECT r.name, b.name, s.block, v.name, s.fork, s.unit, s.n, s.total FROM series s
                    JOIN run r ON r.id = s.run_id JOIN benchmark b ON b.id = s.benchmark_id
                    JOIN variant v ON v.id = s.variant_id ORDER BY s.id" \
    "vm-a-1,serialize,1,native,0,ns/op,3,3611.75
vm-a-1,serialize,1,chill,0,ns/op,3,4053.75
vm-a-1,serialize,2,chill,0,ns/op,3,4031.5
vm-a-1,serialize,2,native,0,ns/op,3,3608.25
vm-a-1,roundtrip,1,native,0,ops/s,2,102221.5
vm-a-1,roundtrip,1,chill,0,ops/s,2,95851.25
vm-a-2,roundtrip,1,native,0,ops/s,2,102102.0
vm-a-2,roundtrip,1,chill,0,ops/s,2,96002.5"
expect_rows samples "SELECT warmup, iteration, value FROM sample WHERE series_id = 1 ORDER BY warmup, iteration" \
    "0,1,1210.5
0,2,1198.25
0,3,1203.0
1,1,1650.0
1,2,1420.5"
expect_rows gates "SELECT run_id, name, passed, at, detail FROM gate ORDER BY id" \
    '1,load,1,2026-10-21T03:58:10Z,"{""limit"":0.5,""load1"":0.08}"
2,load,1,,'
expect_rows events "SELECT run_id, name, value, at, detail FROM event ORDER BY id" \
    "1,host-maintenance,TERMINATE,2026-10-21T03:57:30Z,
1,maintenance,NONE,,"
# The views read series.n and total.
expect_rows block_score "SELECT block, score FROM block_score WHERE run_id = 1 AND benchmark_id = 1 AND variant_id = 1 ORDER BY block" \
    "1,1203.9166666666667
2,1202.75"

# Again: skipped by hash, unread; the store does not change.
before=$(snapshot)
out=$(cd "$T" && bd ingest example.jsonl 2>"$T/err")
[ "$(cat "$T/err")" = "example.jsonl: skipped: already stored as archive 1 \"example.jsonl\" (sha256 ${sha%"${sha#????????????}"}...)" ] ||
    fail "skip notice: $(cat "$T/err")"
case "$out" in "ingest: 0 archives loaded, 1 skipped, 0 failed; 0 runs, 0 values; "*) ;; *) fail "summary: $out" ;; esac
[ "$(snapshot)" = "$before" ] || fail "re-ingest changed the store"
# --quiet: nothing on stdout or stderr for a skip.
[ -z "$(cd "$T" && bd ingest --quiet example.jsonl 2>&1)" ] || fail "--quiet printed something"

# Unknown keys: one warning per key and record kind per archive; the archive loads.
sed -e 's/"plan":"calibration-example","run":"vm-a-\([12]\)"/"plan":"other","run":"x\1","color":"red"/' \
    -e 's/"record":"samples",/"record":"samples","rig":1,/' "$DATA/good/example.jsonl" >"$T/unknown.jsonl"
(cd "$T" && bd ingest unknown.jsonl) >/dev/null 2>"$T/err" || fail "unknown keys refused: $(cat "$T/err")"
[ "$(cat "$T/err")" = "warning: unknown.jsonl:1: run.color: unknown key (kept in the stored archive bytes)
warning: unknown.jsonl:4: samples.rig: unknown key (kept in the stored archive bytes)" ] || fail "warnings: $(cat "$T/err")"
bd check >/dev/null || fail "check after ingest"
# The example in docs/archive-format.md is this test's archive.
sed -n '/^```jsonl$/,/^```$/p' "$BENCHDB_SRC/docs/archive-format.md" | sed '1d;$d' >"$T/doc.jsonl"
cmp -s "$T/doc.jsonl" "$DATA/good/example.jsonl" || fail "docs/archive-format.md's example differs from $DATA/good/example.jsonl"
echo ok
