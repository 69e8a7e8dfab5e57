-- geomean keeps a running product (src/stats/stats.h), moving powers of two
-- out of it whenever it leaves [2^-500, 2^500]: products far beyond the
-- range of doubles, subnormal and huge values, and window frames whose
-- product swings across that range at every step. Expected values are
-- exact (powers of ten and two); the tolerance is that of exp() of a mean
-- log near +-690 (690 * 2^-53 = 8e-14).

CREATE TEMP TABLE big AS
  WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2000)
  SELECT i, 1e300 AS huge, 1e-300 AS tiny, CASE i % 2 WHEN 1 THEN 1e200 ELSE 1e-200 END AS swing FROM k;

SELECT 'range/huge', abs(geomean(huge) / 1e300 - 1) <= 1e-13 FROM big;
SELECT 'range/tiny', abs(geomean(tiny) / 1e-300 - 1) <= 1e-13 FROM big;
SELECT 'range/swing', abs(geomean(swing) - 1) <= 1e-13 FROM big;
-- 2^-1074 (the smallest subnormal), 2^1000 and 2^74: each triple multiplies to 1.
SELECT 'range/subnormal', abs(geomean(x) - 1) <= 1e-15
FROM (SELECT 4.9406564584124654e-324 AS x FROM big UNION ALL SELECT 1.0715086071862673e+301 FROM big
      UNION ALL SELECT 18889465931478580854784.0 FROM big);

-- Sliding frames: of two rows (1e200 * 1e-200) always 1, of one row the row.
SELECT 'window/two', count(*) = 1999 AND max(abs(w - 1)) <= 1e-13
FROM (SELECT i, geomean(swing) OVER (ORDER BY i ROWS 1 PRECEDING) AS w FROM big) WHERE i > 1;
-- Of three rows: 1e200 * 1e-200 * 1e200 (ending on an odd row) or the
-- inverse: 10^(200/3) = 10^(2/3) * 10^66, 10^(-200/3) = 10^(1/3) * 10^-67.
SELECT 'window/three', count(*) = 1998
  AND max(abs(w / CASE i % 2 WHEN 1 THEN 4.6415888336127789e66 ELSE 2.1544346900318837e-67 END - 1)) <= 1e-13
FROM (SELECT i, geomean(swing) OVER (ORDER BY i ROWS 2 PRECEDING) AS w FROM big) WHERE i > 2;
