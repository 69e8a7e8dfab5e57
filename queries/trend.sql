-- name: trend
-- summary: A cell's history on a host: every run's score, in order, for reading and for charts
-- param: benchmark  the benchmark's name
-- param: params = null  its parameters as canonical JSON, e.g. {"format":"binary","workload":"large"} (null: every cell of that name)
-- param: host = null  the host (null: every host, one history each)
-- param: metric = primary  the metric
-- param: variant = null  the variant (null: every variant)
-- param: plan = null  only runs of this plan form the history (null: every plan)
-- type: host = text naming a host
-- type: plan = text naming a plan
-- key: host, benchmark, params, metric, variant, seq
--
-- A history is one cell's scores (per metric and variant) on one host over
-- runs ordered by start time; runs without one come last, and equal or
-- missing start times are ordered by position, then plan and run name
-- (docs/queries.md). seq numbers the history's runs from 1. value is the
-- run's score: the mean of its measured values of the cell over all blocks
-- and forks; n counts them.
SELECT host, benchmark, params, metric, variant,
       row_number() OVER (PARTITION BY host_id, benchmark_id, metric, variant_id
                          ORDER BY started NULLS LAST, position NULLS LAST, plan, run) AS seq,
       started_at, run, plan, revision, n, value, unit
FROM history_point
WHERE benchmark = :benchmark AND (:params IS NULL OR params = :params)
  AND (:host IS NULL OR host = :host) AND metric = :metric
  AND (:variant IS NULL OR variant = :variant) AND (:plan IS NULL OR plan = :plan)
ORDER BY host, benchmark, params, metric, variant, seq;
