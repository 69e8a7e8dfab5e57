-- pooled_t_ci(x, first, level, members) and welch_t_ci(...): the result
-- object with only the listed members, in the order of the full object,
-- with the same numbers; the list's errors. The data are those of
-- fn_json.sql (t.test(c(.01,.03,-.02,.015,0), c(.02,.05,.01,.04,.03))).

CREATE TEMP TABLE v(i INTEGER PRIMARY KEY, x REAL, g INTEGER);
INSERT INTO v(x, g) VALUES (0.01, 1), (0.03, 1), (-0.02, 1), (0.015, 1), (0.0, 1),
                           (0.02, 0), (0.05, 0), (0.01, 0), (0.04, 0), (0.03, 0);

SELECT 'members/text', pooled_t_ci(x, g, 0.95, 'estimate,lo,hi')
  = '{"estimate":-0.023,"lo":-0.04815553524610174,"hi":0.0021555352461017415}' FROM v;
-- The order of the full object, whatever the list's order.
SELECT 'members/order', (SELECT group_concat(key) FROM json_each(pooled_t_ci(v.x, v.g, 0.95, 'n2,hi,p,estimate')))
  = 'estimate,hi,p,n2' FROM v;
SELECT 'members/all', pooled_t_ci(x, g, 0.95, 'level,mean2,mean1,n2,n1,p,t,df,se,hi,lo,estimate') = pooled_t_ci(x, g) FROM v;
SELECT 'members/one', pooled_t_ci(x, g, 0.95, 'p') = '{"p":0.06804180025172092}' FROM v;

-- Every member alone, both functions, both levels: the same number as in the full object.
CREATE TEMP TABLE m(name TEXT);
INSERT INTO m VALUES ('estimate'), ('lo'), ('hi'), ('se'), ('df'), ('t'), ('p'), ('n1'), ('n2'), ('mean1'),
                     ('mean2'), ('level');
SELECT 'members/pooled-each', count(*) = 24 AND min(same) = 1 FROM (
  SELECT json_extract((SELECT pooled_t_ci(x, g, l.level, m.name) FROM v), '$.' || m.name)
         IS json_extract((SELECT pooled_t_ci(x, g, l.level) FROM v), '$.' || m.name) AS same
  FROM m, (SELECT 0.95 AS level UNION ALL SELECT 0.9) l);
SELECT 'members/welch-each', count(*) = 24 AND min(same) = 1 FROM (
  SELECT json_extract((SELECT welch_t_ci(x, g, l.level, m.name) FROM v), '$.' || m.name)
         IS json_extract((SELECT welch_t_ci(x, g, l.level) FROM v), '$.' || m.name) AS same
  FROM m, (SELECT 0.95 AS level UNION ALL SELECT 0.9) l);

-- Window frames, and NULL results, as without the list.
SELECT 'members/window', count(*) = 10 AND min(w IS json_extract(f, '$.lo')) = 1 FROM (
  SELECT json_extract(pooled_t_ci(x, g, 0.95, 'lo') OVER win, '$.lo') AS w, pooled_t_ci(x, g) OVER win AS f
  FROM v WINDOW win AS (ORDER BY i ROWS BETWEEN 4 PRECEDING AND CURRENT ROW));
SELECT 'members/null-one-sample', pooled_t_ci(x, g, 0.95, 'lo') IS NULL FROM v WHERE g = 1;
-- se = 0: lo = hi = estimate, t and p null.
SELECT 'members/zero-se', pooled_t_ci(x, g, 0.95, 'lo,t,p') = '{"lo":1,"t":null,"p":null}'
FROM (SELECT 2 AS x, 1 AS g UNION ALL SELECT 2, 1 UNION ALL SELECT 1, 0 UNION ALL SELECT 1, 0);

-- error: 4th argument to pooled_t_ci() is not a comma-separated list of result members: 'estimate,low'
SELECT pooled_t_ci(x, g, 0.95, 'estimate,low') FROM v;
-- error: 4th argument to pooled_t_ci() is not a comma-separated list of result members: ''
SELECT pooled_t_ci(x, g, 0.95, '') FROM v;
-- error: 4th argument to pooled_t_ci() is not a comma-separated list of result members: 'lo,'
SELECT pooled_t_ci(x, g, 0.95, 'lo,') FROM v;
-- error: 4th argument to pooled_t_ci() is not a comma-separated list of result members: 'lo, hi'
SELECT pooled_t_ci(x, g, 0.95, 'lo, hi') FROM v;
-- error: 4th argument to pooled_t_ci() is not a comma-separated list of result members: 'lo,lo'
SELECT pooled_t_ci(x, g, 0.95, 'lo,lo') FROM v;
-- error: 4th argument to welch_t_ci() is not a comma-separated list of result members: NULL
SELECT welch_t_ci(x, g, 0.95, NULL) FROM v;
-- error: 4th argument to welch_t_ci() is not a comma-separated list of result members: 1
SELECT welch_t_ci(x, g, 0.95, 1) FROM v;
-- error: 4th argument to pooled_t_ci() is not the same for all rows: 'hi'
SELECT pooled_t_ci(x, g, 0.95, CASE WHEN i < 4 THEN 'lo' ELSE 'hi' END) FROM v;
-- error: 3rd argument to pooled_t_ci() is not the same for all rows: 0.9
SELECT pooled_t_ci(x, g, CASE WHEN i < 4 THEN 0.95 ELSE 0.9 END, 'lo') FROM v;
