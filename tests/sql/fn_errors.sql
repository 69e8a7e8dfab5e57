-- Error texts of the statistics functions, exactly as docs/functions.md lists
-- them: "Nth argument to NAME() is not EXPECTED: GOT".

CREATE TEMP TABLE t(x, g, p);
INSERT INTO t VALUES (1.5, 1, 0.95), (2.5, 0, 0.95), (3.5, 1, 0.9);

-- error: 1st argument to geomean() is not a positive finite number: -1
WITH v(x) AS (VALUES (2), (-1)) SELECT geomean(x) FROM v;
-- error: 1st argument to geomean() is not a positive finite number: 0.0
WITH v(x) AS (VALUES (0.0)) SELECT geomean(x) FROM v;
-- error: 1st argument to geomean() is not a positive finite number: 'abc'
SELECT geomean('abc');
-- error: 1st argument to geomean() is not a positive finite number: Inf
SELECT geomean(1e999);
-- error: 1st argument to geomean() is not a positive finite number: a blob
SELECT geomean(x'0102');
-- error: 1st argument to geomean() is not a positive finite number: 'a text longer than forty characters, whi...'
SELECT geomean('a text longer than forty characters, which is shortened');
-- error: 1st argument to variance() is not a finite number: 'abc'
WITH v(x) AS (VALUES (1), ('abc')) SELECT variance(x) FROM v;
-- error: 1st argument to variance() is not a finite number: -Inf
SELECT variance(-1e999);
-- error: 1st argument to stddev() is not a finite number: '1.5x'
SELECT stddev('1.5x');
-- error: 1st argument to t_ci() is not a finite number: 'x'
SELECT t_ci('x');
-- error: 2nd argument to t_ci() is not a confidence level strictly between 0 and 1: 1.5
SELECT t_ci(x, 1.5) FROM t;
-- error: 2nd argument to t_ci() is not a confidence level strictly between 0 and 1: 0
SELECT t_ci(x, 0) FROM t;
-- error: 2nd argument to t_ci() is not a confidence level strictly between 0 and 1: NULL
SELECT t_ci(x, NULL) FROM t;
-- error: 2nd argument to t_ci() is not the same for all rows: 0.9
SELECT t_ci(x, p) FROM t;
-- error: 1st argument to pooled_t_ci() is not a finite number: 'x'
SELECT pooled_t_ci('x', 1);
-- error: 2nd argument to pooled_t_ci() is not a boolean: 'yes'
SELECT pooled_t_ci(x, 'yes') FROM t;
-- error: 2nd argument to pooled_t_ci() is not a boolean: a blob
SELECT pooled_t_ci(x, x'00') FROM t;
-- error: 3rd argument to pooled_t_ci() is not a confidence level strictly between 0 and 1: 1
SELECT pooled_t_ci(x, g, 1) FROM t;
-- error: 3rd argument to pooled_t_ci() is not the same for all rows: 0.9
SELECT pooled_t_ci(x, g, p) FROM t;
-- error: 1st argument to welch_t_ci() is not a finite number: Inf
SELECT welch_t_ci(1e999, 1);
-- error: 2nd argument to welch_t_ci() is not a boolean: 'no'
SELECT welch_t_ci(1, 'no');
-- error: 3rd argument to welch_t_ci() is not a confidence level strictly between 0 and 1: 'high'
SELECT welch_t_ci(x, g, 'high') FROM t;
-- error: 1st argument to band_share() is not a finite number: 'a'
SELECT band_share('a', 0, 1);
-- error: 2nd argument to band_share() is not a finite number: NULL
SELECT band_share(1, NULL, 1);
-- error: 3rd argument to band_share() is not a finite number: Inf
SELECT band_share(1, 0, 1e999);
-- error: 1st argument to median() is not a finite number: 'abc'
SELECT median('abc');
-- error: 1st argument to median() is not a finite number: a blob
SELECT median(x'00');
-- error: 1st argument to percentile() is not a finite number: Inf
SELECT percentile(1e999, 50);
-- error: 2nd argument to percentile() is not a number between 0 and 100: 101
SELECT percentile(x, 101) FROM t;
-- error: 2nd argument to percentile() is not a number between 0 and 100: -0.5
SELECT percentile(x, -0.5) FROM t;
-- error: 2nd argument to percentile() is not a number between 0 and 100: NULL
SELECT percentile(x, NULL) FROM t;
-- error: 2nd argument to percentile() is not the same for all rows: 90.0
SELECT percentile(x, p * 100) FROM t;
-- error: 1st argument to trimmed_mean() is not a finite number: 'z'
SELECT trimmed_mean('z', 1);
-- error: 2nd argument to trimmed_mean() is not a non-negative integer: -1
SELECT trimmed_mean(x, -1) FROM t;
-- error: 2nd argument to trimmed_mean() is not a non-negative integer: 1.5
SELECT trimmed_mean(x, 1.5) FROM t;
-- error: 2nd argument to trimmed_mean() is not a non-negative integer: NULL
SELECT trimmed_mean(x, NULL) FROM t;
-- error: 2nd argument to trimmed_mean() is not the same for all rows: 0
SELECT trimmed_mean(x, g) FROM t;
-- error: 1st argument to spread() is not a positive finite number: -2
WITH v(x) AS (VALUES (1), (-2)) SELECT spread(x) FROM v;
-- error: 1st argument to spread() is not a positive finite number: 0
SELECT spread(0);
-- error: 1st argument to mann_whitney() is not a finite number: 'a'
SELECT mann_whitney('a', 1);
-- error: 2nd argument to mann_whitney() is not a boolean: 'a'
SELECT mann_whitney(1, 'a');
-- error: 1st argument to t_quantile() is not a number between 0 and 1: 1.5
SELECT t_quantile(1.5, 3);
-- error: 1st argument to t_quantile() is not a number between 0 and 1: 'half'
SELECT t_quantile('half', 3);
-- error: 2nd argument to t_quantile() is not a positive finite number: 0
SELECT t_quantile(0.5, 0);
-- error: 2nd argument to t_quantile() is not a positive finite number: Inf
SELECT t_quantile(0.5, 1e999);
-- error: 1st argument to t_cdf() is not a number: 'a'
SELECT t_cdf('a', 3);
-- error: 2nd argument to t_cdf() is not a positive finite number: -1
SELECT t_cdf(1, -1);
-- error: 1st argument to ci_exp() is not a JSON interval object with numeric estimate, lo and hi: 'nope'
SELECT ci_exp('nope');
-- error: 1st argument to ci_exp() is not a JSON interval object with numeric estimate, lo and hi: '{"estimate":1,"lo":0}'
SELECT ci_exp('{"estimate":1,"lo":0}');
-- error: 1st argument to ci_exp() is not a JSON interval object with numeric estimate, lo and hi: '[1,2,3]'
SELECT ci_exp('[1,2,3]');
-- error: 1st argument to ci_exp() is not a JSON interval object with numeric estimate, lo and hi: '{"estimate":1,"lo":"0","hi":2}'
SELECT ci_exp('{"estimate":1,"lo":"0","hi":2}');
-- error: 1st argument to ci_exp() is not a JSON interval object with numeric estimate, lo and hi: 42
SELECT ci_exp(42);
-- error: 1st argument to ci_recip() is not a JSON interval object with numeric estimate, lo and hi: '{}'
SELECT ci_recip('{}');
-- error: 1st argument to ci_recip() is not an interval of positive numbers (lo > 0): '{"estimate":0.1,"lo":-1,"hi":2}'
SELECT ci_recip('{"estimate":0.1,"lo":-1,"hi":2}');
-- error: 1st argument to ci_excludes() is not a JSON interval object with numeric estimate, lo and hi: 'x'
SELECT ci_excludes('x', 1);
-- error: 2nd argument to ci_excludes() is not a number: 'one'
SELECT ci_excludes('{"estimate":1,"lo":0,"hi":2}', 'one');
-- Window functions report the same errors.
-- error: 1st argument to geomean() is not a positive finite number: -3
WITH v(i, x) AS (VALUES (1, 2), (2, -3))
SELECT 'window-geomean', count(w) FROM (SELECT geomean(x) OVER (ORDER BY i ROWS 1 PRECEDING) AS w FROM v);
-- error: 2nd argument to percentile() is not the same for all rows: 20
WITH v(x, p) AS (VALUES (1, 10), (2, 20))
SELECT 'window-percentile', count(w) FROM (SELECT percentile(x, p) OVER (ORDER BY x ROWS 1 PRECEDING) AS w FROM v);
