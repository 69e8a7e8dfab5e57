-- name: gate-percent
-- summary: A percentage gate: is the latest run of each history worse than the median of the runs before it by more than a percentage?
-- param: percent = 5  how much worse than the median, in percent, raises an alert
-- param: runs = 10  the median of up to this many runs before the one judged
-- param: min_runs = 1  fewer runs before it: no limits, no alert
-- param: scope = latest  latest: each history's latest run; every: every run, each against the runs before it (what backtest reads)
-- choices: scope = latest, every
-- param: host = null  only this host's histories (null: every host)
-- param: plan = null  only runs of this plan form the histories (null: every plan)
-- param: metric = primary  only this metric (null: every metric)
-- param: since = null  judge only runs started at or after this UTC time, written 2026-01-31 or 2026-01-31T00:00:00.000Z (earlier runs still form baselines)
-- type: percent = real in [0, )
-- type: runs = integer in [1, )
-- type: min_runs = integer in [1, )
-- type: host = text naming a host
-- type: plan = text naming a plan
-- type: metric = text naming a metric
-- type: since = time
-- outcome: pass
-- key: host, benchmark, params, metric, variant, seq
-- chart: series from=gate-percent with=scope=every group=host,benchmark,params,metric colour=variant x=seq tick=started_at xlabel="run, in order (dates in UTC)" y=value lower=lower upper=upper alert=alert unit=unit title="Every run of each history as the gate judges it: the score, the limits, the alerts (histories with alerts first)"
-- columns: host, benchmark, params, metric, variant, run, revision, value, unit, baseline, statistic, limit, alert, pass
-- headline[pass=0, largest statistic]: the gate fails: {count(pass=0)} of {count(lower!=null):run/runs} judged regressed, in {distinct(host,benchmark,params,metric,variant,pass=0):history/histories}; the worst, {benchmark}{params:cell} on {host} at run {run}[ ({revision:sha})], is {statistic:%} worse than the median of the runs before it (limit {limit}%)[; {count(lower=null):run/runs} not judged (under {param(min_runs):run/runs} before it)][; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline[pass=1, lower!=null]: the gate passes: {count(lower!=null):run/runs} judged in {distinct(host,benchmark,params,metric,variant,lower!=null):history/histories}, all within {param(percent)}% of their medians[; {count(alert=improvement):improvement/improvements}][; {count(lower=null):run/runs} not judged (under {param(min_runs):run/runs} before it)][; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline[pass=1]: the gate passes without judging a run: {count():run/runs} in {distinct(host,benchmark,params,metric,variant):history/histories}, none with {param(min_runs):run/runs} before it to judge it against[; {count(stale=1):run/runs} from before the host's latest run, which lacks the cell (no longer measured?)]
-- headline: no history to judge[ on host {param(host)}][ in plan {param(plan)}][ since {param(since)}]
--
-- baseline = the median of the scores of up to `runs` runs before the
-- judged one in its history; lower = baseline (1 - percent/100), upper =
-- baseline (1 + percent/100), Bencher's percentage limits around the median
-- instead of the mean. An alert fires when the score is beyond a limit
-- (strictly): 'regression' above upper for a lower-is-better unit (or one of
-- unknown direction), below lower for a higher-is-better one;
-- 'improvement' on the other side. statistic = how much worse than the
-- baseline the score is, in percent ((score - baseline) / |baseline| 100,
-- negated for a higher-is-better unit: Conbench's pairwise percent change);
-- limit = percent; pass = 0 on a regression.
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
  SELECT p.*, count(p.value) OVER w AS baseline_n, median(p.value) OVER w AS median
  FROM point AS p
  WHERE :scope = 'every' OR p.seq > p.points - :runs - 1
  WINDOW w AS (PARTITION BY p.host_id, p.benchmark_id, p.metric, p.variant_id
               ORDER BY p.seq ROWS BETWEEN :runs PRECEDING AND 1 PRECEDING)
),
limits AS (
  SELECT s.*,
         CASE WHEN s.baseline_n >= 1 AND s.baseline_n >= :min_runs THEN s.median END AS baseline,
         CASE WHEN s.direction IS NOT DISTINCT FROM 'higher' THEN -1 ELSE 1 END AS sign
  FROM sample AS s
),
judged AS (
  SELECT l.*,
         l.baseline * (1 - CAST(:percent AS DOUBLE PRECISION) / 100) AS lower,
         l.baseline * (1 + CAST(:percent AS DOUBLE PRECISION) / 100) AS upper,
         l.sign * (l.value - l.baseline) / abs(l.baseline) * 100 AS worse
  FROM limits AS l
)
SELECT h.host, h.benchmark, h.params, h.metric, h.variant, h.unit, s.seq, h.run, h.plan, h.revision, h.started_at,
       s.value, s.baseline_n, s.baseline, s.lower, s.upper,
       s.worse AS statistic, CAST(:percent AS DOUBLE PRECISION) AS "limit",
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
