-- name: trend-test
-- summary: (test) per cell, each run's geometric-mean ratio over time, a line per profile, with change points and alerts
-- param: plan  the plan
-- param: threshold = 5  a step of more than this many percent from the profile's previous run is a change point
-- param: alert = 7  a step of more than this many percent raises a gate alert
-- type: threshold = real
-- type: alert = real
-- key: profile, benchmark, params, run
-- chart: series group=benchmark,params colour=profile x=started_at y=ratio change=change_pct revision=run alert=alert ylabel="geometric-mean ratio native/chill"
--
-- A stand-in for the trend and regressions queries, for the
-- report tests: a history per cell and profile, in time order; a change
-- point where the ratio moved more than `threshold` percent from the
-- previous run's.
WITH
h AS (
  SELECT json_extract(r.attributes, '$.profile') AS profile, b.name AS benchmark, b.params, r.name AS run,
         r.started_at, rc.geomean_ratio AS ratio,
         lag(rc.geomean_ratio) OVER (PARTITION BY json_extract(r.attributes, '$.profile'), rc.benchmark_id
                                     ORDER BY r.started_at, r.name) AS prev
  FROM plan p JOIN run r ON r.plan_id = p.id JOIN run_cell rc ON rc.run_id = r.id
  JOIN benchmark b ON b.id = rc.benchmark_id
  WHERE p.name = :plan
)
SELECT profile, benchmark, params, run, started_at, ratio,
       CASE WHEN abs(ratio / prev - 1) * 100 > :threshold THEN (ratio / prev - 1) * 100 END AS change_pct,
       coalesce(abs(ratio / prev - 1) * 100 > :alert, 0) AS alert
FROM h
ORDER BY benchmark, params, profile, started_at, run;
