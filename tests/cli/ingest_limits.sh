# A line longer than --max-line-bytes, data beyond --max-bytes and
# decompression beyond --max-ratio bytes per byte read (past the first
# 64 MiB) are refused with a clear error, the store unchanged; the limits
# count the data after decompression.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
bd init >/dev/null
ex="$DATA/good/example.jsonl"
before=$(snapshot)
refused() { # EXPECTED-ERROR NAME ARGS...
    msg=$1 name=$2
    shift 2
    rc=0
    (cd "$T" && bd ingest "$@" "$name") >/dev/null 2>"$T/err" || rc=$?
    [ "$rc" = 1 ] || fail "$name: exit $rc"
    [ "$(cat "$T/err")" = "$msg
note: $name: archive not stored (nothing from it was written)" ] || fail "$name: $(cat "$T/err")"
    [ "$(snapshot)" = "$before" ] || fail "$name: the store changed"
}
cp "$ex" "$T/ex.jsonl"
# Line 1 of the example is 501 bytes long.
[ "$(head -n 1 "$ex" | wc -c)" = 502 ] || fail "test setup: line 1 length"
refused "error: ex.jsonl:1: line longer than 500 bytes (the limit; raise it with --max-line-bytes)" ex.jsonl --max-line-bytes 500
# A line of 3 MiB without a newline, refused at a 1 MiB limit (never held whole).
{ head -n 1 "$ex"; printf '{"record":"event","name":"'; head -c 3145728 /dev/zero | tr '\0' x; } | zstd -q -c >"$T/long.jsonl.zst"
refused "error: long.jsonl.zst:2: line longer than 1048576 bytes (the limit; raise it with --max-line-bytes)" long.jsonl.zst --max-line-bytes 1M
size=$(wc -c <"$ex")
refused "error: ex.jsonl: more than 1024 bytes of data (the limit; raise it with --max-bytes)" ex.jsonl --max-bytes 1K
zstd -q -c "$ex" >"$T/ex.jsonl.zst"
refused "error: ex.jsonl.zst: more than 1024 bytes of data after decompression (the limit; raise it with --max-bytes)" ex.jsonl.zst --max-bytes 1k
# Exactly at the limits: accepted.
(cd "$T" && bd ingest --quiet --max-line-bytes 501 --max-bytes "$size" ex.jsonl) || fail "at the limits"

# --max-ratio (docs/reliability.md: 131 KB of zstd gave 4 GiB of blank lines, read
# for a minute): zstd frames made by hand, a run then MiB of newlines in
# run-length blocks of 128 KiB (4 bytes each).
rle() { # NAME PLAN MIB
    python3 - "$T/$1" "$2" "$3" <<'PY'
import struct, sys
run = ('{"record":"run","format":"benchdb-run/1","plan":"%s","run":"r","host":"h"}\n' % sys.argv[2]).encode()
def block(last, kind, n):
    return struct.pack("<I", last | kind << 1 | n << 3)[:3]
k = int(sys.argv[3]) * 8
data = (struct.pack("<I", 0xFD2FB528) + bytes([0, 7 << 3]) + block(0, 0, len(run)) + run +
        (block(0, 1, 128 << 10) + b"\n") * (k - 1) + block(1, 1, 128 << 10) + b"\n")
open(sys.argv[1], "wb").write(data)
PY
}
# 96 MiB from 3 KB: past the first 64 MiB at more than 1000 times.
rle r96.jsonl.zst r96 96
before=$(snapshot)
refused "error: r96.jsonl.zst: decompresses to more than 1000 times the bytes read (67239936 bytes from 3157: the limit past the first 64 MiB; raise it with --max-ratio)" r96.jsonl.zst
refused "error: r96.jsonl.zst: decompresses to more than 10 times the bytes read (67239936 bytes from 3157: the limit past the first 64 MiB; raise it with --max-ratio)" r96.jsonl.zst --max-ratio 10
# Raised, it loads (a run without values: blank lines hold none).
(cd "$T" && bd ingest --quiet --max-ratio 1M r96.jsonl.zst) || fail "--max-ratio 1M"
# 60 MiB from 2 KB, 30,000 times: within the first 64 MiB, loaded.
rle r60.jsonl.zst r60 60
(cd "$T" && bd ingest --quiet r60.jsonl.zst) || fail "60 MiB at the default --max-ratio"
expect_rows "--max-ratio: the runs loaded" "SELECT p.name FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name LIKE 'r%' ORDER BY r.id" "r96
r60"
echo ok
