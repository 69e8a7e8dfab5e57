# Memory within the documented bound for any input within the default
# limits (docs/reliability.md): an archive of three lines
# of 66 MB of small integers (about 33 million values each, within every
# default limit) once took 4.7 GB; it is refused at its first such line,
# its parsed JSON needing more than the 128 MiB a line's tree may take,
# with a peak below 512 MiB. A line of 2 million 17-digit values (38 MB)
# loads, also below the bound. Generated here. Under the sanitizers
# (whose shadow memory counts in RSS) the outcomes are checked, not the
# peaks.
# ctest: slow
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bound_kib=$((512 * 1024))
bd init >/dev/null
python3 - "$T/ints.jsonl" "$T/reals.jsonl" <<'PY'
import random, sys
run = '{"record":"run","format":"benchdb-run/1","plan":"mem","run":"%s","host":"h"}\n'
ones = "1," * 32999999 + "1"  # 33 million ones (no list of them to join)
with open(sys.argv[1], "w") as f:
    f.write(run % "ints")
    for b in (1, 2, 3):
        f.write('{"record":"samples","benchmark":"b","block":%d,"variant":"v","unit":"ns","values":[%s]}\n' % (b, ones))
random.seed(7)
# one formatting of a tuple: the digits of "%.13f" of each, in less time
reals = ("%.13f," * 2000000)[:-1] % tuple([1000 + random.random() for _ in range(2000000)])
with open(sys.argv[2], "w") as f:
    f.write(run % "reals")
    f.write('{"record":"samples","benchmark":"b","block":1,"variant":"v","unit":"ns","values":[%s]}\n' % reals)
PY
[ "$(wc -c <"$T/ints.jsonl")" -gt 190000000 ] || fail "test setup: the archive of 66 MB lines"
peak() { # FILE: ingest it; prints the exit status and benchdb's peak RSS in KiB
    python3 - "$BENCHDB_BIN" "$T/store.db" "$1" "$T/err" <<'PY'
import resource, subprocess, sys
with open(sys.argv[4], "w") as err:
    rc = subprocess.run([sys.argv[1], "--db", sys.argv[2], "ingest", "-q", sys.argv[3]], stderr=err).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
before=$(snapshot)
set -- $(peak "$T/ints.jsonl")
[ "$1" = 1 ] || fail "66 MB lines of integers: exit $1"
[ "$(head -n 1 "$T/err")" = "error: $T/ints.jsonl:2: the parsed JSON needs more than 128 MiB of memory (the limit: about 2 million numbers in one record or file; split it)" ] ||
    fail "66 MB lines: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "66 MB lines: the store changed"
echo "66 MB lines: refused, peak RSS $2 KiB"
[ "${BENCHDB_SANITIZED:-0}" = 1 ] || [ "$2" -lt "$bound_kib" ] || fail "66 MB lines: peak RSS $2 KiB, not below $bound_kib"
set -- $(peak "$T/reals.jsonl")
[ "$1" = 0 ] || fail "2 million values: exit $1: $(cat "$T/err")"
expect_rows reals "SELECT n FROM series s JOIN run r ON r.id = s.run_id WHERE r.name = 'reals'" "2000000"
echo "2 million values: loaded, peak RSS $2 KiB"
[ "${BENCHDB_SANITIZED:-0}" = 1 ] || [ "$2" -lt "$bound_kib" ] || fail "2 million values: peak RSS $2 KiB, not below $bound_kib"
echo ok
