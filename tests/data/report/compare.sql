-- name: compare-test
-- summary: (test) per group and cell, the change from the runs at position base to those at position head, with a geometric-mean row per group
-- param: plan  the plan
-- param: base = 1  position of the baseline runs
-- param: head = 2  position of the runs compared with them
-- param: level = 0.95  confidence level
-- param: wide = 1.25  an interval wider than this ratio (hi / lo) gets a warning
-- type: base = integer
-- type: head = integer
-- type: level = real in (0, 1)
-- type: wide = real
-- key: profile, benchmark, params
-- chart: forest group=profile label=benchmark,params estimate=change lo=lo hi=hi log above=slower below=faster summary=is_summary note=warning title="Change per cell, head over base"
--
-- A stand-in for the compare query, for the report tests: the
-- block log ratios of every head run against those of every base run of
-- the group, pooled (estimate = exp(mean head - mean base), a pooled t
-- interval); then the geometric mean of the changes with a one-sample t
-- interval over the cells.
WITH
x AS (
  SELECT json_extract(r.attributes, '$.profile') AS profile, br.benchmark_id, br.log_ratio,
         r.position = :head AS is_head
  FROM plan p JOIN run r ON r.plan_id = p.id JOIN block_ratio br ON br.run_id = r.id
  WHERE p.name = :plan AND r.position IN (:base, :head)
),
cells AS (
  SELECT profile, benchmark_id, pooled_t_ci(log_ratio, is_head, :level) AS ci
  FROM x GROUP BY profile, benchmark_id
  HAVING sum(is_head) > 1 AND sum(1 - is_head) > 1
),
per AS (
  SELECT c.profile, b.name AS benchmark, b.params,
         exp(json_extract(c.ci, '$.estimate')) AS change,
         exp(json_extract(c.ci, '$.lo')) AS lo,
         exp(json_extract(c.ci, '$.hi')) AS hi
  FROM cells c JOIN benchmark b ON b.id = c.benchmark_id
),
geo AS (
  SELECT profile, t_ci(ln(change), :level) AS ci FROM per GROUP BY profile
)
SELECT profile, benchmark, params, change, lo, hi, 0 AS is_summary,
       CASE WHEN hi / lo > :wide THEN benchmark || ' ' || params || ': interval wider than ' || :wide END AS warning
FROM per
UNION ALL
SELECT profile, 'geometric mean', NULL, exp(json_extract(ci, '$.estimate')), exp(json_extract(ci, '$.lo')),
       exp(json_extract(ci, '$.hi')), 1, NULL
FROM geo
ORDER BY 1, 7, 2, 3;
