-- Window functions: every aggregate over sliding and growing frames, compared
-- with the same aggregate computed from scratch over the frame's rows (which
-- never runs xInverse or xValue), and with independent SQL formulas. The data
-- have NULL values, NULL flags and repeated values (removal of equal values).
-- Made by tools/gen/sql/gen_fn_window.py (make regen). Frames must equal
-- the plain aggregate exactly (a IS b): the sums are exact (docs/functions.md).

CREATE TEMP TABLE t(i INTEGER PRIMARY KEY, x REAL, g INTEGER);
INSERT INTO t VALUES
  (1, 3.75, 1),
  (2, 1.5, 1),
  (3, 5.0, 0),
  (4, 2.75, 1),
  (5, 0.5, 1),
  (6, 4.0, 0),
  (7, NULL, 1),
  (8, 5.25, 1),
  (9, 3.0, 0),
  (10, 0.75, 1),
  (11, 4.25, NULL),
  (12, 2.0, 0),
  (13, 5.5, 1),
  (14, NULL, 1),
  (15, 1.0, 0),
  (16, 4.5, 1),
  (17, 2.25, 1),
  (18, 5.75, 0),
  (19, 3.5, 1),
  (20, 1.25, 1),
  (21, NULL, 0),
  (22, 2.5, NULL),
  (23, 0.25, 1),
  (24, 3.75, 0),
  (25, 1.5, 1),
  (26, 5.0, 1),
  (27, 2.75, 0),
  (28, NULL, 1),
  (29, 4.0, 1),
  (30, 1.75, 0),
  (31, 5.25, 1),
  (32, 3.0, 1),
  (33, 0.75, NULL),
  (34, 4.25, 1),
  (35, NULL, 1),
  (36, 5.5, 0),
  (37, 3.25, 1),
  (38, 1.0, 1),
  (39, 4.5, 0),
  (40, 2.25, 1);

-- Frame rows2: ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW
SELECT 'geomean/rows2/' || i, a IS b FROM (SELECT i, geomean(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT geomean(x) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'variance/rows2/' || i, a IS b FROM (SELECT i, variance(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT variance(x) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'stddev/rows2/' || i, a IS b FROM (SELECT i, stddev(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT stddev(x) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'median/rows2/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT median(x) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'percentile/rows2/' || i, a IS b FROM (SELECT i, percentile(x, 30) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT percentile(x, 30) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'trimmed_mean/rows2/' || i, a IS b FROM (SELECT i, trimmed_mean(x, 1) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT trimmed_mean(x, 1) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'spread/rows2/' || i, a IS b FROM (SELECT i, spread(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT spread(x) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'band_share/rows2/' || i, a IS b FROM (SELECT i, band_share(x, 2, 4) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT band_share(x, 2, 4) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 't_ci/rows2/' || i, a IS b FROM (SELECT i, json_extract(t_ci(x, 0.9) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), '$.lo') AS a, (SELECT json_extract(t_ci(x, 0.9), '$.lo') FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'pooled_t_ci-lo/rows2/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), '$.lo') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.lo') FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'pooled_t_ci-p/rows2/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), '$.p') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.p') FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'welch_t_ci-hi/rows2/' || i, a IS b FROM (SELECT i, json_extract(welch_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), '$.hi') AS a, (SELECT json_extract(welch_t_ci(x, g), '$.hi') FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'mann_whitney/rows2/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT mann_whitney(x, g) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);

-- Frame rows3-1: ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING
SELECT 'geomean/rows3-1/' || i, a IS b FROM (SELECT i, geomean(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT geomean(x) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'variance/rows3-1/' || i, a IS b FROM (SELECT i, variance(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT variance(x) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'stddev/rows3-1/' || i, a IS b FROM (SELECT i, stddev(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT stddev(x) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'median/rows3-1/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT median(x) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'percentile/rows3-1/' || i, a IS b FROM (SELECT i, percentile(x, 30) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT percentile(x, 30) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'trimmed_mean/rows3-1/' || i, a IS b FROM (SELECT i, trimmed_mean(x, 1) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT trimmed_mean(x, 1) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'spread/rows3-1/' || i, a IS b FROM (SELECT i, spread(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT spread(x) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'band_share/rows3-1/' || i, a IS b FROM (SELECT i, band_share(x, 2, 4) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT band_share(x, 2, 4) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 't_ci/rows3-1/' || i, a IS b FROM (SELECT i, json_extract(t_ci(x, 0.9) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING), '$.lo') AS a, (SELECT json_extract(t_ci(x, 0.9), '$.lo') FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'pooled_t_ci-lo/rows3-1/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING), '$.lo') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.lo') FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'pooled_t_ci-p/rows3-1/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING), '$.p') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.p') FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'welch_t_ci-hi/rows3-1/' || i, a IS b FROM (SELECT i, json_extract(welch_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING), '$.hi') AS a, (SELECT json_extract(welch_t_ci(x, g), '$.hi') FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);
SELECT 'mann_whitney/rows3-1/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS a, (SELECT mann_whitney(x, g) FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i + 1) AS b FROM t);

-- Frame rows6-4: ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING
SELECT 'geomean/rows6-4/' || i, a IS b FROM (SELECT i, geomean(x) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT geomean(x) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'variance/rows6-4/' || i, a IS b FROM (SELECT i, variance(x) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT variance(x) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'stddev/rows6-4/' || i, a IS b FROM (SELECT i, stddev(x) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT stddev(x) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'median/rows6-4/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT median(x) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'percentile/rows6-4/' || i, a IS b FROM (SELECT i, percentile(x, 30) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT percentile(x, 30) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'trimmed_mean/rows6-4/' || i, a IS b FROM (SELECT i, trimmed_mean(x, 1) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT trimmed_mean(x, 1) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'spread/rows6-4/' || i, a IS b FROM (SELECT i, spread(x) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT spread(x) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'band_share/rows6-4/' || i, a IS b FROM (SELECT i, band_share(x, 2, 4) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT band_share(x, 2, 4) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 't_ci/rows6-4/' || i, a IS b FROM (SELECT i, json_extract(t_ci(x, 0.9) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING), '$.lo') AS a, (SELECT json_extract(t_ci(x, 0.9), '$.lo') FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'pooled_t_ci-lo/rows6-4/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING), '$.lo') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.lo') FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'pooled_t_ci-p/rows6-4/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING), '$.p') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.p') FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'welch_t_ci-hi/rows6-4/' || i, a IS b FROM (SELECT i, json_extract(welch_t_ci(x, g) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING), '$.hi') AS a, (SELECT json_extract(welch_t_ci(x, g), '$.hi') FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);
SELECT 'mann_whitney/rows6-4/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING) AS a, (SELECT mann_whitney(x, g) FROM t t2 WHERE t2.i BETWEEN t.i - 6 AND t.i - 4) AS b FROM t);

-- Frame running: ORDER BY i ROWS UNBOUNDED PRECEDING
SELECT 'geomean/running/' || i, a IS b FROM (SELECT i, geomean(x) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT geomean(x) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'variance/running/' || i, a IS b FROM (SELECT i, variance(x) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT variance(x) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'stddev/running/' || i, a IS b FROM (SELECT i, stddev(x) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT stddev(x) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'median/running/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT median(x) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'percentile/running/' || i, a IS b FROM (SELECT i, percentile(x, 30) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT percentile(x, 30) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'trimmed_mean/running/' || i, a IS b FROM (SELECT i, trimmed_mean(x, 1) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT trimmed_mean(x, 1) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'spread/running/' || i, a IS b FROM (SELECT i, spread(x) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT spread(x) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'band_share/running/' || i, a IS b FROM (SELECT i, band_share(x, 2, 4) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT band_share(x, 2, 4) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 't_ci/running/' || i, a IS b FROM (SELECT i, json_extract(t_ci(x, 0.9) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING), '$.lo') AS a, (SELECT json_extract(t_ci(x, 0.9), '$.lo') FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'pooled_t_ci-lo/running/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING), '$.lo') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.lo') FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'pooled_t_ci-p/running/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING), '$.p') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.p') FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'welch_t_ci-hi/running/' || i, a IS b FROM (SELECT i, json_extract(welch_t_ci(x, g) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING), '$.hi') AS a, (SELECT json_extract(welch_t_ci(x, g), '$.hi') FROM t t2 WHERE t2.i <= t.i) AS b FROM t);
SELECT 'mann_whitney/running/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT mann_whitney(x, g) FROM t t2 WHERE t2.i <= t.i) AS b FROM t);

-- Frame partition: PARTITION BY g ORDER BY i ROWS 4 PRECEDING
SELECT 'geomean/partition/' || i, a IS b FROM (SELECT i, geomean(x) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT geomean(x) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'variance/partition/' || i, a IS b FROM (SELECT i, variance(x) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT variance(x) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'stddev/partition/' || i, a IS b FROM (SELECT i, stddev(x) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT stddev(x) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'median/partition/' || i, a IS b FROM (SELECT i, median(x) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT median(x) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'percentile/partition/' || i, a IS b FROM (SELECT i, percentile(x, 30) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT percentile(x, 30) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'trimmed_mean/partition/' || i, a IS b FROM (SELECT i, trimmed_mean(x, 1) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT trimmed_mean(x, 1) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'spread/partition/' || i, a IS b FROM (SELECT i, spread(x) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT spread(x) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'band_share/partition/' || i, a IS b FROM (SELECT i, band_share(x, 2, 4) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT band_share(x, 2, 4) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 't_ci/partition/' || i, a IS b FROM (SELECT i, json_extract(t_ci(x, 0.9) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING), '$.lo') AS a, (SELECT json_extract(t_ci(x, 0.9), '$.lo') FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'pooled_t_ci-lo/partition/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING), '$.lo') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.lo') FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'pooled_t_ci-p/partition/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING), '$.p') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.p') FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'welch_t_ci-hi/partition/' || i, a IS b FROM (SELECT i, json_extract(welch_t_ci(x, g) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING), '$.hi') AS a, (SELECT json_extract(welch_t_ci(x, g), '$.hi') FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);
SELECT 'mann_whitney/partition/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (PARTITION BY g ORDER BY i ROWS 4 PRECEDING) AS a, (SELECT mann_whitney(x, g) FROM t t2 WHERE t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)) AS b FROM t);

-- Frame range: ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW
SELECT 'geomean/range/' || i, a IS b FROM (SELECT i, geomean(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT geomean(x) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'variance/range/' || i, a IS b FROM (SELECT i, variance(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT variance(x) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'stddev/range/' || i, a IS b FROM (SELECT i, stddev(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT stddev(x) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'median/range/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT median(x) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'percentile/range/' || i, a IS b FROM (SELECT i, percentile(x, 30) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT percentile(x, 30) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'trimmed_mean/range/' || i, a IS b FROM (SELECT i, trimmed_mean(x, 1) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT trimmed_mean(x, 1) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'spread/range/' || i, a IS b FROM (SELECT i, spread(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT spread(x) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'band_share/range/' || i, a IS b FROM (SELECT i, band_share(x, 2, 4) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT band_share(x, 2, 4) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 't_ci/range/' || i, a IS b FROM (SELECT i, json_extract(t_ci(x, 0.9) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW), '$.lo') AS a, (SELECT json_extract(t_ci(x, 0.9), '$.lo') FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'pooled_t_ci-lo/range/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW), '$.lo') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.lo') FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'pooled_t_ci-p/range/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW), '$.p') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.p') FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'welch_t_ci-hi/range/' || i, a IS b FROM (SELECT i, json_extract(welch_t_ci(x, g) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW), '$.hi') AS a, (SELECT json_extract(welch_t_ci(x, g), '$.hi') FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);
SELECT 'mann_whitney/range/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW) AS a, (SELECT mann_whitney(x, g) FROM t t2 WHERE t2.x BETWEEN t.x - 1.5 AND t.x) AS b FROM t);

-- Frame groups: ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW
SELECT 'geomean/groups/' || i, a IS b FROM (SELECT i, geomean(x) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT geomean(x) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'variance/groups/' || i, a IS b FROM (SELECT i, variance(x) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT variance(x) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'stddev/groups/' || i, a IS b FROM (SELECT i, stddev(x) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT stddev(x) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'median/groups/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT median(x) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'percentile/groups/' || i, a IS b FROM (SELECT i, percentile(x, 30) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT percentile(x, 30) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'trimmed_mean/groups/' || i, a IS b FROM (SELECT i, trimmed_mean(x, 1) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT trimmed_mean(x, 1) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'spread/groups/' || i, a IS b FROM (SELECT i, spread(x) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT spread(x) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'band_share/groups/' || i, a IS b FROM (SELECT i, band_share(x, 2, 4) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT band_share(x, 2, 4) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 't_ci/groups/' || i, a IS b FROM (SELECT i, json_extract(t_ci(x, 0.9) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW), '$.lo') AS a, (SELECT json_extract(t_ci(x, 0.9), '$.lo') FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'pooled_t_ci-lo/groups/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW), '$.lo') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.lo') FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'pooled_t_ci-p/groups/' || i, a IS b FROM (SELECT i, json_extract(pooled_t_ci(x, g) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW), '$.p') AS a, (SELECT json_extract(pooled_t_ci(x, g), '$.p') FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'welch_t_ci-hi/groups/' || i, a IS b FROM (SELECT i, json_extract(welch_t_ci(x, g) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW), '$.hi') AS a, (SELECT json_extract(welch_t_ci(x, g), '$.hi') FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);
SELECT 'mann_whitney/groups/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a, (SELECT mann_whitney(x, g) FROM t t2 WHERE (t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)) AS b FROM t);

-- Independent formulas: variance as the mean squared deviation, geomean as
-- exp(avg(ln x)), band_share as a count, median of three as the middle value.
SELECT 'formula/variance/' || i, a IS b OR abs(a - b) <= 1e-12 * b FROM (
  SELECT i, variance(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS a,
    (SELECT CASE WHEN count(x) > 1 THEN sum((x - (SELECT avg(x) FROM t t3 WHERE t3.i BETWEEN t.i - 3 AND t.i))
       * (x - (SELECT avg(x) FROM t t3 WHERE t3.i BETWEEN t.i - 3 AND t.i))) / (count(x) - 1) END
     FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i) AS b FROM t);
SELECT 'formula/geomean/' || i, a IS b OR abs(a - b) <= 1e-13 * b FROM (
  SELECT i, geomean(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a,
    (SELECT exp(avg(ln(x))) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'formula/band_share/' || i, a IS b FROM (
  SELECT i, band_share(x, 2, 4) OVER (ORDER BY i ROWS BETWEEN 4 PRECEDING AND CURRENT ROW) AS a,
    (SELECT CAST(sum(x BETWEEN 2 AND 4) AS REAL) / count(x) FROM t t2 WHERE t2.i BETWEEN t.i - 4 AND t.i) AS b FROM t);
SELECT 'formula/median3/' || i, a IS b FROM (
  SELECT i, median(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a,
    (SELECT CASE count(x) WHEN 3 THEN (SELECT x FROM t t3 WHERE t3.i BETWEEN t.i - 2 AND t.i ORDER BY x LIMIT 1 OFFSET 1)
       WHEN 2 THEN avg(x) WHEN 1 THEN max(x) END FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);

-- Removal down to an empty frame and back: the moments restart exactly.
WITH v(i, x) AS (VALUES (1, 1e9 + 1), (2, 1e9 + 2), (3, NULL), (4, NULL), (5, NULL), (6, 3.0), (7, 5.0))
SELECT 'restart/variance/' || i, a IS b FROM (
  SELECT i, variance(x) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a,
    CASE i WHEN 2 THEN 0.5 WHEN 7 THEN 2.0 END AS b FROM v);
-- Large offsets slide exactly: every window of four of 1e9 + {1, 2, 3, 4, ...}.
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 50)
SELECT 'offset/variance/' || i, variance(1e9 + i) OVER (ORDER BY i ROWS 3 PRECEDING) = 5.0 / 3 FROM c WHERE 1
ORDER BY i LIMIT 47 OFFSET 3;

-- EXCLUDE CURRENT ROW: SQLite recomputes such frames; the results must not change.
CREATE TEMP TABLE e(i INTEGER PRIMARY KEY, x REAL, g INTEGER);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 30) INSERT INTO e SELECT i, (i * 37) % 11 + 1, i % 2 FROM c;
SELECT 'median/exclude/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) AS a,
  (SELECT median(x) FROM e t2 WHERE t2.i BETWEEN t.i - 2 AND t.i + 2 AND t2.i <> t.i) AS b FROM e AS t);
SELECT 'mw/exclude/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY i ROWS BETWEEN 4 PRECEDING AND 4 FOLLOWING EXCLUDE CURRENT ROW) AS a,
  (SELECT mann_whitney(x, g) FROM e t2 WHERE t2.i BETWEEN t.i - 4 AND t.i + 4 AND t2.i <> t.i) AS b FROM e AS t);
SELECT 'geomean/exclude/' || i, a IS b OR abs(a - b) <= 1e-13 * b FROM (SELECT i, geomean(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) AS a,
  (SELECT geomean(x) FROM e t2 WHERE t2.i BETWEEN t.i - 2 AND t.i + 2 AND t2.i <> t.i) AS b FROM e AS t);
