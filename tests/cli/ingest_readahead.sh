# A list of archives: while one is stored, the next regular file is hashed
# and its first lines parsed on another thread (ingester_next). Nothing of
# it may show before its turn: results, messages and their order are those
# of one archive after the other, whatever kind the next one is (stored
# already, a container, a bad stream, a zstd stream, the same file again).
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
command -v zstd >/dev/null || { echo "FAIL: the zstd command is missing (scripts/install-deps installs zstd)" >&2; exit 1; }
command -v tar >/dev/null || { echo "FAIL: the tar command is missing" >&2; exit 1; }
bd init >/dev/null
ex="$DATA/good/example.jsonl"
for p in a b c d e; do
    sed "s/\"plan\":\"calibration-example\"/\"plan\":\"$p\"/" "$ex" >"$T/$p.jsonl"
done
(cd "$T" && tar cf c.tar c.jsonl && rm c.jsonl)
sed -i '2s/.*/{"record": "samples", oops/' "$T/d.jsonl"
zstd -q --rm "$T/e.jsonl"
(cd "$T" && bd ingest --quiet b.jsonl) || fail "b alone"

rc=0
(cd "$T" && bd ingest a.jsonl b.jsonl c.tar d.jsonl e.jsonl.zst a.jsonl) >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" = 1 ] || fail "exit status $rc, expected 1 (d.jsonl is bad)"
# Messages in list order: b skipped, d refused, the second a skipped.
grep -n "" "$T/err" | sed 's/(sha256 [0-9a-f]*\.\.\.)/(sha256 ...)/' >"$T/got"
cat >"$T/want" <<'WANT'
1:b.jsonl: skipped: already stored as archive 1 "b.jsonl" (sha256 ...)
2:error: d.jsonl:2: invalid JSON at column 26: string or '}' expected near 'oops'
3:note: d.jsonl: archive not stored (nothing from it was written)
4:a.jsonl: skipped: already stored as archive 2 "a.jsonl" (sha256 ...)
WANT
diff "$T/want" "$T/got" >&2 || fail "stderr differs"
grep -q "^ingest: 3 archives loaded, 2 skipped, 1 failed;" "$T/out" || fail "summary: $(cat "$T/out")"
expect_rows order "SELECT DISTINCT a.name, p.name FROM archive a JOIN run r ON r.archive_id = a.id JOIN plan p ON p.id = r.plan_id
                   ORDER BY a.id" "b.jsonl,b
a.jsonl,a
c.tar,c
e.jsonl.zst,e"
expect_rows same-values "SELECT count(DISTINCT n) FROM (SELECT p.name, count(*) AS n FROM sample s
                         JOIN series x ON x.id = s.series_id JOIN run r ON r.id = x.run_id
                         JOIN plan p ON p.id = r.plan_id GROUP BY p.name)" "1"
bd check >/dev/null || fail "check"
echo ok
