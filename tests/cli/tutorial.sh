# docs/tutorial.md: every ```sh block runs, in order, in a fresh directory
# (```sh ext blocks need the sqlite3 shell and an uninstrumented extension:
# skipped under the sanitizers); then the figures the tutorial promises.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

mkdir bin
ln -s "$BENCHDB_BIN" bin/benchdb
ln -s "$BENCHDB_SRC/examples" examples
ln -s "$BENCHDB_BUILD" build
skip_ext=0
if [ "${BENCHDB_SANITIZED:-0}" = 1 ] || ! command -v sqlite3 >/dev/null; then skip_ext=1; fi

awk -v skip_ext="$skip_ext" '
    /^```sh( ext)?$/ { inblock = 1; ext = ($0 ~ / ext$/); next }
    /^```/ && inblock { inblock = 0; print ""; next }
    inblock && !(ext && skip_ext) { print }
' "$BENCHDB_SRC/docs/tutorial.md" >tutorial-commands.sh

[ "$(grep -c 'benchdb' tutorial-commands.sh)" -ge 20 ] || fail "the tutorial has its commands"

# The tutorial's first command puts build/ on PATH; here build/ holds the
# binary under test only through bin/.
PATH="$T/bin:$PATH" sh -e tutorial-commands.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0 "every tutorial command runs"

o="$T/out"
expect_out_has "ingest: 13 archives loaded, 0 skipped, 0 failed; 13 runs, 76830 samples" "step 1: ingest"
expect_out_has "ingest: 0 archives loaded, 13 skipped, 0 failed" "step 1: a second ingest skips"
expect_out_has "p4-vm-c-2  sim-p4-vm-c         2  protobuf-4" "step 1: runs, hosts, positions"
expect_out_has "separate-host placement not adopted: protobuf-3 fails the band and interval conditions; protobuf-4 fails the band condition" "step 2: the verdict"
grep -q "^protobuf-3       120        240             104              214                5                23" "$o" ||
    fail "step 2: protobuf-3's counts"
expect_out_has "before plan calibration-sim began (2026-10-21T03:57:49Z): pre-registered" "step 2: pre-registered"
expect_out_has "but with other parameters (direction=reverse): applied retroactively" "step 2: reverse is retroactive"
expect_out_has "parameters: direction: forward -> reverse" "step 2: diff names the parameter"
expect_out_has "protobuf-3  within_in_band  104  105" "step 2: reversing moves one within-host estimate"
expect_out_has "separate-host placement not adopted: protobuf-3 fails the interval condition" "step 2: the wider band"
expect_out_has "noisy-cells" "step 3: the custom rule is listed"
expect_out_has "v2.18.0      s     10  3.022   4.58" "step 4: min and max"
for v in "3.126" "3.30825" "3.17025"; do
    grep -Eq "^stolee-2018-08-23-git-git .* $v  " "$o" || fail "step 4: trimmed mean $v from the aggregations query"
done
expect_out_has "v2.18.0        3.022              3.1065               3.261     3.126" "step 4: ad-hoc aggregates"
if [ "$skip_ext" = 0 ]; then
    expect_out_has '"lo":-0.048155535246101736,"hi":0.0021555352461017424' "step 5: pooled_t_ci in the sqlite3 shell"
fi
grep -A2 "^plans  adopted  band_passes  interval_passes" "$o" | tail -1 | grep -Eq "^ +20 +0 +0 +[0-9]+$" ||
    fail "step 6: 20 plans judged, none adopted, no band pass"
expect_out_has "ingest: 1 archive loaded, 0 skipped, 0 failed; 1 run, 7 samples" "step 7: a build's file into a run"
expect_out_has "ingest: 0 archives loaded, 1 skipped, 0 failed" "step 7: the same file again is skipped"
grep -Eq "^pr-42 +build-7 +ci-1 +844fd45 +base,head +2 +14 +[0-9]+ *$" "$o" || fail "step 7: list runs"
expect_out_has "ci/base/,files" "step 7: list archives"
expect_out_has "ci/head/,files" "step 7: list archives, the appended one"
expect_out_has "BenchmarkEncode  head         955.5" "step 7: the head build's score, (951 + 960) / 2"
# 2 Benchmark lines x 3 units + 1, per build: 8 series, 14 values
expect_out_has "delete: would remove 2 archives (4 members, 2 chunks of stored bytes), 1 run, 8 series, 14 sample rows, 0 gates, 0 events, 1 plan" "step 7: delete, dry run"

finish
