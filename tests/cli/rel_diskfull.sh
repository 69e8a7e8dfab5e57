# Full disk (docs/reliability.md): a store on a 1 MiB tmpfs, mounted here
# (root only; skipped otherwise). An archive too big for the space left is
# refused with "the disk is full", the store intact (integrity_check ok,
# the same rows) and usable at once: a small archive loads after it, and
# with the disk filled to the last byte, reading still works, loading fails
# the same way, and loads again once space is freed.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
. "$BENCHDB_SRC/tests/cli/lib/tmpfs.sh"
skip_without_tmpfs m 1M
bd() { "$BENCHDB_BIN" --db "$T/m/store.db" "$@"; }
bd init >/dev/null
bd ingest --quiet "$DATA/good/example.jsonl"
python3 "$LIB/gen_archive.py" "$T/big.jsonl" --values 200000 --iterations 100 >/dev/null
before=$(snapshot)

full() { # ARCHIVE: refused for lack of space, the store unchanged
    rc=0
    (cd "$T" && bd ingest --quiet "$1") 2>"$T/err" || rc=$?
    [ "$rc" = 1 ] || fail "$1 on a full disk: exit $rc"
    [ "$(cat "$T/err")" = "error: $1: cannot store: the disk is full (database or disk is full)
note: $1: archive not stored (nothing from it was written)" ] || fail "$1 on a full disk: $(cat "$T/err")"
    [ "$(snapshot)" = "$before" ] || fail "$1 on a full disk: the store changed"
}
full big.jsonl

# Usable at once: a small archive (the example under another plan) loads.
sed 's/"plan":"calibration-example"/"plan":"after-full"/' "$DATA/good/example.jsonl" >"$T/small.jsonl"
(cd "$T" && bd ingest --quiet small.jsonl) || fail "a small archive after the failure"
expect_rows "the small archive" "SELECT count(*) FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = 'after-full'" "$(grep -c '"record":"run"' "$T/small.jsonl")"
bd sql --write "DELETE FROM archive WHERE name = 'small.jsonl'" >/dev/null
before=$(snapshot)

# The disk filled to the last byte: reads work, a load fails cleanly.
dd if=/dev/zero of="$T/m/filler" bs=4k 2>/dev/null || true
full small.jsonl
expect_rows "reading a full disk" "SELECT count(*) FROM sample" 22
rm "$T/m/filler"
(cd "$T" && bd ingest --quiet small.jsonl) || fail "a load once space is freed"
expect_rows "integrity at the end" "PRAGMA integrity_check" ok
echo ok
