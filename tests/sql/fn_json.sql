-- The JSON results: exact text, the JSON subtype, and the interval scalars
-- ci_exp, ci_recip, ci_excludes (members kept in order, edges inside).

CREATE TEMP TABLE v(x REAL, g INTEGER);
INSERT INTO v VALUES (0.01,1),(0.03,1),(-0.02,1),(0.015,1),(0.0,1),(0.02,0),(0.05,0),(0.01,0),(0.04,0),(0.03,0);

-- The issue's example, R: t.test(..., var.equal = TRUE) gives -0.048155535
-- to 0.002155535 with df 8; shortest round-trip numbers, integers as such.
-- Every number below is within 1e-15 relative of the 50-digit value
-- (mpmath): all but hi are its correct roundings (R's estimate,
-- -0.022999999999999996, is not); hi, 0.00215553524610174021 exactly, is
-- estimate + q se with a cancellation of 11 and lands 3 ulps away.
SELECT 'text/pooled', pooled_t_ci(x, g) = '{"estimate":-0.023,"lo":-0.04815553524610174,"hi":0.0021555352461017415,"se":0.010908712114635715,"df":8,"t":-2.108406543164886,"p":0.06804180025172092,"n1":5,"n2":5,"mean1":0.006999999999999999,"mean2":0.03,"level":0.95}' FROM v;
SELECT 'text/rounded', printf('%.9f %.9f', json_extract(pooled_t_ci(x, g), '$.lo'), json_extract(pooled_t_ci(x, g), '$.hi')) = '-0.048155535 0.002155535' FROM v;
SELECT 'text/keys-pooled', (SELECT group_concat(key) FROM json_each(pooled_t_ci(v.x, v.g))) = 'estimate,lo,hi,se,df,t,p,n1,n2,mean1,mean2,level' FROM v;
SELECT 'text/keys-welch', (SELECT group_concat(key) FROM json_each(welch_t_ci(v.x, v.g))) = 'estimate,lo,hi,se,df,t,p,n1,n2,mean1,mean2,level' FROM v;
SELECT 'text/keys-t_ci', (SELECT group_concat(key) FROM json_each(t_ci(v.x))) = 'estimate,lo,hi,se,df,n,level' FROM v;
SELECT 'text/keys-mw', (SELECT group_concat(key) FROM json_each(mann_whitney(v.x, v.g))) = 'u,p,n1,n2,exact' FROM v;
SELECT 'text/valid', json_valid(pooled_t_ci(x, g)) AND json_valid(welch_t_ci(x, g)) AND json_valid(t_ci(x)) AND json_valid(mann_whitney(x, g)) FROM v;
SELECT 'text/level', json_extract(pooled_t_ci(x, g, 0.9), '$.level') = 0.9 FROM v;

-- Subtype 'J': JSON functions nest the object instead of quoting it.
SELECT 'subtype/pooled', json_type(json_object('ci', pooled_t_ci(x, g)), '$.ci') = 'object' FROM v;
SELECT 'subtype/t_ci', json_type(json_array(t_ci(x)), '$[0]') = 'object' FROM v;
SELECT 'subtype/mw', json_type(json_object('mw', mann_whitney(x, g)), '$.mw') = 'object' FROM v;
SELECT 'subtype/ci_exp', json_type(json_object('r', ci_exp(pooled_t_ci(x, g))), '$.r') = 'object' FROM v;
SELECT 'subtype/window/' || rowid, json_type(json_object('ci', t_ci(x) OVER (ORDER BY rowid ROWS 2 PRECEDING)), '$.ci') IS 'object' OR rowid = 1 FROM v;

-- ci_exp: estimate, lo, hi exponentiated; other members as they were, in order.
SELECT 'ci_exp/text', ci_exp('{"estimate":0,"lo":-1,"hi":1,"df":8,"name":"a \"b\"","list":[1,2.5],"t":null}')
  = '{"estimate":1,"lo":0.36787944117144233,"hi":2.718281828459045,"df":8,"name":"a \"b\"","list":[1,2.5],"t":null}';
SELECT 'ci_exp/reals-kept', ci_exp('{"estimate":0,"lo":0,"hi":0,"se":0.1,"x":1e300}') = '{"estimate":1,"lo":1,"hi":1,"se":0.1,"x":1e+300}';
SELECT 'ci_exp/of-pooled', abs(json_extract(ci_exp(pooled_t_ci(x, g)), '$.lo') - exp(-0.04815553524610174)) <= 1e-15 FROM v;
-- ci_exp/overflow: an error (tests/sql/fn_overflow.sql), not null.
-- ci_recip: 1/estimate, lo = 1/hi, hi = 1/lo.
SELECT 'ci_recip/text', ci_recip('{"estimate":2,"lo":1,"hi":4,"df":8}') = '{"estimate":0.5,"lo":0.25,"hi":1,"df":8}';
SELECT 'ci_recip/twice', json_extract(ci_recip(ci_recip('{"estimate":2,"lo":1.25,"hi":4}')), '$.lo') = 1.25;
-- ci_excludes: both edges inside.
SELECT 'ci_excludes/inside', ci_excludes('{"estimate":1,"lo":0.5,"hi":2}', 1) = 0;
SELECT 'ci_excludes/lo-edge', ci_excludes('{"estimate":1,"lo":0.5,"hi":2}', 0.5) = 0;
SELECT 'ci_excludes/hi-edge', ci_excludes('{"estimate":1,"lo":0.5,"hi":2}', 2) = 0;
SELECT 'ci_excludes/below', ci_excludes('{"estimate":1,"lo":0.5,"hi":2}', 0.49999999) = 1;
SELECT 'ci_excludes/above', ci_excludes('{"estimate":1,"lo":0.5,"hi":2}', 2.0000001) = 1;
SELECT 'ci_excludes/integer-members', ci_excludes('{"estimate":3,"lo":2,"hi":4}', 1) = 1;
SELECT 'ci_excludes/pooled', ci_excludes(pooled_t_ci(x, g), 0) = 0 AND ci_excludes(pooled_t_ci(x, g), 0.01) = 1 FROM v;
