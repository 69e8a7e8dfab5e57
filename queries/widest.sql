-- name: widest
-- summary: The comparisons whose estimates lie farthest from 1 (in log terms) per group, with their intervals
-- param: plan  the plan (plan.name)
-- param: kind  which comparisons: within, between or all
-- param: limit = 5  how many per group
-- param: level = 0.95  confidence level of each interval
-- param: band_lo = 0.95  lower edge of the band
-- param: band_hi = 1.05  upper edge of the band
-- param: direction = forward  forward or reverse, as in comparisons
-- param: group_by = profile  run attribute that groups runs
-- type: plan = text naming a plan
-- type: kind = choice of within, between, all
-- type: limit = integer in [1, )
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
-- unmet: plan :plan has no runs with a treatment and a baseline variant; widest ranks comparisons of treatment over baseline within runs
-- needs: EXISTS (SELECT 1 FROM calibration_pair WHERE plan = :plan AND (a_attributes ->> :group_by) IS NOT DISTINCT FROM (b_attributes ->> :group_by))
-- unmet: plan :plan has no two runs of one :group_by to compare (one host at two positions, or one position on two hosts); widest judges such comparisons
-- chart: forest group=run_group colour=kind label=rank,benchmark,params,run_a,run_b estimate=estimate lo=lo hi=hi band=band_lo,band_hi log sort=none title="The comparisons farthest from 1, per group"
-- columns: run_group, rank, kind, benchmark, params, run_a, run_b, estimate, lo, hi, in_band, excludes_one
-- headline[largest |estimate|, rank=1]: the widest comparison: {benchmark}{params:cell}, {run_a} over {run_b} ({kind}[, group {run_group}]), {estimate:4} (interval {lo:4} to {hi:4})
--
-- The comparisons of the saved query `comparisons` (repeated here), ranked
-- per group by |ln estimate|, largest first (the report's widest between-VM
-- estimate, 1.549 (1.042, 2.302) for Protobuf 3 text serialize).
WITH
intervals AS (
  SELECT kind, run_group, run_a, run_b, benchmark_id, CAST(ci ->> 'estimate' AS DOUBLE PRECISION) AS e,
         CAST(ci ->> 'lo' AS DOUBLE PRECISION) AS lo, CAST(ci ->> 'hi' AS DOUBLE PRECISION) AS hi
  FROM (SELECT kind, a_attributes ->> :group_by AS run_group, run_a, run_b, benchmark_id,
               pooled_t_ci_of(a_moments, b_moments, :level, 'estimate,lo,hi') AS ci
        FROM calibration_comparison
        WHERE plan = :plan AND (a_attributes ->> :group_by) IS NOT DISTINCT FROM (b_attributes ->> :group_by)
          AND :kind IN (kind, 'all')) AS c
),
comparisons AS (
  SELECT kind, run_group, run_a, run_b, benchmark_id,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(e) ELSE exp(e) END AS estimate,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(hi) ELSE exp(lo) END AS lo,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(lo) ELSE exp(hi) END AS hi
  FROM intervals
),
ranked AS (
  SELECT c.*, row_number() OVER (PARTITION BY run_group ORDER BY abs(ln(estimate)) DESC NULLS LAST, run_a, run_b) AS rank
  FROM comparisons AS c
)
SELECT k.run_group, k.rank, k.kind, b.name AS benchmark, b.params, k.run_a, k.run_b, k.estimate, k.lo, k.hi,
       CASE WHEN k.estimate BETWEEN :band_lo AND :band_hi THEN 1 WHEN k.estimate IS NOT NULL THEN 0 END AS in_band,
       CASE WHEN k.lo > 1 OR k.hi < 1 THEN 1 WHEN k.lo IS NOT NULL THEN 0 END AS excludes_one
FROM ranked AS k
JOIN benchmark AS b ON b.id = k.benchmark_id
WHERE k.rank <= :limit
ORDER BY k.run_group NULLS FIRST, k.rank;
