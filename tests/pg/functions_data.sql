-- The table the cases of functions.sql read, made the same way on both
-- engines (portable SQL, integer arithmetic and one division each): 300
-- rows, i from 1; x with ties, negatives and NULLs; xp positive with a
-- wide range; g a sample flag (NULL on some rows); r a real sequence with
-- ties; s a step in level at i = 151 for change_points.
CREATE TABLE t (i BIGINT, x DOUBLE PRECISION, xp DOUBLE PRECISION, g BIGINT, r DOUBLE PRECISION, s DOUBLE PRECISION);
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 300)
INSERT INTO t
SELECT i,
       CASE WHEN i % 23 = 0 THEN NULL ELSE CAST((i * 7919) % 211 - 80 AS DOUBLE PRECISION) / 8 END,
       CAST((i * 104729) % 9973 + 1 AS DOUBLE PRECISION) / CAST((i * 31) % 97 + 1 AS DOUBLE PRECISION),
       CASE WHEN i % 31 = 0 THEN NULL WHEN (i * 13) % 7 < 3 THEN 1 ELSE 0 END,
       CAST(i / 3 AS DOUBLE PRECISION) / 2,
       CASE WHEN i > 150 THEN 2 ELSE 1 END + CAST((i * 7919) % 211 AS DOUBLE PRECISION) / 1000
FROM k;
