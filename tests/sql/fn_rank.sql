-- median_ci, hodges_lehmann and mann_whitney's methods: the numbered rules
-- of src/sqlfn/fn_rank.c (NULLs, empty input, errors, JSON shape), results
-- that do not depend on row order, and window frames, each compared with
-- the plain aggregate of the frame's rows (which never runs xInverse or
-- xValue). The data have NULL values, NULL flags and repeated values.
-- R's numbers: fn_rank_r.sql; benchstat's: fn_benchstat.sql. The window and
-- row-order cases were generated once by a small script; plain SQL from here on.

CREATE TEMP TABLE t(i INTEGER PRIMARY KEY, x REAL, g INTEGER);
INSERT INTO t VALUES
  (1, 8.0, 1),
  (2, 7.0, 0),
  (3, 0.5, 1),
  (4, 23, 1),
  (5, 5.25, NULL),
  (6, 0.25, 1),
  (7, NULL, 1),
  (8, 11.0, 0),
  (9, 20, 1),
  (10, 2.0, 1),
  (11, 1.25, 0),
  (12, 7.5, 1),
  (13, 2.5, 1),
  (14, 7.0, 0),
  (15, 8.0, 1),
  (16, 21, 0),
  (17, 10, 0),
  (18, NULL, NULL),
  (19, 1.5, 0),
  (20, 12, 0),
  (21, 2.5, 1),
  (22, 5.5, 1),
  (23, 1.5, 0),
  (24, 16, 0),
  (25, 8.0, 0),
  (26, 11.5, 0),
  (27, 10.0, 0),
  (28, 10.5, 0),
  (29, NULL, 0),
  (30, 8, 1),
  (31, 1.0, NULL),
  (32, 2, 1),
  (33, 11, 1),
  (34, 22, 0),
  (35, 2.75, 0),
  (36, 3, 0),
  (37, 0.25, 1),
  (38, 2, 0),
  (39, 22, 0),
  (40, NULL, 1),
  (41, 5.25, 1),
  (42, 1.5, 0),
  (43, 4.25, 0),
  (44, 1.0, NULL),
  (45, 5, 1),
  (46, 7.0, 0),
  (47, 7.5, 1),
  (48, 4.5, 0);

-- Empty input, only NULLs, one sample: NULL.
CREATE TEMP TABLE empty(x REAL, g INTEGER);
SELECT 'empty/median_ci', median_ci(x) IS NULL FROM empty;
SELECT 'empty/hodges_lehmann', hodges_lehmann(x, g) IS NULL FROM empty;
SELECT 'empty/mann_whitney-exact', mann_whitney(x, g, 'exact') IS NULL FROM empty;
SELECT 'nulls/median_ci', median_ci(x, 0.9) IS NULL FROM t WHERE x IS NULL;
SELECT 'nulls/hodges_lehmann', hodges_lehmann(x, g) IS NULL FROM t WHERE x IS NULL OR g IS NULL;
SELECT 'one-sample/hodges_lehmann', hodges_lehmann(x, g) IS NULL FROM t WHERE g = 1;
SELECT 'one-sample/mann_whitney-benchstat', mann_whitney(x, g, 'benchstat') IS NULL FROM t WHERE g = 0;

-- NULL x or first: the row is ignored, and its other arguments are not read.
SELECT 'ignore/median_ci', median_ci(x) = (SELECT median_ci(x) FROM t WHERE x IS NOT NULL) FROM t;
SELECT 'ignore/hodges_lehmann', hodges_lehmann(x, g) = (SELECT hodges_lehmann(x, g) FROM t WHERE x IS NOT NULL AND g IS NOT NULL) FROM t;
SELECT 'ignore/level-not-read', median_ci(x, CASE WHEN x IS NULL THEN 7 ELSE 0.9 END) = (SELECT median_ci(x, 0.9) FROM t) FROM t;
SELECT 'ignore/method-not-read', mann_whitney(x, g, CASE WHEN g IS NULL THEN 'nonsense' ELSE 'exact' END) = (SELECT mann_whitney(x, g, 'exact') FROM t) FROM t;

-- Defaults: level 0.95, method 'r'.
SELECT 'default/median_ci', median_ci(x) = median_ci(x, 0.95) FROM t;
SELECT 'default/hodges_lehmann', hodges_lehmann(x, g) = hodges_lehmann(x, g, 0.95) FROM t;
SELECT 'default/mann_whitney', mann_whitney(x, g) = mann_whitney(x, g, 'r') FROM t;

-- JSON: the members, in order, and the subtype.
SELECT 'keys/median_ci', (SELECT group_concat(key) FROM json_each(median_ci(v.x))) = 'center,lo,hi,lo_order,hi_order,confidence,level,n' FROM t v;
SELECT 'keys/hodges_lehmann', (SELECT group_concat(key) FROM json_each(hodges_lehmann(v.x, v.g))) = 'estimate,lo,hi,level,confidence,n1,n2,exact' FROM t v;
SELECT 'keys/mann_whitney', (SELECT group_concat(key) FROM json_each(mann_whitney(v.x, v.g, 'benchstat'))) = 'u,p,n1,n2,exact' FROM t v;
SELECT 'subtype/median_ci', json_type(json_object('m', median_ci(x)), '$.m') = 'object' FROM t;
SELECT 'subtype/hodges_lehmann', json_type(json_object('h', hodges_lehmann(x, g)), '$.h') = 'object' FROM t;

-- Too few values for the level: lo and hi null, orders 0 and n + 1.
WITH v(x) AS (VALUES (3), (1), (2), (5), (4))
SELECT 'small/median_ci-5', median_ci(x) = '{"center":3,"lo":null,"hi":5,"lo_order":0,"hi_order":5,"confidence":0.96875,"level":0.95,"n":5}' FROM v;
WITH v(x) AS (VALUES (2.5))
SELECT 'small/median_ci-1', median_ci(x) = '{"center":2.5,"lo":null,"hi":null,"lo_order":0,"hi_order":2,"confidence":1,"level":0.95,"n":1}' FROM v;
WITH v(x) AS (VALUES (6), (1), (5), (2), (4), (3))
SELECT 'small/median_ci-6', median_ci(x) = '{"center":3.5,"lo":1,"hi":6,"lo_order":1,"hi_order":6,"confidence":0.96875,"level":0.95,"n":6}' FROM v;
-- hodges_lehmann on 2 and 2 at 0.95: as R, the widest interval, whose
-- achieved confidence (1 - 2/6) is below the level asked for.
WITH v(x, g) AS (VALUES (1.5, 1), (2.25, 1), (0.5, 0), (4.75, 0))
SELECT 'small/hodges_lehmann-2-2', hodges_lehmann(x, g) = '{"estimate":-0.75,"lo":-3.25,"hi":1.75,"level":0.95,"confidence":0.6666666666666667,"n1":2,"n2":2,"exact":true}' FROM v;

-- Every value tied: p is null but for 'exact' (W can only be n1 n2 / 2).
WITH v(x, g) AS (VALUES (4, 1), (4, 1), (4, 0), (4, 0), (4, 0))
SELECT 'tied/mann_whitney-r', mann_whitney(x, g, 'r') = '{"u":3,"p":null,"n1":2,"n2":3,"exact":false}' FROM v;
WITH v(x, g) AS (VALUES (4, 1), (4, 1), (4, 0), (4, 0), (4, 0))
SELECT 'tied/mann_whitney-benchstat', mann_whitney(x, g, 'benchstat') = '{"u":3,"p":null,"n1":2,"n2":3,"exact":true}' FROM v;
WITH v(x, g) AS (VALUES (4, 1), (4, 1), (4, 0), (4, 0), (4, 0))
SELECT 'tied/mann_whitney-exact', mann_whitney(x, g, 'exact') = '{"u":3,"p":1,"n1":2,"n2":3,"exact":true}' FROM v;
WITH v(x, g) AS (VALUES (4, 1), (4, 1), (4, 0), (4, 0), (4, 0))
SELECT 'tied/hodges_lehmann', hodges_lehmann(x, g) = '{"estimate":0,"lo":0,"hi":0,"level":0.95,"confidence":null,"n1":2,"n2":3,"exact":false}' FROM v;

-- benchstat's policy: u = n1 n2 / 2 gives p = 1; 50 values without ties
-- are exact (R: below 50), 26 with ties are not (25 are).
WITH v(x, g) AS (VALUES (1, 1), (4, 1), (2, 0), (3, 0))
SELECT 'benchstat/half', json_extract(mann_whitney(x, g, 'benchstat'), '$.p') = 1 FROM v;
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100)
SELECT 'benchstat/50-exact', json_extract(mann_whitney(i, i % 2, 'benchstat'), '$.exact') = 1
  AND json_extract(mann_whitney(i, i % 2), '$.exact') = 0 FROM c;
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 50)
SELECT 'benchstat/25-ties-exact', json_extract(mann_whitney(i % 7, i % 2, 'benchstat'), '$.exact') = 1 FROM c;
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 52)
SELECT 'benchstat/26-ties-normal', json_extract(mann_whitney(i % 7, i % 2, 'benchstat'), '$.exact') = 0
  AND json_extract(mann_whitney(i % 7, i % 2, 'benchstat'), '$.p') = json_extract(mann_whitney(i % 7, i % 2), '$.p') FROM c;

-- Errors.
-- error: 2nd argument to median_ci() is not a confidence level strictly between 0 and 1: 1
SELECT median_ci(x, 1) FROM t;
-- error: 2nd argument to median_ci() is not a confidence level strictly between 0 and 1: NULL
SELECT median_ci(x, NULL) FROM t;
-- error: 2nd argument to median_ci() is not the same for all rows: 0.9
SELECT median_ci(x, CASE WHEN i < 3 THEN 0.95 ELSE 0.9 END) FROM t;
-- error: 1st argument to median_ci() is not a finite number: 'abc'
SELECT median_ci('abc');
-- error: 1st argument to median_ci() is not a finite number: Inf
SELECT median_ci(1e999);
-- error: 3rd argument to hodges_lehmann() is not a confidence level strictly between 0 and 1: 0
SELECT hodges_lehmann(x, g, 0) FROM t;
-- error: 3rd argument to hodges_lehmann() is not the same for all rows: 0.8
SELECT hodges_lehmann(x, g, CASE WHEN i < 3 THEN 0.9 ELSE 0.8 END) FROM t;
-- error: 2nd argument to hodges_lehmann() is not a boolean: 'yes'
SELECT hodges_lehmann(1, 'yes');
-- error: 1st argument to hodges_lehmann() is not a finite number: a blob
SELECT hodges_lehmann(x'00', 1);
-- error: 3rd argument to mann_whitney() is not one of 'r', 'exact', 'benchstat': 'Exact'
SELECT mann_whitney(x, g, 'Exact') FROM t;
-- error: 3rd argument to mann_whitney() is not one of 'r', 'exact', 'benchstat': NULL
SELECT mann_whitney(x, g, NULL) FROM t;
-- error: 3rd argument to mann_whitney() is not one of 'r', 'exact', 'benchstat': 1
SELECT mann_whitney(x, g, 1) FROM t;
-- error: 3rd argument to mann_whitney() is not the same for all rows: 'benchstat'
SELECT mann_whitney(x, g, CASE WHEN i < 3 THEN 'exact' ELSE 'benchstat' END) FROM t;
-- error: mann_whitney(): samples of 190 and 190 values are too large for method 'exact' (two samples of 188 at most); use 'r' or 'benchstat'
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 380) SELECT mann_whitney(i, i % 2, 'exact') FROM c;

-- Row order does not matter: the same rows in three orders.
CREATE TEMP TABLE o AS SELECT x, g FROM t WHERE x IS NOT NULL AND g IS NOT NULL;
SELECT 'order/median_ci', (SELECT median_ci(x) FROM (SELECT x FROM o ORDER BY x)) = (SELECT median_ci(x) FROM (SELECT x FROM o ORDER BY x DESC))
  AND (SELECT median_ci(x) FROM (SELECT x FROM o ORDER BY x)) = (SELECT median_ci(x) FROM (SELECT x FROM o ORDER BY (x * 7919) % 13, g));
SELECT 'order/hodges_lehmann', (SELECT hodges_lehmann(x, g) FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT hodges_lehmann(x, g) FROM (SELECT x, g FROM o ORDER BY x DESC, g DESC)) AND (SELECT hodges_lehmann(x, g) FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT hodges_lehmann(x, g) FROM (SELECT x, g FROM o ORDER BY (x * 7919) % 13, g));
SELECT 'order/hodges_lehmann-0.8', (SELECT hodges_lehmann(x, g, 0.8) FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT hodges_lehmann(x, g, 0.8) FROM (SELECT x, g FROM o ORDER BY x DESC, g DESC)) AND (SELECT hodges_lehmann(x, g, 0.8) FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT hodges_lehmann(x, g, 0.8) FROM (SELECT x, g FROM o ORDER BY (x * 7919) % 13, g));
SELECT 'order/mann_whitney-exact', (SELECT mann_whitney(x, g, 'exact') FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT mann_whitney(x, g, 'exact') FROM (SELECT x, g FROM o ORDER BY x DESC, g DESC)) AND (SELECT mann_whitney(x, g, 'exact') FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT mann_whitney(x, g, 'exact') FROM (SELECT x, g FROM o ORDER BY (x * 7919) % 13, g));
SELECT 'order/mann_whitney-benchstat', (SELECT mann_whitney(x, g, 'benchstat') FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT mann_whitney(x, g, 'benchstat') FROM (SELECT x, g FROM o ORDER BY x DESC, g DESC)) AND (SELECT mann_whitney(x, g, 'benchstat') FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT mann_whitney(x, g, 'benchstat') FROM (SELECT x, g FROM o ORDER BY (x * 7919) % 13, g));
SELECT 'order/mann_whitney', (SELECT mann_whitney(x, g) FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT mann_whitney(x, g) FROM (SELECT x, g FROM o ORDER BY x DESC, g DESC)) AND (SELECT mann_whitney(x, g) FROM (SELECT x, g FROM o ORDER BY x, g)) = (SELECT mann_whitney(x, g) FROM (SELECT x, g FROM o ORDER BY (x * 7919) % 13, g));

-- Window frames against the plain aggregate of the frame's rows.
SELECT 'median_ci/rows2/' || i, a IS b FROM (SELECT i, median_ci(x, 0.9) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT median_ci(x, 0.9) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'hodges_lehmann/rows2/' || i, a IS b FROM (SELECT i, hodges_lehmann(x, g) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT hodges_lehmann(x, g) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-exact/rows2/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'exact') OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT mann_whitney(x, g, 'exact') FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-benchstat/rows2/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'benchstat') OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a, (SELECT mann_whitney(x, g, 'benchstat') FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'median_ci/rows5-1/' || i, a IS b FROM (SELECT i, median_ci(x, 0.9) OVER (ORDER BY i ROWS BETWEEN 5 PRECEDING AND 1 FOLLOWING) AS a, (SELECT median_ci(x, 0.9) FROM t t2 WHERE t2.i BETWEEN t.i - 5 AND t.i + 1) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'hodges_lehmann/rows5-1/' || i, a IS b FROM (SELECT i, hodges_lehmann(x, g) OVER (ORDER BY i ROWS BETWEEN 5 PRECEDING AND 1 FOLLOWING) AS a, (SELECT hodges_lehmann(x, g) FROM t t2 WHERE t2.i BETWEEN t.i - 5 AND t.i + 1) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-exact/rows5-1/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'exact') OVER (ORDER BY i ROWS BETWEEN 5 PRECEDING AND 1 FOLLOWING) AS a, (SELECT mann_whitney(x, g, 'exact') FROM t t2 WHERE t2.i BETWEEN t.i - 5 AND t.i + 1) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-benchstat/rows5-1/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'benchstat') OVER (ORDER BY i ROWS BETWEEN 5 PRECEDING AND 1 FOLLOWING) AS a, (SELECT mann_whitney(x, g, 'benchstat') FROM t t2 WHERE t2.i BETWEEN t.i - 5 AND t.i + 1) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'median_ci/rows9-4/' || i, a IS b FROM (SELECT i, median_ci(x, 0.9) OVER (ORDER BY i ROWS BETWEEN 9 PRECEDING AND 4 PRECEDING) AS a, (SELECT median_ci(x, 0.9) FROM t t2 WHERE t2.i BETWEEN t.i - 9 AND t.i - 4) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'hodges_lehmann/rows9-4/' || i, a IS b FROM (SELECT i, hodges_lehmann(x, g) OVER (ORDER BY i ROWS BETWEEN 9 PRECEDING AND 4 PRECEDING) AS a, (SELECT hodges_lehmann(x, g) FROM t t2 WHERE t2.i BETWEEN t.i - 9 AND t.i - 4) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-exact/rows9-4/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'exact') OVER (ORDER BY i ROWS BETWEEN 9 PRECEDING AND 4 PRECEDING) AS a, (SELECT mann_whitney(x, g, 'exact') FROM t t2 WHERE t2.i BETWEEN t.i - 9 AND t.i - 4) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-benchstat/rows9-4/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'benchstat') OVER (ORDER BY i ROWS BETWEEN 9 PRECEDING AND 4 PRECEDING) AS a, (SELECT mann_whitney(x, g, 'benchstat') FROM t t2 WHERE t2.i BETWEEN t.i - 9 AND t.i - 4) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'median_ci/running/' || i, a IS b FROM (SELECT i, median_ci(x, 0.9) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT median_ci(x, 0.9) FROM t t2 WHERE t2.i <= t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'hodges_lehmann/running/' || i, a IS b FROM (SELECT i, hodges_lehmann(x, g) OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT hodges_lehmann(x, g) FROM t t2 WHERE t2.i <= t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-exact/running/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'exact') OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT mann_whitney(x, g, 'exact') FROM t t2 WHERE t2.i <= t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'mann_whitney-benchstat/running/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'benchstat') OVER (ORDER BY i ROWS UNBOUNDED PRECEDING) AS a, (SELECT mann_whitney(x, g, 'benchstat') FROM t t2 WHERE t2.i <= t.i) AS b FROM t) WHERE i IS NOT NULL;
SELECT 'median_ci/range/' || i, a IS b FROM (SELECT i, median_ci(x, 0.9) OVER (ORDER BY x RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) AS a, (SELECT median_ci(x, 0.9) FROM t t2 WHERE t2.x BETWEEN t.x - 3 AND t.x) AS b FROM t) WHERE i IN (SELECT i FROM t WHERE x IS NOT NULL);
SELECT 'hodges_lehmann/range/' || i, a IS b FROM (SELECT i, hodges_lehmann(x, g) OVER (ORDER BY x RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) AS a, (SELECT hodges_lehmann(x, g) FROM t t2 WHERE t2.x BETWEEN t.x - 3 AND t.x) AS b FROM t) WHERE i IN (SELECT i FROM t WHERE x IS NOT NULL);
SELECT 'mann_whitney-exact/range/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'exact') OVER (ORDER BY x RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) AS a, (SELECT mann_whitney(x, g, 'exact') FROM t t2 WHERE t2.x BETWEEN t.x - 3 AND t.x) AS b FROM t) WHERE i IN (SELECT i FROM t WHERE x IS NOT NULL);
SELECT 'mann_whitney-benchstat/range/' || i, a IS b FROM (SELECT i, mann_whitney(x, g, 'benchstat') OVER (ORDER BY x RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) AS a, (SELECT mann_whitney(x, g, 'benchstat') FROM t t2 WHERE t2.x BETWEEN t.x - 3 AND t.x) AS b FROM t) WHERE i IN (SELECT i FROM t WHERE x IS NOT NULL);
WITH grp(x, k) AS MATERIALIZED (SELECT d.x, (SELECT count(DISTINCT x) FROM t t4 WHERE t4.x < d.x) FROM (SELECT DISTINCT x FROM t WHERE x IS NOT NULL) d) SELECT 'median_ci/groups/' || i, a IS b FROM (SELECT i, median_ci(x, 0.9) OVER (ORDER BY x GROUPS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS a, (SELECT median_ci(x, 0.9) FROM t t2 WHERE t2.x IN (SELECT x FROM grp d WHERE d.k BETWEEN (SELECT k FROM grp WHERE grp.x = t.x) - 2 AND (SELECT k FROM grp WHERE grp.x = t.x) + 1)) AS b FROM t) WHERE i IN (SELECT i FROM t WHERE x IS NOT NULL);
WITH grp(x, k) AS MATERIALIZED (SELECT d.x, (SELECT count(DISTINCT x) FROM t t4 WHERE t4.x < d.x) FROM (SELECT DISTINCT x FROM t WHERE x IS NOT NULL) d) SELECT 'hodges_lehmann/groups/' || i, a IS b FROM (SELECT i, hodges_lehmann(x, g) OVER (ORDER BY x GROUPS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS a, (SELECT hodges_lehmann(x, g) FROM t t2 WHERE t2.x IN (SELECT x FROM grp d WHERE d.k BETWEEN (SELECT k FROM grp WHERE grp.x = t.x) - 2 AND (SELECT k FROM grp WHERE grp.x = t.x) + 1)) AS b FROM t) WHERE i IN (SELECT i FROM t WHERE x IS NOT NULL);
