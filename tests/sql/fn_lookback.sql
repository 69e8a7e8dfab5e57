-- lookback_baseline(seq, x): its numbered rules (src/sqlfn/fn_lookback.c);
-- values against Conbench's algorithm are in fn_lookback_conbench.sql.

-- 1. Rows with a NULL seq or x are skipped.
WITH v(t, x) AS (VALUES (1, 1.0), (NULL, 5.0), (2, 2.0), (3, NULL))
SELECT 'lookback-null-rows', lookback_baseline(t, x) ->> 'n' = 2 FROM v;
-- 2. NULL for no rows; one row: its mean, no stddev.
WITH v(t, x) AS (VALUES (1, NULL)) SELECT 'lookback-empty', lookback_baseline(t, x) IS NULL FROM v;
WITH v(t, x) AS (VALUES (7, 4.5)) SELECT 'lookback-one-mean', lookback_baseline(t, x) ->> 'mean' = 4.5 FROM v;
WITH v(t, x) AS (VALUES (7, 4.5)) SELECT 'lookback-one-stddev', lookback_baseline(t, x) ->> 'stddev' IS NULL FROM v;
-- Two rows: Conbench's anchor, residuals 0 and 1.
WITH v(t, x) AS (VALUES (1, 1.0), (2, 2.0))
SELECT 'lookback-two', lookback_baseline(t, x) = '{"n":2,"outliers":0,"mean":1.5,"stddev":0.7071067811865476}' FROM v;
-- The result nests as JSON.
WITH v(t, x) AS (VALUES (1, 1.0))
SELECT 'lookback-subtype', json_object('b', lookback_baseline(t, x)) ->> '$.b.mean' = 1.0 FROM v;
-- 4. The order is seq's, not the rows': the residuals depend on it.
WITH a(t, x) AS (VALUES (3, 9.0), (1, 1.0), (2, 2.0)), b(t, x) AS (VALUES (1, 1.0), (2, 2.0), (3, 9.0))
SELECT 'lookback-order', (SELECT lookback_baseline(t, x) FROM a) = (SELECT lookback_baseline(t, x) FROM b);
WITH a(t, x) AS (VALUES (1, 9.0), (2, 1.0), (3, 2.0)), b(t, x) AS (VALUES (1, 1.0), (2, 2.0), (3, 9.0))
SELECT 'lookback-order-matters', (SELECT lookback_baseline(t, x) ->> 'stddev' FROM a)
  <> (SELECT lookback_baseline(t, x) ->> 'stddev' FROM b);
-- 5. Window: the frame of the rows before each row.
WITH v(t, x) AS (VALUES (1, 1.0), (2, 2.0), (3, 2.0), (4, 5.0))
SELECT 'lookback-window-' || t, b ->> 'mean' IS (CASE t WHEN 1 THEN NULL WHEN 2 THEN 1.0 WHEN 3 THEN 1.5 ELSE 2.0 END)
FROM (SELECT t, lookback_baseline(t, x) OVER (ORDER BY t ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) AS b FROM v);
-- 3. Errors.
-- error: 1st argument to lookback_baseline() is not a finite number: 'x'
SELECT lookback_baseline('x', 1);
-- error: 2nd argument to lookback_baseline() is not a finite number: Inf
SELECT lookback_baseline(1, 1e999);
-- error: 2nd argument to lookback_baseline() is not a finite number: a blob
SELECT lookback_baseline(1, x'00');
