-- moments(x), pooled_t_ci_of(a, b, level, members), t_ci_of(m, level)
-- (src/sqlfn/fn_summary.c, rules 1-5): an interval from summaries is the
-- interval of the rows, to the bit; the summary's bytes as
-- docs/functions.md describes them; NULLs and errors.

CREATE TEMP TABLE v(i INTEGER PRIMARY KEY, x REAL, g INTEGER);
INSERT INTO v(x, g) VALUES (0.01, 1), (0.03, 1), (-0.02, 1), (0.015, 1), (0.0, 1),
                           (0.02, 0), (0.05, 0), (0.01, 0), (0.04, 0), (0.03, 0);
-- Harder data: offsets of 1e9 with spreads of 1e-3, values near 1e-300 and
-- 1e300, negative and subnormal values, a million-fold spread.
CREATE TEMP TABLE w(set_id INTEGER, x REAL, g INTEGER);
INSERT INTO w VALUES (1, 1e9 + 0.001, 1), (1, 1e9 + 0.002, 1), (1, 1e9 + 0.004, 1),
                     (1, 1e9 + 0.003, 0), (1, 1e9 + 0.001, 0), (1, 1e9 + 0.0015, 0),
                     (2, 1e-300, 1), (2, 3e-300, 1), (2, 2e-300, 0), (2, 5e-300, 0), (2, 4e-300, 0),
                     (3, 1e300, 1), (3, 1.5e300, 1), (3, 1.2e300, 0), (3, 1.1e300, 0),
                     (4, -1.5, 1), (4, 4.9e-324, 1), (4, 2.5, 1), (4, -3.25, 0), (4, 1e-310, 0),
                     (5, 1e-6, 1), (5, 1e6, 1), (5, 0.5, 1), (5, 7, 0), (5, 1e-6, 0), (5, 3e5, 0);

-- 1. NULL x ignored, NULL for no rows, errors below.
SELECT 'moments/null-ignored', (SELECT moments(x) FROM (SELECT x FROM v UNION ALL SELECT NULL))
                               = (SELECT moments(x) FROM v);
SELECT 'moments/no-rows', moments(x) IS NULL FROM v WHERE 0;
SELECT 'moments/all-null', moments(NULL) IS NULL;
SELECT 'moments/blob', typeof(moments(x)) = 'blob' FROM v;

-- 2. The bytes: the example of docs/functions.md, and 0 and -1 (a
-- negative sum: sign byte 2).
SELECT 'bytes/example', hex(moments(x)) = '0102000000000000000146010300000001460105000000'
  FROM (SELECT 1 AS x UNION ALL SELECT 2);
SELECT 'bytes/zero', hex(moments(0)) = '01' || '0100000000000000' || '00' || '00';
SELECT 'bytes/negative', hex(moments(-1)) = '0101000000000000000246010100000001460101000000';
-- 0.5 = 2^31 * 2^-32: digit 2^31 at place 69.
SELECT 'bytes/half', hex(moments(0.5)) = '0101000000000000000145010000008001450100000040';
-- Any order, the same bytes; a window frame's bytes are those of its rows.
SELECT 'bytes/order', (SELECT moments(x) FROM (SELECT x FROM v ORDER BY x))
                    = (SELECT moments(x) FROM (SELECT x FROM v ORDER BY x DESC));
SELECT 'bytes/order-hard', count(*) = 5 AND min(a = b) = 1 FROM (
  SELECT (SELECT moments(x) FROM (SELECT x FROM w AS u WHERE u.set_id = s.set_id ORDER BY x)) AS a,
         (SELECT moments(x) FROM (SELECT x FROM w AS u WHERE u.set_id = s.set_id ORDER BY x DESC)) AS b
  FROM (SELECT DISTINCT set_id FROM w) AS s);
SELECT 'bytes/window', count(*) = 10 AND min(f = p) = 1 FROM (
  SELECT moments(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS f,
         (SELECT moments(x) FROM v AS u WHERE u.i BETWEEN v.i - 2 AND v.i) AS p
  FROM v);
-- A frame that grew past 1e300 and shrank back: exactly the small rows' state.
SELECT 'bytes/window-outlier', f = (SELECT moments(x) FROM (SELECT 1.0 AS x UNION ALL SELECT 2.0)) FROM (
  SELECT i, moments(x) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS f
  FROM (SELECT 1 AS i, 1e300 AS x UNION ALL SELECT 2, 1.0 UNION ALL SELECT 3, 2.0)) WHERE i = 3;

-- 3. pooled_t_ci_of: the text pooled_t_ci gives over the rows, every
-- member, levels 0.95 and 0.999, members lists; on the hard sets too.
SELECT 'pooled/text', pooled_t_ci_of(a, b) = (SELECT pooled_t_ci(x, g) FROM v)
  FROM (SELECT moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b FROM v);
SELECT 'pooled/level', pooled_t_ci_of(a, b, 0.999) = (SELECT pooled_t_ci(x, g, 0.999) FROM v)
  FROM (SELECT moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b FROM v);
SELECT 'pooled/members', pooled_t_ci_of(a, b, 0.9, 'estimate,lo,hi')
                         = (SELECT pooled_t_ci(x, g, 0.9, 'estimate,lo,hi') FROM v)
  FROM (SELECT moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b FROM v);
SELECT 'pooled/hard', count(*) = 5 AND min(same) = 1 FROM (
  SELECT s.set_id, pooled_t_ci_of(s.a, s.b) = (SELECT pooled_t_ci(x, g) FROM w WHERE w.set_id = s.set_id) AS same
  FROM (SELECT set_id, moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b
        FROM w GROUP BY set_id) AS s);
SELECT 'pooled/hard-p', count(*) = 5 AND min(same) = 1 FROM (
  SELECT pooled_t_ci_of(s.a, s.b, 0.5, 'p,t,df') = (SELECT pooled_t_ci(x, g, 0.5, 'p,t,df') FROM w WHERE w.set_id = s.set_id) AS same
  FROM (SELECT set_id, moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b
        FROM w GROUP BY set_id) AS s);
-- One value each: df = 0, no interval, as pooled_t_ci.
SELECT 'pooled/df0', pooled_t_ci_of(moments(1), moments(2)) IS NULL AND
                     (SELECT pooled_t_ci(x, g) FROM (SELECT 1 AS x, 1 AS g UNION ALL SELECT 2, 0)) IS NULL;
-- Zero spread: lo = hi = estimate, t and p null.
SELECT 'pooled/zero-se', pooled_t_ci_of(a, b, 0.95, 'estimate,lo,hi,t,p') = '{"estimate":1,"lo":1,"hi":1,"t":null,"p":null}'
  FROM (SELECT moments(x) FILTER (WHERE g = 1) AS a, moments(x) FILTER (WHERE g = 0) AS b
        FROM (SELECT 2 AS x, 1 AS g UNION ALL SELECT 2, 1 UNION ALL SELECT 1, 0 UNION ALL SELECT 1, 0));

-- 4. t_ci_of: t_ci's text.
SELECT 't_ci/text', t_ci_of(moments(x)) = t_ci(x) FROM v;
SELECT 't_ci/level', t_ci_of(moments(x), 0.8) = t_ci(x, 0.8) FROM v WHERE g = 0;
SELECT 't_ci/hard', count(*) = 5 AND min(same) = 1 FROM (
  SELECT t_ci_of(moments(x), 0.99) = t_ci(x, 0.99) AS same FROM w GROUP BY set_id);
SELECT 't_ci/one-value', t_ci_of(moments(3)) IS NULL;

-- 5. NULL in, NULL out; what is not a summary, level and members.
SELECT 'null/a', pooled_t_ci_of(NULL, moments(1)) IS NULL;
SELECT 'null/b', pooled_t_ci_of(moments(1), NULL) IS NULL;
SELECT 'null/level', pooled_t_ci_of(moments(1), moments(2), NULL) IS NULL;
SELECT 'null/members', pooled_t_ci_of(moments(1), moments(2), 0.95, NULL) IS NULL;
SELECT 'null/t_ci', t_ci_of(NULL) IS NULL AND t_ci_of(moments(1), NULL) IS NULL;

-- error: 1st argument to moments() is not a finite number: 'abc'
SELECT moments('abc');
-- error: 1st argument to moments() is not a finite number: Inf
SELECT moments(1e999);
-- error: 1st argument to pooled_t_ci_of() is not a summary made by moments(): 'abc'
SELECT pooled_t_ci_of('abc', moments(1));
-- error: 2nd argument to pooled_t_ci_of() is not a summary made by moments(): 1
SELECT pooled_t_ci_of(moments(1), 1);
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'');
-- A format other than 1.
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'0202000000000000000146010300000001460105000000');
-- A byte too many, a byte too few.
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'010200000000000000014601030000000146010500000000');
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'01020000000000000001460103000000014601050000');
-- A leading zero digit (not the canonical form).
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'010200000000000000014502000000000300000001460105000000');
-- A negative sum of squares.
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'0102000000000000000146010300000002460105000000');
-- n sum x^2 < (sum x)^2: n = 2, sum x = 3, sum x^2 = 4.
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'0102000000000000000146010300000001460104000000');
-- Sums without values (n = 0).
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'0100000000000000000146010300000001460109000000');
-- A sum beyond what doubles can give (place 120 for sum x).
-- error: 1st argument to t_ci_of() is not a summary made by moments(): a blob
SELECT t_ci_of(x'0102000000000000000178010300000001460105000000');
-- error: 3rd argument to pooled_t_ci_of() is not a confidence level strictly between 0 and 1: 1
SELECT pooled_t_ci_of(moments(1), moments(2), 1);
-- error: 2nd argument to t_ci_of() is not a confidence level strictly between 0 and 1: 'x'
SELECT t_ci_of(moments(1), 'x');
-- error: 4th argument to pooled_t_ci_of() is not a comma-separated list of result members: 'estimate,low'
SELECT pooled_t_ci_of(moments(1), moments(2), 0.95, 'estimate,low');
