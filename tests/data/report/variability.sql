-- name: variability-test
-- summary: (test) per host and cell, each run's geometric-mean ratio over the cell's geometric mean across the plan's runs
-- param: plan  the plan
-- key: host, benchmark, params, run
-- chart: strip group=host label=benchmark,params value=relative colour=position log ref=1 xlabel="run's ratio / the cell's geometric mean over all runs, log scale"
--
-- A stand-in for the variability query, for the report tests:
-- a dot per run, so that a strip shows how far a cell moves from run to
-- run on one host, and the host's average how far the host sits from the
-- others.
WITH c AS (
  SELECT h.name AS host, b.name AS benchmark, b.params, r.name AS run, r.position, rc.geomean_ratio AS ratio,
         exp(rc.mean_log - avg(rc.mean_log) OVER (PARTITION BY rc.benchmark_id, json_extract(r.attributes, '$.profile')))
           AS relative
  FROM plan p JOIN run r ON r.plan_id = p.id JOIN host h ON h.id = r.host_id
  JOIN run_cell rc ON rc.run_id = r.id JOIN benchmark b ON b.id = rc.benchmark_id
  WHERE p.name = :plan
)
SELECT host, benchmark, params, run, position, ratio, relative FROM c
ORDER BY host, benchmark, params, position;
