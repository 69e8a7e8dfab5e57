# Several files of one harness for one run (base_r1.json base_r2.json, the
# usual way to repeat hyperfine or Google Benchmark) load as the run's
# successive blocks, in the order of their names, starting at --block;
# files of different formats share a block; the same files again are
# skipped; list shows the blocks of each run and member; the block scores
# are each file's values.
. "$BENCHDB_SRC/tests/cli/lib/ingest.sh"
H="$BENCHDB_SRC/tests/data/harness"
bd init >/dev/null
cd "$T"
python3 - <<'PY'
import json
for r, t in ((1, [1.0, 2.0, 3.0]), (2, [4.0, 5.0, 6.0]), (10, [7.0, 8.0, 9.0])):
    json.dump({"results": [{"command": "sort", "times": t, "exit_codes": [0, 0, 0]}]}, open("base_r%d.json" % r, "w"))
PY
bd ingest -q --plan rep --run base --host h base_r1.json base_r2.json base_r10.json 2>"$T/err" ||
    fail "three hyperfine files into one run: $(cat "$T/err")"
# r1, r10, r2: the names' order, as the archive's members are sorted
expect_rows blocks "SELECT se.block, group_concat(sa.value, ' ') FROM series se JOIN sample sa ON sa.series_id = se.id
                    GROUP BY se.block ORDER BY se.block" "1,1.0 2.0 3.0
2,7.0 8.0 9.0
3,4.0 5.0 6.0"
expect_rows scores "SELECT block, score FROM block_score ORDER BY block" "1,2.0
2,8.0
3,5.0"
bd list runs --format csv | tr -d '\r' | grep -q '^rep,base,h,,,,default,1,9,1-3,1$' ||
    fail "list runs: the blocks: $(bd list runs --format csv)"
bd list archives --format csv | grep -q 'files/base_r1.json (hyperfine, block 1), files/base_r10.json (hyperfine, block 2), files/base_r2.json (hyperfine, block 3)' ||
    fail "list archives: each member's block: $(bd list archives --format csv)"
out=$(bd ingest --plan rep --run base --host h base_r1.json base_r2.json base_r10.json 2>&1)
case "$out" in *"0 archives loaded, 1 skipped"*) ;; *) fail "the same files again: $out" ;; esac

# --block: the first of them; another format shares the blocks
cp "$H/google-benchmark/repetitions_with_date.json" gb.json
bd ingest -q --plan rep --run head --host h --block 5 base_r1.json base_r2.json gb.json 2>"$T/err" ||
    fail "--block 5: $(cat "$T/err")"
expect_rows head-blocks "SELECT m.path, min(se.block), max(se.block) FROM series se JOIN run r ON r.id = se.run_id
                         JOIN archive_member m ON m.id = se.member_id WHERE r.name = 'head'
                         GROUP BY m.path ORDER BY m.path" "files/base_r1.json,5,5
files/base_r2.json,6,6
files/gb.json,5,5"
bd check >/dev/null || fail "check"
echo ok
