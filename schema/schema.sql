-- benchdb: the full current schema (version 3). Applying every migration in
-- migrations/ to an empty store must give exactly this schema (checked by
-- the test unit/schema); change both together.

-- Every ingested archive, with its original bytes (zstd-compressed unless
-- the original already was) so that nothing it held is ever lost.
CREATE TABLE archive (
  id               INTEGER PRIMARY KEY,
  sha256           TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
  name             TEXT NOT NULL,
  size             INTEGER NOT NULL CHECK (size >= 0),
  format           TEXT NOT NULL,
  content_encoding TEXT NOT NULL CHECK (content_encoding IN ('identity', 'zstd')),
  stored_size      INTEGER NOT NULL CHECK (stored_size >= 0),
  ingested_at      TEXT NOT NULL,
  tool_version     TEXT NOT NULL
);

-- The stored bytes in pieces of at most 1 MiB, so that an archive streams
-- in and out whatever its size; concatenated in seq order.
CREATE TABLE archive_chunk (
  archive_id INTEGER NOT NULL REFERENCES archive(id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL CHECK (seq >= 0),
  data       BLOB NOT NULL,
  PRIMARY KEY (archive_id, seq)
);

CREATE TABLE plan (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

CREATE TABLE host (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

CREATE TABLE variant (
  id   INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);

-- A cell: a benchmark name with its parameters as canonical JSON (keys
-- sorted, no spaces; '{}' when there are none).
CREATE TABLE benchmark (
  id     INTEGER PRIMARY KEY,
  name   TEXT NOT NULL,
  params TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  UNIQUE (name, params)
);

CREATE TABLE run (
  id           INTEGER PRIMARY KEY,
  plan_id      INTEGER NOT NULL REFERENCES plan(id),
  name         TEXT NOT NULL,
  host_id      INTEGER NOT NULL REFERENCES host(id),
  position     INTEGER CHECK (position >= 1),
  source       TEXT,
  started_at   TEXT,
  ended_at     TEXT,
  treatment_id INTEGER REFERENCES variant(id),
  baseline_id  INTEGER REFERENCES variant(id),
  attributes   TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(attributes)),
  archive_id   INTEGER NOT NULL REFERENCES archive(id) ON DELETE CASCADE,
  UNIQUE (plan_id, name),
  CHECK ((treatment_id IS NULL) = (baseline_id IS NULL))
);
CREATE INDEX run_archive ON run(archive_id);
CREATE INDEX run_host ON run(host_id);

-- Units the values may carry: a time per operation (factor = seconds per
-- unit) or a throughput (factor = operations per second per unit).
CREATE TABLE unit (
  name   TEXT PRIMARY KEY,
  kind   TEXT NOT NULL CHECK (kind IN ('time', 'throughput')),
  factor REAL NOT NULL CHECK (factor > 0)
) WITHOUT ROWID;
INSERT INTO unit(name, kind, factor) VALUES
  ('ns/op', 'time', 1e-9), ('us/op', 'time', 1e-6), ('ms/op', 'time', 1e-3), ('s/op', 'time', 1),
  ('ns', 'time', 1e-9), ('us', 'time', 1e-6), ('ms', 'time', 1e-3), ('s', 'time', 1),
  ('ops/ns', 'throughput', 1e9), ('ops/us', 'throughput', 1e6), ('ops/ms', 'throughput', 1e3),
  ('ops/s', 'throughput', 1), ('ops/min', 'throughput', 1.0 / 60);

-- One series of measured values: a run's cell, block, variant and fork, in
-- one unit. n and total are derived at ingest from the series' non-warmup
-- values (their count and compensated sum) so that block scores need not
-- re-read every value; 'benchdb check' verifies them against the values.
CREATE TABLE series (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),
  block        INTEGER NOT NULL CHECK (block >= 1),
  variant_id   INTEGER NOT NULL REFERENCES variant(id),
  fork         INTEGER NOT NULL DEFAULT 0 CHECK (fork >= 0),
  unit         TEXT NOT NULL REFERENCES unit(name),
  n            INTEGER NOT NULL CHECK (n >= 1),
  total        REAL NOT NULL,
  UNIQUE (run_id, benchmark_id, block, variant_id, fork)
);
CREATE INDEX series_benchmark ON series(benchmark_id);

-- Every measured value, in measurement order within its series; warmup
-- values are numbered on their own and never enter a score. No foreign key
-- on series_id: the loader writes series and values together, the trigger
-- below cascades deletes, and 'benchdb check' looks for orphans.
CREATE TABLE sample (
  series_id INTEGER NOT NULL,
  warmup    INTEGER NOT NULL CHECK (warmup IN (0, 1)),
  iteration INTEGER NOT NULL CHECK (iteration >= 1),
  value     REAL NOT NULL,
  PRIMARY KEY (series_id, warmup, iteration)
) WITHOUT ROWID;
CREATE TRIGGER series_delete_samples AFTER DELETE ON series BEGIN
  DELETE FROM sample WHERE series_id = old.id;
END;

CREATE TABLE gate (
  id     INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  name   TEXT NOT NULL,
  passed INTEGER NOT NULL CHECK (passed IN (0, 1)),
  at     TEXT,
  detail TEXT CHECK (detail IS NULL OR json_valid(detail))
);
CREATE INDEX gate_run ON gate(run_id);

CREATE TABLE event (
  id     INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  name   TEXT NOT NULL,
  value,
  at     TEXT,
  detail TEXT CHECK (detail IS NULL OR json_valid(detail))
);
CREATE INDEX event_run ON event(run_id);

-- Per run, cell, block and variant: the mean of the measured (non-warmup)
-- values over all forks, JMH's convention, with their count and unit:
-- sum(total) / sum(n), sum(n) and min(unit) over the block's series,
-- stored at ingest (derived data) by the triggers below so that a query
-- on one plan reads its blocks by key instead of aggregating the store.
CREATE TABLE block_score_data (
  run_id       INTEGER NOT NULL,
  benchmark_id INTEGER NOT NULL,
  block        INTEGER NOT NULL,
  variant_id   INTEGER NOT NULL,
  score        REAL NOT NULL,
  n            INTEGER NOT NULL,
  unit         TEXT NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, block, variant_id)
) WITHOUT ROWID;

-- Each trigger recomputes the block of the changed series from all its
-- series (the unique index on series gives them in fork order, as the
-- aggregate above reads them).
CREATE TRIGGER series_insert_block_score AFTER INSERT ON series BEGIN
  INSERT OR REPLACE INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
    AND variant_id = new.variant_id
  GROUP BY run_id, benchmark_id, block, variant_id;
END;

CREATE TRIGGER series_delete_block_score AFTER DELETE ON series BEGIN
  DELETE FROM block_score_data
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
    AND variant_id = old.variant_id;
  INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
    AND variant_id = old.variant_id
  GROUP BY run_id, benchmark_id, block, variant_id;
END;

CREATE TRIGGER series_update_block_score AFTER UPDATE ON series BEGIN
  DELETE FROM block_score_data
  WHERE (run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
         AND variant_id = old.variant_id)
     OR (run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
         AND variant_id = new.variant_id);
  INSERT INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE (run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
         AND variant_id = old.variant_id)
     OR (run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
         AND variant_id = new.variant_id)
  GROUP BY run_id, benchmark_id, block, variant_id;
END;

CREATE VIEW block_score AS
SELECT run_id, benchmark_id, block, variant_id, score, n, unit
FROM block_score_data;

-- Per run, cell and block: treatment over baseline as a time ratio (a
-- throughput is turned into a time per operation first), and its log.
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
);

-- Per run and cell: the number of blocks with a ratio, the mean and sample
-- standard deviation of their log ratios, and the geometric-mean ratio.
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

-- Version 2: verdict history and pre-registered rules.

-- published (e.g. a pull request).
CREATE TABLE rule (
  id            INTEGER PRIMARY KEY,
  name          TEXT NOT NULL,
  sha256        TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
  text          TEXT NOT NULL,
  registered_at TEXT NOT NULL,
  published_at  TEXT,
  ref           TEXT
);

-- Every evaluation of a saved query: what ran (name, text, hash), with which
-- parameters, on which data (a fingerprint over the archives' SHA-256s), what
-- it returned, when, how long it took, and whether the rule was fixed before
-- the plan it judged.
CREATE TABLE evaluation (
  id               INTEGER PRIMARY KEY,
  query_name       TEXT NOT NULL,
  query_sha256     TEXT NOT NULL CHECK (length(query_sha256) = 64),
  query_text       TEXT NOT NULL,
  params           TEXT NOT NULL CHECK (json_valid(params)),
  rows             TEXT NOT NULL CHECK (json_valid(rows)),
  row_count        INTEGER NOT NULL CHECK (row_count >= 0),
  outcome          TEXT NOT NULL,
  evaluated_at     TEXT NOT NULL,
  duration_ms      REAL NOT NULL CHECK (duration_ms >= 0),
  tool_version     TEXT NOT NULL,
  data_fingerprint TEXT NOT NULL CHECK (length(data_fingerprint) = 64),
  archive_count    INTEGER NOT NULL CHECK (archive_count >= 0),
  judged_plan      TEXT,
  registration     TEXT,
  rule_id          INTEGER REFERENCES rule(id)
);
CREATE INDEX evaluation_query ON evaluation(query_name, id);
