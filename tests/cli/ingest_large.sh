# A large archive generated here (4 million values, about 37 MB of JSON)
# loads completely with peak memory (max RSS) under a fixed bound smaller
# than the archive itself: nothing holds the whole archive. Under the
# sanitizers the archive is smaller and memory is not checked.
# ctest: slow cost=9
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v python3 >/dev/null || { echo "FAIL: python3 is missing (scripts/install-deps installs it)" >&2; exit 1; }
values=4000000
bound_kib=32768
if [ "${BENCHDB_SANITIZED:-0}" = 1 ]; then
    values=200000
fi
bd init >/dev/null
set -- $(python3 "$LIB/gen_archive.py" "$T/big.jsonl" --values "$values")
made=$1 series=$2
bytes=$(wc -c <"$T/big.jsonl")
# ru_maxrss of the one child (benchdb), in KiB on Linux.
rss=$(python3 - "$BENCHDB_BIN" "$T/store.db" "$T/big.jsonl" <<'PY'
import resource, subprocess, sys
subprocess.run([sys.argv[1], "--db", sys.argv[2], "ingest", "--quiet", sys.argv[3]], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
) || fail "ingest of the large archive failed"
expect_rows counts "SELECT count(*), sum(n), (SELECT count(*) FROM sample), (SELECT count(*) FROM sample WHERE warmup = 1) FROM series" \
    "$series,$made,$((made + 2 * series)),$((2 * series))"
expect_rows stored "SELECT size, content_encoding, stored_size < size / 2 FROM archive" "$bytes,zstd,1"
echo "values $made, series $series, $bytes bytes, max RSS $rss KiB"
if [ "${BENCHDB_SANITIZED:-0}" != 1 ]; then
    [ "$bytes" -gt $((bound_kib * 1024)) ] || fail "test setup: the archive should be larger than the memory bound"
    [ "$rss" -lt "$bound_kib" ] || fail "max RSS $rss KiB is not below $bound_kib KiB"
fi
bd check >/dev/null || fail "check after the large ingest"
echo ok
