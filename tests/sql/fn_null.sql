-- NULL inputs, empty inputs, too few values and degenerate samples: the
-- numbered rules at the top of src/sqlfn/fn_*.c and in docs/functions.md.

CREATE TEMP TABLE empty(x REAL, g INTEGER);
CREATE TEMP TABLE nulls(x REAL, g INTEGER);
INSERT INTO nulls VALUES (NULL, 1), (NULL, 0), (NULL, NULL);

-- Aggregates over no rows, and over only NULLs, are NULL.
SELECT 'empty/geomean', geomean(x) IS NULL FROM empty;
SELECT 'empty/variance', variance(x) IS NULL FROM empty;
SELECT 'empty/stddev', stddev(x) IS NULL FROM empty;
SELECT 'empty/t_ci', t_ci(x) IS NULL FROM empty;
SELECT 'empty/band_share', band_share(x, 0, 1) IS NULL FROM empty;
SELECT 'empty/median', median(x) IS NULL FROM empty;
SELECT 'empty/percentile', percentile(x, 50) IS NULL FROM empty;
SELECT 'empty/trimmed_mean', trimmed_mean(x, 0) IS NULL FROM empty;
SELECT 'empty/spread', spread(x) IS NULL FROM empty;
SELECT 'empty/pooled_t_ci', pooled_t_ci(x, g) IS NULL FROM empty;
SELECT 'empty/welch_t_ci', welch_t_ci(x, g) IS NULL FROM empty;
SELECT 'empty/mann_whitney', mann_whitney(x, g) IS NULL FROM empty;
SELECT 'nulls/geomean', geomean(x) IS NULL FROM nulls;
SELECT 'nulls/variance', variance(x) IS NULL FROM nulls;
SELECT 'nulls/band_share', band_share(x, 0, 1) IS NULL FROM nulls;
SELECT 'nulls/median', median(x) IS NULL FROM nulls;
SELECT 'nulls/percentile', percentile(x, 50) IS NULL FROM nulls;
SELECT 'nulls/spread', spread(x) IS NULL FROM nulls;
SELECT 'nulls/pooled_t_ci', pooled_t_ci(x, g) IS NULL FROM nulls;
SELECT 'nulls/mann_whitney', mann_whitney(x, g) IS NULL FROM nulls;

-- NULL values are ignored (rows with a NULL x, and rows with a NULL first
-- flag in the two-sample functions); parameters are not read on such rows.
CREATE TEMP TABLE m(x REAL, g INTEGER);
INSERT INTO m VALUES (1, 1), (NULL, 1), (2, 1), (4, 0), (NULL, NULL), (8, 0), (100, NULL), (16, 0);
SELECT 'ignore/geomean', abs(geomean(x) - 4) <= 4e-15 FROM m WHERE g IS NOT NULL;
SELECT 'ignore/variance', abs(variance(x) - 1496.1666666666667) <= 1e-12 * 1496.1666666666667 FROM m; -- R: var(c(1, 2, 4, 8, 100, 16))
SELECT 'ignore/median', median(x) = 6.0 FROM m;
SELECT 'ignore/percentile', percentile(x, 25) = 2.5 FROM m;
SELECT 'ignore/band_share', band_share(x, 2, 8) = 0.6 FROM m WHERE g IS NOT NULL;
SELECT 'ignore/spread', spread(x) = 16.0 FROM m WHERE g IS NOT NULL;
SELECT 'ignore/trimmed_mean', abs(trimmed_mean(x, 1) - 14.0 / 3) <= 1e-15 FROM m WHERE g IS NOT NULL;
SELECT 'ignore/null-flag', pooled_t_ci(x, g) = (SELECT pooled_t_ci(x, g) FROM m WHERE g IS NOT NULL) FROM m;
SELECT 'ignore/null-flag-n', json_extract(pooled_t_ci(x, g), '$.n1') = 2 AND json_extract(pooled_t_ci(x, g), '$.n2') = 3 FROM m;
SELECT 'ignore/null-flag-mw', mann_whitney(x, g) = (SELECT mann_whitney(x, g) FROM m WHERE g IS NOT NULL) FROM m;
SELECT 'ignore/null-x-param', percentile(x, CASE WHEN x IS NULL THEN 'bad' ELSE 50 END) = 6.0 FROM m;

-- Integers and numeric text are numbers; flags are any nonzero number.
SELECT 'numeric-text/variance', variance(x) = 1.0 FROM (SELECT '1' AS x UNION ALL SELECT ' 2.0' UNION ALL SELECT '3e0');
SELECT 'integers/geomean', geomean(x) = 4.0 FROM (SELECT 2 AS x UNION ALL SELECT 8);
SELECT 'flag/nonzero', json_extract(pooled_t_ci(x, g), '$.n1') = 2 FROM (SELECT 1 AS x, 2.5 AS g UNION ALL SELECT 2, -1 UNION ALL SELECT 3, 0 UNION ALL SELECT 4, 0);
SELECT 'flag/text', json_extract(pooled_t_ci(x, g), '$.n1') = 1 FROM (SELECT 1 AS x, '1' AS g UNION ALL SELECT 2, '0' UNION ALL SELECT 3, 0);

-- Too few values.
SELECT 'few/variance', variance(x) IS NULL AND stddev(x) IS NULL AND t_ci(x) IS NULL FROM (SELECT 5 AS x);
SELECT 'few/geomean-one', abs(geomean(x) - 5) <= 5e-15 AND median(x) = 5.0 AND spread(x) = 1.0 FROM (SELECT 5 AS x);
SELECT 'few/percentile-one', percentile(x, 0) = 5.0 AND percentile(x, 100) = 5.0 FROM (SELECT 5 AS x);
WITH v(x) AS (VALUES (1), (2), (3), (4)) SELECT 'few/trimmed_mean', trimmed_mean(x, 2) IS NULL FROM v;
WITH v(x) AS (VALUES (1), (2), (3), (4), (50)) SELECT 'few/trimmed_mean-odd', trimmed_mean(x, 2) = 3.0 FROM v;
WITH v(x, g) AS (VALUES (1, 1), (2, 1), (3, 1)) SELECT 'few/pooled-one-sample', pooled_t_ci(x, g) IS NULL FROM v;
WITH v(x, g) AS (VALUES (1, 1), (2, 0)) SELECT 'few/pooled-df0', pooled_t_ci(x, g) IS NULL FROM v;
WITH v(x, g) AS (VALUES (1, 1), (2, 0), (4, 0)) SELECT 'few/welch-n1', welch_t_ci(x, g) IS NULL FROM v;
WITH v(x, g) AS (VALUES (1, 0), (2, 0)) SELECT 'few/mw-one-sample', mann_whitney(x, g) IS NULL FROM v;
-- R: t.test(1, c(2, 4), var.equal = TRUE): df 1 exists with n1 = 1.
WITH v(x, g) AS (VALUES (1, 1), (2, 0), (4, 0)), r(c) AS (SELECT pooled_t_ci(x, g) FROM v)
SELECT 'few/pooled-n1-1', json_extract(c, '$.df') = 1 AND json_extract(c, '$.estimate') = -2.0
  AND abs(json_extract(c, '$.lo') - -24.00779217442687141) <= 1e-12 * 24.00779217442687141
  AND abs(json_extract(c, '$.hi') - 20.00779217442687141) <= 1e-12 * 20.00779217442687141
  AND abs(json_extract(c, '$.se') - 1.73205080756887719) <= 1e-12 * 1.73205080756887719
  AND abs(json_extract(c, '$.p') - 0.45437105165700981) <= 1e-12 * 0.45437105165700981 FROM r;
-- R: wilcox.test(1, 2): W = 0, p = 1.
WITH v(x, g) AS (VALUES (1, 1), (2, 0)) SELECT 'few/mw-1-1', mann_whitney(x, g) = '{"u":0,"p":1,"n1":1,"n2":1,"exact":true}' FROM v;

-- A zero standard error: lo = hi = estimate, t and p null (Welch: df too).
WITH v(x, g) AS (VALUES (3, 1), (3, 1), (5, 0), (5, 0)), r(c) AS (SELECT pooled_t_ci(x, g) FROM v)
SELECT 'zero-se/pooled', c = '{"estimate":-2,"lo":-2,"hi":-2,"se":0,"df":2,"t":null,"p":null,"n1":2,"n2":2,"mean1":3,"mean2":5,"level":0.95}' FROM r;
WITH v(x, g) AS (VALUES (3, 1), (3, 1), (5, 0), (5, 0)), r(c) AS (SELECT welch_t_ci(x, g, 0.9) FROM v)
SELECT 'zero-se/welch', c = '{"estimate":-2,"lo":-2,"hi":-2,"se":0,"df":null,"t":null,"p":null,"n1":2,"n2":2,"mean1":3,"mean2":5,"level":0.9}' FROM r;
WITH v(x) AS (VALUES (7), (7), (7)) SELECT 'zero-se/t_ci', t_ci(x) = '{"estimate":7,"lo":7,"hi":7,"se":0,"df":2,"n":3,"level":0.95}' FROM v;
WITH v(x) AS (VALUES (1e9 + 0.5), (1e9 + 0.5)) SELECT 'zero-var/variance', variance(x) = 0.0 AND stddev(x) = 0.0 FROM v;
-- R: wilcox.test(c(1, 1, 1), c(1, 1)): all tied, p is NaN.
WITH v(x, g) AS (VALUES (1, 1), (1, 1), (1, 1), (1, 0), (1, 0)) SELECT 'all-tied/mann_whitney', mann_whitney(x, g) = '{"u":3,"p":null,"n1":3,"n2":2,"exact":false}' FROM v;

-- Exact values the definitions promise.
WITH v(x) AS (VALUES (1e9 + 1), (1e9 + 2), (1e9 + 3), (1e9 + 4)) SELECT 'exact/variance-offset', variance(x) = 5.0 / 3 FROM v;
WITH v(x) AS (VALUES (3), (1), (2), (5)) SELECT 'exact/median-even', median(x) = 2.5 FROM v;
WITH v(x) AS (VALUES (3), (1), (2), (5)) SELECT 'exact/percentile-type7', abs(percentile(x, 10) - 1.3) <= 1e-15 FROM v;
WITH v(x) AS (VALUES (3), (1), (2), (5)) SELECT 'exact/percentile-ends', percentile(x, 0) = 1.0 AND percentile(x, 100) = 5.0 FROM v;
WITH v(x) AS (VALUES (3), (1), (2), (5)) SELECT 'exact/band-edges', band_share(x, 1, 3) = 0.75 FROM v;
WITH v(x) AS (VALUES (3), (1), (2), (5)) SELECT 'exact/band-reversed', band_share(x, 3, 1) = 0.0 FROM v;
WITH v(x) AS (VALUES (1e308), (1.2e308), (1.7e308), (1.79e308)) SELECT 'exact/median-huge', abs(median(x) - 1.45e308) <= 1e-15 * 1.45e308 FROM v;

-- Scalars: NULL in, NULL out; the ends of the t distribution.
SELECT 'scalar/null', t_quantile(NULL, 3) IS NULL AND t_quantile(0.5, NULL) IS NULL AND t_cdf(NULL, 1) IS NULL
  AND t_cdf(1, NULL) IS NULL AND ci_exp(NULL) IS NULL AND ci_recip(NULL) IS NULL
  AND ci_excludes(NULL, 1) IS NULL AND ci_excludes('{"estimate":1,"lo":0,"hi":2}', NULL) IS NULL;
SELECT 'scalar/t_quantile-ends', t_quantile(0, 5) = -1e999 AND t_quantile(1, 5) = 1e999 AND t_quantile(0.5, 5) = 0.0;
SELECT 'scalar/t_cdf-ends', t_cdf(-1e999, 5) = 0.0 AND t_cdf(1e999, 5) = 1.0 AND t_cdf(0, 5) = 0.5;
SELECT 'scalar/t_cdf-cauchy', abs(t_cdf(1, 1) - 0.75) <= 1e-15;
-- Cauchy (df = 1): qt(p) = tan(pi (p - 0.5)); 0.75 -> 1.
SELECT 'scalar/t_quantile-cauchy', abs(t_quantile(0.75, 1) - 1) <= 1e-15;
SELECT 'version', benchdb_version() GLOB '[0-9]*.[0-9]*.[0-9]*';
