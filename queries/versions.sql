-- name: versions
-- summary: git's t/perf table: per test and version (in the order given), an aggregate of its values and the change from the first version with a result
-- param: plan  the plan (plan.name)
-- param: versions = null  the versions, comma-separated, in the order to show them (null: every version of the plan, in the order the store first saw them)
-- param: by = variant  what a version is: variant, run, source (run.source), or attr (the value of run attribute key)
-- choices: by = variant, run, source, attr
-- param: key = null  the run attribute when by = attr
-- param: aggregate = min  what sums up a version's values: min (git's perf suite), median, mean, or trimmed (the mean without the k smallest and the k largest)
-- choices: aggregate = min, median, mean, trimmed
-- param: k = 1  values dropped from each end when aggregate = trimmed
-- param: metric = primary  only this metric (* or null: every metric)
-- param: sort = test  test: by test, then version; regression: tests by their largest change between consecutive versions, as aggregate.perl --sort-by=regression
-- choices: sort = test, regression
-- type: plan = text naming a plan
-- type: versions = text naming sides
-- type: key = text naming an attribute
-- type: k = integer in [0, )
-- type: metric = text naming a metric
-- needs: :by <> 'attr' OR :key IS NOT NULL
-- unmet: by = attr: which run attribute's values are the versions? Give it with --param key=NAME
-- show: test, params, variant, metric, unit, version, n, value, change_percent, note
-- key: test, params, variant, metric, version
-- headline[largest |step|]: the largest step between versions: {test}{params:cell}[ ({variant:variant})] {step:pct} at {version}; {distinct(test,params,variant,metric):test/tests} over {distinct(version):version/versions}
-- headline[n>0]: {distinct(test,params,variant,metric):test/tests} over {distinct(version):version/versions}, no step between two versions with values
--
-- git's t/perf/aggregate.perl on benchdb's runs (ALGORITHMS.md, section 3).
-- One row per test (a benchmark and its params, per variant unless by =
-- variant, and metric) and version, the versions in the order given (a
-- version without a value: n = 0 and value NULL, git's <missing>). value
-- is the aggregate of the version's measured values (all blocks and forks,
-- warmups left out; a value with count k counts k times; a version's other
-- units of the same kind are converted into the unit of its first one).
-- change_percent is aggregate.perl's relative_change against the first
-- version that has a value: 100.0 * (value - first) / first when first >
-- 0, with no change on that first version itself; when first is not > 0,
-- it is NULL and note says what git prints: '=' when value = 0, else
-- '+inf'. step_percent is the same between consecutive versions (both
-- with values, the earlier > 0): what --sort-by=regression ranks, the
-- largest first. (Tables show a *_percent column with its sign and %.)
WITH RECURSIVE
-- :versions split at commas, character by character.
list_chars(n, idx, item) AS (
  SELECT 0, 1, CAST('' AS TEXT)
  UNION ALL
  SELECT n + 1,
         CASE WHEN substr(:versions, n + 1, 1) = ',' THEN idx + 1 ELSE idx END,
         CASE WHEN substr(:versions, n + 1, 1) = ',' THEN '' ELSE item || substr(:versions, n + 1, 1) END
  FROM list_chars WHERE n < length(:versions)
),
listed AS (
  SELECT e.idx AS position, trim(e.item) AS version
  FROM list_chars e
  WHERE :versions IS NOT NULL AND e.n = (SELECT max(f.n) FROM list_chars f WHERE f.idx = e.idx)
),
runs AS MATERIALIZED (
  SELECT r.id, r.name, r.source, CAST(r.attributes ->> :key AS TEXT) AS attr
  FROM plan p
  JOIN run r ON r.plan_id = p.id
  WHERE p.name = :plan
),
series_version AS MATERIALIZED (
  SELECT se.id, se.benchmark_id, se.metric, se.unit, se.n, r.id AS run_id, v.id AS variant_id,
         CASE WHEN :by = 'variant' THEN 0 ELSE se.variant_id END AS variant_key,
         CASE :by WHEN 'variant' THEN v.name WHEN 'run' THEN r.name WHEN 'source' THEN r.source ELSE r.attr END
           AS version
  FROM runs r
  JOIN series se ON se.run_id = r.id
  JOIN variant v ON v.id = se.variant_id
  WHERE :metric IS NULL OR :metric = '*' OR se.metric = :metric
),
-- The versions and their positions: as listed, else in the order the store
-- first saw them (a variant's id; a run's, or the first run's of a source
-- or attribute value).
versions AS MATERIALIZED (
  SELECT position, version FROM listed
  UNION ALL
  SELECT row_number() OVER (ORDER BY first_id, version), version
  FROM (SELECT version, min(CASE WHEN :by = 'variant' THEN variant_id ELSE run_id END) AS first_id
        FROM series_version
        WHERE version IS NOT NULL
        GROUP BY version) s
  WHERE :versions IS NULL
),
placed AS MATERIALIZED (
  SELECT s.*, v.position
  FROM series_version s
  JOIN versions v ON v.version = s.version
),
-- A test's unit: that of its first version's series (the least name).
cells AS MATERIALIZED (
  SELECT p.benchmark_id, p.variant_key, p.metric, min(p.unit) AS unit
  FROM placed p
  JOIN (SELECT q.benchmark_id, q.variant_key, q.metric, min(q.position) AS position
        FROM placed q
        GROUP BY q.benchmark_id, q.variant_key, q.metric) f
    ON f.benchmark_id = p.benchmark_id AND f.variant_key = p.variant_key AND f.metric = p.metric
   AND f.position = p.position
  GROUP BY p.benchmark_id, p.variant_key, p.metric
),
scaled AS MATERIALIZED (
  SELECT p.id, p.benchmark_id, p.variant_key, p.metric, p.version,
         p.n - (SELECT max(sa.iteration) FROM sample sa WHERE sa.series_id = p.id AND sa.warmup = 0) + 1 AS max_k,
         CASE WHEN p.unit = c.unit THEN 1.0
              WHEN us.kind = uc.kind AND us.kind <> 'other' THEN us.factor / uc.factor END AS f
  FROM placed p
  JOIN cells c ON c.benchmark_id = p.benchmark_id AND c.variant_key = p.variant_key AND c.metric = p.metric
  LEFT JOIN unit us ON us.name = p.unit
  LEFT JOIN unit uc ON uc.name = c.unit
),
-- 1, 2, ... as many as the largest count of a stored value can need.
copies(n) AS (
  SELECT 1
  UNION ALL
  SELECT c.n + 1 FROM copies c, (SELECT max(max_k) AS k FROM scaled) m WHERE c.n < m.k
),
aggregated AS MATERIALIZED (
  SELECT s.benchmark_id, s.variant_key, s.metric, s.version,
         count(sa.value * s.f) AS n,
         CASE :aggregate
           WHEN 'min' THEN min(sa.value * s.f)
           WHEN 'median' THEN median(sa.value * s.f)
           WHEN 'mean' THEN trimmed_mean(sa.value * s.f, 0)
           ELSE trimmed_mean(sa.value * s.f, :k) END AS value
  FROM scaled s
  JOIN sample sa ON sa.series_id = s.id AND sa.warmup = 0
  JOIN copies c ON c.n <= sa.count
  GROUP BY s.benchmark_id, s.variant_key, s.metric, s.version
),
grid AS (
  SELECT c.benchmark_id, c.variant_key, c.metric, c.unit, v.position, v.version,
         coalesce(a.n, 0) AS n, a.value
  FROM cells c
  CROSS JOIN versions v
  LEFT JOIN aggregated a ON a.benchmark_id = c.benchmark_id AND a.variant_key = c.variant_key
                        AND a.metric = c.metric AND a.version = v.version
),
based AS (
  SELECT g.*,
         first_value(g.value) OVER cell_first AS first,
         first_value(g.position) OVER cell_first AS first_position,
         lag(g.value) OVER (PARTITION BY g.benchmark_id, g.variant_key, g.metric ORDER BY g.position) AS previous
  FROM grid g
  WINDOW cell_first AS (PARTITION BY g.benchmark_id, g.variant_key, g.metric
                        ORDER BY CASE WHEN g.value IS NULL THEN 1 ELSE 0 END, g.position
                        ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
changes AS (
  SELECT b.*,
         CASE WHEN b.value IS NOT NULL AND b.position > b.first_position AND b.first > 0
              THEN 100.0 * (b.value - b.first) / b.first END AS change,
         CASE WHEN b.value IS NOT NULL AND b.position > b.first_position AND NOT b.first > 0
              THEN CASE WHEN b.value = 0 THEN '=' ELSE '+inf' END END AS note,
         CASE WHEN b.value IS NOT NULL AND b.previous > 0
              THEN 100.0 * (b.value - b.previous) / b.previous END AS step
  FROM based b
),
ranked AS (
  SELECT c.*, max(c.step) OVER (PARTITION BY c.benchmark_id, c.variant_key, c.metric) AS largest_step
  FROM changes c
)
SELECT t.name AS test, t.params, vr.name AS variant, r.metric, r.unit, r.version, r.n, r.value,
       r.change AS change_percent, r.note, r.step AS step_percent
FROM ranked r
JOIN benchmark t ON t.id = r.benchmark_id
LEFT JOIN variant vr ON vr.id = r.variant_key
ORDER BY CASE WHEN :sort = 'regression' THEN r.largest_step END DESC NULLS LAST,
         t.name, t.params, vr.name, CASE WHEN r.metric = 'primary' THEN 0 ELSE 1 END, r.metric, r.position;
