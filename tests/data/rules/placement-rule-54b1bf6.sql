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
-- needs: EXISTS (SELECT 1 FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = :plan AND r.treatment_id IS NOT NULL)
-- unmet: plan :plan has no runs with a treatment and a baseline variant; placement-rule compares treatment over baseline within runs
-- needs: EXISTS (SELECT 1 FROM plan p JOIN run a ON a.plan_id = p.id JOIN run b ON b.plan_id = p.id AND a.id < b.id AND ((a.host_id = b.host_id AND a.position <> b.position) OR (a.position = b.position AND a.host_id <> b.host_id)) AND (a.attributes ->> :group_by) IS NOT DISTINCT FROM (b.attributes ->> :group_by) WHERE p.name = :plan)
-- unmet: plan :plan has no two runs of one :group_by to compare (one host at two positions, or one position on two hosts); placement-rule judges such comparisons
-- chart: forest from=comparisons group=run_group colour=kind label=benchmark,params,run_a,run_b estimate=estimate lo=lo hi=hi band=band_lo,band_hi log title="Every comparison, per group"
--
-- The rule of calibration-report.txt. Comparisons are those of the saved
-- query `comparisons` (repeated here so that this rule's text, and so its
-- SHA-256, covers everything it computes), with ci_exp, ci_recip and
-- ci_excludes written out in SQL on the interval's numbers: the same
-- doubles (exp, 1.0 / exp), without formatting and re-parsing an interval
-- object three times per comparison. Each interval is one lookup of the
-- two runs' log ratios of the cell, not a join of every pair with every
-- ratio sorted for a GROUP BY. The ratios reach pooled_t_ci in the order
-- the GROUP BY of `comparisons` gives them (the last bits of an interval
-- depend on it): the lower run id's, then the other's, each in block order;
-- see intervals below. An interval object holds only the three members the
-- rule reads (the same numbers; its p-value is not computed). For each
-- group:
--   band_pass     = between_in_band / between_n >= min_band_share
--   interval_pass = between_excludes / between_n
--                   <= within_excludes / within_n + margin
--   pass          = band_pass AND interval_pass
-- and separate-host placement is adopted only if every group passes.
-- Shares are compared on the integer counts (a/b >= t as a >= t*b, and the
-- interval condition cross-multiplied) with a tolerance of 1e-9 comparisons,
-- far below one comparison, so that floating-point rounding can never flip
-- an exact tie: the report's Protobuf 4, 18/240 against 3/120 + 0.05, passes.
-- A group without both kinds of comparisons does not pass.
WITH
runs AS MATERIALIZED (
  SELECT r.id, r.name, r.position, h.name AS host,
         json_extract(r.attributes, '$."' || :group_by || '"') AS run_group
  FROM plan p
  JOIN run r ON r.plan_id = p.id
  JOIN host h ON h.id = r.host_id
  WHERE p.name = :plan
),
pairs AS (
  SELECT 'within' AS kind, a.run_group, a.id AS a_id, b.id AS b_id
  FROM runs a JOIN runs b
    ON b.host = a.host AND b.run_group IS a.run_group AND a.position < b.position
  UNION ALL
  SELECT 'between', a.run_group, a.id, b.id
  FROM runs a JOIN runs b
    ON b.position = a.position AND b.run_group IS a.run_group AND a.host < b.host
),
ratios AS MATERIALIZED (
  SELECT br.run_id, br.benchmark_id, br.block, br.log_ratio
  FROM block_ratio br
  WHERE br.run_id IN (SELECT id FROM runs)
),
cells AS MATERIALIZED (
  SELECT DISTINCT run_id, benchmark_id FROM ratios
),
-- One interval per pair and cell that both runs measured. Its rows come in
-- the order of the subquery's loops: o gives the lower run id, then the
-- higher; for each, the automatic index that SQLite builds on x for the
-- lookup holds its equality columns, then the other columns the query uses
-- in the CTE's column order, (run_id, benchmark_id, block, log_ratio), and
-- so gives the run's ratios in block order. x.block IS NOT NULL (always
-- true: block_ratio.block is never NULL) is there to make block one of the
-- columns used: without it the index would order them by log_ratio.
-- tests/cli/rule_comparisons.sh and bench/verify_rule.py check that the
-- comparisons are those of the saved query, to the last bit.
intervals AS MATERIALIZED (
  SELECT p.kind, p.run_group,
         (SELECT pooled_t_ci(x.log_ratio, x.run_id = p.a_id, :level, 'estimate,lo,hi')
          FROM (SELECT min(p.a_id, p.b_id) AS run_id UNION ALL SELECT max(p.a_id, p.b_id)) AS o
          CROSS JOIN ratios x ON x.run_id = o.run_id AND x.benchmark_id = c.benchmark_id
                             AND x.block IS NOT NULL) AS ci
  FROM pairs p
  CROSS JOIN cells c ON c.run_id = p.a_id
  CROSS JOIN cells d ON d.run_id = p.b_id AND d.benchmark_id = c.benchmark_id
),
logs AS MATERIALIZED (
  SELECT kind, run_group, json_extract(ci, '$.estimate') AS e, json_extract(ci, '$.lo') AS lo,
         json_extract(ci, '$.hi') AS hi
  FROM intervals
),
comparisons AS MATERIALIZED (
  SELECT kind, run_group,
         CASE WHEN :direction = 'reverse' THEN 1.0 / exp(e) ELSE exp(e) END AS estimate,
         CASE WHEN :direction = 'reverse' THEN 1.0 / exp(hi) ELSE exp(lo) END AS lo,
         CASE WHEN :direction = 'reverse' THEN 1.0 / exp(lo) ELSE exp(hi) END AS hi
  FROM logs
),
counts AS (
  SELECT run_group,
         sum(kind = 'within') AS within_n,
         sum(kind = 'between') AS between_n,
         sum(kind = 'within' AND estimate BETWEEN :band_lo AND :band_hi) AS within_in_band,
         sum(kind = 'between' AND estimate BETWEEN :band_lo AND :band_hi) AS between_in_band,
         sum(kind = 'within' AND (1 < lo OR 1 > hi)) AS within_excludes,
         sum(kind = 'between' AND (1 < lo OR 1 > hi)) AS between_excludes
  FROM comparisons
  GROUP BY run_group
),
judged AS (
  SELECT c.*,
         CASE WHEN between_n > 0 THEN 1.0 * between_in_band / between_n END AS between_band_share,
         CASE WHEN within_n > 0 THEN 1.0 * within_excludes / within_n END AS within_exclude_share,
         CASE WHEN between_n > 0 THEN 1.0 * between_excludes / between_n END AS between_exclude_share,
         coalesce(between_n > 0 AND between_in_band >= :min_band_share * between_n - 1e-9, 0) AS band_pass,
         coalesce(between_n > 0 AND within_n > 0 AND
                  1.0 * between_excludes * within_n
                    <= 1.0 * within_excludes * between_n + :margin * between_n * within_n + 1e-9, 0) AS interval_pass
  FROM counts c
),
verdict AS (
  SELECT min(band_pass AND interval_pass) AS adopt,
         group_concat(coalesce(run_group, '(no ' || :group_by || ')') || ' fails the ' ||
                      CASE WHEN NOT band_pass AND NOT interval_pass THEN 'band and interval conditions'
                           WHEN NOT band_pass THEN 'band condition'
                           ELSE 'interval condition' END, '; ')
           FILTER (WHERE NOT (band_pass AND interval_pass)) AS failures
  FROM judged
)
SELECT j.run_group, j.within_n, j.between_n, j.within_in_band, j.between_in_band,
       j.within_excludes, j.between_excludes,
       j.between_band_share, j.within_exclude_share, j.between_exclude_share,
       j.band_pass, j.interval_pass, (j.band_pass AND j.interval_pass) AS pass,
       v.adopt,
       'separate-host placement ' ||
         CASE WHEN v.adopt THEN 'adopted: every group passes both conditions'
              ELSE 'not adopted: ' || v.failures END AS verdict
FROM judged j, verdict v
ORDER BY j.run_group;
