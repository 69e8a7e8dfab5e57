-- name: injected-steps
-- summary: The steps 'benchdb simulate --history' injected, at the run of each history where the new level begins
-- param: host = null  only this host's histories (null: every host)
-- param: plan = null  only runs of this plan form the histories (null: every plan)
-- param: metric = primary  only this metric (null: every metric)
-- type: host = text naming a host
-- type: plan = text naming a plan
-- type: metric = text naming a metric
-- key: host, benchmark, params, metric, variant, seq
-- columns: host, benchmark, params, metric, variant, seq, run, revision, started_at, change_percent, kind
-- headline[largest |change_percent|]: {count():step/steps} injected in {distinct(host,benchmark,params,metric,variant):history/histories}; the largest, {change_percent:pct} ({kind}), in {benchmark}{params:cell} on {host} at run {run}
-- headline: no injected step[ on host {param(host)}][ in plan {param(plan)}]
--
-- The truth of a simulated history (docs/simulate.md, "Histories"): each
-- `injected-step` event names the cell (benchmark and params), metric and
-- variant of its history in its detail, and belongs to the run where the
-- step begins. change_percent is the step's size; kind is 'regression' when
-- it makes the score worse by the unit's direction (as regressions labels
-- change points), else 'improvement'. seq numbers the history's runs as the
-- gates and regressions number them, so 'benchdb backtest' can match them.
WITH
step AS (
  SELECT e.run_id, e.detail ->> 'benchmark' AS benchmark, CAST(e.detail -> 'params' AS TEXT) AS params,
         e.detail ->> 'metric' AS metric, e.detail ->> 'variant' AS variant,
         CAST(e.detail ->> 'percent' AS DOUBLE PRECISION) AS change_percent
  FROM event AS e
  WHERE e.name = 'injected-step'
),
stepped AS (
  SELECT DISTINCT hp.host_id, hp.benchmark_id, hp.metric, hp.variant_id
  FROM step AS s
  JOIN history_point AS hp ON hp.run_id = s.run_id AND hp.benchmark = s.benchmark AND hp.params = s.params
                          AND hp.metric = s.metric AND hp.variant = s.variant
),
point AS (
  SELECT hp.host, hp.benchmark, hp.params, hp.metric, hp.variant, hp.direction,
         hp.run_id, hp.run, hp.plan, hp.revision, hp.started_at,
         row_number() OVER (PARTITION BY hp.host_id, hp.benchmark_id, hp.metric, hp.variant_id
                            ORDER BY hp.started NULLS LAST, hp.position NULLS LAST, hp.plan, hp.run) AS seq
  FROM history_point AS hp
  WHERE (hp.host_id, hp.benchmark_id, hp.metric, hp.variant_id) IN (SELECT * FROM stepped)
    AND (:host IS NULL OR hp.host = :host) AND (:plan IS NULL OR hp.plan = :plan)
    AND (:metric IS NULL OR hp.metric = :metric)
)
SELECT p.host, p.benchmark, p.params, p.metric, p.variant, p.seq, p.run, p.plan, p.revision, p.started_at,
       s.change_percent,
       CASE WHEN s.change_percent = 0 THEN 'none'
            WHEN (s.change_percent > 0) = (p.direction IS NOT DISTINCT FROM 'higher') THEN 'improvement'
            ELSE 'regression' END AS kind
FROM step AS s
JOIN point AS p ON p.run_id = s.run_id AND p.benchmark = s.benchmark AND p.params = s.params
               AND p.metric = s.metric AND p.variant = s.variant
ORDER BY p.host, p.benchmark, p.params, p.metric, p.variant, p.seq;
