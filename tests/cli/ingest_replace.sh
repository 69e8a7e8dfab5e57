# A run already stored from another archive is refused, naming it (and
# suggesting nothing that deletes); with --replace it is replaced with all
# its rows in the same transaction, and an archive left without runs is
# removed.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
bd init >/dev/null
ex="$DATA/good/example.jsonl"
cp "$ex" "$T/v1.jsonl"
# v2: run vm-a-2 again with other values (and another byte stream).
{ sed -n 11,12p "$ex"; echo '{"record":"samples","benchmark":"roundtrip","block":1,"variant":"native","unit":"ops/s","values":[7,8,9]}'; } >"$T/v2.jsonl"
(cd "$T" && bd ingest --quiet v1.jsonl)
before=$(snapshot)
rc=0
(cd "$T" && bd ingest v2.jsonl) >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "conflict: exit $rc"
[ "$(cat "$T/err")" = 'error: v2.jsonl:1: run.run: run "vm-a-2" of plan "calibration-example" is already stored (archive 1 "v1.jsonl")
note: v2.jsonl: archive not stored (nothing from it was written)' ] || fail "conflict: $(cat "$T/err")"
[ "$(snapshot)" = "$before" ] || fail "refused conflict changed the store"

(cd "$T" && bd ingest --replace v2.jsonl) >/dev/null 2>"$T/err" || fail "--replace: $(cat "$T/err")"
[ "$(cat "$T/err")" = 'v2.jsonl:1: replaced run "vm-a-2" of plan "calibration-example" stored from archive "v1.jsonl"' ] ||
    fail "replace notice: $(cat "$T/err")"
expect_rows runs "SELECT r.name, a.name FROM run r JOIN archive a ON a.id = r.archive_id ORDER BY r.name" \
    "vm-a-1,v1.jsonl
vm-a-2,v2.jsonl"
expect_rows new-values "SELECT s.n, s.total, (SELECT group_concat(value) FROM sample WHERE series_id = s.id) FROM series s
                        JOIN run r ON r.id = s.run_id WHERE r.name = 'vm-a-2'" '3,24.0,"7.0,8.0,9.0"'
expect_rows counts "SELECT (SELECT count(*) FROM series), (SELECT count(*) FROM sample), (SELECT count(*) FROM gate), (SELECT count(*) FROM event), (SELECT count(*) FROM archive)" \
    "7,21,2,2,2"
# Replacing v1's other run too leaves v1 without runs: it is removed.
sed -n 1,10p "$ex" | sed 's/"values":\[51234.5,50987.0\]/"values":[1,2]/' >"$T/v3.jsonl"
(cd "$T" && bd ingest --replace --quiet v3.jsonl)
expect_rows archives "SELECT name FROM archive ORDER BY id" "v2.jsonl
v3.jsonl"
expect_rows orphans "SELECT count(*) FROM sample WHERE series_id NOT IN (SELECT id FROM series)" "0"
expect_rows chunks "SELECT count(DISTINCT archive_id) FROM archive_chunk" "2"
bd check >/dev/null || fail check
echo ok
