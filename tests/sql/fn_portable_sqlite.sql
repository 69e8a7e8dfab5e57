-- string_agg, least, greatest where PostgreSQL has nothing to compare with
-- (fn_portable.sql holds what PostgreSQL 15 returns): SQLite's own value
-- order across types, numbers of either type, blobs, the argument count,
-- and string_agg's window frames against the plain aggregate of the frame.

-- Numbers before text before blobs; NULLs ignored.
SELECT 'least/number-before-text', least('a', 2, NULL) = 2 AND typeof(least('a', 2)) = 'integer';
SELECT 'greatest/text-after-number', greatest('a', 2, NULL) = 'a';
SELECT 'greatest/blob-last', greatest(x'00', 'zzz', 5) = x'00' AND typeof(greatest(x'00', 'zzz', 5)) = 'blob';
SELECT 'least/blob-bytes', least(x'0102', x'01', x'02') = x'01';
SELECT 'least/numeric-text-is-text', least('10', 9) = 9 AND greatest('10', 9) = '10';
-- Integers against reals exactly: 2^53 + 1 is above the real 2^53.
SELECT 'least/int-real-exact', typeof(least(9007199254740993, 9007199254740992.0)) = 'real'
  AND greatest(9007199254740993, 9007199254740992.0) = 9007199254740993;
SELECT 'least/int-real-far', least(-9223372036854775808, -1e300) = -1e300 AND greatest(9223372036854775807, 1e19) = 1e19;
SELECT 'least/keeps-type', typeof(least(2, 3.5)) = 'integer' AND typeof(least(2.0, 3)) = 'real';
SELECT 'least/first-of-equal', typeof(least(1.0, 1)) = 'real' AND typeof(least(1, 1.0)) = 'integer';
SELECT 'least/empty-text', least('a', '') = '' AND greatest('', 'a') = 'a';
SELECT 'greatest/all-null', greatest(NULL, NULL, NULL) IS NULL AND least(NULL) IS NULL;
-- error: wrong number of arguments to function least()
SELECT least();
-- error: wrong number of arguments to function greatest()
SELECT greatest();

-- string_agg reads numbers as SQLite prints them, blobs as their bytes.
WITH v(x) AS (VALUES (1), (2.5), (-3)) SELECT 'string_agg/numbers', string_agg(x, ';') = '1;2.5;-3' FROM v;
WITH v(x, d) AS (VALUES ('a', 1), ('b', 2)) SELECT 'string_agg/number-delimiter', string_agg(x, d) = 'a2b' FROM v;
WITH v(x) AS (VALUES (x'41'), (x'42')) SELECT 'string_agg/blobs', string_agg(x, '-') = 'A-B' FROM v;
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000)
SELECT 'string_agg/long', length(string_agg(i, ',')) = 588894 AND substr(string_agg(i, ','), -12) = '99999,100000' FROM c;

-- Window frames, including frames that empty and fill again, NULL values
-- and NULL delimiters, against the aggregate of the same rows.
CREATE TEMP TABLE s(i INTEGER PRIMARY KEY, x TEXT, d TEXT, k INTEGER);
INSERT INTO s VALUES
  (1, 'a', ',', 1), (2, NULL, ';', 1), (3, 'bb', NULL, 2), (4, '', '|', 2), (5, 'ccc', ', ', 2),
  (6, NULL, NULL, 3), (7, 'd', '-', 4), (8, 'é', '·', 4), (9, 'f', '', 4), (10, 'g', '/', 5),
  (11, NULL, '+', 6), (12, NULL, '+', 6), (13, 'h', '+', 7), (14, 'i', '&', 7);
SELECT 'string_agg/rows2/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.i BETWEEN s.i - 2 AND s.i ORDER BY i)) AS b FROM s);
SELECT 'string_agg/rows3-2/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.i BETWEEN s.i - 3 AND s.i - 2 ORDER BY i)) AS b FROM s);
SELECT 'string_agg/rows1-4/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND 4 FOLLOWING) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.i BETWEEN s.i - 1 AND s.i + 4 ORDER BY i)) AS b FROM s);
SELECT 'string_agg/running/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.i <= s.i ORDER BY i)) AS b FROM s);
SELECT 'string_agg/groups/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY k, i GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.i BETWEEN s.i - 1 AND s.i ORDER BY i)) AS b FROM s);
SELECT 'string_agg/range/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY k RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.k BETWEEN s.k - 1 AND s.k ORDER BY k, i)) AS b FROM s);
SELECT 'string_agg/partition/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (PARTITION BY k % 2 ORDER BY i ROWS 1 PRECEDING) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.i IN (SELECT i FROM s s3 WHERE s3.k % 2 = s.k % 2 AND s3.i <= s.i ORDER BY i DESC LIMIT 2) ORDER BY i)) AS b FROM s);
SELECT 'string_agg/exclude/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.i BETWEEN s.i - 2 AND s.i + 2 AND s2.i <> s.i ORDER BY i)) AS b FROM s);
SELECT 'string_agg/exclude-group/' || i, a IS b FROM (SELECT i, string_agg(x, d) OVER (ORDER BY k RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE GROUP) AS a,
  (SELECT string_agg(x, d) FROM (SELECT x, d FROM s s2 WHERE s2.k BETWEEN s.k - 1 AND s.k + 1 AND s2.k <> s.k ORDER BY k, i)) AS b FROM s);
