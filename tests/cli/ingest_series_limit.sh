# Series per archive (docs/reliability.md): the series of one archive had no
# limit (150,000 series with crafted block numbers took 23 s on
# PostgreSQL, whose keys went through an unseeded hash: unit/hashflood
# shows the keyed hash linear on such keys). Now an archive may hold at
# most --max-series series (default 100,000, as --max-members): beyond,
# it is refused naming the file, line and limit, and nothing is stored.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
cd "$T" || exit 1
bd init >/dev/null
bd ingest -q "$DATA/good/example.jsonl"
before=$(snapshot)
refused() { # EXPECTED-ERROR FILE ARGS...
    msg=$1 file=$2
    shift 2
    rc=0
    bd ingest -q "$@" >/dev/null 2>err || rc=$?
    [ "$rc" = 1 ] || fail "$file: exit $rc ($(cat err))"
    [ "$(cat err)" = "$msg
note: $file: archive not stored (nothing from it was written)" ] || fail "$file: $(cat err)"
    [ "$(snapshot)" = "$before" ] || fail "$file: the store changed"
}

# 1. The default: 100,001 series (one value each, a block each) refused
# at the series past 100,000, on its line.
python3 - <<'PY'
with open("many.jsonl", "w") as f:
    f.write('{"record":"run","format":"benchdb-run/1","plan":"many","run":"r","host":"h"}\n')
    for b in range(1, 100002):
        f.write('{"record":"samples","benchmark":"b","block":%d,"variant":"v","unit":"ns","values":[1]}\n' % b)
PY
refused "error: many.jsonl:100002: samples: more than 100000 series in one archive (the limit; raise it with --max-series)" \
    many.jsonl many.jsonl

# 2. --max-series N: a stream of three series; a harness file of three
# cells (named by the line of the cell past the limit).
head -n 4 many.jsonl >three.jsonl
refused "error: three.jsonl:4: samples: more than 2 series in one archive (the limit; raise it with --max-series)" \
    three.jsonl --max-series 2 three.jsonl
printf 'BenchmarkA 10 5 ns/op\nBenchmarkB 10 5 ns/op\nBenchmarkC 10 5 ns/op\n' >g.txt
rc=0
bd ingest -q --max-series 2 --plan p --run r --host h g.txt 2>err || rc=$?
[ "$rc" = 1 ] || fail "harness file: exit $rc"
[ "$(cat err)" = "error: g.txt: line 3: more than 2 series in one archive (the limit; raise it with --max-series)
note: g.txt: archive not stored (nothing from it was written)" ] || fail "harness file: $(cat err)"
[ "$(snapshot)" = "$before" ] || fail "harness file: the store changed"

# 3. At the limit: stored; the limit counts each archive on its own.
bd ingest -q --max-series 3 three.jsonl || fail "three series under --max-series 3"
bd ingest -q --max-series 3 --plan p --run r --host h g.txt || fail "three cells under --max-series 3"
expect_rows "stored at the limit" "SELECT count(*) FROM series WHERE run_id IN (SELECT id FROM run WHERE name = 'r')" 6

# 4. A usage error for a limit that is not a count.
rc=0
bd ingest --max-series 0 three.jsonl 2>err || rc=$?
[ "$rc" = 2 ] || fail "--max-series 0: exit $rc"
echo ok
