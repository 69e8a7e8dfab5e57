# Every harness file in tests/data/harness (public samples copied with their
# licences, and files written in the harnesses' shapes) loads with its
# format detected from its content, and through a results record of a run
# stream inside a .tar.zst, with the value, series and event counts that
# tests/cli/lib/count_values.py computes from the file by the mapping rules
# (independently of the C adapters); each member records what it was read
# as; a Google Benchmark file of aggregate rows only is refused; the JMH
# sample-mode file's block score is its primaryMetric.score.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v zstd >/dev/null || fail "the zstd command is missing (scripts/install-deps)"
S="$BENCHDB_SRC/tests/data/harness"
COUNT="python3 $LIB/count_values.py"
bd init >/dev/null

counts() { # RUN_CONDITION [,MORE]: rows weighted series events of the runs matched [and MORE's columns]
    bd sql "SELECT (SELECT count(*) FROM sample WHERE series_id IN (SELECT s.id FROM series s JOIN run r ON r.id = s.run_id WHERE $1)),
                   (SELECT coalesce(sum(s.n), 0) FROM series s JOIN run r ON r.id = s.run_id WHERE $1),
                   (SELECT count(*) FROM series s JOIN run r ON r.id = s.run_id WHERE $1),
                   (SELECT count(*) FROM event e JOIN run r ON r.id = e.run_id WHERE $1)${2:-}" --format csv | tail -n 1 | tr -d '\r' | tr ',' ' '
}

mkdir -p "$T/c/samples"
stream="$T/c/run.jsonl"
echo '{"record":"run","format":"benchdb-run/1","plan":"tar","run":"all","host":"h"}' >"$stream"
files=0 block=0 tr=0 tw=0 ts=0 te=0
formats="jmh google-benchmark hyperfine pyperf go-bench tinybench vitest benchmarkjs benchmarkdotnet bmf csv"
# What every file should store, a line each in the loop's order, from one
# Python process (count_values.py takes FORMAT FILE pairs).
for fmt in $formats; do
    for f in "$S/$fmt"/*; do set -- "$@" "$fmt" "$f"; done
done
$COUNT "$@" >"$T/wants" || fail "count_values.py failed"
set --
exec 3<"$T/wants"
for fmt in $formats; do
    for f in "$S/$fmt"/*; do
        name=${f##*/}
        read -r want <&3 || fail "$name: no count from count_values.py"
        if [ "${want%% *}" = 0 ]; then # aggregate rows only
            rc=0
            bd ingest -q --plan bare --run "$name" --host h "$f" 2>"$T/err" || rc=$?
            [ "$rc" = 1 ] || fail "$name: nothing to store, but exit status $rc"
            grep -q "only aggregate rows" "$T/err" || fail "$name: $(cat "$T/err")"
            continue
        fi
        files=$((files + 1))
        bd ingest -q --plan bare --run "$name" --host h "$f" || fail "$name: not loaded"
        # The counts and what the file was read as (each member of that
        # path, one a word: exactly one, $fmt), in one benchdb process.
        read -r rows weighted series events read_as <<EOF2
$(counts "r.name = '$name'" ",(SELECT group_concat(m.format, ' ') FROM archive_member m JOIN archive a ON a.id = m.archive_id
                                WHERE m.path = 'files/$name')")
EOF2
        got="$rows $weighted $series $events"
        [ "$got" = "$want" ] || fail "$name: rows weighted series events: expected $want, got $got"
        [ "$read_as" = "$fmt" ] || fail "$name: read as: expected
$fmt
got
$read_as"
        # the same file as a member of the container, one block each
        mkdir -p "$T/c/samples/$fmt"
        cp "$f" "$T/c/samples/$fmt/"
        block=$((block + 1))
        printf '{"record":"results","format":"%s","block":%d,"variant":"v","path":"samples/%s/%s"}\n' \
            "$fmt" "$block" "$fmt" "$name" >>"$stream"
        set -- $want
        tr=$((tr + $1)) tw=$((tw + $2)) ts=$((ts + $3)) te=$((te + $4))
    done
done
exec 3<&-
[ "$files" -ge 24 ] || fail "only $files harness files"
# pyperf's .json.gz, recognised by its magic bytes
gzip -c "$S/pyperf/pyperf_mult_list_py36.json" >"$T/mult.json.gz"
bd ingest -q --plan bare --run gz --host h "$T/mult.json.gz" || fail "pyperf .json.gz"
got=$(counts "r.name = 'gz'")
want=$($COUNT pyperf "$T/mult.json.gz")
[ "$got" = "$want" ] || fail "pyperf .json.gz: expected $want, got $got"
(cd "$T/c" && tar -cf - run.jsonl samples) | zstd -q -o "$T/all.tar.zst"
out=$(bd ingest "$T/all.tar.zst" 2>"$T/err") || fail "tar.zst: $(cat "$T/err")"
[ ! -s "$T/err" ] || fail "tar.zst: unexpected stderr: $(cat "$T/err")"
got=$(counts "r.name = 'all'")
[ "$got" = "$tr $tw $ts $te" ] || fail "tar.zst: rows weighted series events: expected $tr $tw $ts $te, got $got"
expect_rows container "SELECT format, content_encoding, sha256 = '$(sha256sum "$T/all.tar.zst" | cut -d' ' -f1)',
                              size = $(wc -c <"$T/all.tar.zst") FROM archive WHERE name LIKE '%all.tar.zst'" \
    "tar+zstd,identity,1,1"
# every file is a member, with its SHA-256 and size; every series names its member
(cd "$T/c" && find run.jsonl samples -type f | LC_ALL=C sort | while read -r p; do
    printf '%s,%s,%s\n' "$p" "$(sha256sum "$p" | cut -d' ' -f1)" "$(wc -c <"$p")"
done) >"$T/members.want"
bd sql "SELECT m.path, m.sha256, m.size FROM archive_member m JOIN archive a ON a.id = m.archive_id
        WHERE a.name LIKE '%all.tar.zst' ORDER BY m.path COLLATE BINARY" --format csv | tail -n +2 | tr -d '\r' >"$T/members.got"
cmp -s "$T/members.want" "$T/members.got" || fail "members: $(diff "$T/members.want" "$T/members.got")"
expect_rows provenance "SELECT count(*), count(member_id) FROM series s JOIN run r ON r.id = s.run_id WHERE r.name = 'all'" "$ts,$ts"

# JMH sample mode: block score = primaryMetric.score, the mean over every
# fork's bins weighted by their counts.
py=$(python3 -c 'import json,sys
for b in json.load(open(sys.argv[1])): print(b["benchmark"], repr(b["primaryMetric"]["score"]))' "$S/jmh/sample_mode.json")
echo "$py" | while read -r bench score; do
    expect_rows "score $bench" "SELECT count(*) FROM block_score bs JOIN benchmark b ON b.id = bs.benchmark_id
                                JOIN run r ON r.id = bs.run_id WHERE b.name = '$bench' AND r.name = 'sample_mode.json'
                                AND abs(bs.score - $score) <= 1e-12 * $score" "1"
done
bd check >/dev/null || fail "check after loading every sample"
# Secondary metrics keep their names, non-ASCII included.
expect_rows metric-names "SELECT count(DISTINCT s.metric) FROM series s JOIN run r ON r.id = s.run_id
                          WHERE r.name = 'sample_mode.json' AND s.metric IN ('gc.alloc.rate.norm')" "1"
# Google Benchmark writes a counter that is not finite (hit_rate, 0/0) as
# the bare word NaN, which JSON has not: the file loads, that counter has
# no value, and the primary series' detail counts the rows that wrote it.
expect_rows nan-counter "SELECT s.detail FROM series s JOIN run r ON r.id = s.run_id
                         WHERE r.name = 'nan_counter.json' AND s.metric = 'primary'" \
    '"{""metric"":""real_time"",""not_finite"":{""hit_rate"":3}}"'
expect_rows nan-counter-metrics "SELECT group_concat(s.metric, ' ') FROM (SELECT s.metric FROM series s
                                 JOIN run r ON r.id = s.run_id WHERE r.name = 'nan_counter.json' ORDER BY s.id) s" \
    "primary cpu_time misses"
echo ok
