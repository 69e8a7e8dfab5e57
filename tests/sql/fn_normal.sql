-- normal_quantile(p): its numbered rules (src/sqlfn/fn_normal.c); values
-- against R are in fn_r_normal.sql.

-- 1. NULL gives NULL.
SELECT 'normal-null', normal_quantile(NULL) IS NULL;
-- 2. 0 and 1 give the infinities; numeric text is a number.
SELECT 'normal-zero', normal_quantile(0) = -1e999;
SELECT 'normal-one', normal_quantile(1) = 1e999;
SELECT 'normal-text', normal_quantile('0.5') = 0.0;
-- 3. Symmetric, and the inverse of a known value.
SELECT 'normal-symmetric', normal_quantile(0.25) = -normal_quantile(0.75);
SELECT 'normal-median', normal_quantile(0.5) = 0.0;
-- error: 1st argument to normal_quantile() is not a number between 0 and 1: 1.5
SELECT normal_quantile(1.5);
-- error: 1st argument to normal_quantile() is not a number between 0 and 1: -0.1
SELECT normal_quantile(-0.1);
-- error: 1st argument to normal_quantile() is not a number between 0 and 1: 'x'
SELECT normal_quantile('x');
-- error: 1st argument to normal_quantile() is not a number between 0 and 1: a blob
SELECT normal_quantile(x'00');
