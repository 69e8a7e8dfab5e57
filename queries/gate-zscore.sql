-- name: gate-zscore
-- summary: Conbench's lookback z-score: the latest run of each history against the distribution of up to 100 runs before it
-- param: threshold = 5  a change is flagged when |z| exceeds this (Conbench's threshold_z)
-- param: runs = 100  the distribution: up to this many runs before the one judged (Conbench's DISTRIBUTION_COMMITS)
-- param: min_runs = 8  fewer runs in the distribution: no alert (the first nights of a history; 8 chosen by back-testing, docs/queries.md)
-- param: svs = best  a run's single value summary: best (its smallest measured value, the largest for a higher-is-better unit) or mean
-- choices: svs = best, mean
-- param: scope = latest  latest: each history's latest run; every: every run, each against the runs before it (what backtest reads)
-- choices: scope = latest, every
-- param: host = null  only this host's histories (null: every host)
-- param: plan = null  only runs of this plan form the histories (null: every plan)
-- param: metric = primary  only this metric (null: every metric)
-- param: since = null  judge only runs started at or after this UTC time, written 2026-01-31 or 2026-01-31T00:00:00.000Z (earlier runs still form distributions)
-- type: threshold = real in (0, )
-- type: runs = integer in [1, )
-- type: min_runs = integer in [2, )
-- type: host = text naming a host
-- type: plan = text naming a plan
-- type: metric = text naming a metric
-- type: since = time
-- outcome: pass
-- key: host, benchmark, params, metric, variant, seq
-- chart: series from=gate-zscore with=scope=every group=host,benchmark,params,metric colour=variant x=seq tick=started_at xlabel="run, in order (dates in UTC)" y=value lower=lower upper=upper alert=alert unit=unit title="Every run of each history as the gate judges it: the score, the limits, the alerts (histories with alerts first)"
-- columns: host, benchmark, params, metric, variant, run, revision, value, unit, mean, z, limit, alert, pass
-- headline[pass=0, smallest statistic]: the gate fails: {count(pass=0)} of {count(lower!=null):run/runs} judged regressed, in {distinct(host,benchmark,params,metric,variant,pass=0):history/histories}; the worst, {benchmark}{params:cell} on {host} at run {run}[ ({revision:sha})], has z = {z:3} (limit {limit})[; {count(lower=null):run/runs} not judged (a distribution of under {param(min_runs):run/runs}, or no spread)][; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline[pass=1, lower!=null]: the gate passes: {count(lower!=null):run/runs} judged in {distinct(host,benchmark,params,metric,variant,lower!=null):history/histories}, all within |z| <= {param(threshold)}[; {count(alert=improvement):improvement/improvements}][; {count(lower=null):run/runs} not judged (a distribution of under {param(min_runs):run/runs}, or no spread)][; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline[pass=1]: the gate passes without judging a run: {count():run/runs} in {distinct(host,benchmark,params,metric,variant):history/histories}, none with a distribution of {param(min_runs):run/runs} and a spread to judge it against[; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline: no history to judge[ on host {param(host)}][ in plan {param(plan)}][ since {param(since)}]
--
-- Conbench (conbench/conbench at 3af4a55, docs/pages/lookback_zscore.md):
-- a run's single value summary (SVS) is compared with the distribution of
-- the SVSs of the runs before it in its history, at most `runs` of them:
-- lookback_baseline() leaves out spikes that came back (outliers), takes
-- the mean of the rest and the standard deviation of their residuals (each
-- SVS minus the mean of the ones before it). z = (SVS - mean) / stddev,
-- negated when lower is better (times: a unit of unknown direction counts
-- as lower-is-better, as in Conbench), so a negative z is a regression:
-- alert 'regression' when -z > threshold, 'improvement' when z > threshold,
-- none when the distribution has fewer than min_runs runs (benchdb's: the
-- first nights of a history would alarm on a spread of two or three
-- values) or no spread. lower
-- and upper are the values at which z reaches -threshold and threshold;
-- null where no alert can fire (as the other gates' limits are), so that
-- a run not judged is one whose lower is null.
-- statistic = z, limit = -threshold (a regression lies below it); pass = 0
-- on a regression. One run per commit stands in for Conbench's commits.
WITH
point AS (
  SELECT host_id, benchmark_id, metric, variant_id, run_id, started, direction, value,
         row_number() OVER (PARTITION BY host_id, benchmark_id, metric, variant_id
                            ORDER BY started NULLS LAST, position NULLS LAST, plan, run) AS seq,
         count(*) OVER (PARTITION BY host_id, benchmark_id, metric, variant_id) AS points,
         max(started) OVER (PARTITION BY host_id) AS host_latest
  FROM history_point
  WHERE (:host IS NULL OR host = :host) AND (:plan IS NULL OR plan = :plan)
    AND (:metric IS NULL OR metric = :metric)
),
-- A run's smallest and largest measured value per history point: its
-- single value summary when svs = best.
extremes AS (
  SELECT se.run_id, se.benchmark_id, se.variant_id, se.metric, min(sa.value) AS lo, max(sa.value) AS hi
  FROM series AS se
  JOIN sample AS sa ON sa.series_id = se.id AND sa.warmup = 0
  WHERE :svs <> 'mean' AND se.run_id IN (SELECT run_id FROM point)
  GROUP BY se.run_id, se.benchmark_id, se.variant_id, se.metric
),
judged AS (
  SELECT p.*,
         CASE WHEN :svs = 'mean' THEN p.value
              WHEN p.direction IS NOT DISTINCT FROM 'higher' THEN x.hi
              ELSE x.lo
         END AS svs,
         CASE WHEN p.direction IS NOT DISTINCT FROM 'higher' THEN 1 ELSE -1 END AS sign
  FROM point AS p
  LEFT JOIN extremes AS x ON x.run_id = p.run_id AND x.benchmark_id = p.benchmark_id
                         AND x.variant_id = p.variant_id AND x.metric = p.metric
  WHERE :scope = 'every' OR p.seq > p.points - :runs - 1
),
dist AS (
  SELECT j.*,
         lookback_baseline(j.seq, j.svs) OVER (PARTITION BY j.host_id, j.benchmark_id, j.metric, j.variant_id
                                               ORDER BY j.seq ROWS BETWEEN :runs PRECEDING AND 1 PRECEDING) AS d
  FROM judged AS j
),
stats AS (
  SELECT d.*,
         CAST(d.d ->> 'n' AS BIGINT) AS baseline_n,
         CAST(d.d ->> 'outliers' AS BIGINT) AS outliers,
         CAST(d.d ->> 'mean' AS DOUBLE PRECISION) AS mean,
         CAST(d.d ->> 'stddev' AS DOUBLE PRECISION) AS stddev
  FROM dist AS d
),
scored AS (
  SELECT s.*, CASE WHEN s.stddev > 0 THEN s.sign * ((s.svs - s.mean) / s.stddev) END AS z
  FROM stats AS s
)
SELECT h.host, h.benchmark, h.params, h.metric, h.variant, h.unit, s.seq, h.run, h.plan, h.revision, h.started_at,
       s.svs AS value, s.baseline_n, s.outliers, s.mean, s.stddev, s.z,
       CASE WHEN s.baseline_n >= :min_runs AND s.z IS NOT NULL
            THEN s.mean - CAST(:threshold AS DOUBLE PRECISION) * s.stddev END AS lower,
       CASE WHEN s.baseline_n >= :min_runs AND s.z IS NOT NULL
            THEN s.mean + CAST(:threshold AS DOUBLE PRECISION) * s.stddev END AS upper,
       s.z AS statistic, -CAST(:threshold AS DOUBLE PRECISION) AS "limit",
       CASE WHEN s.baseline_n < :min_runs THEN NULL
            WHEN -s.z > :threshold THEN 'regression' WHEN s.z > :threshold THEN 'improvement' END AS alert,
       CASE WHEN :scope = 'latest' AND s.started < s.host_latest THEN 1 ELSE 0 END AS stale,
       CASE WHEN -s.z > :threshold AND s.baseline_n >= :min_runs THEN 0 ELSE 1 END AS pass
FROM scored AS s
JOIN history_point AS h ON h.run_id = s.run_id AND h.benchmark_id = s.benchmark_id AND h.variant_id = s.variant_id
                      AND h.metric = s.metric
WHERE (:scope = 'every' OR s.seq = s.points)
  AND (:since IS NULL OR s.started >= :since)
ORDER BY h.host, h.benchmark, h.params, h.metric, h.variant, s.seq;
