# The placement rule computes its comparisons itself (queries/placement-rule.sql
# says they are those of the saved query comparisons): the same doubles, not
# just counts that would hide a last-bit difference. And both take their
# intervals from the runs' stored summaries (pooled_t_ci_of on
# run_cell_data.moments): they must be the intervals pooled_t_ci gives over
# the block log ratios themselves, to the bit. The plan's archives are
# ingested last run first, so that run ids go against positions and hosts.
# ctest: plain-only
#   (plain-only: 0 lines, 0 branches of src/ that no other sanitized test reaches (tools/plain_only_cover.py --all-unique, 2026-12-03); simulated data, the checks bit-exact SQL results)
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

# The same comparisons from the ratios (block_ratio), with pooled_t_ci over
# the rows of each pair and cell.
cat >raw_cmp.sql <<'SQL'
WITH
pairs AS (
  SELECT kind, a_id, b_id, a_attributes ->> :group_by AS run_group FROM calibration_pair
  WHERE plan = :plan AND (a_attributes ->> :group_by) IS NOT DISTINCT FROM (b_attributes ->> :group_by)
),
raw AS (
  SELECT p.kind, p.run_group, pooled_t_ci(x.log_ratio, CASE WHEN x.run_id = p.a_id THEN 1 ELSE 0 END, :level) AS ci
  FROM pairs AS p JOIN block_ratio AS x ON x.run_id IN (p.a_id, p.b_id)
  GROUP BY p.kind, p.run_group, p.a_id, p.b_id, x.benchmark_id
  HAVING count(*) FILTER (WHERE x.run_id = p.a_id) > 0 AND count(*) FILTER (WHERE x.run_id = p.b_id) > 0
)
SELECT kind, run_group,
       CASE WHEN :direction = 'reverse' THEN 1 / exp(ci ->> 'estimate') ELSE exp(ci ->> 'estimate') END AS estimate,
       CASE WHEN :direction = 'reverse' THEN 1 / exp(ci ->> 'hi') ELSE exp(ci ->> 'lo') END AS lo,
       CASE WHEN :direction = 'reverse' THEN 1 / exp(ci ->> 'lo') ELSE exp(ci ->> 'hi') END AS hi
FROM raw;
SQL

cat >compare.py <<'EOF2'
import json, sys
key = lambda r: (r["kind"], str(r["run_group"]), repr(r["estimate"]), repr(r["lo"]), repr(r["hi"]))
a, b = (sorted(map(key, json.load(open(f)))) for f in sys.argv[1:3])
print(len(a) == len(b) and len(a) > 0, sum(x != y for x, y in zip(a, b)))
EOF2

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
    # shellcheck disable=SC2086
    run bd sql --file raw_cmp.sql -p plan=calibration-sim -p group_by=profile $args --format json
    expect_rc 0 "comparisons from the ratios ($args)"
    cp "$T/out" raw.json
    run python3 compare.py rule.json saved.json
    expect_out "True 0" "the rule's comparisons are those of the saved query ($args)"
    run python3 compare.py rule.json raw.json
    expect_out "True 0" "the comparisons from summaries are those from the ratios ($args)"
done

finish
