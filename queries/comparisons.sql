-- name: comparisons
-- summary: Within-host and between-host comparisons of a plan's runs, per cell: ratio of geometric-mean ratios with a pooled t interval
-- param: plan  the plan to judge (plan.name)
-- param: level = 0.95  confidence level of each interval
-- param: band_lo = 0.95  lower edge of the band an estimate should fall in
-- param: band_hi = 1.05  upper edge of the band
-- param: direction = forward  forward: earlier run (or first host) over later; reverse: every ratio inverted
-- param: group_by = profile  run attribute that groups runs (runs without it form one group)
-- type: plan = text naming a plan
-- type: level = real in (0, 1)
-- type: band_lo = real
-- type: band_hi = real
-- type: direction = choice of forward, reverse
-- type: group_by = text naming an attribute
-- judges: plan
-- key: run_group, kind, benchmark, params, run_a, run_b
-- needs: :band_lo < :band_hi
-- unmet: band_lo (:band_lo) must be below band_hi (:band_hi): no estimate lies in the band between them
-- needs: EXISTS (SELECT 1 FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = :plan AND r.treatment_id IS NOT NULL)
-- unmet: plan :plan has no runs with a treatment and a baseline variant; comparisons compares treatment over baseline within runs
-- needs: EXISTS (SELECT 1 FROM calibration_pair WHERE plan = :plan AND (a_attributes ->> :group_by) IS NOT DISTINCT FROM (b_attributes ->> :group_by))
-- unmet: plan :plan has no two runs of one :group_by to compare (one host at two positions, or one position on two hosts); comparisons judges such comparisons
-- chart: forest group=run_group colour=kind label=benchmark,params,run_a,run_b estimate=estimate lo=lo hi=hi band=band_lo,band_hi log title="Every comparison, per group"
-- columns: run_group, kind, benchmark, params, run_a, run_b, estimate, lo, hi, in_band, excludes_one
-- headline[kind=between]: {count(kind=between,in_band=1)} of {count(kind=between):between-host estimate/between-host estimates} lie in the band {param(band_lo)} to {param(band_hi)}; {count(kind=between,excludes_one=1)} between-host and {count(kind=within,excludes_one=1)} of {count(kind=within):within-host interval/within-host intervals} exclude 1
-- headline[kind=within]: {count(kind=within):within-host comparison/within-host comparisons}, no between-host one; {count(kind=within,in_band=1)} lie in the band {param(band_lo)} to {param(band_hi)}
--
-- Two runs A and B are compared per cell on the log ratios of their blocks
-- (block_ratio): estimate = exp(mean of A's log ratios - mean of B's), and
-- lo, hi = the exponentiated pooled two-sample Student-t interval at `level`
-- (df = nA + nB - 2: 8 for five blocks each), computed by pooled_t_ci_of
-- from the two runs' stored summaries (run_cell_data.moments): the interval
-- pooled_t_ci gives over the log ratios themselves, to the bit. With
-- direction=reverse every ratio is inverted: 1 / estimate, and the interval
-- [1 / hi, 1 / lo]. The pairs are those of the view calibration_pair:
-- within-host, every pair of runs on one host, the earlier position over
-- the later; between-host, for each position, every pair of hosts (ordered
-- by host name) that both have a run there, the first host's run over the
-- second's. Only runs of the same group are compared, and only cells that
-- both runs measured. With one block in both runs there is no interval
-- (df = 0): estimate, lo, hi, in_band and excludes_one are null.
WITH
intervals AS (
  SELECT kind, run_group, run_a, run_b, benchmark_id, CAST(ci ->> 'estimate' AS DOUBLE PRECISION) AS e,
         CAST(ci ->> 'lo' AS DOUBLE PRECISION) AS lo, CAST(ci ->> 'hi' AS DOUBLE PRECISION) AS hi
  FROM (SELECT kind, a_attributes ->> :group_by AS run_group, run_a, run_b, benchmark_id,
               pooled_t_ci_of(a_moments, b_moments, :level, 'estimate,lo,hi') AS ci
        FROM calibration_comparison
        WHERE plan = :plan AND (a_attributes ->> :group_by) IS NOT DISTINCT FROM (b_attributes ->> :group_by)) AS c
),
comparisons AS (
  SELECT kind, run_group, run_a, run_b, benchmark_id,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(e) ELSE exp(e) END AS estimate,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(hi) ELSE exp(lo) END AS lo,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(lo) ELSE exp(hi) END AS hi
  FROM intervals
)
SELECT c.run_group, c.kind, b.name AS benchmark, b.params, c.run_a, c.run_b, c.estimate, c.lo, c.hi,
       CASE WHEN c.estimate BETWEEN :band_lo AND :band_hi THEN 1 WHEN c.estimate IS NOT NULL THEN 0 END AS in_band,
       CASE WHEN c.lo > 1 OR c.hi < 1 THEN 1 WHEN c.lo IS NOT NULL THEN 0 END AS excludes_one
FROM comparisons AS c
JOIN benchmark AS b ON b.id = c.benchmark_id
ORDER BY c.run_group NULLS FIRST, c.kind DESC, c.run_a, c.run_b, b.name, b.params;
