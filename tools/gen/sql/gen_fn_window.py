#!/usr/bin/env python3
"""Writes tests/sql/fn_window.sql: every aggregate over sliding and growing
window frames against the same aggregate computed from scratch over the
frame's rows (which never runs xInverse or xValue), then the cases written
out below (independent SQL formulas, removal down to an empty frame, large
offsets, EXCLUDE CURRENT ROW). The data: 40 rows, x = ((14 i) mod 23 + 1) / 4
(repeated values, so equal values are removed), NULL every 7th row; g 0 every
3rd row, NULL every 11th, else 1. Standard library only; run from anywhere:
    python3 tools/gen/sql/gen_fn_window.py
"""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
OUT = os.path.join(ROOT, "tests", "sql", "fn_window.sql")

HEAD = """-- Window functions: every aggregate over sliding and growing frames, compared
-- with the same aggregate computed from scratch over the frame's rows (which
-- never runs xInverse or xValue), and with independent SQL formulas. The data
-- have NULL values, NULL flags and repeated values (removal of equal values).
-- Made by tools/gen/sql/gen_fn_window.py (make regen). Frames must equal
-- the plain aggregate exactly (a IS b): the sums are exact (docs/functions.md).
"""

# (label, the aggregate over the frame with FRAME for its OVER clause, the
# same over the frame's rows)
AGGREGATES = [
    ("geomean", "geomean(x) OVER ({f})", "geomean(x)"),
    ("variance", "variance(x) OVER ({f})", "variance(x)"),
    ("stddev", "stddev(x) OVER ({f})", "stddev(x)"),
    ("median", "median(x) OVER ({f})", "median(x)"),
    ("percentile", "percentile(x, 30) OVER ({f})", "percentile(x, 30)"),
    ("trimmed_mean", "trimmed_mean(x, 1) OVER ({f})", "trimmed_mean(x, 1)"),
    ("spread", "spread(x) OVER ({f})", "spread(x)"),
    ("band_share", "band_share(x, 2, 4) OVER ({f})", "band_share(x, 2, 4)"),
    ("t_ci", "json_extract(t_ci(x, 0.9) OVER ({f}), '$.lo')", "json_extract(t_ci(x, 0.9), '$.lo')"),
    ("pooled_t_ci-lo", "json_extract(pooled_t_ci(x, g) OVER ({f}), '$.lo')", "json_extract(pooled_t_ci(x, g), '$.lo')"),
    ("pooled_t_ci-p", "json_extract(pooled_t_ci(x, g) OVER ({f}), '$.p')", "json_extract(pooled_t_ci(x, g), '$.p')"),
    ("welch_t_ci-hi", "json_extract(welch_t_ci(x, g) OVER ({f}), '$.hi')", "json_extract(welch_t_ci(x, g), '$.hi')"),
    ("mann_whitney", "mann_whitney(x, g) OVER ({f})", "mann_whitney(x, g)"),
]

# (label, the OVER clause, the frame's rows as a WHERE on t2)
FRAMES = [
    ("rows2", "ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW", "t2.i BETWEEN t.i - 2 AND t.i"),
    ("rows3-1", "ORDER BY i ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING", "t2.i BETWEEN t.i - 3 AND t.i + 1"),
    ("rows6-4", "ORDER BY i ROWS BETWEEN 6 PRECEDING AND 4 PRECEDING", "t2.i BETWEEN t.i - 6 AND t.i - 4"),
    ("running", "ORDER BY i ROWS UNBOUNDED PRECEDING", "t2.i <= t.i"),
    ("partition", "PARTITION BY g ORDER BY i ROWS 4 PRECEDING",
     "t2.i IN (SELECT i FROM t t3 WHERE t3.g IS t.g AND t3.i <= t.i ORDER BY i DESC LIMIT 5)"),
    ("range", "ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND CURRENT ROW", "t2.x BETWEEN t.x - 1.5 AND t.x"),
    ("groups", "ORDER BY g GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW",
     "(t.g IS NULL AND t2.g IS NULL) OR (t.g = 0 AND (t2.g IS NULL OR t2.g = 0)) OR (t.g = 1 AND t2.g IS NOT NULL)"),
]

TAIL = """\
-- Independent formulas: variance as the mean squared deviation, geomean as
-- exp(avg(ln x)), band_share as a count, median of three as the middle value.
SELECT 'formula/variance/' || i, a IS b OR abs(a - b) <= 1e-12 * b FROM (
  SELECT i, variance(x) OVER (ORDER BY i ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS a,
    (SELECT CASE WHEN count(x) > 1 THEN sum((x - (SELECT avg(x) FROM t t3 WHERE t3.i BETWEEN t.i - 3 AND t.i))
       * (x - (SELECT avg(x) FROM t t3 WHERE t3.i BETWEEN t.i - 3 AND t.i))) / (count(x) - 1) END
     FROM t t2 WHERE t2.i BETWEEN t.i - 3 AND t.i) AS b FROM t);
SELECT 'formula/geomean/' || i, a IS b OR abs(a - b) <= 1e-13 * b FROM (
  SELECT i, geomean(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a,
    (SELECT exp(avg(ln(x))) FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);
SELECT 'formula/band_share/' || i, a IS b FROM (
  SELECT i, band_share(x, 2, 4) OVER (ORDER BY i ROWS BETWEEN 4 PRECEDING AND CURRENT ROW) AS a,
    (SELECT CAST(sum(x BETWEEN 2 AND 4) AS REAL) / count(x) FROM t t2 WHERE t2.i BETWEEN t.i - 4 AND t.i) AS b FROM t);
SELECT 'formula/median3/' || i, a IS b FROM (
  SELECT i, median(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS a,
    (SELECT CASE count(x) WHEN 3 THEN (SELECT x FROM t t3 WHERE t3.i BETWEEN t.i - 2 AND t.i ORDER BY x LIMIT 1 OFFSET 1)
       WHEN 2 THEN avg(x) WHEN 1 THEN max(x) END FROM t t2 WHERE t2.i BETWEEN t.i - 2 AND t.i) AS b FROM t);

-- Removal down to an empty frame and back: the moments restart exactly.
WITH v(i, x) AS (VALUES (1, 1e9 + 1), (2, 1e9 + 2), (3, NULL), (4, NULL), (5, NULL), (6, 3.0), (7, 5.0))
SELECT 'restart/variance/' || i, a IS b FROM (
  SELECT i, variance(x) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS a,
    CASE i WHEN 2 THEN 0.5 WHEN 7 THEN 2.0 END AS b FROM v);
-- Large offsets slide exactly: every window of four of 1e9 + {1, 2, 3, 4, ...}.
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 50)
SELECT 'offset/variance/' || i, variance(1e9 + i) OVER (ORDER BY i ROWS 3 PRECEDING) = 5.0 / 3 FROM c WHERE 1
ORDER BY i LIMIT 47 OFFSET 3;

-- EXCLUDE CURRENT ROW: SQLite recomputes such frames; the results must not change.
CREATE TEMP TABLE e(i INTEGER PRIMARY KEY, x REAL, g INTEGER);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 30) INSERT INTO e SELECT i, (i * 37) % 11 + 1, i % 2 FROM c;
SELECT 'median/exclude/' || i, a IS b FROM (SELECT i, median(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) AS a,
  (SELECT median(x) FROM e t2 WHERE t2.i BETWEEN t.i - 2 AND t.i + 2 AND t2.i <> t.i) AS b FROM e AS t);
SELECT 'mw/exclude/' || i, a IS b FROM (SELECT i, mann_whitney(x, g) OVER (ORDER BY i ROWS BETWEEN 4 PRECEDING AND 4 FOLLOWING EXCLUDE CURRENT ROW) AS a,
  (SELECT mann_whitney(x, g) FROM e t2 WHERE t2.i BETWEEN t.i - 4 AND t.i + 4 AND t2.i <> t.i) AS b FROM e AS t);
SELECT 'geomean/exclude/' || i, a IS b OR abs(a - b) <= 1e-13 * b FROM (SELECT i, geomean(x) OVER (ORDER BY i ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW) AS a,
  (SELECT geomean(x) FROM e t2 WHERE t2.i BETWEEN t.i - 2 AND t.i + 2 AND t2.i <> t.i) AS b FROM e AS t);
"""


def rows():
    out = []
    for i in range(1, 41):
        x = "NULL" if i % 7 == 0 else repr(((14 * i) % 23 + 1) / 4)
        g = "NULL" if i % 11 == 0 else "0" if i % 3 == 0 else "1"
        out.append("  (%d, %s, %s)" % (i, x, g))
    return ",\n".join(out) + ";"


def main():
    out = [HEAD, "CREATE TEMP TABLE t(i INTEGER PRIMARY KEY, x REAL, g INTEGER);", "INSERT INTO t VALUES", rows(), ""]
    for label, over, where in FRAMES:
        out.append("-- Frame %s: %s" % (label, over))
        for name, windowed, plain in AGGREGATES:
            out.append("SELECT '%s/%s/' || i, a IS b FROM (SELECT i, %s AS a, (SELECT %s FROM t t2 WHERE %s) AS b FROM t);"
                       % (name, label, windowed.format(f=over), plain, where))
        out.append("")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n" + TAIL)


if __name__ == "__main__":
    main()
