-- name: aggregations
-- summary: Per run, cell and variant: count, min, max, mean, median, trimmed mean and spread of the measured values, side by side
-- param: plan  the plan (plan.name)
-- param: benchmark = null  only cells of this benchmark name (null: every cell)
-- param: metric = primary  which metric's values (primary: the one block scores use)
-- type: plan = text naming a plan
-- type: benchmark = text naming a benchmark
-- type: metric = text naming a metric
-- judges: plan
-- key: run, benchmark, params, variant
-- needs: EXISTS (SELECT 1 FROM plan p JOIN run r ON r.plan_id = p.id JOIN series se ON se.run_id = r.id WHERE p.name = :plan AND se.metric = :metric)
-- unmet: plan :plan has no values of metric ':metric'; aggregations aggregates the measured values of one metric
-- needs: :benchmark IS NULL OR EXISTS (SELECT 1 FROM plan p JOIN run r ON r.plan_id = p.id JOIN series se ON se.run_id = r.id JOIN benchmark b ON b.id = se.benchmark_id WHERE p.name = :plan AND b.name = :benchmark)
-- unmet: plan :plan has no benchmark named ':benchmark'
-- chart: forest group=run,unit label=benchmark,params,variant estimate=median lo=min hi=max ref=none log sort=none unit=unit xlabel="median with the range [min, max], log scale" title="Each run's values per cell and variant"
-- columns: run, benchmark, params, variant, unit, n, min, median, mean, max, trimmed_mean, spread
-- headline[largest spread]: {count():cell/cells} in {distinct(run):run/runs}; the widest spread: {benchmark}{params:cell}[ ({variant})] in run {run}, max/min {spread:4} around a median of {median:4}[ {unit}]
--
-- How the choice of aggregation changes the picture (git-perf-aggregation.txt):
-- git's perf suite reports the minimum, JMH the mean; trimmed_mean drops the
-- smallest and the largest value and averages the rest. Warmup values are
-- left out; the values of all blocks and forks of a variant are pooled, and
-- a stored value with count k (a JMH sample-mode histogram bin) counts as k
-- equal values. spread = max / min. mean is benchdb's mean(): the exact
-- sum divided once (SQLite's avg() sums in row order).
WITH RECURSIVE
cells AS (
  SELECT r.id AS run_id, se.id AS series_id, se.benchmark_id, se.variant_id, se.unit
  FROM plan p
  JOIN run r ON r.plan_id = p.id
  JOIN series se ON se.run_id = r.id AND se.metric = :metric
  JOIN benchmark b ON b.id = se.benchmark_id
  WHERE p.name = :plan AND (:benchmark IS NULL OR b.name = :benchmark)
),
-- A value of count k > 1 adds k - 1 copies; only those rows recurse, so
-- that the planner sizes the recursion by sample's counts (nearly all 1)
-- rather than by every value.
more(run_id, benchmark_id, variant_id, unit, value, k) AS (
  SELECT c.run_id, c.benchmark_id, c.variant_id, c.unit, s.value, s.count - 1
  FROM cells c JOIN sample s ON s.series_id = c.series_id AND s.warmup = 0 AND s.count > 1
  UNION ALL
  SELECT run_id, benchmark_id, variant_id, unit, value, k - 1 FROM more WHERE k > 1
),
expanded AS (
  SELECT c.run_id, c.benchmark_id, c.variant_id, c.unit, s.value
  FROM cells c JOIN sample s ON s.series_id = c.series_id AND s.warmup = 0
  UNION ALL
  SELECT run_id, benchmark_id, variant_id, unit, value FROM more
)
SELECT r.name AS run, b.name AS benchmark, b.params, v.name AS variant, min(e.unit) AS unit,
       count(*) AS n,
       min(e.value) AS min,
       max(e.value) AS max,
       mean(e.value) AS mean,
       median(e.value) AS median,
       trimmed_mean(e.value, 1) AS trimmed_mean,
       spread(e.value) AS spread
FROM expanded e
JOIN run r ON r.id = e.run_id
JOIN benchmark b ON b.id = e.benchmark_id
JOIN variant v ON v.id = e.variant_id
GROUP BY r.id, b.id, v.id
ORDER BY r.name, b.name, b.params, v.name;
