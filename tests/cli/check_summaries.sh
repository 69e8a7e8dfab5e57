# run_cell_data, the per-(run, cell) summaries kept by triggers (migration
# 0007): they follow every change of the block scores and runs behind them
# (an archive replaced or deleted, a series deleted, a run's variants
# swapped), `benchdb check` compares them with a fresh aggregate of the
# block ratios and names a row that differs, and the rebuild of
# docs/schema.md restores them.
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); simulated data, and what it checks are the triggers' rows)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd simulate -q --cells 4 --forks 2 --iterations 2 --warmups 0 sim
bd ingest -q sim || fail "ingest"
run bd check
expect_rc 0 "check after ingest"
expect_out_has "check: 48 run summaries: match their block ratios" "the summaries match"

# Changes behind them.
bd sql --write "DELETE FROM series WHERE block = 2 AND fork = 1" >/dev/null
bd sql --write "DELETE FROM series WHERE block = 3 AND run_id = 1 AND variant_id = (SELECT treatment_id FROM run WHERE id = 1)" >/dev/null
bd sql --write "UPDATE run SET treatment_id = baseline_id, baseline_id = treatment_id WHERE id = 2" >/dev/null
bd sql --write "DELETE FROM archive WHERE id = 3" >/dev/null
bd ingest -q --replace "sim/$(ls sim | head -n 1)" >/dev/null 2>&1
run bd check
expect_rc 0 "check after deletions, an update and a replacement"
expect_out_has "run summaries: match their block ratios" "still matching"
run bd sql "SELECT blocks FROM run_cell_data WHERE run_id = 1 AND benchmark_id = 1" --format csv
expect_out "$(printf 'blocks\r\n4\r')" "a block without its treatment has no ratio"

# A row altered, a row gone: named.
cp results.db keep.db
bd sql --write "UPDATE run_cell_data SET mean_log = mean_log * (1 + 1e-15) WHERE run_id = 4 AND benchmark_id = 2" >/dev/null
run bd check
expect_rc 1 "a mean off in its last bits"
expect_err_has "error: check: run_cell_data: 2 rows differ from the block ratios (the first: run 4, benchmark 2); docs/schema.md shows how to rebuild it" "named"
expect_out_has "run summaries: do NOT match their block ratios" "the check line"
cp keep.db results.db
bd sql --write "DELETE FROM run_cell_data WHERE run_id = 5 AND benchmark_id = 3" >/dev/null
run bd check
expect_rc 1 "a summary missing"
expect_err_has "run_cell_data: 1 row differs from the block ratios (the first: run 5, benchmark 3)" "named"

# The rebuild of docs/schema.md.
sed -n '/^    benchdb sql --write "DELETE FROM run_cell_data;/,/GROUP BY run_id, benchmark_id"$/p' \
    "$BENCHDB_SRC/docs/schema.md" | sed 's/^    //' >rebuild.sh
grep -q 'INSERT INTO run_cell_data' rebuild.sh || fail "docs/schema.md shows the rebuild"
PATH="$(dirname "$BENCHDB_BIN"):$PATH" sh rebuild.sh >/dev/null || fail "the rebuild runs"
run bd check
expect_rc 0 "check after the rebuild"

finish
