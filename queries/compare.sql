-- name: compare
-- summary: Two sides of a plan (runs, sources, hosts, variants or attribute values) compared per cell as benchstat does: medians, ±, change, p, verdict
-- param: plan  the plan (plan.name)
-- param: a  the baseline: a run name, a source, a host, a variant or an attribute value (see by)
-- param: b  the side compared with the baseline
-- param: by = run  what a and b name: run, source (run.source), host (every run of the host), variant, or attr (the value of run attribute key)
-- choices: by = run, source, host, variant, attr
-- param: key = null  the run attribute a and b are values of, when by = attr
-- param: metric = null  only this metric (primary, B/op, ...; null or *: every metric)
-- param: sample = value  what one sample is: value (every measured value), run (one score per run) or block (one per run and block)
-- choices: sample = value, run, block
-- param: level = 0.95  confidence level of the median's and the change's intervals
-- param: alpha = 0.05  significance level: a cell with p > alpha shows ~
-- param: method = benchstat  how mann_whitney computes p: benchstat, exact or r
-- choices: method = benchstat, exact, r
-- param: adjust = none  multiple-comparison adjustment of p over every cell: none, holm or bh (R's p.adjust)
-- choices: adjust = none, holm, bh
-- param: threshold = 0  a cell significantly slower (or worse) by more than this many percent makes the outcome regressed
-- param: exact_units = null  comma-separated units whose values are exact (benchstat's assume=exact): mode, min..max, no test
-- type: plan = text naming a plan
-- type: a = text naming a side
-- type: b = text naming a side
-- type: key = text naming an attribute
-- type: metric = text naming a metric
-- type: level = real in (0, 1)
-- type: alpha = real in [0, 1]
-- type: threshold = real in [0, )
-- judges: plan
-- outcome: no_regression
-- verdict: summary
-- show: kind, benchmark, params, variant, metric, unit, n_a, median_a, pm_a, n_b, median_b, pm_b, change, p, verdict, warnings
-- key: kind, metric, unit, benchmark, params, variant
-- needs: CAST(:a AS TEXT) <> CAST(:b AS TEXT)
-- unmet: a and b both name :a, which compares a side with nothing: give another side as b
-- needs: CAST(:by AS TEXT) <> 'attr' OR CAST(:key AS TEXT) IS NOT NULL
-- unmet: by = attr compares values of a run attribute: name it with key (-p key=NAME)
-- chart: forest group=metric,unit colour=verdict label=benchmark,params,variant estimate=change lo=change_lo hi=change_hi ref=0 sort=none summary=is_geomean note=warnings xlabel="change in %, Hodges-Lehmann interval" title="Change per cell, B over A"
-- columns: kind, benchmark, params, variant, unit, median_a, median_b, change, change_lo, change_hi, p, verdict
-- headline[no_regression=0, largest |change|]: the gate fails: {distinct(benchmark,params,variant,kind=cell,no_regression=0)} of {distinct(benchmark,params,variant,kind=cell):benchmark/benchmarks} slower or worse[ by more than {param(threshold):%}][, {distinct(benchmark,params,variant,kind=cell,verdict=slower|worse,no no_regression=0):benchmark/benchmarks} slower or worse by less], {distinct(benchmark,params,variant,kind=cell,verdict=faster|better,no verdict=slower|worse)} faster or better[, {distinct(benchmark,params,variant,kind=cell,inconclusive=1,no verdict=slower|worse|faster|better|higher|lower):benchmark/benchmarks} inconclusive (too few samples for p ≤ {param(alpha)})][, {distinct(benchmark,params,variant,kind=cell,n_a=0,no n_a>0):benchmark/benchmarks} only in {param(b)}][, {distinct(benchmark,params,variant,kind=cell,n_b=0,no n_b>0):benchmark/benchmarks} only in {param(a)}]; the largest, {benchmark}{params:cell}[ ({variant:variant})], {change:pct} ({verdict})
-- headline[kind=cell, verdict=slower|worse, largest |change|]: no benchmark slower or worse by more than {param(threshold)}%: {distinct(benchmark,params,variant,kind=cell,verdict=slower|worse)} of {distinct(benchmark,params,variant,kind=cell):benchmark/benchmarks} slower or worse by less, {distinct(benchmark,params,variant,kind=cell,verdict=faster|better,no verdict=slower|worse)} faster or better, {distinct(benchmark,params,variant,kind=cell,n_a>0,n_b>0,verdict=~|same,no verdict=slower|worse|faster|better|higher|lower,no inconclusive=1)} without a significant change (~)[, {distinct(benchmark,params,variant,kind=cell,inconclusive=1,no verdict=slower|worse|faster|better|higher|lower):benchmark/benchmarks} inconclusive (too few samples for p ≤ {param(alpha)})][, {distinct(benchmark,params,variant,kind=cell,n_a=0,no n_a>0):benchmark/benchmarks} only in {param(b)}][, {distinct(benchmark,params,variant,kind=cell,n_b=0,no n_b>0):benchmark/benchmarks} only in {param(a)}]; the largest, {benchmark}{params:cell}[ ({variant:variant})], {change:pct} ({verdict})
-- headline[kind=cell, n_a>0, n_b>0]: no benchmark slower or worse: {distinct(benchmark,params,variant,kind=cell,verdict=faster|better)} of {distinct(benchmark,params,variant,kind=cell):benchmark/benchmarks} faster or better, {distinct(benchmark,params,variant,kind=cell,n_a>0,n_b>0,verdict=~|same,no verdict=slower|worse|faster|better|higher|lower,no inconclusive=1)} without a significant change (~)[, {distinct(benchmark,params,variant,kind=cell,inconclusive=1,no verdict=slower|worse|faster|better|higher|lower):benchmark/benchmarks} inconclusive (too few samples for p ≤ {param(alpha)})][, {distinct(benchmark,params,variant,kind=cell,n_a=0,no n_a>0):benchmark/benchmarks} only in {param(b)}][, {distinct(benchmark,params,variant,kind=cell,n_b=0,no n_b>0):benchmark/benchmarks} only in {param(a)}]
-- headline: no cell compared: {param(a)} and {param(b)} share no cell[ in plan {param(plan)}]
--
-- benchstat v2 (golang.org/x/perf/cmd/benchstat) on two sides of a plan.
-- A cell is a benchmark and its params, per variant (unless by = variant)
-- and metric; the values of side b are converted into the unit of side a
-- where both units are of one kind (ns/op and us/op). Per side: n, the
-- median and "±" = 100 max(hi/median - 1, 1 - lo/median), from the
-- distribution-free interval of the median at `level` (median_ci; NULL when
-- the interval is unbounded or crosses zero). Per cell: change = (median_b
-- / median_a - 1) 100 (0 when equal, NULL when median_a = 0), p from
-- mann_whitney(x, a, method) with a as sample 1 (1 when every value is
-- equal), p_adjusted (R's p.adjust over every cell's p), change_lo and
-- change_hi = the Hodges-Lehmann interval of ln(b) - ln(a) at `level` as a
-- percentage, and verdict: ~ when p_adjusted > alpha, else from which way
-- the median moved and the unit: slower/faster (times, throughputs),
-- worse/better (other units with a direction), higher/lower (no
-- direction), same (equal medians); from median_a = 0 too, where change
-- is NULL (0 to 16 B/op is worse, by more than any threshold). warnings
-- holds benchstat's texts, and benchdb's on values left out and on a shift
-- interval too few values keep below level. A row
-- kind = 'geomean' per metric and unit gives each side's geometric mean of
-- medians and the geometric mean of per-cell ratios as change (benchstat
-- v2's summary row). no_regression, the outcome (--gate): 0 in a cell row
-- slower or worse by more than threshold percent, else 1; summary (the
-- verdict) is 'regressed' when some row has 0, else 'nothing compared'
-- when no cell has values on both sides, else 'no regression';
-- is_geomean is 1 on the geomean rows (the report draws them as diamonds).
-- inconclusive is 1 on a cell row whose ~ says nothing: its values not
-- all equal, and no outcome of the U test could reach alpha with n_a + n_b
-- values (2 / C(n_a + n_b, n_a) > alpha, benchstat's uTestMinP), as the
-- text output counts it; else 0.
-- Rows come as benchstat orders them: metrics and units, then cells, in
-- the order they were first stored (the least series id), each metric's
-- geomean row after its cells.
WITH RECURSIVE
-- exact_units split at commas, character by character (portable SQL has
-- no common function that finds a character in a string).
exact_chars(n, idx, item) AS (
  SELECT 0, 1, CAST('' AS TEXT)
  UNION ALL
  SELECT n + 1,
         CASE WHEN substr(:exact_units, n + 1, 1) = ',' THEN idx + 1 ELSE idx END,
         CASE WHEN substr(:exact_units, n + 1, 1) = ',' THEN '' ELSE item || substr(:exact_units, n + 1, 1) END
  FROM exact_chars WHERE n < length(:exact_units)
),
exact AS (
  SELECT DISTINCT trim(e.item) AS unit FROM exact_chars e
  WHERE e.n = (SELECT max(f.n) FROM exact_chars f WHERE f.idx = e.idx) AND trim(e.item) <> ''
),
runs AS MATERIALIZED (
  SELECT r.id,
         CASE :by WHEN 'run' THEN r.name WHEN 'source' THEN r.source WHEN 'host' THEN h.name
                  WHEN 'attr' THEN CAST(r.attributes ->> :key AS TEXT) END AS side_name
  FROM plan p
  JOIN run r ON r.plan_id = p.id
  JOIN host h ON h.id = r.host_id
  WHERE p.name = :plan
),
-- Every series of either side; is_a = 1 for side a.
series_side AS MATERIALIZED (
  SELECT se.id, se.run_id, se.block, se.benchmark_id,
         -- the primary metric as its harness names it (Google Benchmark's
         -- real_time, docs/formats.md)
         CASE WHEN se.metric = 'primary' THEN coalesce(CAST(se.detail ->> 'metric' AS TEXT), 'primary')
              ELSE se.metric END AS metric,
         se.unit, se.n, se.total,
         -- the largest count a stored value of the series can have: its n
         -- less its other stored values
         se.n - (SELECT max(sa.iteration) FROM sample sa WHERE sa.series_id = se.id AND sa.warmup = 0) + 1 AS max_k,
         CASE WHEN :by = 'variant' THEN 0 ELSE se.variant_id END AS variant_key,
         CASE WHEN (CASE WHEN :by = 'variant' THEN v.name ELSE r.side_name END) = CAST(:a AS TEXT)
              THEN 1 ELSE 0 END AS is_a
  FROM runs r
  JOIN series se ON se.run_id = r.id
  JOIN variant v ON v.id = se.variant_id
  WHERE (CASE WHEN :by = 'variant' THEN v.name ELSE r.side_name END) IN (CAST(:a AS TEXT), CAST(:b AS TEXT))
    AND (:metric IS NULL OR :metric = '*' OR se.metric = :metric)
),
-- The cells, each with one integer key (its least series id), and its unit:
-- side a's (the least unit name), else side b's.
cell_keys AS MATERIALIZED (
  SELECT min(id) AS cell_id, benchmark_id, variant_key, metric,
         coalesce(min(unit) FILTER (WHERE is_a = 1), min(unit)) AS unit
  FROM series_side
  GROUP BY benchmark_id, variant_key, metric
),
cells AS MATERIALIZED (
  SELECT k.*, u.kind, u.direction,
         CASE WHEN :sample = 'value' AND k.unit IN (SELECT unit FROM exact) THEN 1 ELSE 0 END AS is_exact
  FROM cell_keys k
  LEFT JOIN unit u ON u.name = k.unit
),
-- Each series with its cell and the factor that turns its values into the
-- cell's unit (NULL: a unit of another kind, whose values are left out).
scaled AS MATERIALIZED (
  SELECT s.id, s.run_id, s.block, c.cell_id, s.is_a, s.n, s.total, s.max_k,
         CASE WHEN :sample = 'value' AND c.unit IN (SELECT unit FROM exact) THEN 1 ELSE 0 END AS is_exact,
         CASE WHEN s.unit = c.unit THEN 1.0
              WHEN us.kind = uc.kind AND us.kind <> 'other' THEN us.factor / uc.factor END AS f
  FROM series_side s
  JOIN cell_keys c ON c.benchmark_id = s.benchmark_id AND c.variant_key = s.variant_key AND c.metric = s.metric
  LEFT JOIN unit us ON us.name = s.unit
  LEFT JOIN unit uc ON uc.name = c.unit
),
-- 1, 2, ... as many as the largest count of a stored value can need.
copies(n) AS (
  SELECT 1
  UNION ALL
  SELECT c.n + 1 FROM copies c, (SELECT max(max_k) AS k FROM series_side) m WHERE c.n < m.k
),
-- The samples: every measured value (a stored value with count k as k
-- values; only series that have one are joined with copies), or one score
-- per run, or per run and block (the mean of its values, as block_score).
-- Not materialized: stats reads it once, so storing every value first
-- would only cost time.
vals(cell_id, is_a, x) AS NOT MATERIALIZED (
  SELECT s.cell_id, s.is_a, sa.value * s.f
  FROM scaled s
  JOIN sample sa ON sa.series_id = s.id AND sa.warmup = 0
  WHERE :sample = 'value' AND s.f IS NOT NULL AND s.max_k = 1
  UNION ALL
  SELECT s.cell_id, s.is_a, sa.value * s.f
  FROM scaled s
  JOIN sample sa ON sa.series_id = s.id AND sa.warmup = 0
  JOIN copies k ON k.n <= sa.count
  WHERE :sample = 'value' AND s.f IS NOT NULL AND s.max_k > 1
  UNION ALL
  SELECT s.cell_id, s.is_a, fsum(s.total * s.f) / sum(s.n)
  FROM scaled s
  WHERE :sample <> 'value' AND s.f IS NOT NULL
  GROUP BY s.run_id, CASE WHEN :sample = 'block' THEN s.block END, s.cell_id, s.is_a
),
-- Per cell, the values left out for their unit.
dropped AS MATERIALIZED (
  SELECT cell_id, sum(n) AS n
  FROM scaled
  WHERE f IS NULL
  GROUP BY cell_id
),
-- Everything per cell in one pass: both sides' medians with their
-- intervals, ranges and counts, the U test and the Hodges-Lehmann interval
-- of the log values (b as sample 1: ln b - ln a). A JSON result read for
-- several members is one aggregate (SQLite and PostgreSQL compute an
-- aggregate call written twice once).
stats AS MATERIALIZED (
  SELECT cell_id,
         coalesce(CAST(median_ci(x, :level) FILTER (WHERE is_a = 1) ->> 'n' AS BIGINT), 0) AS n_a,
         coalesce(CAST(median_ci(x, :level) FILTER (WHERE is_a = 0) ->> 'n' AS BIGINT), 0) AS n_b,
         CAST(median_ci(x, :level) FILTER (WHERE is_a = 1) ->> 'center' AS DOUBLE PRECISION) AS median_a,
         CAST(median_ci(x, :level) FILTER (WHERE is_a = 1) ->> 'lo' AS DOUBLE PRECISION) AS lo_a,
         CAST(median_ci(x, :level) FILTER (WHERE is_a = 1) ->> 'hi' AS DOUBLE PRECISION) AS hi_a,
         CAST(median_ci(x, :level) FILTER (WHERE is_a = 0) ->> 'center' AS DOUBLE PRECISION) AS median_b,
         CAST(median_ci(x, :level) FILTER (WHERE is_a = 0) ->> 'lo' AS DOUBLE PRECISION) AS lo_b,
         CAST(median_ci(x, :level) FILTER (WHERE is_a = 0) ->> 'hi' AS DOUBLE PRECISION) AS hi_b,
         CASE WHEN mann_whitney(x, is_a, :method) IS NOT NULL THEN 1 ELSE 0 END AS tested,
         CAST(mann_whitney(x, is_a, :method) ->> 'p' AS DOUBLE PRECISION) AS p_raw,
         -- ln(x) of the positive values: the interval only when they are all
         CAST(hodges_lehmann(ln(CASE WHEN x > 0 THEN x END), 1 - is_a, :level) ->> 'n1' AS BIGINT) AS hl_n_b,
         CAST(hodges_lehmann(ln(CASE WHEN x > 0 THEN x END), 1 - is_a, :level) ->> 'n2' AS BIGINT) AS hl_n_a,
         CAST(hodges_lehmann(ln(CASE WHEN x > 0 THEN x END), 1 - is_a, :level) ->> 'lo' AS DOUBLE PRECISION) AS hl_lo,
         CAST(hodges_lehmann(ln(CASE WHEN x > 0 THEN x END), 1 - is_a, :level) ->> 'hi' AS DOUBLE PRECISION) AS hl_hi
  FROM vals
  GROUP BY cell_id
),
-- benchstat's center for an exact unit: the most frequent value (the
-- least of equally frequent ones). Read from the values of the exact
-- units' series only, so that a compare without exact units reads no
-- value twice.
freq AS MATERIALIZED (
  SELECT s.cell_id, s.is_a, sa.value * s.f AS x, count(*) AS c
  FROM scaled s
  JOIN sample sa ON sa.series_id = s.id AND sa.warmup = 0
  JOIN copies k ON k.n <= sa.count
  WHERE s.is_exact = 1 AND s.f IS NOT NULL
  GROUP BY s.cell_id, s.is_a, sa.value * s.f
),
-- Per cell, each side's mode, range and the warning when the range is
-- wider than one value (exact units only).
sides_exact AS (
  SELECT cell_id, is_a, max(x) FILTER (WHERE r = 1) AS mode, min(x) AS lo, max(x) AS hi
  FROM (SELECT f.*, row_number() OVER (PARTITION BY f.cell_id, f.is_a ORDER BY f.c DESC, f.x) AS r FROM freq f) t
  GROUP BY cell_id, is_a
),
ranges AS (
  SELECT cell_id, is_a, mode, lo, hi,
         -- a number as text: an integer without a fraction
         CASE WHEN lo <> hi
              THEN 'exact distribution expected, but values range from '
                   || CASE WHEN abs(lo) < 1e15 AND lo = floor(lo) THEN CAST(CAST(lo AS BIGINT) AS TEXT)
                           ELSE CAST(lo AS TEXT) END
                   || ' to '
                   || CASE WHEN abs(hi) < 1e15 AND hi = floor(hi) THEN CAST(CAST(hi AS BIGINT) AS TEXT)
                           ELSE CAST(hi AS TEXT) END END AS range_warning
  FROM sides_exact
),
modes AS MATERIALIZED (
  SELECT cell_id,
         max(CASE WHEN is_a = 1 THEN mode END) AS mode_a, max(CASE WHEN is_a = 0 THEN mode END) AS mode_b,
         max(CASE WHEN is_a = 1 THEN lo END) AS min_a, max(CASE WHEN is_a = 0 THEN lo END) AS min_b,
         max(CASE WHEN is_a = 1 THEN hi END) AS max_a, max(CASE WHEN is_a = 0 THEN hi END) AS max_b,
         max(CASE WHEN is_a = 1 THEN range_warning END) AS range_a,
         max(CASE WHEN is_a = 0 THEN range_warning END) AS range_b
  FROM ranges
  GROUP BY cell_id
),
-- The least n at which the median's interval at `level` is bounded, and
-- the least n per sample at which the U test can reach alpha (benchstat's
-- uTestMinP: 2 / C(2n, n)); NULL: more than 50 and 10.
seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 50),
need_ci AS (
  SELECT min(t.n) AS n
  FROM (SELECT k.n, median_ci(CAST(i.n AS DOUBLE PRECISION), :level) AS ci
        FROM seq k JOIN seq i ON i.n <= k.n
        WHERE k.n >= 2
        GROUP BY k.n) t
  WHERE CAST(t.ci ->> 'lo_order' AS BIGINT) > 0 AND CAST(t.ci ->> 'hi_order' AS BIGINT) <= t.n
),
u_min_p(n, p) AS (
  VALUES (1, 1.0), (2, 0.3333333333333333), (3, 0.1), (4, 0.02857142857142857), (5, 0.007936507936507936),
         (6, 0.0021645021645021645), (7, 0.0005827505827505828), (8, 0.0001554001554001554),
         (9, 4.113533525298231e-05)
),
need_u AS (
  SELECT min(n) AS n FROM u_min_p WHERE p <= :alpha
),
messages AS (
  SELECT 'need ' || coalesce('>= ' || CAST(c.n AS TEXT), '> 50') || ' samples for confidence interval at level '
           || CAST(:level AS TEXT) AS ci_msg,
         'need ' || coalesce('>= ' || CAST(u.n AS TEXT), '> 10') || ' samples to detect a difference at alpha level '
           || CAST(:alpha AS TEXT) AS u_msg,
         coalesce(u.n, 11) AS u_n,
         '
' AS nl
  FROM need_ci c, need_u u
),
-- Per cell: each side's center and interval (median_ci's; for an exact
-- unit the mode and the range), "±", the change, p and its interval.
summaries AS (
  SELECT c.cell_id, c.benchmark_id, c.variant_key, c.metric, c.unit, c.kind, c.direction, c.is_exact,
         s.n_a, s.n_b, coalesce(d.n, 0) AS dropped, m.range_a, m.range_b,
         CASE WHEN c.is_exact = 1 THEN m.mode_a ELSE s.median_a END AS median_a,
         CASE WHEN c.is_exact = 1 THEN m.min_a ELSE s.lo_a END AS lo_a,
         CASE WHEN c.is_exact = 1 THEN m.max_a ELSE s.hi_a END AS hi_a,
         CASE WHEN c.is_exact = 1 THEN m.mode_b ELSE s.median_b END AS median_b,
         CASE WHEN c.is_exact = 1 THEN m.min_b ELSE s.lo_b END AS lo_b,
         CASE WHEN c.is_exact = 1 THEN m.max_b ELSE s.hi_b END AS hi_b,
         CASE WHEN c.is_exact = 0 AND s.hl_n_a = s.n_a AND s.hl_n_b = s.n_b THEN (exp(s.hl_lo) - 1) * 100 END
           AS change_lo,
         CASE WHEN c.is_exact = 0 AND s.hl_n_a = s.n_a AND s.hl_n_b = s.n_b THEN (exp(s.hl_hi) - 1) * 100 END
           AS change_hi,
         CASE WHEN c.is_exact = 0 AND s.tested = 1 THEN coalesce(s.p_raw, 1.0) END AS p,
         CASE WHEN c.is_exact = 0 AND s.tested = 1 AND s.p_raw IS NULL THEN 1 ELSE 0 END AS all_equal
  FROM stats s
  JOIN cells c ON c.cell_id = s.cell_id
  LEFT JOIN modes m ON m.cell_id = s.cell_id
  LEFT JOIN dropped d ON d.cell_id = s.cell_id
  WHERE s.n_a > 0 OR s.n_b > 0
),
compared AS MATERIALIZED (
  SELECT s.*,
         CASE WHEN lo_a IS NULL OR hi_a IS NULL THEN NULL
              WHEN sign(lo_a) <> sign(median_a) OR sign(hi_a) <> sign(median_a) THEN NULL
              WHEN median_a = 0 THEN 0.0
              ELSE 100 * greatest(hi_a / median_a - 1, 1 - lo_a / median_a) END AS pm_a,
         CASE WHEN lo_b IS NULL OR hi_b IS NULL THEN NULL
              WHEN sign(lo_b) <> sign(median_b) OR sign(hi_b) <> sign(median_b) THEN NULL
              WHEN median_b = 0 THEN 0.0
              ELSE 100 * greatest(hi_b / median_b - 1, 1 - lo_b / median_b) END AS pm_b,
         CASE WHEN median_a IS NULL OR median_b IS NULL THEN NULL
              WHEN median_b = median_a THEN 0.0
              WHEN median_a = 0 THEN NULL
              ELSE (median_b / median_a - 1) * 100 END AS change
  FROM summaries s
),
-- R's p.adjust over every p: i = the rank of p (ascending), m = how many.
ranked AS MATERIALIZED (
  SELECT cell_id, p,
         row_number() OVER (ORDER BY p, cell_id) AS i,
         count(*) OVER () AS m
  FROM compared
  WHERE p IS NOT NULL AND :adjust <> 'none'
),
adjusted AS MATERIALIZED (
  SELECT cell_id,
         CASE WHEN :adjust = 'holm'
                THEN least(1.0, max((m - i + 1) * p) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))
              ELSE least(1.0, min(CAST(m AS DOUBLE PRECISION) / i * p)
                                OVER (ORDER BY i DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) END
           AS p_adjusted
  FROM ranked
),
-- The same rows as a plain table, which SQLite indexes for the join (it
-- does not index the result of window functions).
adjusted_by_cell AS MATERIALIZED (
  SELECT cell_id, max(p_adjusted) AS p_adjusted
  FROM adjusted
  GROUP BY cell_id
),
judged AS (
  SELECT c.*, a.p_adjusted,
         CASE WHEN c.median_a IS NULL OR c.median_b IS NULL THEN NULL
              WHEN c.is_exact = 0 AND coalesce(a.p_adjusted, c.p) > :alpha THEN '~'
              WHEN c.change = 0 THEN 'same'
              WHEN c.kind = 'time' THEN CASE WHEN c.median_b > c.median_a THEN 'slower' ELSE 'faster' END
              WHEN c.kind IN ('throughput', 'byte-throughput') THEN CASE WHEN c.median_b > c.median_a THEN 'faster' ELSE 'slower' END
              WHEN c.direction = 'lower' THEN CASE WHEN c.median_b > c.median_a THEN 'worse' ELSE 'better' END
              WHEN c.direction = 'higher' THEN CASE WHEN c.median_b > c.median_a THEN 'better' ELSE 'worse' END
              ELSE CASE WHEN c.median_b > c.median_a THEN 'higher' ELSE 'lower' END END AS verdict
  FROM compared c
  LEFT JOIN adjusted_by_cell a ON a.cell_id = c.cell_id
),
-- How many orderings of the two sides' values there are, C(n_a + n_b, k)
-- with k the smaller side, up to k = 7 (NULL beyond): the widest interval
-- of the shift has confidence 1 - 2 / orderings at most, so with fewer
-- than 2 / (1 - level) orderings (3 + 3 values at 0.95) the interval
-- cannot reach the level asked, and a warning says so.
orderings AS (
  SELECT cell_id,
         CASE WHEN k = 1 THEN n
              WHEN k = 2 THEN n * (n - 1) / 2
              WHEN k = 3 THEN n * (n - 1) * (n - 2) / 6
              WHEN k = 4 THEN n * (n - 1) * (n - 2) * (n - 3) / 24
              WHEN k = 5 THEN n * (n - 1) * (n - 2) * (n - 3) * (n - 4) / 120
              WHEN k = 6 THEN n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5) / 720
              WHEN k = 7 THEN n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5) * (n - 6) / 5040 END AS c
  FROM (SELECT cell_id, CAST(n_a + n_b AS DOUBLE PRECISION) AS n, CASE WHEN n_a < n_b THEN n_a ELSE n_b END AS k
        FROM judged) AS s
),
cell_rows AS (
  SELECT 'cell' AS kind, j.metric, j.unit, j.benchmark_id, j.variant_key,
         j.n_a, j.median_a, j.pm_a, j.n_b, j.median_b, j.pm_b, j.change, j.change_lo, j.change_hi,
         j.p, CASE WHEN :adjust = 'none' THEN j.p ELSE j.p_adjusted END AS p_adjusted, j.verdict,
         nullif(substr(
           coalesce(m.nl || CASE WHEN j.is_exact = 0 AND ((j.n_a > 0 AND (j.lo_a IS NULL OR j.hi_a IS NULL))
                                                      OR (j.n_b > 0 AND (j.lo_b IS NULL OR j.hi_b IS NULL)))
                                 THEN m.ci_msg END, '') ||
           coalesce(m.nl || CASE WHEN j.is_exact = 1 THEN j.range_a END, '') ||
           coalesce(m.nl || CASE WHEN j.is_exact = 1 AND j.range_b IS DISTINCT FROM j.range_a THEN j.range_b END, '') ||
           coalesce(m.nl || CASE WHEN j.all_equal = 1 THEN 'all samples are equal' END, '') ||
           coalesce(m.nl || CASE WHEN j.all_equal = 0 AND j.p > :alpha AND j.n_a < m.u_n AND j.n_b < m.u_n
                                 THEN m.u_msg END, '') ||
           coalesce(m.nl || CASE WHEN j.change_lo IS NOT NULL AND 2 / o.c > 1 - :level
                                 THEN 'with ' || CAST(j.n_a AS TEXT) || '+' || CAST(j.n_b AS TEXT)
                                      || ' values the shift''s interval cannot reach confidence '
                                      || CAST(:level AS TEXT) END, '') ||
           coalesce(m.nl || CASE WHEN j.dropped > 0
                                 THEN CAST(j.dropped AS TEXT) || ' values in a unit that does not convert to '
                                      || j.unit || ' left out' END, ''),
           2), '') AS warnings,
         CASE WHEN j.verdict = '~' AND j.all_equal = 0 AND j.n_a > 0 AND j.n_b > 0 AND j.p > :alpha
                   AND coalesce(2 / o.c, 0) > :alpha THEN 1 ELSE 0 END AS inconclusive,
         j.cell_id
  FROM judged j JOIN orderings o ON o.cell_id = j.cell_id, messages m
),
-- benchstat's geomean row: each side's geometric mean of its medians, and
-- the geometric mean of the ratios of the cells both sides have (1 when
-- equal, also 0/0; undefined when median_a = 0 alone).
ratios AS (
  SELECT metric, unit, cell_id, median_a, median_b,
         CASE WHEN median_a IS NULL OR median_b IS NULL THEN NULL
              WHEN median_b = median_a THEN 1.0
              WHEN median_a = 0 THEN NULL
              ELSE median_b / median_a END AS ratio,
         CASE WHEN median_a IS NOT NULL AND median_b IS NOT NULL THEN 1 ELSE 0 END AS both_sides
  FROM compared
),
geomeans AS (
  SELECT metric, unit, min(cell_id) AS first_cell,
         count(median_a) AS n_a, count(median_b) AS n_b, sum(both_sides) AS n_both,
         count(*) FILTER (WHERE median_a <= 0) AS bad_a,
         count(*) FILTER (WHERE median_b <= 0) AS bad_b,
         count(*) FILTER (WHERE both_sides = 1 AND ratio IS NULL) AS undefined_ratios,
         count(*) FILTER (WHERE ratio <= 0) AS bad_ratios,
         geomean(CASE WHEN median_a > 0 THEN median_a END) AS gm_a,
         geomean(CASE WHEN median_b > 0 THEN median_b END) AS gm_b,
         geomean(CASE WHEN ratio > 0 THEN ratio END) AS gm_ratio
  FROM ratios
  GROUP BY metric, unit
),
geomean_rows AS (
  SELECT 'geomean' AS kind, metric, unit, CAST(NULL AS BIGINT) AS benchmark_id, CAST(NULL AS BIGINT) AS variant_key,
         n_a, CASE WHEN bad_a = 0 THEN gm_a END AS median_a, CAST(NULL AS DOUBLE PRECISION) AS pm_a,
         n_b, CASE WHEN bad_b = 0 THEN gm_b END AS median_b, CAST(NULL AS DOUBLE PRECISION) AS pm_b,
         CASE WHEN n_both > 0 AND undefined_ratios = 0 AND bad_ratios = 0 THEN (gm_ratio - 1) * 100 END AS change,
         CAST(NULL AS DOUBLE PRECISION) AS change_lo, CAST(NULL AS DOUBLE PRECISION) AS change_hi,
         CAST(NULL AS DOUBLE PRECISION) AS p, CAST(NULL AS DOUBLE PRECISION) AS p_adjusted,
         CAST(NULL AS TEXT) AS verdict,
         nullif(substr(
           coalesce(m.nl || CASE WHEN bad_a > 0 OR bad_b > 0 THEN 'summaries must be >0 to compute geomean' END, '') ||
           coalesce(m.nl || CASE WHEN bad_ratios > 0 THEN 'ratios must be >0 to compute geomean' END, '') ||
           coalesce(m.nl || CASE WHEN n_both <> n_a OR n_both <> n_b
                                 THEN 'benchmark set differs from baseline; geomeans may not be comparable' END, ''),
           2), '') AS warnings,
         0 AS inconclusive,
         first_cell AS cell_id
  FROM geomeans, messages m
),
all_rows AS (
  SELECT * FROM cell_rows
  UNION ALL
  SELECT * FROM geomean_rows
)
SELECT r.kind, b.name AS benchmark, b.params, v.name AS variant, r.metric, r.unit,
       r.n_a, r.median_a, r.pm_a, r.n_b, r.median_b, r.pm_b,
       r.change, r.change_lo, r.change_hi, r.p, r.p_adjusted, r.verdict, r.warnings,
       CASE WHEN r.verdict IN ('slower', 'worse') AND (r.change IS NULL OR abs(r.change) > :threshold) THEN 0
            ELSE 1 END AS no_regression,
       CASE WHEN count(*) FILTER (WHERE r.verdict IN ('slower', 'worse')
                                   AND (r.change IS NULL OR abs(r.change) > :threshold)) OVER () > 0
            THEN 'regressed'
            WHEN count(*) FILTER (WHERE r.kind = 'cell' AND r.n_a > 0 AND r.n_b > 0) OVER () = 0
            THEN 'nothing compared' ELSE 'no regression' END AS summary,
       CASE WHEN r.kind = 'geomean' THEN 1 ELSE 0 END AS is_geomean, r.inconclusive
FROM all_rows r
LEFT JOIN benchmark b ON b.id = r.benchmark_id
LEFT JOIN variant v ON v.id = r.variant_key
ORDER BY min(r.cell_id) OVER (PARTITION BY r.metric, r.unit), CASE WHEN r.kind = 'cell' THEN 0 ELSE 1 END,
         r.cell_id;
