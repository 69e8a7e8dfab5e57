# The placement rule computes its comparisons itself (queries/placement-rule.sql
# says they are those of the saved query comparisons): the same doubles, not
# just counts that would hide a last-bit difference. Its intervals must feed
# each run's log ratios in the order the GROUP BY of comparisons does (lower
# run id first, blocks in order); the plan's archives are ingested last run
# first, so that run ids go against positions and hosts.
. "$BENCHDB_SRC/tests/cli/lib/common.sh"

bd init >/dev/null
bd simulate -q --cells 12 --forks 1 --iterations 1 --warmups 0 sim
for f in $(ls sim | sort -r); do
    bd ingest -q "sim/$f" || fail "ingest $f"
done

# The rule's text up to its comparisons, selecting them.
rule="$BENCHDB_SRC/queries/placement-rule.sql"
grep -q '^counts AS' "$rule" || fail "placement-rule.sql has a counts CTE"
sed '/^counts AS/,$d' "$rule" | sed '$ s/,[[:space:]]*$//' >rule_cmp.sql
echo 'SELECT kind, run_group, estimate, lo, hi FROM comparisons;' >>rule_cmp.sql

for args in "-p level=0.95 -p direction=forward" "-p level=0.95 -p direction=reverse" \
    "-p level=0.9 -p direction=forward"; do
    # shellcheck disable=SC2086
    run bd sql --file rule_cmp.sql -p plan=calibration-sim -p group_by=profile $args --format json
    expect_rc 0 "the rule's comparisons ($args)"
    cp "$T/out" rule.json
    # shellcheck disable=SC2086
    run bd query comparisons -p plan=calibration-sim --no-record $args --format json
    expect_rc 0 "query comparisons ($args)"
    cp "$T/out" saved.json
    run python3 - rule.json saved.json <<'EOF'
import json, sys
rule = json.load(open(sys.argv[1]))
saved = json.load(open(sys.argv[2]))
key = lambda r: (r["kind"], str(r["run_group"]), repr(r["estimate"]), repr(r["lo"]), repr(r["hi"]))
a = sorted(map(key, rule))
b = sorted(map(key, saved))
print(len(a) == len(b) and len(a) > 0, sum(x != y for x, y in zip(a, b)))
EOF
    expect_rc 0 "comparing ($args)"
    expect_out "True 0" "the rule's comparisons are those of the saved query ($args)"
done

finish
