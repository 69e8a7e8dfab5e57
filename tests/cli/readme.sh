# README.md's quickstart (its first section): every ```sh block runs, in
# order, in a fresh directory, and says what the README says it does: the
# pull-request comment's first line and the gate's exit status, the change
# points with the last good and first bad run, tonight's gate, the
# back-test.
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); the same commands and files as cli/tutorial and cli/compare_*)
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

mkdir bin
ln -s "$BENCHDB_BIN" bin/benchdb
ln -s "$BENCHDB_SRC/examples" examples
awk '/^## Quickstart/ { on = 1; next } on && /^## / { exit }
     on && /^```sh$/ { inblock = 1; next }
     on && /^```/ && inblock { inblock = 0; print ""; next }
     on && inblock { print }' "$BENCHDB_SRC/README.md" >quickstart.sh
[ "$(grep -c benchdb quickstart.sh)" -ge 6 ] || fail "the quickstart has its commands: $(cat quickstart.sh)"
[ "$(grep -c '^benchdb compare' quickstart.sh)" = 1 ] || fail "comparing two builds is one command"

# Its first command puts build/ on PATH; here bin/ holds the binary.
PATH="$T/bin:$PATH" sh -e quickstart.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "every quickstart command runs"

# Compare two builds: the comment's first line, as the README shows it.
want=$(awk '/^### Compare two builds/ { on = 1 } on && /^    \*\*/ { sub(/^    /, ""); print; exit }' "$BENCHDB_SRC/README.md")
[ -n "$want" ] || fail "the README shows the comment's first line"
expect_eq "$(head -n 1 comment.md)" "$want" "the comment's first line is the README's"
expect_out_has "gate: exit 3" "the gate fails the pull request (a cell got slower)"
grep -q '^| CRC32/poly=Koopman/size=1kB/align=1-8 | sec/op | 2.155µ ± 2% | 2.361µ ± 3% | +9.58% | 0.000 | slower |$' comment.md ||
    fail "a changed cell, its name whole"
[ -e results.db ] && fail "comparing files stores nothing"

# Track nightly runs: both injected steps, each with its last good run.
grep -Eq '^ci-b +serialize +\{"format":"binary","workload":"small"\} +primary +main +27 +ci-b-0026 +ci-b-0027 +nightly ' "$T/out" ||
    fail "ci-b's step at run 27, the last good run 26"
grep -Eq '^ci-a +serialize +\{"format":"binary","workload":"small"\} +primary +main +116 +ci-a-0115 +ci-a-0116 +nightly ' "$T/out" ||
    fail "ci-a's step at run 116, the last good run 115"
expect_err_has "2 regressions in 2 histories (p ≤ 0.001, a change of at least 5%); the largest: serialize/format=binary/workload=small regressed by +10.6% on ci-a from run ci-a-0116 (" \
    "regressions says first what it found, as the README quotes it"
expect_out_has "gate: passes" "tonight's gate passes"
expect_err_has "gate-zscore would have raised 3 alerts in 1344 runs judged, 96 runs without limits: 2 of 2 reference regressions caught (recall 1.00, precision 1.00), 0 false alarms" \
    "the back-test as the README says"
run "$BENCHDB_BIN" --db nightly.db history --format csv
expect_eq "$(tail -n +2 "$T/out" | cut -d, -f3 | tr -d '\r' | tr '\n' ' ')" "gate-zscore backtest-gate-zscore " \
    "the history holds the gate and the back-test, not the lookup"

finish
