-- name: trend
-- summary: Each cell's history on a host: every run's score, in order, with the change points marked, for reading and for charts
-- param: benchmark = null  the benchmark's name (null: every benchmark)
-- param: params = null  its parameters as canonical JSON, e.g. {"format":"binary","workload":"large"} (null: every cell of that name)
-- param: host = null  the host (null: every host, one history each)
-- param: metric = primary  the metric (null: every metric)
-- param: variant = null  the variant (null: every variant)
-- param: plan = null  only runs of this plan form the history (null: every plan)
-- param: window = 50  Otava's window of runs for the change points (an integer of at least 2)
-- param: max_pvalue = 0.001  Otava's p-value threshold
-- param: min_magnitude = 0  the smallest relative change marked (0.05: 5%)
-- type: host = text naming a host
-- type: plan = text naming a plan
-- type: benchmark = text naming a benchmark
-- type: params = text naming params
-- type: metric = text naming a metric
-- type: variant = text naming a variant
-- type: window = integer in [2, )
-- type: max_pvalue = real in (0, 1]
-- type: min_magnitude = real in [0, )
-- key: host, benchmark, params, metric, variant, seq
-- chart: series group=host,benchmark,params,metric colour=variant x=seq tick=started_at xlabel="run, in order (dates in UTC)" y=value change=change_percent revision=revision unit=unit title="Each history's scores, run by run, change points marked"
-- columns: host, benchmark, params, metric, variant, seq, run, revision, started_at, value, unit, change_percent
-- headline[change_percent!=null, largest |change_percent|]: {count(change_percent!=null):change point/change points} in {distinct(host,benchmark,params,metric,variant):history/histories} (p ≤ {param(max_pvalue)}[, a change of at least {param(min_magnitude):share}]); the largest: {benchmark}{params:cell} {change_percent:pct} on {host} at run {run}[ ({revision:sha})]
-- headline[seq>0]: no change point in {distinct(host,benchmark,params,metric,variant):history/histories} of up to {max(seq):run/runs} with p ≤ {param(max_pvalue)}[ and a change of at least {param(min_magnitude):share}]
-- headline: no history matches[ benchmark {param(benchmark)}][ on host {param(host)}][ in plan {param(plan)}]
--
-- A history is one cell's scores (per metric and variant) on one host over
-- runs ordered by start time; runs without one come last, and equal or
-- missing start times are ordered by position, then plan and run name
-- (docs/queries.md). seq numbers the history's runs from 1. value is the
-- run's score: the mean of its measured values of the cell over all blocks
-- and forks; n counts them. change_percent is set on the run where a new
-- regime begins, as 'regressions' finds it (change_points() over the
-- history with the same window, max_pvalue and min_magnitude): the change
-- of the segment means in percent; NULL on every other run.
WITH RECURSIVE
point AS (
  SELECT host_id, benchmark_id, metric, variant_id, host, benchmark, params, variant,
         row_number() OVER (PARTITION BY host_id, benchmark_id, metric, variant_id
                            ORDER BY started NULLS LAST, position NULLS LAST, plan, run) AS seq,
         started_at, run, plan, revision, n, value, unit
  FROM history_point
  WHERE (:benchmark IS NULL OR benchmark = :benchmark) AND (:params IS NULL OR params = :params)
    AND (:host IS NULL OR host = :host) AND (:metric IS NULL OR metric = :metric)
    AND (:variant IS NULL OR variant = :variant) AND (:plan IS NULL OR plan = :plan)
),
found AS (
  SELECT host_id, benchmark_id, metric, variant_id,
         change_points(seq, value, :window, :max_pvalue, :min_magnitude) AS cps
  FROM point
  GROUP BY host_id, benchmark_id, metric, variant_id
),
k(i) AS (
  SELECT 0
  UNION ALL
  SELECT i + 1 FROM k WHERE i + 1 < (SELECT max(json_array_length(cps)) FROM found)
),
cp AS (
  SELECT f.host_id, f.benchmark_id, f.metric, f.variant_id,
         CAST(f.cps -> k.i ->> 'seq' AS BIGINT) AS seq,
         CAST(f.cps -> k.i ->> 'forward_change_percent' AS DOUBLE PRECISION) AS change_percent
  FROM found AS f JOIN k ON k.i < json_array_length(f.cps)
)
SELECT p.host, p.benchmark, p.params, p.metric, p.variant, p.seq, p.started_at, p.run, p.plan, p.revision,
       p.n, p.value, p.unit, cp.change_percent
FROM point AS p
LEFT JOIN cp ON cp.host_id = p.host_id AND cp.benchmark_id = p.benchmark_id AND cp.metric = p.metric
            AND cp.variant_id = p.variant_id AND cp.seq = p.seq
ORDER BY p.host, p.benchmark, p.params, p.metric, p.variant, p.seq;
