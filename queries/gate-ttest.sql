-- name: gate-ttest
-- summary: Bencher's t-test threshold: the latest run of each history against a prediction interval of up to 64 runs before it
-- param: boundary = 0.99  the interval's CDF boundary, from 0.5 up to (not including) 1 (Bencher's upper_boundary)
-- param: runs = 64  the sample: up to this many runs before the one judged (Bencher's max_sample_size)
-- param: min_runs = 2  fewer runs before it: no limits, no alert (Bencher's min_sample_size; at least 2)
-- param: model = t_test  Bencher's model: t_test, z_score or log_normal
-- choices: model = t_test, z_score, log_normal
-- param: scope = latest  latest: each history's latest run; every: every run, each against the runs before it (what backtest reads)
-- choices: scope = latest, every
-- param: host = null  only this host's histories (null: every host)
-- param: plan = null  only runs of this plan form the histories (null: every plan)
-- param: metric = primary  only this metric (null: every metric)
-- param: since = null  judge only runs started at or after this UTC time, written 2026-01-31 or 2026-01-31T00:00:00.000Z (earlier runs still form samples)
-- type: boundary = real in [0.5, 1)
-- type: runs = integer in [2, )
-- type: min_runs = integer in [2, )
-- type: host = text naming a host
-- type: plan = text naming a plan
-- type: metric = text naming a metric
-- type: since = time
-- outcome: pass
-- key: host, benchmark, params, metric, variant, seq
-- chart: series from=gate-ttest with=scope=every group=host,benchmark,params,metric colour=variant x=seq tick=started_at xlabel="run, in order (dates in UTC)" y=value lower=lower upper=upper alert=alert unit=unit title="Every run of each history as the gate judges it: the score, the limits, the alerts (histories with alerts first)"
-- columns: host, benchmark, params, metric, variant, run, revision, value, unit, baseline, lower, upper, alert, pass
-- headline[pass=0]: the gate fails: {count(pass=0)} of {count(lower!=null):run/runs} judged regressed, in {distinct(host,benchmark,params,metric,variant,pass=0):history/histories}; {benchmark}{params:cell} on {host} at run {run}[ ({revision:sha})] scored {value}[ {unit}], beyond the limit {limit}[; {count(lower=null):run/runs} not judged (under {param(min_runs):run/runs} before it, or no spread)][; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline[pass=1, lower!=null]: the gate passes: {count(lower!=null):run/runs} judged in {distinct(host,benchmark,params,metric,variant,lower!=null):history/histories}, all within their {param(boundary)} prediction limits[; {count(alert=improvement):improvement/improvements}][; {count(lower=null):run/runs} not judged (under {param(min_runs):run/runs} before it, or no spread)][; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline[pass=1]: the gate passes without judging a run: {count():run/runs} in {distinct(host,benchmark,params,metric,variant):history/histories}, none with {param(min_runs):run/runs} before it and a spread to judge it against[; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline: no history to judge[ on host {param(host)}][ in plan {param(plan)}][ since {param(since)}]
--
-- Bencher (bencherdev/bencher at 8d75325, lib/bencher_boundary): the sample
-- is the scores of the runs before the judged one in its history, newest
-- first, at most `runs` of them (the new score is not in its own sample);
-- n, mean and sample standard deviation sd (n - 1). With q the boundary's
-- quantile:
--   t_test:     q = t_quantile(boundary, n - 1), upper = mean + q sd sqrt(1 + 1/n)
--               (a prediction interval for one new value);
--   z_score:    q = normal_quantile(boundary), upper = mean + q sd;
--   log_normal: on ln(score): baseline = exp(mean), upper = exp(mean + q sd);
-- and lower = 2 baseline - upper (baseline = mean except for log_normal).
-- No limits when n < max(2, min_runs), when sd = 0, or (log_normal) for a
-- score <= 0. An alert fires when the score is beyond a limit (strictly):
-- 'regression' above upper for a lower-is-better unit (or one of unknown
-- direction), below lower for a higher-is-better one; 'improvement' on the
-- other side. statistic = the score; limit = the regression side's limit;
-- pass = 0 on a regression.
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
sample AS (
  SELECT p.*,
         count(p.value) OVER w AS baseline_n,
         mean(p.value) OVER w AS mean,
         stddev(p.value) OVER w AS sd,
         count(CASE WHEN p.value > 0 THEN 1 END) OVER w AS ln_n,
         mean(CASE WHEN p.value > 0 THEN ln(p.value) END) OVER w AS ln_mean,
         stddev(CASE WHEN p.value > 0 THEN ln(p.value) END) OVER w AS ln_sd
  FROM point AS p
  WHERE :scope = 'every' OR p.seq > p.points - :runs - 1
  WINDOW w AS (PARTITION BY p.host_id, p.benchmark_id, p.metric, p.variant_id
               ORDER BY p.seq ROWS BETWEEN :runs PRECEDING AND 1 PRECEDING)
),
limits AS (
  SELECT s.*,
         CASE WHEN s.baseline_n < 2 OR s.baseline_n < :min_runs THEN NULL
              WHEN :model = 't_test' AND s.sd > 0 THEN s.mean
              WHEN :model = 'z_score' AND s.sd > 0 THEN s.mean
              WHEN :model = 'log_normal' AND s.ln_n = s.baseline_n AND s.ln_sd > 0 THEN exp(s.ln_mean)
         END AS baseline,
         CASE WHEN s.baseline_n < 2 OR s.baseline_n < :min_runs THEN NULL
              WHEN :model = 't_test' AND s.sd > 0
                THEN s.mean + t_quantile(:boundary, s.baseline_n - 1) * (s.sd * sqrt(1 + CAST(1 AS DOUBLE PRECISION) / s.baseline_n))
              WHEN :model = 'z_score' AND s.sd > 0 THEN s.mean + normal_quantile(:boundary) * s.sd
              WHEN :model = 'log_normal' AND s.ln_n = s.baseline_n AND s.ln_sd > 0
                THEN exp(s.ln_mean + normal_quantile(:boundary) * s.ln_sd)
         END AS upper,
         CASE WHEN s.direction IS NOT DISTINCT FROM 'higher' THEN -1 ELSE 1 END AS sign
  FROM sample AS s
),
judged AS (
  SELECT l.*, 2 * l.baseline - l.upper AS lower
  FROM limits AS l
)
SELECT h.host, h.benchmark, h.params, h.metric, h.variant, h.unit, s.seq, h.run, h.plan, h.revision, h.started_at,
       s.value, s.baseline_n, s.baseline, s.lower, s.upper,
       s.value AS statistic, CASE WHEN s.sign = -1 THEN s.lower ELSE s.upper END AS "limit",
       CASE WHEN s.sign = -1 AND s.value < s.lower THEN 'regression'
            WHEN s.sign = -1 AND s.value > s.upper THEN 'improvement'
            WHEN s.value > s.upper THEN 'regression'
            WHEN s.value < s.lower THEN 'improvement' END AS alert,
       CASE WHEN :scope = 'latest' AND s.started < s.host_latest THEN 1 ELSE 0 END AS stale,
       CASE WHEN s.sign = -1 AND s.value < s.lower THEN 0
            WHEN s.sign = 1 AND s.value > s.upper THEN 0
            ELSE 1 END AS pass
FROM judged AS s
JOIN history_point AS h ON h.run_id = s.run_id AND h.benchmark_id = s.benchmark_id AND h.variant_id = s.variant_id
                      AND h.metric = s.metric
WHERE (:scope = 'every' OR s.seq = s.points)
  AND (:since IS NULL OR s.started >= :since)
ORDER BY h.host, h.benchmark, h.params, h.metric, h.variant, s.seq;
