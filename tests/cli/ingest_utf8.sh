# UTF-8 (docs/reliability.md): text the store keeps is
# UTF-8 without NUL, as PostgreSQL requires; SQLite stored whatever came.
# A go-bench name with byte 0xFF was stored raw (JSON output then carried
# the raw byte, check said ok); invalid UTF-8 in --plan, --run, --attr,
# --variant, --source (and --host), in a go-bench pkg: line or unit gave
# "out of memory". Now each is refused naming the option, or the file,
# line and field, and nothing is stored. Here: the options, file names (a
# run stream's, a harness file's), a tar member's path; the go-bench
# lines are refused/harness/go-bench/*-not-utf8 and *-nul, JSON's own
# refusals (bytes, \u0000) refused/archive/utf8-* and
# refused/harness/*/name-*.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
cd "$T" || exit 1
bd init >/dev/null
printf 'BenchmarkX-8 100 5 ns/op\n' >g.txt
bd ingest -q --plan p --run r0 --host h g.txt
before=$(snapshot)

# 1. The options: a usage error naming the option and the byte (exit 2).
for opt in plan run host source variant attr; do
    set -- --plan p --run r --host h
    case $opt in
    plan) set -- --plan "$(printf 'p\377')" --run r --host h ;;
    run) set -- --plan p --run "$(printf 'r\377')" --host h ;;
    host) set -- --plan p --run r --host "$(printf 'h\377')" ;;
    source) set -- "$@" --source "$(printf '84\37745')" ;;
    variant) set -- "$@" --variant "$(printf '\300\257')" ;;
    attr) set -- "$@" --attr "$(printf 'cpu=Xeon\240')" ;;
    esac
    rc=0
    bd ingest "$@" g.txt >out 2>err || rc=$?
    [ "$rc" = 2 ] || fail "--$opt not UTF-8: exit status $rc, expected 2 ($(cat err))"
    grep -q "^error: ingest: --$opt '.*': is not valid UTF-8 (byte 0x[0-9A-F][0-9A-F] at byte [0-9]*) (see 'benchdb ingest --help')$" err ||
        fail "--$opt not UTF-8: $(cat err)"
    grep -q "out of memory" err && fail "--$opt: out of memory"
done
rc=0
bd ingest --plan "$(printf 'p\377')" --run r --host h g.txt 2>err || rc=$?
[ "$(cat err)" = "error: ingest: --plan 'p\\xff': is not valid UTF-8 (byte 0xFF at byte 2) (see 'benchdb ingest --help')" ] ||
    fail "--plan's message: $(cat err)"
rc=0
bd ingest --plan p --run r --host h --attr "$(printf 'k\303=v')" g.txt 2>err || rc=$?
[ "$(cat err)" = "error: ingest: --attr 'k\\xc3=v': is not valid UTF-8 (byte 0xC3 at byte 2) (see 'benchdb ingest --help')" ] ||
    fail "--attr key's message: $(cat err)"

# 2. A harness file whose name is not UTF-8 (the archive keeps the file
# under its name).
cp g.txt "$(printf 'g\377.txt')"
rc=0
bd ingest -q --plan p --run r --host h "$(printf 'g\377.txt')" 2>err || rc=$?
[ "$rc" = 1 ] || fail "harness file name: exit status $rc"
[ "$(cat err)" = 'error: g\xff.txt: its name is not valid UTF-8 (byte 0xFF at byte 2), which the archive keeps the file under: rename the file' ] ||
    fail "harness file name: $(cat err)"

# 3. A run stream whose name is not UTF-8 (the archive's name), also in a
# directory given.
printf '%s\n' '{"record":"run","format":"benchdb-run/1","plan":"p","run":"r1","host":"h"}' \
    '{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1]}' >"$(printf 'e\351.jsonl')"
rc=0
bd ingest -q "$(printf 'e\351.jsonl')" 2>err || rc=$?
[ "$rc" = 1 ] || fail "stream name: exit status $rc"
[ "$(cat err)" = 'error: e\xe9.jsonl: its name is not valid UTF-8 (byte 0xE9 at byte 2), which the store keeps as the archive'"'"'s name: rename the file
note: e\xe9.jsonl: archive not stored (nothing from it was written)' ] || fail "stream name: $(cat err)"
mkdir "$(printf 'd\377')"
mv "$(printf 'e\351.jsonl')" "$(printf 'd\377')/e.jsonl"
rc=0
bd ingest -q "$(printf 'd\377')" 2>err || rc=$?
[ "$rc" = 1 ] || fail "stream in a directory: exit status $rc"
grep -q '^error: d\\xff/e.jsonl: its name is not valid UTF-8 (byte 0xFF at byte 2)' err || fail "stream in a directory: $(cat err)"

# 4. A tar member whose path is not UTF-8, a log beside the run stream.
python3 - <<'PY'
import io, tarfile
run = (b'{"record":"run","format":"benchdb-run/1","plan":"p","run":"r2","host":"h"}\n'
       b'{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[1]}\n')
with tarfile.open("m.tar", "w", format=tarfile.GNU_FORMAT, encoding="utf-8", errors="surrogateescape") as t:
    for name, data in (("run.jsonl", run), (b"logs/caf\xe9.txt".decode("utf-8", "surrogateescape"), b"log\n")):
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        t.addfile(ti, io.BytesIO(data))
PY
rc=0
bd ingest -q m.tar 2>err || rc=$?
[ "$rc" = 1 ] || fail "member path: exit status $rc"
[ "$(cat err)" = "error: m.tar[logs/caf\\xe9.txt]: the member's path is not valid UTF-8 (byte 0xE9 at byte 9)
note: m.tar: archive not stored (nothing from it was written)" ] || fail "member path: $(cat err)"

[ "$(snapshot)" = "$before" ] || fail "the store changed"
bd check >/dev/null || fail "check"
echo ok
