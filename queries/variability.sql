-- name: variability
-- summary: Hume's table: per host and cell, how much the scores of the host's runs vary (max/min - 1, coefficient of variation), then each host's averages over its cells
-- param: plan  the plan (plan.name)
-- param: metric = primary  which metric's values (* or null: every metric)
-- param: variant = null  only this variant (null: every variant)
-- type: plan = text naming a plan
-- type: metric = text naming a metric
-- type: variant = text naming a variant
-- key: kind, host, benchmark, params, variant, metric, unit
-- chart: strip group=kind label=host value=max_variation sort=value title="Each cell's variation across runs, per host, the most variable host first (a dot per cell; the tick: the host's average, Hume's figure)" xlabel="max variation across runs, %"
-- columns: kind, host, benchmark, params, variant, metric, unit, runs, cells, max_variation, cv, worst
-- headline[kind=host, largest max_variation]: {host} varies most: a cell's score moves by {max_variation:3}% on average across its runs (the worst cell {worst:3}%), of {count(kind=host):host/hosts}
-- headline: no cell measured twice on a host[ in plan {param(plan)}]
--
-- Andrew Hume's table of timing variability (timing-variability.txt): each
-- benchmark run in several sets on each system, and per system the
-- maximum variation and the standard deviation of each benchmark across
-- the sets, and their average. Here a set is a run, a benchmark a cell
-- (per variant, metric and unit), and a run's score for a cell is the mean
-- of its measured values over all blocks and forks (as block_score, from
-- the series' totals). Per host and cell, over the host's runs:
--   runs          how many runs measured the cell;
--   max_variation (max score / min score - 1) 100, in percent (NULL when
--                 a score is not > 0);
--   cv            the coefficient of variation, 100 stddev / mean, in
--                 percent (sample standard deviation, n - 1; NULL for one
--                 run).
-- Then one row per host (kind = 'host'): runs = the host's runs, cells =
-- its cells measured in two runs or more, max_variation and cv their
-- averages over those cells, worst the largest max_variation among them.
WITH
scores AS MATERIALIZED (
  SELECT h.name AS host, r.id AS run_id, se.benchmark_id, se.variant_id, se.metric, se.unit,
         fsum(se.total) / sum(se.n) AS score
  FROM plan p
  JOIN run r ON r.plan_id = p.id
  JOIN host h ON h.id = r.host_id
  JOIN series se ON se.run_id = r.id
  JOIN variant v ON v.id = se.variant_id
  WHERE p.name = :plan
    AND (:metric IS NULL OR :metric = '*' OR se.metric = :metric)
    AND (:variant IS NULL OR v.name = :variant)
  GROUP BY h.name, r.id, se.benchmark_id, se.variant_id, se.metric, se.unit
),
cells AS MATERIALIZED (
  SELECT host, benchmark_id, variant_id, metric, unit,
         count(*) AS runs,
         CASE WHEN min(score) > 0 THEN (max(score) / min(score) - 1) * 100 END AS max_variation,
         100 * stddev(score) / mean(score) AS cv
  FROM scores
  GROUP BY host, benchmark_id, variant_id, metric, unit
),
hosts AS (
  SELECT c.host,
         (SELECT count(DISTINCT s.run_id) FROM scores s WHERE s.host = c.host) AS runs,
         count(*) FILTER (WHERE c.runs >= 2) AS cells,
         mean(c.max_variation) FILTER (WHERE c.runs >= 2) AS max_variation,
         mean(c.cv) FILTER (WHERE c.runs >= 2) AS cv,
         max(c.max_variation) FILTER (WHERE c.runs >= 2) AS worst
  FROM cells c
  GROUP BY c.host
)
SELECT 'cell' AS kind, c.host, b.name AS benchmark, b.params, v.name AS variant, c.metric, c.unit,
       c.runs, CAST(NULL AS BIGINT) AS cells, c.max_variation, c.cv, CAST(NULL AS DOUBLE PRECISION) AS worst
FROM cells c
JOIN benchmark b ON b.id = c.benchmark_id
JOIN variant v ON v.id = c.variant_id
UNION ALL
SELECT 'host', h.host, NULL, NULL, NULL, NULL, NULL, h.runs, h.cells, h.max_variation, h.cv, h.worst
FROM hosts h
ORDER BY 1, 2, 3, 4, 5, 6, 7;
