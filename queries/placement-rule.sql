-- name: placement-rule
-- summary: The placement-calibration rule: may variants of a plan run on separate hosts? One row per group, and the verdict
-- param: plan  the calibration plan to judge (plan.name)
-- param: level = 0.95  confidence level of each comparison's interval
-- param: band_lo = 0.95  lower edge of the band a between-host estimate should fall in
-- param: band_hi = 1.05  upper edge of the band
-- param: direction = forward  forward: earlier run (or first host) over later; reverse: every ratio inverted
-- param: group_by = profile  run attribute that groups runs (runs without it form one group)
-- param: min_band_share = 0.95  condition 1: at least this share of between-host estimates inside the band
-- param: margin = 0.05  condition 2: between-host exclusion share at most the within-host share plus this
-- type: plan = text naming a plan
-- type: level = real in (0, 1)
-- type: band_lo = real
-- type: band_hi = real
-- type: direction = choice of forward, reverse
-- type: group_by = text naming an attribute
-- type: min_band_share = real in [0, 1]
-- type: margin = real
-- judges: plan
-- outcome: adopt
-- verdict: verdict
-- show: run_group, between_band_share, within_exclude_share, between_exclude_share, pass
-- key: run_group
-- needs: :band_lo < :band_hi
-- unmet: band_lo (:band_lo) must be below band_hi (:band_hi): no estimate lies in the band between them
-- needs: EXISTS (SELECT 1 FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = :plan AND r.treatment_id IS NOT NULL)
-- unmet: plan :plan has no runs with a treatment and a baseline variant; placement-rule compares treatment over baseline within runs
-- needs: EXISTS (SELECT 1 FROM calibration_pair WHERE plan = :plan AND (a_attributes ->> :group_by) IS NOT DISTINCT FROM (b_attributes ->> :group_by))
-- unmet: plan :plan has no two runs of one :group_by to compare (one host at two positions, or one position on two hosts); placement-rule judges such comparisons
-- chart: forest from=comparisons group=run_group colour=kind label=benchmark,params,run_a,run_b estimate=estimate lo=lo hi=hi band=band_lo,band_hi log title="Every comparison, per group"
-- headline[verdict!=null]: {verdict} ({count(pass=1)} of {count():group/groups} pass)
-- headline: no group to judge[ in plan {param(plan)}]
--
-- The rule of calibration-report.txt. Its comparisons are those of the
-- saved query `comparisons`: every pair of runs of one group that the
-- calibration design pairs (within one host, or between hosts at one
-- position: view calibration_comparison), per cell both measured, as the
-- ratio of the two runs' geometric-mean ratios with the pooled t interval
-- of their block log ratios (pooled_t_ci_of: the interval pooled_t_ci gives
-- over the ratios, from the runs' stored summaries). For each group:
--   band_pass     = between_in_band / between_n >= min_band_share
--   interval_pass = between_excludes / between_n
--                   <= within_excludes / within_n + margin
--   pass          = band_pass AND interval_pass
-- and separate-host placement is adopted only if every group passes.
-- Shares are compared on the integer counts (a/b >= t as a >= t*b, and the
-- interval condition cross-multiplied) with a tolerance of 1e-9 comparisons,
-- far below one comparison, so that floating-point rounding can never flip
-- an exact tie: the report's Protobuf 4, 18/240 against 3/120 + 0.05, passes.
-- A group without both kinds of comparisons does not pass. The verdict
-- names the groups that fail, in the order of the rows.
WITH
intervals AS (
  SELECT kind, run_group, CAST(ci ->> 'estimate' AS DOUBLE PRECISION) AS e,
         CAST(ci ->> 'lo' AS DOUBLE PRECISION) AS lo, CAST(ci ->> 'hi' AS DOUBLE PRECISION) AS hi
  FROM (SELECT kind, a_attributes ->> :group_by AS run_group,
               pooled_t_ci_of(a_moments, b_moments, :level, 'estimate,lo,hi') AS ci
        FROM calibration_comparison
        WHERE plan = :plan AND (a_attributes ->> :group_by) IS NOT DISTINCT FROM (b_attributes ->> :group_by)) AS c
),
comparisons AS (
  SELECT kind, run_group,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(e) ELSE exp(e) END AS estimate,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(hi) ELSE exp(lo) END AS lo,
         CASE WHEN :direction = 'reverse' THEN 1 / exp(lo) ELSE exp(hi) END AS hi
  FROM intervals
),
counts AS (
  SELECT run_group,
         count(*) FILTER (WHERE kind = 'within') AS within_n,
         count(*) FILTER (WHERE kind = 'between') AS between_n,
         count(*) FILTER (WHERE kind = 'within' AND estimate BETWEEN :band_lo AND :band_hi) AS within_in_band,
         count(*) FILTER (WHERE kind = 'between' AND estimate BETWEEN :band_lo AND :band_hi) AS between_in_band,
         count(*) FILTER (WHERE kind = 'within' AND (lo > 1 OR hi < 1)) AS within_excludes,
         count(*) FILTER (WHERE kind = 'between' AND (lo > 1 OR hi < 1)) AS between_excludes
  FROM comparisons
  GROUP BY run_group
),
judged AS (
  SELECT c.*,
         CASE WHEN between_n > 0 THEN CAST(between_in_band AS DOUBLE PRECISION) / between_n END AS between_band_share,
         CASE WHEN within_n > 0 THEN CAST(within_excludes AS DOUBLE PRECISION) / within_n END AS within_exclude_share,
         CASE WHEN between_n > 0 THEN CAST(between_excludes AS DOUBLE PRECISION) / between_n END AS between_exclude_share,
         CASE WHEN between_n > 0 AND between_in_band >= :min_band_share * between_n - 1e-9 THEN 1 ELSE 0 END AS band_pass,
         CASE WHEN between_n > 0 AND within_n > 0 AND CAST(between_excludes AS DOUBLE PRECISION) * within_n
                   <= CAST(within_excludes AS DOUBLE PRECISION) * between_n + :margin * between_n * within_n + 1e-9
              THEN 1 ELSE 0 END AS interval_pass
  FROM counts AS c
)
SELECT j.*, band_pass * interval_pass AS pass, min(band_pass * interval_pass) OVER all_groups AS adopt,
       'separate-host placement ' || CASE WHEN min(band_pass * interval_pass) OVER all_groups = 1
         THEN 'adopted: every group passes both conditions'
         ELSE 'not adopted: ' || string_agg(CASE WHEN band_pass * interval_pass = 0
           THEN coalesce(run_group, '(no ' || :group_by || ')') || ' fails the ' ||
                CASE WHEN band_pass + interval_pass = 0 THEN 'band and interval conditions'
                     WHEN band_pass = 0 THEN 'band condition' ELSE 'interval condition' END END, '; ') OVER all_groups
       END AS verdict
FROM judged AS j
WINDOW all_groups AS (ORDER BY run_group NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
ORDER BY run_group NULLS FIRST;
