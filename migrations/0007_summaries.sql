-- benchdb schema, version 7: per-(run, cell) summaries of the log ratios,
-- the calibration design as views, and the schema an evaluation read.
--
-- run_cell_data keeps, for every run and cell with block ratios, the
-- number of blocks, the mean and standard deviation of their log ratios,
-- and the exact state of their sums (moments(), docs/functions.md), kept
-- by triggers on block_score_data and run as block_score_data is kept by
-- triggers on series. A rule then compares two runs of a cell by two key
-- lookups and pooled_t_ci_of(), which gives the interval pooled_t_ci()
-- gives over the ratios themselves, to the bit. The views plan_run,
-- calibration_pair and calibration_comparison state the calibration
-- design once (runs with host and position; within-host and between-host
-- pairs; what each pair's comparison of a cell needs), so the saved rules
-- read as rules. run_cell now reads run_cell_data: its mean is the exact
-- mean of the log ratios rounded once (it was SQLite's avg(), whose last
-- bits depend on the row order and on the SQLite version), its standard
-- deviation benchdb's stddev().
--
-- evaluation.schema_sha256: a hash of the definitions the evaluated
-- statement read (docs/queries.md, "Re-verifying evaluations"); NULL for
-- evaluations recorded before this version.

CREATE TABLE run_cell_data (
  run_id       INTEGER NOT NULL,
  benchmark_id INTEGER NOT NULL,
  blocks       INTEGER NOT NULL CHECK (blocks >= 1),
  mean_log     REAL NOT NULL,
  sd_log       REAL,
  moments      BLOB NOT NULL,
  PRIMARY KEY (run_id, benchmark_id)
) WITHOUT ROWID;

INSERT INTO run_cell_data(run_id, benchmark_id, blocks, mean_log, sd_log, moments)
SELECT run_id, benchmark_id, count(*), trimmed_mean(log_ratio, 0), stddev(log_ratio), moments(log_ratio)
FROM block_ratio
GROUP BY run_id, benchmark_id;

-- ingest_defer: while an ingest's transaction holds a row here (it inserts
-- one when it begins and deletes it before it commits; no other writer
-- does), the insert trigger below leaves run_cell_data alone and the
-- ingest computes the rows of its runs once, before the commit, with the
-- same SELECT. Every other writer keeps the per-row trigger.
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

DROP VIEW run_cell;
CREATE VIEW run_cell AS
SELECT run_id, benchmark_id, blocks, mean_log, sd_log, exp(mean_log) AS geomean_ratio
FROM run_cell_data;

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

ALTER TABLE evaluation ADD COLUMN schema_sha256 TEXT CHECK (schema_sha256 IS NULL OR length(schema_sha256) = 64);
