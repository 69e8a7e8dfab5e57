-- mean(x) (src/sqlfn/fn_moments.c): the exact sum divided and rounded
-- once: what trimmed_mean(x, 0) gives (its kept values summed exactly),
-- on data where plain summation loses the answer; NULLs, no rows, frames.

CREATE TEMP TABLE v(i INTEGER PRIMARY KEY, x REAL);
INSERT INTO v(x) VALUES (1e16), (1.0), (-1e16), (3.0), (1e-300), (0.1), (0.2), (0.3);

SELECT 'mean/example', mean(x) = 3.75 FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 4 UNION ALL SELECT 8);
-- 1e16 + 1 - 1e16 + 3 + ... : plain summation in this order loses the 1.
SELECT 'mean/exact', mean(x) = (4.6 + 1e-300) / 8 AND mean(x) = trimmed_mean(x, 0) FROM v;
SELECT 'mean/one', mean(x) = 2.5 FROM (SELECT 2.5 AS x);
SELECT 'mean/null-ignored', mean(x) = 2 FROM (SELECT 1 AS x UNION ALL SELECT NULL UNION ALL SELECT 3);
SELECT 'mean/no-rows', mean(x) IS NULL FROM v WHERE 0;
SELECT 'mean/order', (SELECT mean(x) FROM (SELECT x FROM v ORDER BY x)) = (SELECT mean(x) FROM (SELECT x FROM v ORDER BY x DESC));
SELECT 'mean/window', count(*) = 8 AND min(w = p) = 1 FROM (
  SELECT mean(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS w,
         (SELECT trimmed_mean(x, 0) FROM v AS u WHERE u.i BETWEEN v.i - 2 AND v.i) AS p
  FROM v);

-- fsum(x): the exact sum rounded once; the references are Python's
-- math.fsum (correctly rounded): math.fsum(v) = 4.6, where sum(v) in this
-- order gives 3.6; math.fsum([0.1] * 10) = 1.0 (plain: 0.9999999999999999);
-- [1, 2^-53] -> 1.0 (the tie to even), [1, 2^-53, 2^-105] -> 1 + 2^-52,
-- [1 + 2^-52, 2^-53] -> 1 + 2^-51 (the tie to even, upward).
SELECT 'fsum/exact', fsum(x) = 4.6 FROM v;
SELECT 'fsum/tenths', fsum(x) = 1.0 FROM (WITH RECURSIVE t(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM t WHERE k < 10) SELECT 0.1 AS x FROM t);
SELECT 'fsum/tie-even', fsum(x) = 1.0 FROM (SELECT 1.0 AS x UNION ALL SELECT power(2, -53));
SELECT 'fsum/tie-broken', fsum(x) = 1 + power(2, -52) FROM (SELECT 1.0 AS x UNION ALL SELECT power(2, -53) UNION ALL SELECT power(2, -105));
SELECT 'fsum/tie-up', fsum(x) = 1 + power(2, -51) FROM (SELECT 1 + power(2, -52) AS x UNION ALL SELECT power(2, -53));
SELECT 'fsum/null-ignored', fsum(x) = 4 FROM (SELECT 1 AS x UNION ALL SELECT NULL UNION ALL SELECT 3);
SELECT 'fsum/no-rows', fsum(x) IS NULL FROM v WHERE 0;
SELECT 'fsum/order', (SELECT fsum(x) FROM (SELECT x FROM v ORDER BY x)) = (SELECT fsum(x) FROM (SELECT x FROM v ORDER BY x DESC));
-- a frame after removals: the sum of the frame's rows, 1e16 gone again
SELECT 'fsum/window', count(*) = 8 AND min(w = p) = 1 FROM (
  SELECT fsum(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS w,
         (SELECT fsum(x) FROM v AS u WHERE u.i BETWEEN v.i - 2 AND v.i) AS p
  FROM v);

-- Past a halfway point by far less than double-double's precision
-- (docs/functions.md; tests/unit/test_rounding.c has 2,502 such cases):
-- math.fsum([1.0, 2**-53, 1e-30]) = 1.0000000000000002, and the mean of
-- [4.0, 2**-51, 2**-200, 0.0] is 1 + 2**-53 + 2**-202, which rounds up.
SELECT 'fsum/past-halfway', fsum(x) = 1.0000000000000002 FROM (SELECT 1.0 AS x UNION ALL SELECT 1.1102230246251565e-16 UNION ALL SELECT 1e-30);
SELECT 'mean/past-halfway', mean(x) = 1.0000000000000002 AND trimmed_mean(x, 0) = 1.0000000000000002
  AND json_extract(t_ci(x), '$.estimate') = 1.0000000000000002 AND json_extract(t_ci(x), '$.estimate') = mean(x)
  FROM (SELECT 4.0 AS x UNION ALL SELECT 4.440892098500626e-16 UNION ALL SELECT 6.223015277861142e-61 UNION ALL SELECT 0.0);
SELECT 'mean/past-halfway-pooled', json_extract(pooled_t_ci(x, g), '$.mean1') = 1.0000000000000002
  AND json_extract(welch_t_ci(x, g), '$.mean1') = 1.0000000000000002
  FROM (SELECT 4.0 AS x, 1 AS g UNION ALL SELECT 4.440892098500626e-16, 1 UNION ALL SELECT 6.223015277861142e-61, 1
        UNION ALL SELECT 0.0, 1 UNION ALL SELECT 2.0, 0 UNION ALL SELECT 3.0, 0);
-- The frame at i = 6 holds the four values after 1e300 and -3 left it.
SELECT 'mean/past-halfway-window', w = 1.0000000000000002 AND f = 4.000000000000001 FROM (
  SELECT i, mean(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS w,
         fsum(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS f FROM (
    SELECT 1 AS i, 1e300 AS x UNION ALL SELECT 2, -3.0 UNION ALL SELECT 3, 4.0 UNION ALL SELECT 4, 4.440892098500626e-16
    UNION ALL SELECT 5, 6.223015277861142e-61 UNION ALL SELECT 6, 0.0)) WHERE i = 6;

-- error: 1st argument to mean() is not a finite number: 'abc'
SELECT mean('abc');
