-- change_points(seq, x [, window [, max_pvalue [, min_magnitude]]]): the
-- numbered rules at the top of src/sqlfn/fn_changepoint.c. The statistics
-- themselves are checked against Otava's tests in fn_change_points_otava.sql
-- and tests/unit/test_changepoint.c.

-- Otava's series_test.py series1 and series2 (one change point each, at
-- index 6 and 4), with seq 10, 20, ...
CREATE TEMP TABLE s(name TEXT, seq, x);
INSERT INTO s VALUES
  ('a', 10, 1.02), ('a', 20, 0.95), ('a', 30, 0.99), ('a', 40, 1.0), ('a', 50, 1.12), ('a', 60, 0.9),
  ('a', 70, 0.5), ('a', 80, 0.51), ('a', 90, 0.48), ('a', 100, 0.48), ('a', 110, 0.55),
  ('b', 10, 2.02), ('b', 20, 2.03), ('b', 30, 2.01), ('b', 40, 2.04), ('b', 50, 1.82), ('b', 60, 1.85),
  ('b', 70, 1.79), ('b', 80, 1.81), ('b', 90, 1.8), ('b', 100, 1.76), ('b', 110, 1.78);
CREATE TEMP TABLE a AS SELECT seq, x FROM s WHERE name = 'a';
CREATE TEMP TABLE want AS SELECT change_points(seq, x) AS j FROM a;

-- The whole text of one result: numbers in shortest round-trip form, seq as
-- given, Otava's report_test values (0.996667 -> 0.504, sd 0.067495 and
-- 0.025768, magnitude 0.977513, forward change -49%).
SELECT 'text/a', j = '[{"seq":70,"index":6,"mean_before":0.9966666666666667,"mean_after":0.504,"stddev_before":0.06749485577105532,"stddev_after":0.025768197453450273,"pvalue":9.470438654814032e-08,"magnitude":0.9775132275132277,"forward_change_percent":-49.4314381270903}]' FROM want;
SELECT 'text/keys', (SELECT group_concat(key) FROM json_each(j, '$[0]')) = 'seq,index,mean_before,mean_after,stddev_before,stddev_after,pvalue,magnitude,forward_change_percent' FROM want;
SELECT 'text/subtype', json_type(json_object('cp', change_points(seq, x)), '$.cp') = 'array' FROM a;
SELECT 'group-by', group_concat(name || ':' || (j ->> '$[0].index'), ' ') = 'a:6 b:4'
  FROM (SELECT name, change_points(seq, x) AS j FROM s GROUP BY name ORDER BY name);

-- Rule 1: rows whose seq or x is NULL are skipped, and take no position.
SELECT 'null/x', (SELECT change_points(seq, x) FROM (SELECT seq, x FROM a UNION ALL SELECT 65, NULL)) = j FROM want;
SELECT 'null/seq', (SELECT change_points(seq, x) FROM (SELECT seq, x FROM a UNION ALL SELECT NULL, 99.0)) = j FROM want;
-- ... and their parameters are not read.
SELECT 'null/params-not-read', (SELECT change_points(seq, x, CASE WHEN x IS NULL THEN NULL ELSE 50 END)
  FROM (SELECT seq, x FROM a UNION ALL SELECT 65, NULL)) = j FROM want;

-- Rule 2: NULL for no rows, '[]' for no change point.
SELECT 'empty/none', change_points(seq, x) IS NULL FROM a WHERE seq < 0;
SELECT 'empty/only-nulls', change_points(seq, x) IS NULL FROM (SELECT NULL AS seq, 1.0 AS x UNION ALL SELECT 1, NULL);
SELECT 'empty/one', change_points(seq, x) = '[]' FROM a WHERE seq = 10;
SELECT 'empty/two', change_points(seq, x) = '[]' FROM a WHERE seq <= 20;
SELECT 'empty/constant', change_points(seq, 5.5) = '[]' FROM a;
SELECT 'empty/min_magnitude', change_points(seq, x, 50, 0.001, 0.2) = '[]' FROM s WHERE name = 'b';
SELECT 'empty/min_magnitude-a', json_array_length(change_points(seq, x, 50, 0.001, 0.2)) = 1 FROM a;

-- Rule 3: defaults, numeric text, and the exact error texts.
SELECT 'defaults', (SELECT change_points(seq, x, 50, 0.001, 0) FROM a) = j AND (SELECT change_points(seq, x, 50) FROM a) = j
  AND (SELECT change_points(seq, x, 50.0, 0.001) FROM a) = j FROM want;
SELECT 'numeric-text', (SELECT change_points(CAST(seq AS TEXT), CAST(x AS TEXT), '50', '0.001', '0') FROM a) = j FROM want;
SELECT 'window-huge', (SELECT change_points(seq, x, 9007199254740992) FROM a) = j AND (SELECT change_points(seq, x, 1e300) FROM a) = j FROM want;
SELECT 'max_pvalue-edges', change_points(seq, x, 50, 0) = '[]' AND json_array_length(change_points(seq, x, 50, 1)) >= 1 FROM a;
-- error: 1st argument to change_points() is not a finite number: 'abc'
SELECT change_points('abc', 1.0);
-- error: 1st argument to change_points() is not a finite number: Inf
SELECT change_points(1e999, 1.0);
-- error: 1st argument to change_points() is not a finite number: a blob
SELECT change_points(x'01', 1.0);
-- error: 2nd argument to change_points() is not a finite number: 'abc'
SELECT change_points(1, 'abc');
-- error: 2nd argument to change_points() is not a finite number: -Inf
SELECT change_points(1, -1e999);
-- error: 3rd argument to change_points() is not an integer of at least 2: 1
SELECT change_points(seq, x, 1) FROM a;
-- error: 3rd argument to change_points() is not an integer of at least 2: 2.5
SELECT change_points(seq, x, 2.5) FROM a;
-- error: 3rd argument to change_points() is not an integer of at least 2: NULL
SELECT change_points(seq, x, NULL) FROM a;
-- error: 3rd argument to change_points() is not an integer of at least 2: 'ten'
SELECT change_points(seq, x, 'ten') FROM a;
-- error: 3rd argument to change_points() is not an integer of at least 2: Inf
SELECT change_points(seq, x, 1e999) FROM a;
-- error: 4th argument to change_points() is not a number between 0 and 1: 1.5
SELECT change_points(seq, x, 50, 1.5) FROM a;
-- error: 4th argument to change_points() is not a number between 0 and 1: -0.1
SELECT change_points(seq, x, 50, -0.1) FROM a;
-- error: 4th argument to change_points() is not a number between 0 and 1: NULL
SELECT change_points(seq, x, 50, NULL) FROM a;
-- error: 5th argument to change_points() is not a non-negative finite number: -1
SELECT change_points(seq, x, 50, 0.001, -1) FROM a;
-- error: 5th argument to change_points() is not a non-negative finite number: Inf
SELECT change_points(seq, x, 50, 0.001, 1e999) FROM a;
-- error: 3rd argument to change_points() is not the same for all rows: 30
SELECT change_points(seq, x, CASE WHEN seq < 50 THEN 50 ELSE 30 END) FROM a;
-- error: 4th argument to change_points() is not the same for all rows: 0.01
SELECT change_points(seq, x, 50, CASE WHEN seq < 50 THEN 0.001 ELSE 0.01 END) FROM a;
-- error: 5th argument to change_points() is not the same for all rows: 0.1
SELECT change_points(seq, x, 50, 0.001, CASE WHEN seq < 50 THEN 0 ELSE 0.1 END) FROM a;
-- error: wrong number of arguments to function change_points()
SELECT change_points(x) FROM a;
-- error: wrong number of arguments to function change_points()
SELECT change_points(seq, x, 50, 0.001, 0, 1) FROM a;

-- Rule 4: the result does not depend on row order. The same rows in
-- reverse, interleaved and scrambled orders give the same text.
SELECT 'order/reverse', (SELECT change_points(seq, x) FROM (SELECT * FROM a ORDER BY seq DESC)) = j FROM want;
SELECT 'order/by-x', (SELECT change_points(seq, x) FROM (SELECT * FROM a ORDER BY x)) = j FROM want;
SELECT 'order/scrambled', (SELECT change_points(seq, x) FROM (SELECT * FROM a ORDER BY (seq * 7919) % 13, seq)) = j FROM want;
-- Equal seq: ordered by x within a seq, so any arrival order gives one text.
CREATE TEMP TABLE ties(seq, x);
INSERT INTO ties SELECT seq / 20, x FROM a;
SELECT 'ties/orders', (SELECT change_points(seq, x) FROM (SELECT * FROM ties ORDER BY x DESC))
                    = (SELECT change_points(seq, x) FROM (SELECT * FROM ties ORDER BY x ASC)) FROM ties LIMIT 1;
-- seq 0: 1.02; 1: 0.95, 0.99; 2: 1.0, 1.12; 3: 0.9, 0.5; 4: 0.48, 0.51;
-- 5: 0.48, 0.55: the series 1.02 0.95 0.99 1.0 1.12 0.5 0.9 ... puts 0.5
-- before 0.9, and the change point at the 0.5 (index 5, seq 3).
SELECT 'ties/by-x', (j ->> '$[0].index') = 5 AND (j ->> '$[0].seq') = 3 FROM (SELECT change_points(seq, x) AS j FROM ties);
-- An integer seq and an equal real one: the integer first, whatever the order.
SELECT 'ties/int-real', (SELECT change_points(seq, x) FROM (SELECT 70 AS seq, 0.5 AS x UNION ALL SELECT 70.0, 0.5 UNION ALL SELECT seq, x FROM a WHERE seq <> 70))
                      = (SELECT change_points(seq, x) FROM (SELECT 70.0 AS seq, 0.5 AS x UNION ALL SELECT 70, 0.5 UNION ALL SELECT seq, x FROM a WHERE seq <> 70));

-- Rule 5: seq as given (a real in shortest form, so 70.0 reads 70; integers
-- beyond 2^53 exact), integers and reals ordered by their exact values.
SELECT 'seq/real', (j ->> '$[0].seq') = 70.5 AND j LIKE '[{"seq":70.5,"index":6,%' FROM (SELECT change_points(seq + 0.5, x) AS j FROM a);
SELECT 'seq/real-integral', j LIKE '[{"seq":70,"index":6,%' FROM (SELECT change_points(CAST(seq AS REAL), x) AS j FROM a);
SELECT 'seq/int64', j LIKE '[{"seq":4611686018427387974,"index":6,%' FROM (SELECT change_points(4611686018427387904 + seq, x) AS j FROM a);
-- Around 2^53, where doubles are 2 apart: the real 2^53 (x 0.9) sorts before
-- the integer 2^53 + 1 (x 0.5), which a comparison in doubles would call
-- equal and order by x the other way.
SELECT 'seq/exact', j LIKE '[{"seq":9007199254740993,"index":6,%' FROM (SELECT change_points(seq, x) AS j FROM
  (SELECT 9007199254740892 + seq AS seq, x FROM a WHERE seq <= 50 UNION ALL SELECT 9007199254740992.0, 0.9
   UNION ALL SELECT 9007199254740993, 0.5 UNION ALL SELECT 9007199254740992 + seq, x FROM a WHERE seq >= 80));
SELECT 'seq/text', (SELECT change_points(CAST(seq AS TEXT), x) FROM a) = j FROM want;

-- Rule 6: as a window function, each row's value equals the aggregate over
-- the frame's rows (computed from scratch, in another order).
CREATE TEMP TABLE w(i INTEGER PRIMARY KEY, seq, x);
INSERT INTO w(seq, x) SELECT seq, x FROM s WHERE name = 'a' UNION ALL SELECT seq + 110, x + 1 FROM s WHERE name = 'b' ORDER BY 1;
SELECT 'window/rows8/' || i, a IS b FROM (SELECT i, change_points(seq, x, 10, 0.05) OVER (ORDER BY i ROWS BETWEEN 8 PRECEDING AND CURRENT ROW) AS a,
  (SELECT change_points(seq, x, 10, 0.05) FROM (SELECT * FROM w w2 WHERE w2.i BETWEEN w.i - 8 AND w.i ORDER BY x)) AS b FROM w);
SELECT 'window/desc/' || i, a IS b FROM (SELECT i, change_points(seq, x) OVER (ORDER BY i DESC ROWS BETWEEN 12 PRECEDING AND 2 FOLLOWING) AS a,
  (SELECT change_points(seq, x) FROM w w2 WHERE w2.i BETWEEN w.i - 2 AND w.i + 12) AS b FROM w);
SELECT 'window/growing/' || i, a IS b FROM (SELECT i, change_points(seq, x) OVER (ORDER BY i) AS a,
  (SELECT change_points(seq, x) FROM w w2 WHERE w2.i <= w.i) AS b FROM w);
SELECT 'window/found', count(*) FILTER (WHERE json_array_length(a) > 0) >= 10 FROM
  (SELECT change_points(seq, x) OVER (ORDER BY i) AS a FROM w);
