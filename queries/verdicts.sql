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
--
-- For each run and cell: the one-sample Student-t interval of the mean of
-- the block log ratios, exponentiated into a ratio interval (the ADR-0004
-- verdict of the calibration report): `established` when it excludes 1,
-- else `inconclusive` (also when fewer than two blocks leave no interval).
-- group_agrees is 1 when every run of the group gives the cell the same
-- verdict.
WITH
runs AS MATERIALIZED (
  SELECT r.id, r.name,
         json_extract(r.attributes, '$."' || :group_by || '"') AS run_group
  FROM plan p
  JOIN run r ON r.plan_id = p.id
  WHERE p.name = :plan
),
per_run AS (
  SELECT r.run_group, r.name AS run, br.benchmark_id, count(*) AS blocks,
         ci_exp(t_ci(br.log_ratio, :level)) AS ci
  FROM runs r
  JOIN block_ratio br ON br.run_id = r.id
  GROUP BY r.id, br.benchmark_id
),
judged AS (
  SELECT p.*,
         CASE WHEN coalesce(ci_excludes(p.ci, 1), 0) THEN 'established' ELSE 'inconclusive' END AS verdict
  FROM per_run p
)
SELECT j.run_group, b.name AS benchmark, b.params, j.run, j.blocks,
       json_extract(j.ci, '$.estimate') AS estimate,
       json_extract(j.ci, '$.lo') AS lo,
       json_extract(j.ci, '$.hi') AS hi,
       j.verdict,
       (min(j.verdict) OVER cell = max(j.verdict) OVER cell) AS group_agrees
FROM judged j
JOIN benchmark b ON b.id = j.benchmark_id
WINDOW cell AS (PARTITION BY j.run_group, j.benchmark_id)
ORDER BY j.run_group, b.name, b.params, j.run;
