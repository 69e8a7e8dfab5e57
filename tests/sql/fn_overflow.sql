-- Members of a JSON result beyond the largest double: JSON has no number
-- for +-Inf and null means "does not exist", so every JSON-returning
-- function fails with "NAME(): MEMBER is +Inf (beyond the largest double)"
-- (docs/functions.md, rule 6). median_ci and mann_whitney cannot overflow
-- (a median of finite values, a rank statistic); lookback_baseline's mean
-- cannot either, and its stddev only past the doubles' range.

CREATE TEMP TABLE big(x REAL, g INTEGER, t INTEGER);
INSERT INTO big VALUES (1.7e308, 1, 1), (1.6e308, 1, 2), (-1.7e308, 0, 3), (-1.5e308, 0, 4);

-- error: hodges_lehmann(): estimate is +Inf (beyond the largest double)
SELECT hodges_lehmann(x, g) FROM big;
-- error: hodges_lehmann(): estimate is -Inf (beyond the largest double)
SELECT hodges_lehmann(x, g = 0) FROM big;
-- error: pooled_t_ci(): estimate is +Inf (beyond the largest double)
SELECT pooled_t_ci(x, g) FROM big;
-- error: welch_t_ci(): lo is +Inf (beyond the largest double)
SELECT welch_t_ci(x, g, 0.95, 'lo,hi') FROM big;
-- error: t_ci(): lo is -Inf (beyond the largest double)
SELECT t_ci(x) FROM big;
-- error: t_ci_of(): lo is -Inf (beyond the largest double)
SELECT t_ci_of(moments(x)) FROM big;
-- error: pooled_t_ci_of(): estimate is +Inf (beyond the largest double)
SELECT pooled_t_ci_of(a, b) FROM (SELECT moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b FROM big);
-- error: ci_exp(): estimate is +Inf (beyond the largest double)
SELECT ci_exp('{"estimate":1000,"lo":0,"hi":1}');
-- error: ci_recip(): hi is +Inf (beyond the largest double)
SELECT ci_recip('{"estimate":1,"lo":5e-324,"hi":2}');
-- A step from 1e-200 to 1e150: the change is found and its magnitude,
-- 1e350, is beyond the doubles.
-- error: change_points(): magnitude is +Inf (beyond the largest double)
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 20)
SELECT change_points(i, CASE WHEN i <= 10 THEN 1e-200 * (1 + i % 3) ELSE 1e150 * (1 + i % 3) END) FROM k;
-- Residuals of 3.4e308: their standard deviation is past the doubles.
-- error: lookback_baseline(): stddev is +Inf (beyond the largest double)
WITH v(t, x) AS (VALUES (1, 1.7e308), (2, -1.7e308), (3, 1.7e308), (4, -1.7e308)) SELECT lookback_baseline(t, x) FROM v;

-- What does not overflow keeps its numbers.
SELECT 'median_ci/big', json_extract(median_ci(x), '$.center') = (-1.5e308 + 1.6e308) / 2 FROM big;
SELECT 'mann_whitney/big', mann_whitney(x, g) = '{"u":4,"p":0.3333333333333333,"n1":2,"n2":2,"exact":true}' FROM big;
SELECT 'hodges_lehmann/large-finite', hodges_lehmann(x / 4, g) = '{"estimate":8.125e+307,"lo":7.75e+307,"hi":8.5e+307,"level":0.95,"confidence":0.6666666666666667,"n1":2,"n2":2,"exact":true}' FROM big;
-- lookback_baseline: the mean of values near +-1.7e308 is exact (it was
-- null), and +-1e200, whose squares overflow, have the residuals' sample
-- sd (of the residuals 0, -2e200, 1e200, -1.3333e200: 50-digit mpmath
-- 1.34370962471642490e+200, the nearest double 1.3437096247164248e+200;
-- it was 0).
-- (the exact mean, Python: float(sum(map(Fraction, x)) / 4))
SELECT 'lookback/big-mean', json_extract(lookback_baseline(t, x), '$.mean') = 2.499999999999999e+306 FROM big;
WITH v(t, x) AS (VALUES (1, 1e200), (2, -1e200), (3, 1e200), (4, -1e200))
SELECT 'lookback/1e200', lookback_baseline(t, x) = '{"n":4,"outliers":0,"mean":0,"stddev":1.3437096247164248e+200}' FROM v;
