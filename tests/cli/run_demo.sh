# make run (scripts/run-demo): the whole job on the bundled examples in a
# fresh directory, twice (the second run skips what is stored), then every
# evaluation it recorded re-verified (history --verify --all
# reports identical for what make run records).
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); make run's commands on examples/, as cli/tutorial and cli/ingest_examples)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

ln -s "$BENCHDB_SRC/examples" examples
run sh "$BENCHDB_SRC/scripts/run-demo" "$BENCHDB_BIN"
expect_rc 0 "make run"
expect_out_has "ingest: 13 archives loaded, 0 skipped, 0 failed" "make run: the examples loaded"
expect_err_has "separate-host placement not adopted: protobuf-3 fails the band and interval conditions; protobuf-4 fails the band condition" "make run: the verdict"
expect_err_has "2 plans: 13 runs, 48030 values, started on 2026-10-21" "make run: what the store holds, in words"
expect_out_has "calibration-sim    12      6     40   48000" "make run: and plan by plan"
expect_out_has "The report is $T/report.html" "make run: says where the report is"
grep -q 'class="chart"' report.html || fail "make run: the report has its chart"

run sh "$BENCHDB_SRC/scripts/run-demo" "$BENCHDB_BIN"
expect_rc 0 "make run again"
expect_out_has "ingest: 0 archives loaded, 13 skipped, 0 failed" "make run again: the examples skipped"

run bd history --verify --all
expect_rc 0 "history --verify --all"
# placement-rule twice, and comparisons once: the second report reuses it (same data)
expect_err_has "verified 3 evaluations: 3 identical, 0 not" "every evaluation make run recorded is identical"
finish
