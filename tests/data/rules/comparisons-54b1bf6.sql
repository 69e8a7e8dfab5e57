-- name: comparisons
-- summary: Within-host and between-host comparisons of a plan's runs, per cell: ratio of geometric-mean ratios with a pooled t interval
-- param: plan  the plan to judge (plan.name)
-- param: level = 0.95  confidence level of each interval
-- param: band_lo = 0.95  lower edge of the band an estimate should fall in
-- param: band_hi = 1.05  upper edge of the band
-- param: direction = forward  forward: earlier run (or first host) over later; reverse: every ratio inverted
-- param: group_by = profile  run attribute that groups runs (runs without it form one group)
-- type: plan = text naming a plan
-- type: level = real in (0, 1)
-- type: band_lo = real
-- type: band_hi = real
-- type: direction = choice of forward, reverse
-- type: group_by = text naming an attribute
-- judges: plan
-- key: run_group, kind, benchmark, params, run_a, run_b
-- needs: EXISTS (SELECT 1 FROM run r JOIN plan p ON p.id = r.plan_id WHERE p.name = :plan AND r.treatment_id IS NOT NULL)
-- unmet: plan :plan has no runs with a treatment and a baseline variant; comparisons compares treatment over baseline within runs
-- needs: EXISTS (SELECT 1 FROM plan p JOIN run a ON a.plan_id = p.id JOIN run b ON b.plan_id = p.id AND a.id < b.id AND ((a.host_id = b.host_id AND a.position <> b.position) OR (a.position = b.position AND a.host_id <> b.host_id)) AND (a.attributes ->> :group_by) IS NOT DISTINCT FROM (b.attributes ->> :group_by) WHERE p.name = :plan)
-- unmet: plan :plan has no two runs of one :group_by to compare (one host at two positions, or one position on two hosts); comparisons judges such comparisons
-- chart: forest group=run_group colour=kind label=benchmark,params,run_a,run_b estimate=estimate lo=lo hi=hi band=band_lo,band_hi log title="Every comparison, per group"
--
-- Two runs A and B are compared per cell on the log ratios of their blocks
-- (block_ratio): estimate = exp(mean of A's log ratios - mean of B's), and
-- lo, hi = the exponentiated pooled two-sample Student-t interval at `level`
-- (df = nA + nB - 2: 8 for five blocks each).
-- Within-host: every pair of runs on one host, the earlier position over the
-- later. Between-host: for each position, every pair of hosts (ordered by
-- host name) that both have a run there, the first host's run over the
-- second's. Only runs of the same group are compared, and only cells that
-- both runs measured.
WITH
runs AS MATERIALIZED (
  SELECT r.id, r.name, r.position, h.name AS host,
         json_extract(r.attributes, '$."' || :group_by || '"') AS run_group
  FROM plan p
  JOIN run r ON r.plan_id = p.id
  JOIN host h ON h.id = r.host_id
  WHERE p.name = :plan
),
pairs AS (
  SELECT 'within' AS kind, a.run_group, a.id AS a_id, b.id AS b_id, a.name AS run_a, b.name AS run_b
  FROM runs a JOIN runs b
    ON b.host = a.host AND b.run_group IS a.run_group AND a.position < b.position
  UNION ALL
  SELECT 'between', a.run_group, a.id, b.id, a.name, b.name
  FROM runs a JOIN runs b
    ON b.position = a.position AND b.run_group IS a.run_group AND a.host < b.host
),
ratios AS MATERIALIZED (
  SELECT br.run_id, br.benchmark_id, br.log_ratio
  FROM block_ratio br
  WHERE br.run_id IN (SELECT id FROM runs)
),
intervals AS (
  SELECT p.kind, p.run_group, p.run_a, p.run_b, x.benchmark_id,
         pooled_t_ci(x.log_ratio, x.run_id = p.a_id, :level) AS ci
  FROM pairs p
  JOIN ratios x ON x.run_id IN (p.a_id, p.b_id)
  GROUP BY p.kind, p.a_id, p.b_id, x.benchmark_id
  HAVING sum(x.run_id = p.a_id) > 0 AND sum(x.run_id = p.b_id) > 0
),
oriented AS (
  SELECT i.*, CASE WHEN :direction = 'reverse' THEN ci_recip(ci_exp(i.ci)) ELSE ci_exp(i.ci) END AS rci
  FROM intervals i
)
SELECT o.run_group,
       o.kind,
       b.name AS benchmark,
       b.params,
       o.run_a,
       o.run_b,
       json_extract(o.rci, '$.estimate') AS estimate,
       json_extract(o.rci, '$.lo') AS lo,
       json_extract(o.rci, '$.hi') AS hi,
       (json_extract(o.rci, '$.estimate') BETWEEN :band_lo AND :band_hi) AS in_band,
       ci_excludes(o.rci, 1) AS excludes_one
FROM oriented o
JOIN benchmark b ON b.id = o.benchmark_id
ORDER BY o.run_group, o.kind DESC, o.run_a, o.run_b, b.name, b.params;
