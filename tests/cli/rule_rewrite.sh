# The placement rule and the comparisons, rewritten on the views of
# migration 0007 (calibration_comparison, run_cell_data summaries), decide
# what they decided before: the texts of commit 54b1bf6
# (tests/data/rules/) and the current ones give the same rows, every
# column to the last bit, on 40 simulated plans of varied shapes, in both
# directions: one to three groups, two to four hosts, two or three
# positions, one to five blocks (one block: no intervals), a plan without
# spread (zero variance), host offsets that fail the band condition, an
# effect on one host, runs without the group attribute (a NULL group, alone
# and beside others), and the exact tie of tests/data/plans/tie.sql.
# The sanitized pass takes the first 12 plans: every special shape above
# once (the statistics functions the rules call run sanitized on each),
# not the repeats of the ordinary ones, which only SQLite's own work
# would repeat (17 s of CPU there for all 40).
# ctest: slow cost=7
. "$BENCHDB_SRC/tests/cli/lib/common.sh"
old="$BENCHDB_SRC/tests/data/rules"
plans=40
[ "${BENCHDB_SANITIZED:-0}" = 1 ] && plans=12

bd init >/dev/null
i=0
while [ $i -lt $plans ]; do
    g=$((1 + i % 3)); h=$((2 + i % 3)); p=$((2 + (i / 3) % 2)); b=$((2 + i % 4)); extra=""
    case $((i % 10)) in
    3) b=1 ;;
    5) extra="--spread 0 --wide 0 --host-offset 0 --drift 0 --fork-sd 0 --iteration-sd 0 --effect */*=1.03" ;;
    7) extra="--host-offset 0.05 --spread 0.01" ;;
    8) extra="--effect */*=1.02@*-a-*" ;;
    esac
    # shellcheck disable=SC2086
    bd simulate -q --plan "sim$i" --seed $((i + 11)) --groups $g --hosts $h --positions $p --blocks $b --cells 4 \
        --forks 1 --iterations 1 --warmups 0 $extra "a/sim$i" || fail "simulate sim$i"
    i=$((i + 1))
done
bd ingest -q a/* || fail "ingest"
bd sql --write "UPDATE run SET attributes = '{}' WHERE plan_id = (SELECT id FROM plan WHERE name = 'sim1')" >/dev/null
bd sql --write "UPDATE run SET attributes = '{}' WHERE plan_id = (SELECT id FROM plan WHERE name = 'sim4') AND position = 1" >/dev/null

# same LABEL OLD.sql NEW PARAMS...: the two texts give the same rows.
same() {
    label=$1 before=$2 after=$3
    shift 3
    bd query "$before" --no-record --format json "$@" >o.json 2>o.err
    orc=$?
    bd query "$after" --no-record --format json "$@" >n.json 2>n.err
    nrc=$?
    checks=$((checks + 1))
    if [ $orc != $nrc ] || ! cmp -s o.json n.json; then
        fail "$label: the rows differ (exit $orc and $nrc)"
        diff o.json n.json | head -5 >&2
    fi
}

adopted=0 rejected=0
i=0
while [ $i -lt $plans ]; do
    for d in forward reverse; do
        same "placement-rule sim$i $d" "$old/placement-rule-54b1bf6.sql" placement-rule -p plan=sim$i -p direction=$d
        grep -q '"adopt": *1' n.json && adopted=$((adopted + 1))
        grep -q '"adopt": *0' n.json && rejected=$((rejected + 1))
        if [ $((i % 4)) = 1 ] || [ $i = 3 ] || [ $i = 5 ]; then
            same "comparisons sim$i $d" "$old/comparisons-54b1bf6.sql" comparisons -p plan=sim$i -p direction=$d
        fi
    done
    i=$((i + 1))
done
same "placement-rule sim2 level 0.9, band 0.98-1.02" "$old/placement-rule-54b1bf6.sql" placement-rule \
    -p plan=sim2 -p level=0.9 -p band_lo=0.98 -p band_hi=1.02 -p min_band_share=0.5 -p margin=0.2
# The plans judged both ways, and the NULL groups named as before.
expect_eq "$([ $adopted -gt 0 ] && [ $rejected -gt 0 ] && echo both)" both "some plans adopted ($adopted), some not ($rejected)"
bd query placement-rule -p plan=sim4 --no-record --format csv >sim4.csv 2>/dev/null
expect_eq "$(cut -d, -f1 sim4.csv | tr -d '\r' | sed -n 2p)" "" "the NULL group comes first"
grep -q '(no profile) fails' sim4.csv || fail "the verdict names the NULL group as (no profile)"

# The exact tie, and just past it.
bd --db tie.db init >/dev/null
{ echo "BEGIN;"; cat "$BENCHDB_SRC/tests/data/plans/tie.sql"; echo "COMMIT;"; } | bd --db tie.db sql --write --file - >/dev/null
export BENCHDB=tie.db
for args in "-p margin=0.1 -p min_band_share=0.2" "-p margin=0.0999 -p min_band_share=0.2001"; do
    # shellcheck disable=SC2086
    same "placement-rule tie $args" "$old/placement-rule-54b1bf6.sql" placement-rule -p plan=tie $args
done
unset BENCHDB

finish
