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
# The reading ahead happens: while the second archive waits at the test's
# hold (load/claim.c, before its transaction), its file is the one the
# first archive's turn opened to read ahead (O_NONBLOCK, load/archive.c's
# prefetch), not one opened in its own turn.
for p in f g; do
    sed "s/\"plan\":\"calibration-example\"/\"plan\":\"$p\"/" "$ex" >"$T/$p.jsonl"
done
wait_for() { # FILE: up to 30 s
    i=0
    while [ ! -e "$1" ]; do
        i=$((i + 1))
        [ "$i" -lt 1500 ] || fail "no $1 after 30 s"
        sleep 0.02
    done
}
BENCHDB_TEST_INGEST_HOLD="$T/hold" "$BENCHDB_BIN" --db "$T/store.db" ingest --quiet "$T/f.jsonl" "$T/g.jsonl" \
    >"$T/ra.out" 2>"$T/ra.err" &
pid=$!
wait_for "$T/hold"
rm "$T/hold" # f goes on, and g is read ahead
wait_for "$T/hold"
flags=
for fd in /proc/$pid/fd/*; do
    [ "$(readlink "$fd" 2>/dev/null)" = "$T/g.jsonl" ] && flags=$(awk '$1 == "flags:" {print $2}' "/proc/$pid/fdinfo/${fd##*/}")
done
rm "$T/hold"
rc=0
wait $pid || rc=$?
[ "$rc" = 0 ] || fail "f, g: exit $rc: $(cat "$T/ra.err")"
[ -n "$flags" ] || fail "g.jsonl is not open while it waits for its turn"
[ $((0$flags & 04000)) != 0 ] || fail "g.jsonl was opened in its turn (flags $flags), not read ahead"
expect_rows f-g "SELECT count(*) FROM plan WHERE name IN ('f', 'g')" "2"
echo ok
