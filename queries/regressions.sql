-- name: regressions
-- summary: The change points of every history (Otava's E-divisive means and t-test): where each new regime begins, by how much, and whether it is a regression
-- param: window = 50  Otava's window of runs (an integer of at least 2)
-- param: max_pvalue = 0.001  Otava's p-value threshold
-- param: min_magnitude = 0  the smallest relative change kept (0.05: 5%)
-- param: host = null  only this host's histories (null: every host)
-- param: plan = null  only runs of this plan form the histories (null: every plan)
-- param: metric = primary  only this metric (null: every metric)
-- type: window = integer in [2, )
-- type: max_pvalue = real in (0, 1]
-- type: min_magnitude = real in [0, )
-- type: host = text naming a host
-- type: plan = text naming a plan
-- type: metric = text naming a metric
-- key: host, benchmark, params, metric, variant, seq
-- chart: series from=trend group=host,benchmark,params,metric colour=variant x=seq tick=started_at xlabel="run, in order (dates in UTC)" y=value change=change_percent revision=revision unit=unit mark=kind match=host,benchmark,params,metric,variant,seq flag=regression title="Each history's scores, run by run, change points marked (regressions first)"
-- columns: host, benchmark, params, metric, last_good_run, run, last_good_revision, revision, started_at, change_percent, pvalue, kind
-- headline[kind=regression, largest |change_percent|]: {benchmark}{params:cell} regressed by {change_percent:pct} on {host} from run {run}[ ({revision:sha})][, last good {last_good_run}]: {count(kind=regression):regression/regressions}[ and {count(kind=improvement):improvement/improvements}] in {chart.distinct(host,benchmark,params,metric,variant):history/histories}
-- headline[kind=improvement, largest |change_percent|]: no regression in {chart.distinct(host,benchmark,params,metric,variant):history/histories}; {benchmark}{params:cell} improved by {change_percent:pct} on {host} from run {run}[ ({revision:sha})]
-- headline: no change point in {chart.distinct(host,benchmark,params,metric,variant):history/histories} of up to {chart.max(seq):run/runs}[ (plan {param(plan)})]
-- headline[kind=regression, largest |change_percent|]: {count(kind=regression):regression/regressions} in {distinct(host,benchmark,params,metric,variant,kind=regression):history/histories}[ and {count(kind=improvement):improvement/improvements}] (p ≤ {param(max_pvalue)}[, a change of at least {param(min_magnitude):share}]); the largest: {benchmark}{params:cell} regressed by {change_percent:pct} on {host} from run {run}[ ({revision:sha})][, last good {last_good_run}]
-- headline[kind=improvement, largest |change_percent|]: no regression; {count(kind=improvement):improvement/improvements} in {distinct(host,benchmark,params,metric,variant,kind=improvement):history/histories} (p ≤ {param(max_pvalue)}[, a change of at least {param(min_magnitude):share}]); the largest: {benchmark}{params:cell} improved by {change_percent:pct} on {host} from run {run}[ ({revision:sha})]
-- headline[kind=none]: {count():change point/change points} in {distinct(host,benchmark,params,metric,variant):history/histories}, none a regression or an improvement (the means equal)
-- headline[without chart]: no regression: no change point[ on host {param(host)}][ in plan {param(plan)}] with p ≤ {param(max_pvalue)}[ and a change of at least {param(min_magnitude):share}]
-- headline: no history to look at[ on host {param(host)}][ in plan {param(plan)}]
--
-- Per history (host, cell, metric and variant; docs/queries.md orders its
-- runs), change_points(seq, value, window, max_pvalue, min_magnitude) over
-- the runs' scores, with Otava's defaults; one row per change point, at the
-- run where the new regime begins (the first bad run, and the run before
-- it in the history, the last good one: the range to bisect): its
-- revision and start time, the means
-- before and after (each over its segment, as Otava reports them),
-- change_percent = (after / before - 1) * 100, the t-test's p-value, and
-- kind: a change in the direction the unit calls worse is a regression
-- (slower for a time, lower for a throughput; a unit of unknown direction
-- is read as lower-is-better, as Conbench reads it), else an improvement.
WITH RECURSIVE
point AS (
  SELECT host_id, benchmark_id, metric, variant_id, host, benchmark, params, variant, direction,
         run, plan, revision, started_at, value,
         row_number() OVER (PARTITION BY host_id, benchmark_id, metric, variant_id
                            ORDER BY started NULLS LAST, position NULLS LAST, plan, run) AS seq
  FROM history_point
  WHERE (:host IS NULL OR host = :host) AND (:plan IS NULL OR plan = :plan)
    AND (:metric IS NULL OR metric = :metric)
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
         CAST(f.cps -> k.i ->> 'mean_before' AS DOUBLE PRECISION) AS before,
         CAST(f.cps -> k.i ->> 'mean_after' AS DOUBLE PRECISION) AS after,
         CAST(f.cps -> k.i ->> 'forward_change_percent' AS DOUBLE PRECISION) AS change_percent,
         CAST(f.cps -> k.i ->> 'pvalue' AS DOUBLE PRECISION) AS pvalue
  FROM found AS f JOIN k ON k.i < json_array_length(f.cps)
)
-- The answer first: the regressions, the largest change first (the worst
-- one on the first row, the one the first line names), then the
-- improvements, largest first; ties in history order.
SELECT * FROM (
SELECT p.host, p.benchmark, p.params, p.metric, p.variant, p.seq, g.run AS last_good_run, p.run, p.plan,
       g.revision AS last_good_revision, p.revision, p.started_at, cp.before, cp.after, cp.change_percent, cp.pvalue,
       CASE WHEN cp.change_percent = 0 THEN 'none'
            WHEN (cp.change_percent > 0) = (p.direction IS NOT DISTINCT FROM 'higher') THEN 'improvement'
            ELSE 'regression' END AS kind
FROM cp
JOIN point AS p ON p.host_id = cp.host_id AND p.benchmark_id = cp.benchmark_id AND p.metric = cp.metric
               AND p.variant_id = cp.variant_id AND p.seq = cp.seq
LEFT JOIN point AS g ON g.host_id = cp.host_id AND g.benchmark_id = cp.benchmark_id AND g.metric = cp.metric
                    AND g.variant_id = cp.variant_id AND g.seq = cp.seq - 1
) AS r
ORDER BY CASE r.kind WHEN 'regression' THEN 0 WHEN 'improvement' THEN 1 ELSE 2 END, abs(r.change_percent) DESC,
         r.host, r.benchmark, r.params, r.metric, r.variant, r.seq;
