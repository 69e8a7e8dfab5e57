-- Every function of docs/functions.md on both engines (tests/pg/dual.py):
-- each case must give identical rows on SQLite and PostgreSQL, numbers bit
-- for bit, or fail with the same error text. The table t is
-- functions_data.sql's. Window frames run through SQLite's xInverse and
-- PostgreSQL's moving-aggregate inverse (frame heads that move) or its
-- restarts (frames that grow), so they test both engines' removal.

-- case: geomean
SELECT g, geomean(xp) AS gm, geomean(xp + 1e300) AS big, geomean(xp * 1e-310) AS tiny FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: variance-stddev
SELECT g, variance(x) AS v, stddev(x) AS sd, variance(xp) AS vp, stddev(x * 1e9 + 1e12) AS offset_sd FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: variance-stddev-integers
SELECT variance(i) AS v, stddev(i) AS sd, variance(g) AS vg FROM t;
-- case: t_ci
SELECT g, t_ci(x) AS ci, t_ci(x, 0.9) AS ci90, t_ci(xp, 0.999) AS ci999 FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: t_ci-members
SELECT CAST(t_ci(x) ->> 'lo' AS DOUBLE PRECISION) AS lo, CAST(t_ci(x) ->> 'hi' AS DOUBLE PRECISION) AS hi,
       CAST(t_ci(x) ->> 'n' AS BIGINT) AS n FROM t;
-- case: json-numbers-read-back
SELECT CAST(t_ci(xp * 1e-310) ->> 'estimate' AS DOUBLE PRECISION) AS tiny, CAST(t_ci(xp * 1e-310) ->> 'se' AS DOUBLE PRECISION) AS tiny_se,
       CAST(t_ci(xp * 1e300) ->> 'hi' AS DOUBLE PRECISION) AS huge, CAST(t_ci(x * 1e-7) ->> 'lo' AS DOUBLE PRECISION) AS small,
       CAST(pooled_t_ci(x * 1e15, g) ->> 'estimate' AS DOUBLE PRECISION) AS big, CAST(median_ci(xp * 1e-30) ->> 'lo' AS DOUBLE PRECISION) AS mci
FROM t;
-- case: band_share
SELECT g, band_share(x, -2, 3) AS b, band_share(x, 0, 0) AS zero, band_share(xp, 1, 1e9) AS all_in FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: pooled_t_ci
SELECT pooled_t_ci(x, g) AS a, pooled_t_ci(x, g, 0.9) AS b, pooled_t_ci(x, g, 0.95, 'estimate,lo,hi') AS c,
       pooled_t_ci(x, g, 0.99, 'p,n1,n2,level') AS d FROM t;
-- case: pooled_t_ci-boolean-first
SELECT pooled_t_ci(x, g = 1) AS a, pooled_t_ci(xp, i > 100, 0.8) AS b FROM t;
-- case: welch_t_ci
SELECT welch_t_ci(x, g) AS a, welch_t_ci(xp, g, 0.9) AS b, welch_t_ci(x, g, 0.95, 'df,t,p,mean1,mean2,se') AS c FROM t;
-- case: welch_t_ci-members-cast
SELECT CAST(welch_t_ci(x, g) ->> 'estimate' AS DOUBLE PRECISION) AS e, CAST(welch_t_ci(x, g) ->> 'df' AS DOUBLE PRECISION) AS df,
       CAST(welch_t_ci(x, g) ->> 'p' AS DOUBLE PRECISION) AS p FROM t;
-- case: median-percentile
SELECT g, median(x) AS m, percentile(x, 0) AS p0, percentile(x, 25) AS p25, percentile(x, 37.5) AS p375,
       percentile(x, 100) AS p100, percentile(xp, 99.9) AS pp FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: trimmed_mean
SELECT g, trimmed_mean(x, 0) AS k0, trimmed_mean(x, 1) AS k1, trimmed_mean(x, 20) AS k20, trimmed_mean(x, 1000) AS knull
FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: spread
SELECT g, spread(xp) AS s FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: fsum-mean-past-halfway
WITH v(x, g) AS (VALUES (1.0, 1), (power(2, -53), 1), (power(2, -100), 1), (4.0, 0), (power(2, -51), 0), (power(2, -200), 0), (0.0, 0))
SELECT g, fsum(x) AS s, mean(x) AS m, trimmed_mean(x, 0) AS tm, t_ci(x) AS ci FROM v GROUP BY g ORDER BY g;
-- case: pooled-means-past-halfway
WITH v(x, g) AS (VALUES (4.0, 1), (power(2, -51), 1), (power(2, -200), 1), (0.0, 1), (2.0, 0), (3.0, 0))
SELECT pooled_t_ci(x, g) AS p, welch_t_ci(x, g, 0.9) AS w FROM v;
-- case: percentile-magnitudes
WITH v(x) AS (VALUES (-1.2418521879358338e148), (806851.8554109574), (1e-300), (-5e-324), (1.7976931348623157e308))
SELECT percentile(x, 25) AS a, percentile(x, 12.5) AS b, percentile(x, 62.5) AS c, percentile(x, 87.5) AS d,
       percentile(x, 99.9) AS e FROM v;
-- case: mann_whitney
SELECT mann_whitney(x, g) AS r, mann_whitney(x, g, 'benchstat') AS b FROM t;
-- case: mann_whitney-small-exact
SELECT mann_whitney(x, g, 'exact') AS e, mann_whitney(x, g) AS r FROM t WHERE i <= 40;
-- case: mann_whitney-no-ties
WITH v(x, g) AS (VALUES (1.5, 1), (2.25, 1), (3.0, 0), (4.5, 0), (5.0, 1), (6.75, 0), (7.0, 0))
SELECT mann_whitney(x, g) AS r, mann_whitney(x, g, 'benchstat') AS b, mann_whitney(x, g, 'exact') AS e FROM v;
-- case: mann_whitney-benchstat-two-values
WITH v(x, g) AS (VALUES (1, 1), (2, 1), (2, 1), (2, 1), (1, 0), (1, 0), (1, 0), (1, 0), (1, 0), (1, 0), (1, 0),
                        (1, 0), (1, 0), (1, 0), (1, 0), (2, 0), (2, 0), (2, 0))
SELECT mann_whitney(x, g, 'benchstat') AS b, mann_whitney(x, g = 0, 'benchstat') AS c, mann_whitney(x, g, 'exact') AS e
FROM v;
-- case: hodges_lehmann
SELECT hodges_lehmann(x, g) AS a, hodges_lehmann(x, g, 0.9) AS b FROM t;
-- case: hodges_lehmann-exact
SELECT hodges_lehmann(xp, g) AS a, hodges_lehmann(xp, g, 0.8) AS b FROM t WHERE i <= 30;
-- case: median_ci
SELECT g, median_ci(x) AS a, median_ci(x, 0.9) AS b FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: median_ci-small
SELECT median_ci(x) AS a, median_ci(x, 0.5) AS b FROM t WHERE i <= 4;
-- case: change_points
SELECT change_points(i, s) AS a, change_points(i, s, 30) AS b, change_points(i, s, 30, 0.01) AS c,
       change_points(i, s, 100, 0.05, 0.1) AS d FROM t;
-- case: change_points-real-seq
SELECT change_points(CAST(i AS DOUBLE PRECISION) / 4, s, 40) AS a, change_points(r, s) AS b FROM t;
-- case: change_points-none
SELECT change_points(i, x) AS a, change_points(i, x, 2, 0.0) AS b FROM t WHERE i <= 20;
-- case: change_points-length
SELECT json_array_length(change_points(i, s, 20, 0.2)) AS n FROM t;
-- case: change_points-members
SELECT CAST(change_points(i, s) -> 0 ->> 'seq' AS BIGINT) AS seq,
       CAST(change_points(i, s) -> 0 ->> 'forward_change_percent' AS DOUBLE PRECISION) AS pct FROM t;
-- case: lookback_baseline
SELECT g, lookback_baseline(i, xp) AS a, lookback_baseline(r, x) AS b FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: lookback_baseline-spike
WITH v(t, x) AS (VALUES (1, 1.0), (2, 1.01), (3, 0.99), (4, 9.0), (5, 1.0), (6, 1.02), (7, 0.98))
SELECT lookback_baseline(t, x) AS a FROM v;
-- case: t_quantile-t_cdf
SELECT t_quantile(0.975, 8) AS a, t_quantile(0.5, 3) AS b, t_quantile(1e-300, 0.5) AS c, t_quantile(0, 5) AS d,
       t_quantile(1, 5) AS e, t_cdf(2.5, 7) AS f, t_cdf(-40, 1e6) AS g, t_cdf(0, 0.001) AS h, t_cdf(1e300, 3) AS k;
-- case: normal_quantile
SELECT normal_quantile(0.975) AS a, normal_quantile(0.5) AS b, normal_quantile(1e-300) AS c, normal_quantile(0) AS d,
       normal_quantile(1) AS e, normal_quantile(0.999999) AS f;
-- case: ci_exp-ci_recip-ci_excludes
SELECT ci_exp(t_ci(x)) AS a, ci_recip(t_ci(xp)) AS b, ci_recip(ci_exp(pooled_t_ci(x, g))) AS c,
       ci_excludes(t_ci(x), 0) AS d, ci_excludes(t_ci(x), 100) AS e, ci_excludes(ci_exp(t_ci(x)), 1) AS f FROM t;
-- case: ci_exp-overflow
-- error: ci_exp(): estimate is +Inf (beyond the largest double)
WITH v(x) AS (VALUES (800.0), (801.0), (802.0)) SELECT ci_exp(t_ci(x)) AS a FROM v;
-- case: ci-on-members
SELECT ci_exp(pooled_t_ci(x, g, 0.95, 'estimate,lo,hi,df')) AS a FROM t;
-- case: moments-mean-fsum
SELECT g, moments(x) AS m, mean(x) AS mx, fsum(x) AS sx, moments(xp) AS mp, mean(xp) AS mxp, fsum(xp) AS sxp,
       mean(xp * 1e300) AS big, fsum(x * 1e-310) AS tiny, moments(i) AS mi, fsum(i) AS si
FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: moments-cancelling
WITH v(x) AS (VALUES (1e300), (1.0), (-1e300), (1e-300), (2.5))
SELECT moments(x) AS m, mean(x) AS mx, fsum(x) AS sx, t_ci_of(moments(x)) AS ci FROM v;
-- case: t_ci_of
SELECT g, t_ci_of(moments(x)) AS a, t_ci(x) AS a_rows, t_ci_of(moments(x), 0.9) AS b, t_ci(x, 0.9) AS b_rows,
       t_ci_of(moments(xp), 0.999) AS c, t_ci(xp, 0.999) AS c_rows
FROM t GROUP BY g ORDER BY g NULLS LAST;
-- case: pooled_t_ci_of
WITH s AS (SELECT moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b,
                  moments(xp) FILTER (WHERE g = 1) AS pa, moments(xp) FILTER (WHERE g = 0) AS pb FROM t)
SELECT pooled_t_ci_of(a, b) AS a, (SELECT pooled_t_ci(x, g) FROM t) AS a_rows,
       pooled_t_ci_of(a, b, 0.9) AS b, (SELECT pooled_t_ci(x, g, 0.9) FROM t) AS b_rows,
       pooled_t_ci_of(pa, pb, 0.99, 'p,n1,n2,level') AS c, (SELECT pooled_t_ci(xp, g, 0.99, 'p,n1,n2,level') FROM t) AS c_rows,
       pooled_t_ci_of(b, a, 0.95, 'estimate,lo,hi') AS d
FROM s;
-- case: summary-members-cast
SELECT CAST(t_ci_of(moments(x)) ->> 'lo' AS DOUBLE PRECISION) AS lo,
       CAST(pooled_t_ci_of(moments(x) FILTER (WHERE g = 1), moments(x) FILTER (WHERE g = 0)) ->> 'p' AS DOUBLE PRECISION) AS p
FROM t;
-- case: benchdb_version
SELECT benchdb_version() AS v;
-- case: string_agg-least-greatest
SELECT string_agg(CAST(i AS TEXT), ',') AS s, least(min(x), -100.0) AS lo, greatest(max(x), 100.0) AS hi,
       least(1, 2, NULL) AS l, greatest(NULL, CAST(2.5 AS DOUBLE PRECISION), 1) AS g FROM t WHERE i <= 12;

-- NULL rules: NULL values ignored, empty input NULL, too few values NULL.
-- case: null-empty
SELECT geomean(xp) AS a, variance(x) AS b, stddev(x) AS c, t_ci(x) AS d, band_share(x, 0, 1) AS e, pooled_t_ci(x, g) AS f,
       welch_t_ci(x, g) AS h, median(x) AS k, percentile(x, 50) AS l, trimmed_mean(x, 1) AS m, spread(xp) AS n,
       mann_whitney(x, g) AS o, hodges_lehmann(x, g) AS p, median_ci(x) AS q, change_points(i, x) AS r,
       lookback_baseline(i, x) AS s FROM t WHERE i < 0;
-- case: null-all-null
SELECT geomean(CAST(NULL AS DOUBLE PRECISION)) AS a, variance(CAST(NULL AS DOUBLE PRECISION)) AS b,
       median(CAST(NULL AS DOUBLE PRECISION)) AS c, change_points(i, CAST(NULL AS DOUBLE PRECISION)) AS d FROM t;
-- case: null-summaries
SELECT moments(x) AS a, mean(x) AS b, fsum(x) AS c, t_ci_of(moments(x)) AS d, pooled_t_ci_of(moments(x), moments(xp)) AS e
FROM t WHERE i < 0;
-- case: null-summary-args
SELECT t_ci_of(NULL) AS a, t_ci_of(moments(x), NULL) AS b, pooled_t_ci_of(moments(x), NULL) AS c,
       pooled_t_ci_of(moments(x), moments(xp), 0.9, NULL) AS d, moments(CAST(NULL AS DOUBLE PRECISION)) AS e FROM t;
-- case: null-summary-too-few
SELECT t_ci_of(moments(x)) AS a, pooled_t_ci_of(moments(x), moments(xp)) AS b, mean(x) AS c, fsum(x) AS d, moments(x) AS e
FROM t WHERE i = 1;
-- case: null-too-few
SELECT variance(x) AS a, stddev(x) AS b, t_ci(x) AS c, welch_t_ci(x, g) AS d, pooled_t_ci(x, 1) AS e,
       mann_whitney(x, 1) AS f, trimmed_mean(x, 1) AS h FROM t WHERE i = 1;
-- case: null-scalars
SELECT t_quantile(NULL, 3) AS a, t_cdf(1, NULL) AS b, normal_quantile(NULL) AS c, ci_exp(NULL) AS d, ci_excludes(NULL, 1) AS e;
-- case: null-skip-rows
SELECT pooled_t_ci(x, g) AS a, mann_whitney(x, g) AS b, change_points(CASE WHEN i % 5 = 0 THEN NULL ELSE i END, s) AS c
FROM t WHERE i <= 120;

-- Window frames: sliding (moving aggregate), growing (restarts), partitioned.
-- case: window-moments
SELECT i, geomean(xp) OVER w AS gm, variance(x) OVER w AS v, stddev(x) OVER w AS sd, t_ci(x, 0.9) OVER w AS ci,
       band_share(x, -2, 3) OVER w AS b
FROM t WINDOW w AS (ORDER BY i ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) ORDER BY i;
-- case: window-summaries
SELECT i, moments(x) OVER w AS m, mean(x) OVER w AS mx, fsum(xp) OVER w AS s, t_ci_of(moments(x) OVER w) AS ci
FROM t WINDOW w AS (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 2 FOLLOWING) ORDER BY i;
-- case: window-summaries-growing
SELECT i, moments(xp) OVER w AS m, mean(x) OVER w AS mx, fsum(x) OVER w AS s FROM t WINDOW w AS (ORDER BY i) ORDER BY i;
-- case: window-two-sample
SELECT i, pooled_t_ci(x, g) OVER w AS p, welch_t_ci(x, g, 0.8, 'estimate,lo,hi,df') OVER w AS w8
FROM t WINDOW w AS (ORDER BY i ROWS BETWEEN 10 PRECEDING AND 2 FOLLOWING) ORDER BY i;
-- case: window-values
SELECT i, median(x) OVER w AS m, percentile(x, 90) OVER w AS p90, trimmed_mean(x, 2) OVER w AS tm, spread(xp) OVER w AS sp,
       median_ci(x, 0.8) OVER w AS mci
FROM t WINDOW w AS (ORDER BY i ROWS BETWEEN 9 PRECEDING AND CURRENT ROW) ORDER BY i;
-- case: window-rank
SELECT i, mann_whitney(x, g) OVER w AS mw, hodges_lehmann(x, g) OVER w AS hl
FROM t WINDOW w AS (ORDER BY i ROWS BETWEEN 12 PRECEDING AND CURRENT ROW) ORDER BY i;
-- case: window-seq
SELECT i, lookback_baseline(i, s) OVER (ORDER BY i ROWS BETWEEN 30 PRECEDING AND 1 PRECEDING) AS lb,
       change_points(i, s, 10, 0.05) OVER (ORDER BY i ROWS BETWEEN 40 PRECEDING AND CURRENT ROW) AS cp
FROM t ORDER BY i;
-- case: window-growing
SELECT i, geomean(xp) OVER w AS gm, stddev(x) OVER w AS sd, median(x) OVER w AS m, pooled_t_ci(x, g, 0.9, 'lo,hi') OVER w AS p
FROM t WINDOW w AS (ORDER BY i) ORDER BY i;
-- case: window-partitioned
SELECT g, i, variance(x) OVER w AS v, median(x) OVER w AS m, lookback_baseline(i, x) OVER w AS lb
FROM t WINDOW w AS (PARTITION BY g ORDER BY i ROWS BETWEEN 4 PRECEDING AND 1 FOLLOWING) ORDER BY g NULLS LAST, i;
-- case: window-string_agg
SELECT i, string_agg(CAST(g AS TEXT), '') OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS s FROM t ORDER BY i;

-- Errors: the texts of docs/functions.md.
-- case: error-geomean-negative
-- error: 1st argument to geomean() is not a positive finite number: -1
SELECT geomean(x) FROM (SELECT 2 AS x UNION ALL SELECT -1) AS v;
-- case: error-geomean-zero
-- error-sqlite: 1st argument to geomean() is not a positive finite number: 0.0
-- error-pg: 1st argument to geomean() is not a positive finite number: 0
SELECT geomean(x) FROM t WHERE i = 1 AND x IS NULL OR x = 0;
-- case: error-t_ci-level
-- error: 2nd argument to t_ci() is not a confidence level strictly between 0 and 1: 1.5
SELECT t_ci(x, 1.5) FROM t;
-- case: error-t_ci-level-null
-- error: 2nd argument to t_ci() is not a confidence level strictly between 0 and 1: NULL
SELECT t_ci(x, NULL) FROM t;
-- case: error-t_ci-level-differs
-- error: 2nd argument to t_ci() is not the same for all rows: 0.9
SELECT t_ci(x, CASE WHEN i < 10 THEN 0.95 ELSE 0.9 END) FROM t;
-- case: error-pooled-level
-- error: 3rd argument to pooled_t_ci() is not a confidence level strictly between 0 and 1: 1
SELECT pooled_t_ci(x, g, 1) FROM t;
-- case: error-pooled-members
-- error: 4th argument to pooled_t_ci() is not a comma-separated list of result members: 'estimate,nope'
SELECT pooled_t_ci(x, g, 0.95, 'estimate,nope') FROM t;
-- case: error-welch-members-differ
-- error: 4th argument to welch_t_ci() is not the same for all rows: 'lo,hi'
SELECT welch_t_ci(x, g, 0.95, CASE WHEN i < 3 THEN 'estimate' ELSE 'lo,hi' END) FROM t;
-- case: error-band-bound
-- error: 2nd argument to band_share() is not a finite number: NULL
SELECT band_share(x, NULL, 1) FROM t;
-- case: error-percentile
-- error: 2nd argument to percentile() is not a number between 0 and 100: 101
SELECT percentile(x, 101) FROM t;
-- case: error-trimmed
-- error: 2nd argument to trimmed_mean() is not a non-negative integer: 1.5
SELECT trimmed_mean(x, 1.5) FROM t;
-- case: error-spread
-- error: 1st argument to spread() is not a positive finite number: -1
SELECT spread(x) FROM (SELECT 2 AS x UNION ALL SELECT -1) AS v;
-- case: error-mw-method
-- error: 3rd argument to mann_whitney() is not one of 'r', 'exact', 'benchstat': 'fast'
SELECT mann_whitney(x, g, 'fast') FROM t;
-- case: error-hl-level
-- error: 3rd argument to hodges_lehmann() is not a confidence level strictly between 0 and 1: 0
SELECT hodges_lehmann(x, g, 0) FROM t;
-- case: error-median_ci-level
-- error: 2nd argument to median_ci() is not a confidence level strictly between 0 and 1: 2
SELECT median_ci(x, 2) FROM t;
-- case: error-cp-window
-- error: 3rd argument to change_points() is not an integer of at least 2: 1
SELECT change_points(i, x, 1) FROM t;
-- case: error-cp-pvalue
-- error: 4th argument to change_points() is not a number between 0 and 1: 1.5
SELECT change_points(i, x, 10, 1.5) FROM t;
-- case: error-cp-magnitude
-- error: 5th argument to change_points() is not a non-negative finite number: -0.5
SELECT change_points(i, x, 10, 0.5, -0.5) FROM t;
-- case: error-t_ci_of-blob
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(substr(moments(x), 2)) FROM t;
-- case: error-pooled_t_ci_of-blob
-- error: 2nd argument to pooled_t_ci_of() is not a summary made by moments(): a blob
SELECT pooled_t_ci_of(moments(x), substr(moments(x), 1, 9)) FROM t;
-- case: error-t_ci_of-level
-- error: 2nd argument to t_ci_of() is not a confidence level strictly between 0 and 1: 1.5
SELECT t_ci_of(moments(x), 1.5) FROM t;
-- case: error-pooled_t_ci_of-level
-- error: 3rd argument to pooled_t_ci_of() is not a confidence level strictly between 0 and 1: 0
SELECT pooled_t_ci_of(moments(x), moments(xp), 0) FROM t;
-- case: error-pooled_t_ci_of-members
-- error: 4th argument to pooled_t_ci_of() is not a comma-separated list of result members: 'estimate,nope'
SELECT pooled_t_ci_of(moments(x), moments(xp), 0.95, 'estimate,nope') FROM t;
-- case: error-t_quantile
-- error: 1st argument to t_quantile() is not a number between 0 and 1: 1.5
SELECT t_quantile(1.5, 3);
-- case: error-t_quantile-df
-- error: 2nd argument to t_quantile() is not a positive finite number: 0
SELECT t_quantile(0.5, 0);
-- case: error-t_cdf-df
-- error: 2nd argument to t_cdf() is not a positive finite number: -2
SELECT t_cdf(1, -2);
-- case: error-normal_quantile
-- error: 1st argument to normal_quantile() is not a number between 0 and 1: -0.5
SELECT normal_quantile(-0.5);
-- case: error-ci_recip
-- error-sqlite: 1st argument to ci_recip() is not an interval of positive numbers (lo > 0): '{"estimate":1.5,"lo":-4.853102368087347,...'
-- error-pg: 1st argument to ci_recip() is not an interval of positive numbers (lo > 0): '{"n": 2, "df": 1, "hi": 7.85310236808734...'
SELECT ci_recip(t_ci(x)) FROM (SELECT 1.0 AS x UNION ALL SELECT 2.0) AS v;
-- case: error-mw-exact-too-large
-- error: mann_whitney(): samples of 268 and 268 values are too large for method 'exact' (two samples of 188 at most); use 'r' or 'benchstat'
SELECT mann_whitney(x, i % 2, 'exact') FROM (SELECT x, i FROM t UNION ALL SELECT xp, i + 1000 FROM t) AS u WHERE x IS NOT NULL AND i < 1250;
-- case: overflow-hodges_lehmann
-- error: hodges_lehmann(): estimate is +Inf (beyond the largest double)
WITH v(x, g) AS (VALUES (1.7e308, 1), (1.6e308, 1), (-1.7e308, 0), (-1.5e308, 0)) SELECT hodges_lehmann(x, g) FROM v;
-- case: overflow-pooled_t_ci
-- error: pooled_t_ci(): estimate is +Inf (beyond the largest double)
WITH v(x, g) AS (VALUES (1.7e308, 1), (1.6e308, 1), (-1.7e308, 0), (-1.5e308, 0)) SELECT pooled_t_ci(x, g) FROM v;
-- case: overflow-welch_t_ci
-- error: welch_t_ci(): lo is +Inf (beyond the largest double)
WITH v(x, g) AS (VALUES (1.7e308, 1), (1.6e308, 1), (-1.7e308, 0), (-1.5e308, 0)) SELECT welch_t_ci(x, g, 0.95, 'lo,hi') FROM v;
-- case: overflow-t_ci
-- error: t_ci(): lo is -Inf (beyond the largest double)
WITH v(x) AS (VALUES (1.7e308), (1.6e308), (-1.7e308), (-1.5e308)) SELECT t_ci(x) FROM v;
-- case: overflow-t_ci_of
-- error: t_ci_of(): lo is -Inf (beyond the largest double)
WITH v(x) AS (VALUES (1.7e308), (1.6e308), (-1.7e308), (-1.5e308)) SELECT t_ci_of(moments(x)) FROM v;
-- case: overflow-change_points
-- error: change_points(): magnitude is +Inf (beyond the largest double)
SELECT change_points(i, CASE WHEN i <= 10 THEN 1e-200 * (1 + i % 3) ELSE 1e150 * (1 + i % 3) END) FROM t WHERE i <= 20;
-- case: overflow-lookback_baseline
-- error: lookback_baseline(): stddev is +Inf (beyond the largest double)
WITH v(t, x) AS (VALUES (1, 1.7e308), (2, -1.7e308), (3, 1.7e308), (4, -1.7e308)) SELECT lookback_baseline(t, x) FROM v;
-- case: large-finite
WITH v(i, x, g) AS (VALUES (1, 1.7e308, 1), (2, 1.6e308, 1), (3, -1.7e308, 0), (4, -1.5e308, 0))
SELECT hodges_lehmann(x / 4, g) AS h, median_ci(x) AS m, mann_whitney(x, g) AS w, lookback_baseline(i, x) AS l FROM v;
-- case: lookback-1e200
WITH v(t, x) AS (VALUES (1, 1e200), (2, -1e200), (3, 1e200), (4, -1e200)) SELECT lookback_baseline(t, x) AS l FROM v;
