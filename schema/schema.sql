-- benchdb: the store's schema on SQLite at version 16 (docs/schema.md).
-- Made by tools/gen/schema.py from schema/benchdb.schema (make regen):
-- change that description, not this file (docs/schema.md, "Changing
-- the schema"). A store migrated to version 16 has exactly this schema
-- (the test unit/schema).

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

-- Units: a time per operation (factor = seconds per unit), a throughput of
-- operations (factor = operations per second per unit), a throughput of
-- bytes (factor = bytes per second per unit), or any other quantity
-- (factor = 1 unless known: bytes per unit for sizes). direction: whether
-- lower or higher values are better, NULL when unknown. Every unit a
-- decoder writes whose direction is not in doubt is a row here (a rate
-- of items: higher; a time, a size or a count of allocations: lower);
-- units a user names (go's custom metrics, a harness's counters, "1")
-- are added at ingest with direction NULL (docs/schema.md, unit).
CREATE TABLE "unit" (
  name      TEXT PRIMARY KEY,
  kind      TEXT NOT NULL CHECK (kind IN ('time', 'throughput', 'byte-throughput', 'other')),
  factor    REAL NOT NULL CHECK (factor > 0),
  direction TEXT CHECK (direction IN ('lower', 'higher'))
) WITHOUT ROWID;
-- The factors are the doubles SQLite stores (1.0 / 60 divided as doubles
-- on PostgreSQL too, not as numeric).
INSERT INTO "unit"(name, kind, factor, direction) VALUES
  ('ns/op', 'time', 1e-9, 'lower'), ('us/op', 'time', 1e-6, 'lower'), ('ms/op', 'time', 1e-3, 'lower'),
  ('s/op', 'time', 1, 'lower'), ('ns', 'time', 1e-9, 'lower'), ('us', 'time', 1e-6, 'lower'),
  ('ms', 'time', 1e-3, 'lower'), ('s', 'time', 1, 'lower'),
  ('ops/ns', 'throughput', 1e9, 'higher'), ('ops/us', 'throughput', 1e6, 'higher'),
  ('ops/ms', 'throughput', 1e3, 'higher'), ('ops/s', 'throughput', 1, 'higher'),
  ('ops/min', 'throughput', 1.0 / 60, 'higher');
INSERT INTO "unit"(name, kind, factor, direction) VALUES
  ('sec/op', 'time', 1, 'lower'),
  ('B/s', 'byte-throughput', 1, 'higher'), ('MB/s', 'byte-throughput', 1e6, 'higher'),
  ('B/op', 'other', 1, 'lower'), ('allocs/op', 'other', 1, 'lower'), ('bytes', 'other', 1, 'lower'),
  ('1', 'other', 1, NULL);
-- Google Benchmark's items_per_second (version 16; until then added at
-- ingest without a direction, so that no verdict or gate judged it).
INSERT INTO "unit"(name, kind, factor, direction) VALUES
  ('items/s', 'other', 1, 'higher');
-- JMH's @OutputTimeUnit of MINUTES, HOURS and DAYS (version 16; until then
-- refused as a primary metric's unit).
INSERT INTO "unit"(name, kind, factor, direction) VALUES
  ('min/op', 'time', 60, 'lower'), ('hr/op', 'time', 3600, 'lower'), ('day/op', 'time', 86400, 'lower'),
  ('ops/hr', 'throughput', 1.0 / 3600, 'higher'),
  ('ops/day', 'throughput', 1.0 / 86400, 'higher');

-- The files inside a container archive (tar, zip): path, SHA-256 and size
-- of each member as it was in the container, and what it was loaded as
-- (benchdb-run/1, jmh, ...; NULL when only stored).
CREATE TABLE archive_member (
  id         INTEGER PRIMARY KEY,
  archive_id INTEGER NOT NULL REFERENCES archive(id) ON DELETE CASCADE,
  path       TEXT NOT NULL,
  sha256     TEXT NOT NULL CHECK (length(sha256) = 64),
  size       INTEGER NOT NULL CHECK (size >= 0),
  format     TEXT,
  UNIQUE (archive_id, path)
);

-- A series belongs to a metric: 'primary' (what block scores, ratios and
-- the saved queries use) or the name a harness gives a further metric
-- (cpu_time, B/op, gc.alloc.rate.norm...). member_id: the member of a
-- container archive its values came from (NULL: the archive itself).
-- detail: what the harness said about the series beyond its values (JMH's
-- mode and summary fields as given, iterations...), as canonical JSON.
CREATE TABLE "series" (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),
  block        INTEGER NOT NULL CHECK (block >= 1),
  variant_id   INTEGER NOT NULL REFERENCES variant(id),
  fork         INTEGER NOT NULL DEFAULT 0 CHECK (fork >= 0),
  metric       TEXT NOT NULL DEFAULT 'primary' CHECK (length(metric) > 0),
  unit         TEXT NOT NULL REFERENCES "unit"(name),
  n            INTEGER NOT NULL CHECK (n >= 1),
  total        REAL NOT NULL,
  member_id    INTEGER REFERENCES archive_member(id),
  detail       TEXT CHECK (detail IS NULL OR json_valid(detail)),
  archive_id   INTEGER REFERENCES archive(id) ON DELETE CASCADE,
  UNIQUE (run_id, benchmark_id, block, variant_id, fork, metric)
);
CREATE INDEX series_benchmark ON series(benchmark_id);
CREATE INDEX series_member ON series(member_id);
-- archive_id (series, gate, event): the archive that added the row to a run
-- another archive opened (ingest --append); NULL for the run's own rows.
CREATE INDEX series_archive ON series(archive_id) WHERE archive_id IS NOT NULL;

-- Every measured value, in measurement order within its series; warmup
-- values are numbered on their own and never enter a score. A value with
-- count k stands for k equal values (series.n sums the counts). SQLite
-- keeps them as the table sample, PostgreSQL as the table sample_values
-- with sample a view of the same columns (docs/schema.md, "sample").
-- No foreign key on series_id: the loader writes series and values
-- together, the trigger below cascades deletes, and 'benchdb check' looks
-- for orphans.
CREATE TABLE sample (
  series_id INTEGER NOT NULL,
  warmup    INTEGER NOT NULL CHECK (warmup IN (0, 1)),
  iteration INTEGER NOT NULL CHECK (iteration >= 1),
  value     REAL NOT NULL,
  count     INTEGER NOT NULL DEFAULT 1 CHECK (count >= 1),
  PRIMARY KEY (series_id, warmup, iteration)
) WITHOUT ROWID;
CREATE TRIGGER series_delete_samples AFTER DELETE ON series BEGIN
  DELETE FROM sample WHERE series_id = old.id;
END;

CREATE TABLE gate (
  id         INTEGER PRIMARY KEY,
  run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  passed     INTEGER NOT NULL CHECK (passed IN (0, 1)),
  at         TEXT,
  detail     TEXT CHECK (detail IS NULL OR json_valid(detail)),
  archive_id INTEGER REFERENCES archive(id) ON DELETE CASCADE
);
CREATE INDEX gate_run ON gate(run_id);
CREATE INDEX gate_archive ON gate(archive_id) WHERE archive_id IS NOT NULL;

-- value: any scalar on SQLite; on PostgreSQL text (numbers in shortest
-- round-trip form).
CREATE TABLE event (
  id         INTEGER PRIMARY KEY,
  run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  value,
  at         TEXT,
  detail     TEXT CHECK (detail IS NULL OR json_valid(detail)),
  archive_id INTEGER REFERENCES archive(id) ON DELETE CASCADE
);
CREATE INDEX event_run ON event(run_id);
CREATE INDEX event_archive ON event(archive_id) WHERE archive_id IS NOT NULL;

-- Per run, cell, block and variant: the mean of the measured (non-warmup)
-- values of the primary metric over all forks, JMH's convention, with
-- their count and unit:
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
-- series, summing the totals in fork order (SQLite's unique index on
-- series gives them so, as the aggregate above reads them; PostgreSQL's
-- sum says ORDER BY fork), so that the score is the same double.
-- The insert trigger stands aside for the series of the runs an ingest
-- opens (archive_id NULL while its transaction is marked, below at
-- ingest_defer), whose scores the ingest computes once before the commit
-- with this SELECT (src/store/dialect.c), as on PostgreSQL.
CREATE TRIGGER series_insert_block_score AFTER INSERT ON series
WHEN new.archive_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM ingest_defer) BEGIN
  INSERT OR REPLACE INTO block_score_data(run_id, benchmark_id, block, variant_id, score, n, unit)
  SELECT run_id, benchmark_id, block, variant_id, sum(total) / sum(n), sum(n), min(unit)
  FROM series
  WHERE run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
    AND variant_id = new.variant_id AND metric = 'primary'
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
    AND variant_id = old.variant_id AND metric = 'primary'
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
  WHERE ((run_id = old.run_id AND benchmark_id = old.benchmark_id AND block = old.block
          AND variant_id = old.variant_id)
      OR (run_id = new.run_id AND benchmark_id = new.benchmark_id AND block = new.block
          AND variant_id = new.variant_id))
    AND metric = 'primary'
  GROUP BY run_id, benchmark_id, block, variant_id;
END;

CREATE VIEW block_score AS
SELECT run_id, benchmark_id, block, variant_id, score, n, unit
FROM block_score_data;

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

-- Per run and cell with block ratios: their number, the mean and sample
-- standard deviation (n - 1; NULL for one block) of their log ratios, and
-- moments: the exact state of their sums (moments(log_ratio),
-- docs/functions.md; the same bytes on both engines), from which
-- pooled_t_ci_of() and t_ci_of() give the intervals pooled_t_ci() and
-- t_ci() give over the ratios themselves. Derived data, kept by the
-- triggers below whenever a block score of the cell, or the run's
-- treatment or baseline, changes (a stored score only when its block has
-- the other variant's score too: only then is there a ratio).
CREATE TABLE run_cell_data (
  run_id       INTEGER NOT NULL,
  benchmark_id INTEGER NOT NULL,
  blocks       INTEGER NOT NULL CHECK (blocks >= 1),
  mean_log     REAL NOT NULL,
  sd_log       REAL,
  moments      BLOB NOT NULL,
  PRIMARY KEY (run_id, benchmark_id)
) WITHOUT ROWID;

-- The ingest's deferral (docs/schema.md, run_cell_data): while an
-- ingest's transaction is marked, the insert triggers below stand aside
-- and the ingest computes the rows of its runs once, before the commit,
-- with the same SELECTs (src/store/dialect.c). Every other writer keeps
-- the per-row triggers.
-- The mark is a row here: the ingest inserts one as it begins and deletes
-- it before it commits (no other writer does).
CREATE TABLE ingest_defer (
  archive_id INTEGER NOT NULL
);

CREATE TRIGGER block_score_insert_run_cell AFTER INSERT ON block_score_data
WHEN NOT EXISTS (SELECT 1 FROM ingest_defer)
 AND EXISTS (SELECT 1 FROM run AS r JOIN block_score_data AS o
             ON o.run_id = r.id AND o.benchmark_id = new.benchmark_id AND o.block = new.block
            AND o.variant_id = CASE new.variant_id WHEN r.treatment_id THEN r.baseline_id
                                                    WHEN r.baseline_id THEN r.treatment_id END
             WHERE r.id = new.run_id)
BEGIN
  DELETE FROM run_cell_data WHERE run_id = new.run_id AND benchmark_id = new.benchmark_id;
  INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
  SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
  FROM block_ratio
  WHERE run_id = new.run_id AND benchmark_id = new.benchmark_id
  GROUP BY run_id, benchmark_id;
END;

CREATE TRIGGER block_score_delete_run_cell AFTER DELETE ON block_score_data BEGIN
  DELETE FROM run_cell_data WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id;
  INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
  SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
  FROM block_ratio
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id
  GROUP BY run_id, benchmark_id;
END;

CREATE TRIGGER block_score_update_run_cell AFTER UPDATE ON block_score_data BEGIN
  DELETE FROM run_cell_data
  WHERE (run_id = old.run_id AND benchmark_id = old.benchmark_id)
     OR (run_id = new.run_id AND benchmark_id = new.benchmark_id);
  INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
  SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
  FROM block_ratio
  WHERE (run_id = old.run_id AND benchmark_id = old.benchmark_id)
     OR (run_id = new.run_id AND benchmark_id = new.benchmark_id)
  GROUP BY run_id, benchmark_id;
END;

CREATE TRIGGER run_update_run_cell AFTER UPDATE OF treatment_id, baseline_id ON run BEGIN
  DELETE FROM run_cell_data WHERE run_id = old.id OR run_id = new.id;
  INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
  SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
  FROM block_ratio
  WHERE run_id = new.id
  GROUP BY run_id, benchmark_id;
END;

CREATE VIEW run_cell AS
SELECT run_id, benchmark_id, blocks, mean_log, sd_log, exp(mean_log) AS geomean_ratio
FROM run_cell_data;

-- The calibration design (docs/schema.md): the runs of every plan with
-- their host and position; the pairs of runs a calibration compares
-- (within: one host, the earlier position first; between: one position,
-- the hosts in name order); and per pair and cell both runs measured, what
-- the comparison needs: each run's summary of its log ratios.
CREATE VIEW plan_run AS
SELECT p.id AS plan_id, p.name AS plan, r.id AS run_id, r.name AS run, r.host_id, h.name AS host, r.position,
       r.attributes
FROM plan AS p
JOIN run AS r ON r.plan_id = p.id
JOIN host AS h ON h.id = r.host_id;

CREATE VIEW calibration_pair AS
SELECT CASE WHEN a.host_id = b.host_id THEN 'within' ELSE 'between' END AS kind,
       a.plan_id, a.plan, a.run_id AS a_id, b.run_id AS b_id, a.run AS run_a, b.run AS run_b,
       a.attributes AS a_attributes, b.attributes AS b_attributes
FROM plan_run AS a
JOIN plan_run AS b ON b.plan_id = a.plan_id
WHERE (b.host_id = a.host_id AND a.position < b.position)
   OR (b.position = a.position AND a.host < b.host);

CREATE VIEW calibration_comparison AS
SELECT p.kind, p.plan_id, p.plan, p.a_id, p.b_id, p.run_a, p.run_b, p.a_attributes, p.b_attributes,
       a.benchmark_id,
       a.blocks AS a_blocks, a.mean_log AS a_mean_log, a.sd_log AS a_sd_log, a.moments AS a_moments,
       b.blocks AS b_blocks, b.mean_log AS b_mean_log, b.sd_log AS b_sd_log, b.moments AS b_moments
FROM calibration_pair AS p
JOIN run_cell_data AS a ON a.run_id = p.a_id
JOIN run_cell_data AS b ON b.run_id = p.b_id AND b.benchmark_id = a.benchmark_id;

-- A decision rule fixed before the data it judges: its text and SHA-256,
-- when it was registered here and, if given, when and where it was
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
  rule_id          INTEGER REFERENCES rule(id),
  schema_sha256    TEXT CHECK (schema_sha256 IS NULL OR length(schema_sha256) = 64)
);
CREATE INDEX evaluation_query ON evaluation(query_name, id);

-- Histories (docs/queries.md): one row per (run, cell, variant, metric),
-- kept by the triggers below, so that a history is read by an index.
-- started: started_at as UTC text 'YYYY-MM-DDTHH:MM:SS.sssZ' (strftime, so
-- milliseconds; an offset applied; 't'/'z' read as 'T'/'Z'; a leap second
-- :60 read as :59), which sorts as time; NULL when the run has none.
CREATE TABLE history_point_data (
  run_id       INTEGER NOT NULL,
  benchmark_id INTEGER NOT NULL,
  variant_id   INTEGER NOT NULL,
  metric       TEXT NOT NULL,
  host_id      INTEGER NOT NULL,
  started      TEXT,
  position     INTEGER,
  series       INTEGER NOT NULL CHECK (series >= 1),
  n            INTEGER NOT NULL,
  total        REAL NOT NULL,
  unit         TEXT NOT NULL,
  PRIMARY KEY (run_id, benchmark_id, variant_id, metric)
) WITHOUT ROWID;
CREATE INDEX history_point_order ON history_point_data(host_id, benchmark_id, metric, variant_id, started, position);

-- A series adds to its point (creating it): its count to n, its total to
-- total, so the point's total is the sum of its series' totals in the order
-- they were stored (an archive's order). A deleted one takes away, and the
-- point goes with its last series; an update is both.
-- The insert trigger stands aside for the series of the runs an ingest
-- opens (archive_id NULL while its transaction is marked, at
-- ingest_defer), whose points the ingest adds up as it stores the series,
-- in their order, and writes once per point with this SELECT from run
-- (src/ingest/sink/history.c, src/store/dialect.c), as on PostgreSQL.
CREATE TRIGGER series_insert_history AFTER INSERT ON series
WHEN new.archive_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM ingest_defer) BEGIN
  INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                                 total, unit)
  SELECT new.run_id, new.benchmark_id, new.variant_id, new.metric, r.host_id,
         strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(r.started_at, 18, 2) = '60'
                                             THEN upper(substr(r.started_at, 1, 17) || '59' || substr(r.started_at, 20))
                                             ELSE upper(r.started_at) END),
         r.position, 1, new.n, new.total, new.unit
  FROM run AS r WHERE r.id = new.run_id
  ON CONFLICT (run_id, benchmark_id, variant_id, metric)
  DO UPDATE SET series = series + 1, n = n + excluded.n, total = total + excluded.total;
END;

CREATE TRIGGER series_delete_history AFTER DELETE ON series BEGIN
  DELETE FROM history_point_data
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric AND series = 1;
  UPDATE history_point_data SET series = series - 1, n = n - old.n, total = total - old.total
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric;
END;

CREATE TRIGGER series_update_history AFTER UPDATE OF run_id, benchmark_id, variant_id, metric, n, total, unit ON series BEGIN
  DELETE FROM history_point_data
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric AND series = 1;
  UPDATE history_point_data SET series = series - 1, n = n - old.n, total = total - old.total
  WHERE run_id = old.run_id AND benchmark_id = old.benchmark_id AND variant_id = old.variant_id
    AND metric = old.metric;
  INSERT INTO history_point_data(run_id, benchmark_id, variant_id, metric, host_id, started, position, series, n,
                                 total, unit)
  SELECT new.run_id, new.benchmark_id, new.variant_id, new.metric, r.host_id,
         strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(r.started_at, 18, 2) = '60'
                                             THEN upper(substr(r.started_at, 1, 17) || '59' || substr(r.started_at, 20))
                                             ELSE upper(r.started_at) END),
         r.position, 1, new.n, new.total, new.unit
  FROM run AS r WHERE r.id = new.run_id
  ON CONFLICT (run_id, benchmark_id, variant_id, metric)
  DO UPDATE SET series = series + 1, n = n + excluded.n, total = total + excluded.total;
END;

-- A run's host, start time or position may be set after its series (a
-- harness file that names them): its points follow.
CREATE TRIGGER run_update_history AFTER UPDATE OF host_id, started_at, position ON run BEGIN
  UPDATE history_point_data
  SET host_id = new.host_id,
      started = strftime('%Y-%m-%dT%H:%M:%fZ', CASE WHEN substr(new.started_at, 18, 2) = '60'
                                                   THEN upper(substr(new.started_at, 1, 17) || '59' || substr(new.started_at, 20))
                                                   ELSE upper(new.started_at) END),
      position = new.position
  WHERE run_id = new.id;
END;

-- Every history point with its run, plan, revision, start time and score
-- (the mean of the run's measured values of the cell, variant and metric,
-- over all blocks and forks: sum of the series' totals / sum of their
-- counts). Order a history by started NULLS LAST, position NULLS LAST,
-- plan, run (docs/queries.md).
CREATE VIEW history_point AS
SELECT h.host_id, ho.name AS host, h.benchmark_id, b.name AS benchmark, b.params, h.metric,
       h.variant_id, v.name AS variant, h.unit, u.direction,
       h.run_id, r.name AS run, p.name AS plan, h.position, r.source AS revision, r.started_at, h.started,
       h.n, h.total / h.n AS value
FROM history_point_data AS h
JOIN run AS r ON r.id = h.run_id
JOIN plan AS p ON p.id = r.plan_id
JOIN host AS ho ON ho.id = h.host_id
JOIN benchmark AS b ON b.id = h.benchmark_id
JOIN variant AS v ON v.id = h.variant_id
LEFT JOIN "unit" AS u ON u.name = h.unit;
