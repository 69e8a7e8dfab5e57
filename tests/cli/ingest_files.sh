# Harness files given on the command line (docs/formats.md): one command loads a
# build's JMH, Google Benchmark, hyperfine, pyperf and Go files, formats
# detected, into one run as one archive holding their bytes; the same files
# into a second run load too; repeating either command skips; an edited
# file is not skipped (refused: the run is stored; --append or --replace);
# --append adds files to a stored run atomically; standard input; the
# run's start time and attributes from the files, overridden by the
# command line; delete --run, check, and the same files again give the same
# rows.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
H="$BENCHDB_SRC/tests/data/harness"
bd init >/dev/null
mkdir -p "$T/base" "$T/head"
cp "$H/jmh/sample_mode.json" "$T/base/jmh.json"
cp "$H/google-benchmark/repetitions_with_date.json" "$T/base/gbench.json"
cp "$H/hyperfine/hyperfine-py_parameter_scan.json" "$T/base/hyperfine.json"
cp "$H/pyperf/pyperf_mult_list_py36.json" "$T/base/pyperf.json"
cp "$H/go-bench/config_and_allocs.txt" "$T/base/go.txt"
cp "$T"/base/* "$T/head/"

load() { (cd "$T" && bd ingest "$@") >"$T/out" 2>"$T/err"; }
load --plan pr-42 --run base --host ci-1 --source 844fd45 --attr profile=ci base/jmh.json base/gbench.json \
    base/hyperfine.json base/pyperf.json base/go.txt || fail "five files: $(cat "$T/err")"
case "$(cat "$T/out")" in "ingest: 1 archive loaded, 0 skipped, 0 failed; 1 run, "*) ;; *) fail "summary: $(cat "$T/out")" ;; esac
[ ! -s "$T/err" ] || fail "five files: stderr: $(cat "$T/err")"
# The archive's row and its members' rows, each read once (two benchdb
# processes for the eight checks below, which take their columns).
bd sql "SELECT name, format, content_encoding, sha256 FROM archive" --format csv | tail -n +2 | tr -d '\r' >"$T/archive.csv"
bd sql "SELECT path, format, sha256, size FROM archive_member ORDER BY path" --format csv | tail -n +2 |
    tr -d '\r' >"$T/members.csv"
# expect_text LABEL GOT EXPECTED: as expect_rows, on rows already read.
expect_text() {
    [ "$2" = "$3" ] || fail "$1: expected
$3
got
$2"
}
expect_text archive "$(cut -d, -f1-3 "$T/archive.csv")" \
    "base/jmh.json base/gbench.json base/hyperfine.json base/pyperf.json base/go.txt,files,zstd"
expect_text members "$(cut -d, -f1,2 "$T/members.csv")" \
    "benchdb-run.jsonl,benchdb-run/1
files/gbench.json,google-benchmark
files/go.txt,go-bench
files/hyperfine.json,hyperfine
files/jmh.json,jmh
files/pyperf.json,pyperf"
# each member holds the file's bytes: its SHA-256 and size
for f in jmh.json gbench.json hyperfine.json pyperf.json go.txt; do
    expect_text "member $f" "$(grep "^files/$f," "$T/members.csv" | cut -d, -f3,4)" \
        "$(sha256sum "$T/base/$f" | cut -d' ' -f1),$(wc -c <"$T/base/$f")"
done
# The archive's id is the SHA-256 of a tar made the same way every time
# (docs/archive-format.md), so the same files give the same id in every
# version of benchdb, or a store would load them again as a new archive:
# pinned here as benchdb made it before it read the files straight into
# the tar. The exported bytes are that tar (.tar: docs/copy.md), their
# SHA-256 the id, the members in order; loaded into an empty store it
# gives the run back without the options.
id=f268ad1df5099fe1ad92787a3aecff5fe70de619fc622c81a988a3243c826a03
expect_text archive-id "$(cut -d, -f4 "$T/archive.csv")" "$id"
bd export -q "$T/exported" || fail "export"
[ "$(sha256sum "$T/exported/$id.tar" | cut -d' ' -f1)" = "$id" ] || fail "exported: $(ls "$T/exported")"
[ "$(tar -tf "$T/exported/$id.tar" | tr '\n' ' ')" = \
    "files/gbench.json files/go.txt files/hyperfine.json files/jmh.json files/pyperf.json benchdb-run.jsonl " ] ||
    fail "the tar's members: $(tar -tf "$T/exported/$id.tar")"
bd --db "$T/again.db" init >/dev/null
bd --db "$T/again.db" ingest -q "$T/exported" || fail "the exported tar ingested again"
[ "$(bd --db "$T/again.db" sql -f csv "SELECT p.name, r.name, h.name, r.source FROM run r JOIN plan p ON p.id = r.plan_id
        JOIN host h ON h.id = r.host_id" | tail -n +2 | tr -d '\r')" = "pr-42,base,ci-1,844fd45" ] ||
    fail "the exported tar's run: $(bd --db "$T/again.db" list runs)"
checks=$((checks + 4))
# every series names the member it came from, each format in one run
expect_rows series "SELECT m.format, count(*) FROM series s JOIN archive_member m ON m.id = s.member_id
                    GROUP BY m.format ORDER BY m.format" \
    "go-bench,9
google-benchmark,6
hyperfine,4
jmh,4
pyperf,60"
# The run: the command line's source and attributes, the files' facts
# (keys it does not have), the start time from Google Benchmark's date.
expect_rows run "SELECT p.name, r.name, h.name, r.source, r.started_at, r.attributes ->> '$.profile',
                 r.attributes ->> '$.host_name', r.attributes ->> '$.goos', r.attributes ->> '$.hostname'
                 FROM run r JOIN plan p ON p.id = r.plan_id JOIN host h ON h.id = r.host_id" \
    "pr-42,base,ci-1,844fd45,2024-03-05T10:11:12+01:00,ci,ci-runner-7,linux,apu"
bd check >/dev/null || fail "check"
rows() {
    bd sql "SELECT b.name, b.params, s.block, v.name, s.fork, s.metric, s.unit, s.n, s.total, s.detail, m.path, m.sha256,
                   (SELECT group_concat(value || 'x' || count || 'w' || warmup, ' ') FROM sample WHERE series_id = s.id)
            FROM series s JOIN run r ON r.id = s.run_id JOIN plan p ON p.id = r.plan_id
            JOIN benchmark b ON b.id = s.benchmark_id JOIN variant v ON v.id = s.variant_id
            LEFT JOIN archive_member m ON m.id = s.member_id
            WHERE p.name = 'pr-42' AND r.name = '$1' ORDER BY 1, 2, 3, 4, 5, 6" --format csv
    bd sql "SELECT r.source, r.started_at, r.attributes, (SELECT group_concat(name || '=' || coalesce(value, ''), ' ')
            FROM event WHERE run_id = r.id) FROM run r WHERE r.name = '$1'" --format csv
}
rows base >"$T/base.rows"

# Repeated: skipped, in any order of the same files and from another directory.
load --plan pr-42 --run base --host ci-1 --source 844fd45 --attr profile=ci base/go.txt base/pyperf.json \
    base/hyperfine.json base/gbench.json base/jmh.json || fail "repeat: $(cat "$T/err")"
grep -q "skipped: already stored as archive 1" "$T/err" || fail "repeat not skipped: $(cat "$T/err")"
(cd "$T/base" && bd ingest -q --plan pr-42 --run base --host ci-1 --source 844fd45 --attr profile=ci \
    jmh.json gbench.json hyperfine.json pyperf.json go.txt) || fail "repeat from the directory"
expect_rows one-archive "SELECT count(*) FROM archive" "1"

# The same files into another run load; the directory gives them all.
load --plan pr-42 --run head --host ci-1 --source 844fd45 --attr profile=ci head || fail "second run: $(cat "$T/err")"
expect_rows two-runs "SELECT count(*), count(DISTINCT sha256) FROM archive" "2,2"
# the same bytes under the same names: the same rows
[ "$(rows head)" = "$(cat "$T/base.rows")" ] || fail "second run: rows differ from the first's"
load --plan pr-42 --run head --host ci-1 --source 844fd45 --attr profile=ci head || fail "second run again"
grep -q "skipped: already stored as archive 2" "$T/err" || fail "second run again not skipped: $(cat "$T/err")"

# An edited file: not skipped; the run is stored, so refused, the hint
# being --append (which deletes nothing); --replace replaces it.
sed -i 's/"real_time": 3.5,/"real_time": 3.75,/' "$T/head/gbench.json"
before=$(snapshot)
rc=0
load --plan pr-42 --run head --host ci-1 --source 844fd45 --attr profile=ci head || rc=$?
[ "$rc" = 1 ] || fail "edited file: exit $rc"
[ "$(cat "$T/err")" = 'error: head: run.run: run "head" of plan "pr-42" is already stored (archive 2 "head"); to add these files to it, pass --append
note: head: archive not stored (nothing from it was written)' ] || fail "edited file: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "edited file: the store changed"
load --replace --plan pr-42 --run head --host ci-1 --source 844fd45 --attr profile=ci head || fail "replace: $(cat "$T/err")"
[ "$(cat "$T/err")" = 'head: replaced run "head" of plan "pr-42" stored from archive "head"' ] || fail "replace notice: $(cat "$T/err")"
expect_rows replaced "SELECT s.total FROM series s JOIN run r ON r.id = s.run_id JOIN benchmark b ON b.id = s.benchmark_id
                      WHERE r.name = 'head' AND b.name = 'BM_Decode/64' AND s.metric = 'primary'" "3.75"
expect_rows archives-after-replace "SELECT id FROM archive ORDER BY id" "1
3"

# --append: a further file into the stored run, atomically; what is there
# already is refused, naming the archive that stored it.
printf 'BenchmarkExtra-8 100 42 ns/op\n' >"$T/extra.txt"
load --append --plan pr-42 --run base --host ci-1 extra.txt || fail "append: $(cat "$T/err")"
expect_rows appended "SELECT s.archive_id, r.archive_id, b.name FROM series s JOIN run r ON r.id = s.run_id
                      JOIN benchmark b ON b.id = s.benchmark_id WHERE s.archive_id IS NOT NULL" "4,1,BenchmarkExtra"
before=$(snapshot)
rc=0
load --append --plan pr-42 --run base --host ci-1 base/jmh.json || rc=$?
[ "$rc" = 1 ] || fail "append twice: exit $rc"
[ "$(head -n 1 "$T/err")" = 'error: base/jmh.json: [0].primaryMetric.rawDataHistogram[0]: benchmark "com.example.Codec.roundtrip" params {"size":"64"} block 1 variant "default" fork 0 is already stored in this run by archive 1 "base/jmh.json base/gbench.json base/hyperfine.json base/pyperf.json base/go.txt"' ] ||
    fail "append twice: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "refused append changed the store"

# Standard input: go test -bench . | benchdb ingest --format go-bench ... -
cat "$H/go-bench/github-action-benchmark_go_output.txt" | bd ingest -q --plan pr-42 --run stdin --host ci-1 \
    --format go-bench --started-at 2026-01-02T03:04:05Z - || fail "stdin"
expect_rows stdin "SELECT r.started_at, count(s.id), m.path FROM run r JOIN series s ON s.run_id = r.id
                   JOIN archive_member m ON m.id = s.member_id WHERE r.name = 'stdin' GROUP BY r.id" \
    "2026-01-02T03:04:05Z,10,files/stdin"
# --started-at wins over the file's date
bd ingest -q --plan other --run r --host h --started-at 2020-01-01T00:00:00Z "$T/base/gbench.json" || fail "started-at"
expect_rows started-at "SELECT started_at FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = 'other'" \
    "2020-01-01T00:00:00Z"

# delete --run: gone with what was appended, check clean, the same files
# again give the same rows.
# the counts: by the mapping rules (count_values.py), plus the appended
# file's one value; 6 + 2 members (each archive's files and run stream)
# (the five files' lines from one Python process).
nr=1 ns=1 ne=0
python3 "$LIB/count_values.py" jmh "$T/base/jmh.json" google-benchmark "$T/base/gbench.json" \
    hyperfine "$T/base/hyperfine.json" pyperf "$T/base/pyperf.json" go-bench "$T/base/go.txt" >"$T/counts" ||
    fail "count_values.py failed"
[ "$(wc -l <"$T/counts")" = 5 ] || fail "count_values.py: $(cat "$T/counts")"
while read -r r _ s e; do
    nr=$((nr + r)) ns=$((ns + s)) ne=$((ne + e))
done <"$T/counts"
bd delete --run pr-42/base >"$T/out" || fail "delete"
[ "$(cat "$T/out")" = "delete: removed 2 archives (8 members, 2 chunks of stored bytes), 1 run, $ns series, $nr sample rows, 0 gates, $ne events, 0 plans" ] ||
    fail "delete: $(cat "$T/out")"
bd check >/dev/null || fail "check after delete"
expect_rows gone "SELECT count(*) FROM run WHERE name = 'base'" "0"
load --plan pr-42 --run base --host ci-1 --source 844fd45 --attr profile=ci base/jmh.json base/gbench.json \
    base/hyperfine.json base/pyperf.json base/go.txt || fail "reload: $(cat "$T/err")"
rows base >"$T/again.rows"
cmp -s "$T/base.rows" "$T/again.rows" || fail "reloaded rows differ: $(diff "$T/base.rows" "$T/again.rows")"
bd check >/dev/null || fail "check after reload"
# --plan and --run without --host, from files that name no host: the
# error says that, not that the three options go together.
rc=0
load --plan pr-42 --run nohost base/jmh.json base/go.txt || rc=$?
[ "$rc" = 2 ] || fail "no --host, no host in the files: exit $rc, not 2"
[ "$(cat "$T/err")" = "error: ingest: --host H is missing, and no file given names its host (Google Benchmark's context.host_name; directories and '-' are not looked into) (see 'benchdb ingest --help')" ] ||
    fail "no --host, no host in the files: $(cat "$T/err")"
echo ok
