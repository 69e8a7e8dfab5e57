# Containers: a tar holding a run stream, two JMH files and a stray file
# loads with every member's path, SHA-256 and size recorded and each
# series pointing at the member its values came from; the same as .zip,
# .tgz and .tar.xz; a zip whose results path names a missing member is
# refused naming the member, the store unchanged; inline data and files
# beside a bare stream; a second ingest skips the container by its hash.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
mk() { # DIR RUN: a run stream and two JMH files (one with a secondary metric) and a stray file
    mkdir -p "$1/jmh"
    cat >"$1/run.jsonl" <<J
{"record":"run","format":"benchdb-run/1","plan":"c","run":"$2","host":"h","treatment":"new","baseline":"old"}
{"record":"results","format":"jmh","block":1,"variant":"new","path":"jmh/a.json"}
{"record":"results","format":"jmh","block":1,"variant":"old","path":"./jmh/../jmh/b.json"}
{"record":"samples","benchmark":"x.Y.z","block":1,"variant":"new","metric":"rss","unit":"bytes","values":[0,1024]}
J
    cat >"$1/jmh/a.json" <<'J'
[{"benchmark":"x.Y.z","mode":"avgt","params":{"n":"1"},"primaryMetric":{"score":2.0,"scoreError":"NaN","scoreUnit":"ns/op","rawData":[[1.5,2.5],[],[2.0]]},
  "secondaryMetrics":{"gc.alloc.rate.norm":{"score":16.0,"scoreUnit":"B/op","rawData":[[16.0,16.0],[],[16.0]]},"z·p0.50":{"score":2.0,"scoreUnit":"ns/op","rawData":[]}}}]
J
    cat >"$1/jmh/b.json" <<'J'
[{"benchmark":"x.Y.z","mode":"avgt","params":{"n":"1"},"primaryMetric":{"score":4.0,"scoreUnit":"ns/op","rawData":[[4.0,4.0]]}}]
J
    echo "not a result" >"$1/notes.txt"
}
mk "$T/t" tar
(cd "$T/t" && tar -cf "$T/runs.tar" run.jsonl jmh/a.json jmh/b.json notes.txt)
out=$(bd ingest "$T/runs.tar" 2>"$T/err") || fail "tar: $(cat "$T/err")"
[ ! -s "$T/err" ] || fail "tar: stderr: $(cat "$T/err")"
expect_rows tar-archive "SELECT format, content_encoding, size = $(wc -c <"$T/runs.tar") FROM archive" "tar,zstd,1"
want=$(cd "$T/t" && for p in jmh/a.json jmh/b.json notes.txt run.jsonl; do
    printf '%s,%s,%s\n' "$p" "$(sha256sum "$p" | cut -d' ' -f1)" "$(wc -c <"$p")"; done)
expect_rows members "SELECT path, sha256, size FROM archive_member ORDER BY path" "$want"
expect_rows series "SELECT v.name, s.fork, s.metric, s.unit, s.n, s.total, m.path, json_extract(s.detail, '\$.mode')
                    FROM series s JOIN variant v ON v.id = s.variant_id LEFT JOIN archive_member m ON m.id = s.member_id
                    ORDER BY s.id" \
"new,0,primary,ns/op,2,4.0,jmh/a.json,avgt
new,2,primary,ns/op,1,2.0,jmh/a.json,avgt
new,0,gc.alloc.rate.norm,B/op,2,32.0,jmh/a.json,avgt
new,2,gc.alloc.rate.norm,B/op,1,16.0,jmh/a.json,avgt
old,0,primary,ns/op,2,8.0,jmh/b.json,avgt
new,0,rss,bytes,2,1024.0,,"
expect_rows detail "SELECT detail FROM series WHERE id = 1" '"{""mode"":""avgt"",""score"":2.0,""scoreError"":""NaN""}"'
expect_rows units "SELECT name, kind, direction FROM unit WHERE name IN ('B/op', 'bytes', 'ns/op') ORDER BY name" \
"B/op,other,lower
bytes,other,lower
ns/op,time,lower"
# the primary metric only: (1.5 + 2.5 + 2.0) / 3 over (4 + 4) / 2
expect_rows ratio "SELECT block, ratio FROM block_ratio" "1,0.5"
out=$(bd ingest "$T/runs.tar" 2>&1)
case "$out" in *"runs.tar: skipped: already stored as archive 1"*) ;; *) fail "second ingest: $out" ;; esac

# The same as zip, tgz and tar.xz (each its own run), found in a directory.
mkdir "$T/more"
for k in zip tgz txz; do
    mk "$T/$k" "$k"
    case $k in
    zip) (cd "$T/$k" && python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for p in sys.argv[2:]: z.write(p)' "$T/more/r.zip" run.jsonl jmh/a.json jmh/b.json notes.txt) ;;
    tgz) (cd "$T/$k" && tar -czf "$T/more/r.tgz" run.jsonl jmh notes.txt) ;;
    txz) (cd "$T/$k" && tar -cJf "$T/more/r.tar.xz" run.jsonl jmh notes.txt) ;;
    esac
done
bd ingest -q "$T/more" || fail "zip, tgz, tar.xz"
expect_rows formats "SELECT a.format, count(DISTINCT m.id), count(DISTINCT s.id) FROM archive a
                     JOIN archive_member m ON m.archive_id = a.id JOIN run r ON r.archive_id = a.id
                     JOIN series s ON s.run_id = r.id GROUP BY a.id ORDER BY a.id" \
"tar,4,6
tar+xz,4,6
tar+gzip,4,6
zip,4,6"

# A zstd-compressed run stream in a subdirectory; paths relative to it.
mk "$T/zs/run" zs
(cd "$T/zs/run" && zstd -q --rm run.jsonl)
(cd "$T/zs" && tar -cf "$T/zs.tar" run)
bd ingest -q "$T/zs.tar" || fail "zstd stream member"
expect_rows zstd-stream "SELECT m.path, count(*) FROM series s JOIN run r ON r.id = s.run_id
                         JOIN archive_member m ON m.id = s.member_id WHERE r.name = 'zs' GROUP BY m.path ORDER BY m.path" \
"run/jmh/a.json,4
run/jmh/b.json,1"

# A zip whose results record names a member it does not hold.
mkdir -p "$T/z/jmh"
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"c","run":"z","host":"h"}' \
    '{"record":"results","format":"jmh","block":1,"variant":"v","path":"jmh/missing.json"}' >"$T/z/run.jsonl"
echo '[]' >"$T/z/jmh/present.json"
(cd "$T/z" && python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for p in sys.argv[2:]: z.write(p)' "$T/missing.zip" run.jsonl jmh/present.json)
before=$(snapshot)
(cd "$T" && bd ingest missing.zip) >"$T/out" 2>"$T/err" && fail "missing member: loaded"
[ "$(cat "$T/err")" = 'error: missing.zip[run.jsonl]:2: results.path: no member "jmh/missing.json" in this container
note: missing.zip: archive not stored (nothing from it was written)' ] || fail "missing member: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "missing member: store changed"

# Inline data, and a file beside a bare stream (recorded as written).
mkdir "$T/b"
cp "$T/t/jmh/b.json" "$T/b/b.json"
cat >"$T/b/inline.jsonl" <<'J'
{"record":"run","format":"benchdb-run/1","plan":"c","run":"inline","host":"h"}
{"record":"results","format":"google-benchmark","block":1,"variant":"v","data":{"context":{"num_cpus":4,"caches":[{"level":1}]},"benchmarks":[{"name":"BM_a","iterations":10,"real_time":5,"cpu_time":4,"time_unit":"us","items_per_second":2e5}]}}
{"record":"results","format":"go-bench","block":2,"variant":"v","data":"goos: linux\nBenchmarkA-4 \t 100\t 7 ns/op\t 0 B/op\n"}
{"record":"results","format":"jmh","block":3,"variant":"v","path":"b.json"}
{"record":"results","format":"go-bench","block":5,"variant":"v","data":"pkg: a\nBenchmarkA 10 1 ns/op\npkg: b\nBenchmarkA 10 2 ns/op\nBenchmarkA 20 3 ns/op\nPASS\n"}
{"record":"results","format":"jmh","block":4,"variant":"v","data":[{"benchmark":"h.S.m","mode":"sample","primaryMetric":{"score":2.1666666666666665,"scoreUnit":"us/op","rawDataHistogram":[[[[1.0,3],[2.0,1]],[[4.0,2]]],[[]]]}}]}
J
bd ingest -q "$T/b/inline.jsonl" || fail "inline"
expect_rows inline "SELECT b.name, b.params, s.block, s.metric, s.unit, s.total, m.path FROM series s
                    JOIN benchmark b ON b.id = s.benchmark_id JOIN run r ON r.id = s.run_id
                    LEFT JOIN archive_member m ON m.id = s.member_id WHERE r.name = 'inline' AND s.block < 4 ORDER BY s.id" \
'BM_a,{},1,primary,us,5.0,
BM_a,{},1,cpu_time,us,4.0,
BM_a,{},1,items_per_second,items/s,200000.0,
BenchmarkA,"{""procs"":4}",2,primary,ns/op,7.0,
BenchmarkA,"{""procs"":4}",2,B/op,B/op,0.0,
x.Y.z,"{""n"":""1""}",3,primary,ns/op,8.0,b.json'
expect_rows go-pkg "SELECT b.params, s.n, s.total, s.detail FROM series s JOIN benchmark b ON b.id = s.benchmark_id
                    WHERE s.block = 5 ORDER BY s.id" \
'"{""pkg"":""a""}",1,1.0,"{""iterations"":[10]}"
"{""pkg"":""b""}",2,5.0,"{""iterations"":[10,20]}"'
# sample mode: bins stored once with their counts; n and total count them
expect_rows histogram "SELECT s.fork, s.n, s.total, (SELECT group_concat(value || 'x' || count, ' ') FROM sample
                       WHERE series_id = s.id) AS bins, bs.score FROM series s JOIN block_score bs ON bs.run_id = s.run_id
                       AND bs.block = s.block WHERE s.block = 4" "0,6,13.0,1.0x3 2.0x1 4.0x2,2.1666666666666665"
expect_rows attributes "SELECT attributes FROM run WHERE name = 'inline'" \
    '"{""caches"":""[{\""level\"":1}]"",""goos"":""linux"",""num_cpus"":4}"'
bd check >/dev/null || fail "check"

# Errors inside a container name the container, the member and the line;
# limits against bombs; none of them changes the store.
before=$(snapshot)
mkdir -p "$T/e/run/jmh"
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"c","run":"e","host":"h"}' \
    '{"record":"results","format":"jmh","block":1,"variant":"v","path":"jmh/nan.json"}' >"$T/e/run/vm-a.jsonl"
echo '[{"benchmark":"a","mode":"avgt","primaryMetric":{"scoreUnit":"ns/op","rawData":[[1.0,"NaN"]]}}]' >"$T/e/run/jmh/nan.json"
(cd "$T/e" && tar -cf - run | zstd -q -o "$T/nan.tar.zst")
(cd "$T" && bd ingest nan.tar.zst) >/dev/null 2>"$T/err" && fail "NaN raw value: loaded"
[ "$(head -n 1 "$T/err")" = 'error: nan.tar.zst[run/vm-a.jsonl]:2: results[jmh/nan.json]: [0].primaryMetric.rawData[0][1]: expected a finite number, got "NaN"' ] ||
    fail "NaN raw value: $(cat "$T/err")"
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"c","run":"e","host":"h"}' '' \
    '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns/op","values":[1,-1]}' >"$T/e/run/vm-a.jsonl"
(cd "$T/e" && tar -cf - run | zstd -q -o "$T/neg.tar.zst")
(cd "$T" && bd ingest neg.tar.zst) >/dev/null 2>"$T/err" && fail "negative value: loaded"
[ "$(head -n 1 "$T/err")" = 'error: neg.tar.zst[run/vm-a.jsonl]:3: samples.values[1]: expected a finite number > 0, got -1' ] ||
    fail "negative value: $(cat "$T/err")"
echo extra >"$T/t/extra.txt"
(cd "$T/t" && tar -cf "$T/big.tar" run.jsonl jmh/a.json jmh/b.json notes.txt extra.txt)
(cd "$T" && bd ingest --max-members 3 big.tar) >/dev/null 2>"$T/err" && fail "--max-members: loaded"
[ "$(head -n 1 "$T/err")" = 'error: big.tar: more than 3 members (--max-members)' ] || fail "--max-members: $(cat "$T/err")"
lim=$(($(wc -c <"$T/t/run.jsonl") + 1)) # the tar's bytes count, headers too
(cd "$T" && bd ingest --max-bytes $lim big.tar) >/dev/null 2>"$T/err" && fail "--max-bytes: loaded"
[ "$(head -n 1 "$T/err")" = "error: big.tar: more than $lim bytes of data (the limit; raise it with --max-bytes)" ] ||
    fail "--max-bytes: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "a refused container changed the store"

# A sparse member (GNU tar's old format and pax's 1.0) reads with its holes
# as zeros, a trailing one included: its SHA-256 and size are the file's.
# (The members' bytes are taken as libarchive holds them, without a copy;
# the holes are filled there, as archive_read_data fills them.)
mkdir -p "$T/sp"
printf 'head\n' >"$T/sp/blob" && truncate -s 1M "$T/sp/blob" && printf 'middle\n' >>"$T/sp/blob" &&
    truncate -s 3M "$T/sp/blob"
for f in gnu posix; do
    printf '%s\n' "{\"record\":\"run\",\"format\":\"benchdb-run/1\",\"plan\":\"sparse\",\"run\":\"$f\",\"host\":\"h\"}" \
        '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1,2]}' >"$T/sp/run.jsonl"
    (cd "$T/sp" && tar --sparse --format=$f -cf "$T/sparse-$f.tar" run.jsonl blob)
    [ "$(wc -c <"$T/sparse-$f.tar")" -lt 100000 ] || fail "sparse $f: the tar holds the holes (no sparse member to test)"
    (cd "$T" && bd ingest -q "sparse-$f.tar") 2>"$T/err" || fail "sparse $f: $(cat "$T/err")"
    expect_rows "sparse-$f" "SELECT m.path, m.sha256, m.size FROM archive_member m JOIN archive a ON a.id = m.archive_id
                              WHERE a.name = 'sparse-$f.tar' AND m.path = 'blob'" \
        "blob,$(sha256sum "$T/sp/blob" | cut -d' ' -f1),3145728"
done
