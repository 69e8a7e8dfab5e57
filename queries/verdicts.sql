-- name: verdicts
-- summary: Per run and cell, the one-sample t interval of the block ratios and its verdict (established or inconclusive), and whether a group's runs agree
-- param: plan  the plan (plan.name)
-- param: level = 0.95  confidence level of each interval
-- param: group_by = profile  run attribute that groups runs (runs without it form one group)
-- type: plan = text naming a plan
-- type: level = real in (0, 1)
-- type: group_by = text naming an attribute
-- judges: plan
-- key: run_group, benchmark, params, run
-- needs: EXISTS (SELECT 1 FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = :plan AND r.treatment_id IS NOT NULL)
-- unmet: plan :plan has no runs with a treatment and a baseline variant; verdicts judges treatment over baseline within runs
-- chart: forest group=run_group colour=verdict label=benchmark,params,run estimate=estimate lo=lo hi=hi log sort=none title="Each run's interval per cell, the runs of a cell side by side"
-- columns: run_group, benchmark, params, run, blocks, estimate, lo, hi, verdict, group_agrees
-- headline[verdict!=null]: {count(verdict=established)} of {count():run interval/run intervals} exclude 1 (established); the runs of {distinct(run_group,benchmark,params,group_agrees=1)} of {distinct(run_group,benchmark,params):cell/cells} agree
--
-- For each run and cell: the one-sample Student-t interval of the mean of
-- the block log ratios, exponentiated into a ratio interval (the ADR-0004
-- verdict of the calibration report): `established` when it excludes 1,
-- else `inconclusive` (also when fewer than two blocks leave no interval).
-- t_ci_of gives it from the run's stored summary (run_cell_data.moments):
-- the interval t_ci gives over the log ratios themselves. group_agrees is 1
-- when every run of the group gives the cell the same verdict.
WITH
intervals AS (
  SELECT r.attributes ->> :group_by AS run_group, r.run, c.benchmark_id, c.blocks,
         t_ci_of(c.moments, :level) AS ci
  FROM plan_run AS r
  JOIN run_cell_data AS c ON c.run_id = r.run_id
  WHERE r.plan = :plan
),
ratios AS (
  SELECT run_group, run, benchmark_id, blocks,
         exp(CAST(ci ->> 'estimate' AS DOUBLE PRECISION)) AS estimate,
         exp(CAST(ci ->> 'lo' AS DOUBLE PRECISION)) AS lo,
         exp(CAST(ci ->> 'hi' AS DOUBLE PRECISION)) AS hi
  FROM intervals
),
judged AS (
  SELECT r.*, CASE WHEN r.lo > 1 OR r.hi < 1 THEN 'established' ELSE 'inconclusive' END AS verdict
  FROM ratios AS r
)
SELECT j.run_group, b.name AS benchmark, b.params, j.run, j.blocks, j.estimate, j.lo, j.hi, j.verdict,
       CASE WHEN min(j.verdict) OVER cell = max(j.verdict) OVER cell THEN 1 ELSE 0 END AS group_agrees
FROM judged AS j
JOIN benchmark AS b ON b.id = j.benchmark_id
WINDOW cell AS (PARTITION BY j.run_group, j.benchmark_id)
ORDER BY j.run_group NULLS FIRST, b.name, b.params, j.run;
