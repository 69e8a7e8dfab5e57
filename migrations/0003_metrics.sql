-- benchdb schema, version 3: metrics, counted values, non-time units and
-- the members of container archives (tar, zip) each value came from.
-- series gets a metric in its uniqueness and unit new kinds, so both are
-- rebuilt (SQLite's twelve-step procedure: new table, copy, drop, rename);
-- the views that read them are dropped first and recreated at the end.

DROP VIEW run_cell;
DROP VIEW block_ratio;
DROP VIEW block_score;

-- Units: a time per operation (factor = seconds per unit), a throughput of
-- operations (factor = operations per second per unit), a throughput of
-- bytes (factor = bytes per second per unit), or any other quantity
-- (factor = 1 unless known: bytes per unit for sizes). direction: whether
-- lower or higher values are better, NULL when unknown.
CREATE TABLE unit_new (
  name      TEXT PRIMARY KEY,
  kind      TEXT NOT NULL CHECK (kind IN ('time', 'throughput', 'byte-throughput', 'other')),
  factor    REAL NOT NULL CHECK (factor > 0),
  direction TEXT CHECK (direction IN ('lower', 'higher'))
) WITHOUT ROWID;
INSERT INTO unit_new(name, kind, factor, direction)
  SELECT name, kind, factor, CASE kind WHEN 'time' THEN 'lower' ELSE 'higher' END FROM unit;
INSERT INTO unit_new(name, kind, factor, direction) VALUES
  ('sec/op', 'time', 1, 'lower'),
  ('B/s', 'byte-throughput', 1, 'higher'), ('MB/s', 'byte-throughput', 1e6, 'higher'),
  ('B/op', 'other', 1, 'lower'), ('allocs/op', 'other', 1, 'lower'), ('bytes', 'other', 1, 'lower'),
  ('1', 'other', 1, NULL);

-- The files inside a container archive (tar, zip): path, SHA-256 and size
-- of each member as it was in the container.
CREATE TABLE archive_member (
  id         INTEGER PRIMARY KEY,
  archive_id INTEGER NOT NULL REFERENCES archive(id) ON DELETE CASCADE,
  path       TEXT NOT NULL,
  sha256     TEXT NOT NULL CHECK (length(sha256) = 64),
  size       INTEGER NOT NULL CHECK (size >= 0),
  UNIQUE (archive_id, path)
);

-- A series now belongs to a metric: 'primary' (what block scores, ratios and
-- the saved queries use) or the name a harness gives a further metric
-- (cpu_time, B/op, gc.alloc.rate.norm...). member_id: the member of a
-- container archive its values came from (NULL: the archive itself).
-- detail: what the harness said about the series beyond its values (JMH's
-- mode and summary fields as given, iterations...), as canonical JSON.
CREATE TABLE series_new (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),
  block        INTEGER NOT NULL CHECK (block >= 1),
  variant_id   INTEGER NOT NULL REFERENCES variant(id),
  fork         INTEGER NOT NULL DEFAULT 0 CHECK (fork >= 0),
  metric       TEXT NOT NULL DEFAULT 'primary' CHECK (length(metric) > 0),
  unit         TEXT NOT NULL REFERENCES unit_new(name),
  n            INTEGER NOT NULL CHECK (n >= 1),
  total        REAL NOT NULL,
  member_id    INTEGER REFERENCES archive_member(id),
  detail       TEXT CHECK (detail IS NULL OR json_valid(detail)),
  UNIQUE (run_id, benchmark_id, block, variant_id, fork, metric)
);
INSERT INTO series_new(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total)
  SELECT id, run_id, benchmark_id, block, variant_id, fork, unit, n, total FROM series;
DROP TABLE series;
DROP TABLE unit;
ALTER TABLE unit_new RENAME TO unit;
ALTER TABLE series_new RENAME TO series;
CREATE INDEX series_benchmark ON series(benchmark_id);
CREATE INDEX series_member ON series(member_id);
CREATE TRIGGER series_delete_samples AFTER DELETE ON series BEGIN
  DELETE FROM sample WHERE series_id = old.id;
END;

-- A value stored once with a count k stands for k equal values (JMH's
-- sample-mode histogram bins): series.n is the sum of the counts and
-- series.total the sum of count * value.
ALTER TABLE sample ADD COLUMN count INTEGER NOT NULL DEFAULT 1 CHECK (count >= 1);

-- Block scores, ratios and run cells read the primary metric only.
CREATE VIEW block_score AS
SELECT run_id, benchmark_id, block, variant_id,
       sum(total) / sum(n) AS score,
       sum(n) AS n,
       min(unit) AS unit
FROM series
WHERE metric = 'primary'
GROUP BY run_id, benchmark_id, block, variant_id;

-- A throughput (of operations or of bytes) is turned into a time per
-- operation first; a ratio of a byte throughput to an operation throughput
-- means nothing and is not formed.
CREATE VIEW block_ratio AS
SELECT run_id, benchmark_id, block, ratio, ln(ratio) AS log_ratio
FROM (
  SELECT r.id AS run_id, t.benchmark_id, t.block,
         (CASE ut.kind WHEN 'time' THEN t.score * ut.factor ELSE 1.0 / (t.score * ut.factor) END) /
         (CASE ub.kind WHEN 'time' THEN b.score * ub.factor ELSE 1.0 / (b.score * ub.factor) END) AS ratio
  FROM run r
  JOIN block_score t ON t.run_id = r.id AND t.variant_id = r.treatment_id
  JOIN block_score b ON b.run_id = r.id AND b.benchmark_id = t.benchmark_id
                    AND b.block = t.block AND b.variant_id = r.baseline_id
  JOIN unit ut ON ut.name = t.unit
  JOIN unit ub ON ub.name = b.unit
  WHERE (ut.kind = 'byte-throughput') = (ub.kind = 'byte-throughput')
);

CREATE VIEW run_cell AS
SELECT run_id, benchmark_id,
       count(*) AS blocks,
       avg(log_ratio) AS mean_log,
       CASE WHEN count(*) > 1 THEN sqrt(sum(dev * dev) / (count(*) - 1)) END AS sd_log,
       exp(avg(log_ratio)) AS geomean_ratio
FROM (
  SELECT run_id, benchmark_id, log_ratio,
         log_ratio - avg(log_ratio) OVER (PARTITION BY run_id, benchmark_id) AS dev
  FROM block_ratio
)
GROUP BY run_id, benchmark_id;
