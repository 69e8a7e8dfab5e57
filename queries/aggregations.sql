-- name: aggregations
-- summary: Per run, cell and variant: count, min, max, mean, median, trimmed mean and spread of the measured values, side by side
-- param: plan  the plan (plan.name)
-- param: benchmark = null  only cells of this benchmark name (null: every cell)
-- judges: plan
-- key: run, benchmark, params, variant
--
-- How the choice of aggregation changes the picture (git-perf-aggregation.txt):
-- git's perf suite reports the minimum, JMH the mean; trimmed_mean drops the
-- smallest and the largest value and averages the rest. Warmup values are
-- left out; the values of all blocks and forks of a variant are pooled.
-- spread = max / min. mean is trimmed_mean(value, 0): a compensated sum, as
-- R's mean(), where SQLite's avg() sums naively.
SELECT r.name AS run, b.name AS benchmark, b.params, v.name AS variant, min(se.unit) AS unit,
       count(*) AS n,
       min(s.value) AS min,
       max(s.value) AS max,
       trimmed_mean(s.value, 0) AS mean,
       median(s.value) AS median,
       trimmed_mean(s.value, 1) AS trimmed_mean,
       spread(s.value) AS spread
FROM plan p
JOIN run r ON r.plan_id = p.id
JOIN series se ON se.run_id = r.id
JOIN benchmark b ON b.id = se.benchmark_id
JOIN variant v ON v.id = se.variant_id
JOIN sample s ON s.series_id = se.id AND s.warmup = 0
WHERE p.name = :plan AND (:benchmark IS NULL OR b.name = :benchmark)
GROUP BY r.id, b.id, v.id
ORDER BY r.name, b.name, b.params, v.name;
