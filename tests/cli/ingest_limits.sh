# A line longer than --max-line-bytes and data beyond --max-bytes are
# refused with a clear error, the store unchanged; the limits count the
# data after decompression.
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
echo ok
