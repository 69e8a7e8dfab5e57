-- name: cell-spread
-- summary: Per group and cell, the largest over the smallest geometric-mean ratio across the group's runs, and its median over cells
-- param: plan  the plan (plan.name)
-- param: group_by = profile  run attribute that groups runs (runs without it form one group)
-- type: plan = text naming a plan
-- type: group_by = text naming an attribute
-- judges: plan
-- key: run_group, benchmark, params
-- needs: EXISTS (SELECT 1 FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = :plan AND r.treatment_id IS NOT NULL)
-- unmet: plan :plan has no runs with a treatment and a baseline variant; cell-spread spreads the ratios of treatment over baseline within runs
-- chart: bar group=run_group label=benchmark,params value=spread line=group_median_spread log sort=value title="Spread of each cell's ratio across the runs of a group"
-- columns: run_group, benchmark, params, runs, min_ratio, max_ratio, spread, group_median_spread
-- headline[largest spread]: {benchmark}{params:cell} spreads most: its ratio moves {spread:4}x across the runs of[ group {run_group}] (the median cell's spread {group_median_spread:4}x)
--
-- spread = max / min over the group's runs of the cell's geometric-mean
-- treatment/baseline ratio (run_cell.geomean_ratio); group_median_spread =
-- the median of spread over the group's cells (the calibration report's
-- 1.032 and 1.028).
WITH
cells AS (
  SELECT r.attributes ->> :group_by AS run_group, c.benchmark_id, count(*) AS runs,
         min(c.geomean_ratio) AS min_ratio, max(c.geomean_ratio) AS max_ratio
  FROM plan_run AS r
  JOIN run_cell AS c ON c.run_id = r.run_id
  WHERE r.plan = :plan
  GROUP BY r.attributes ->> :group_by, c.benchmark_id
)
SELECT c.run_group, b.name AS benchmark, b.params, c.runs, c.min_ratio, c.max_ratio,
       c.max_ratio / c.min_ratio AS spread,
       median(c.max_ratio / c.min_ratio) OVER (PARTITION BY c.run_group) AS group_median_spread
FROM cells AS c
JOIN benchmark AS b ON b.id = c.benchmark_id
ORDER BY c.run_group NULLS FIRST, b.name, b.params;
