-- Checks: relative error 1e-12 against R.
SELECT 'block_score native b1 over forks',
  abs((SELECT score FROM block_score WHERE benchmark_id = 1 AND block = 1 AND variant_id = 1)
      - (SELECT value FROM expected WHERE name = 'score_nat_b1')) <= 1e-12 * 11;
SELECT 'block_score counts values over forks, not warmups',
  (SELECT n FROM block_score WHERE benchmark_id = 1 AND block = 1 AND variant_id = 1) = 3;
SELECT 'block_score keeps the unit',
  (SELECT unit FROM block_score WHERE benchmark_id = 2 AND block = 1 AND variant_id = 2) = 'ops/s';
SELECT 'block_score rows', (SELECT count(*) FROM block_score) = 8;
SELECT 'block_ratio time b1',
  abs((SELECT ratio FROM block_ratio WHERE benchmark_id = 1 AND block = 1) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'ratio_b1';
SELECT 'block_ratio time b2',
  abs((SELECT ratio FROM block_ratio WHERE benchmark_id = 1 AND block = 2) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'ratio_b2';
SELECT 'block_ratio log',
  abs((SELECT log_ratio FROM block_ratio WHERE benchmark_id = 1 AND block = 1) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'log_ratio_b1';
SELECT 'block_ratio throughput is inverted to a time ratio',
  abs((SELECT ratio FROM block_ratio WHERE benchmark_id = 2) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'ratio_thr';
SELECT 'block_ratio converts units',
  abs((SELECT ratio FROM block_ratio WHERE benchmark_id = 3) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'ratio_mixed';
SELECT 'run_cell blocks', (SELECT blocks FROM run_cell WHERE benchmark_id = 1) = 2;
SELECT 'run_cell mean_log',
  abs((SELECT mean_log FROM run_cell WHERE benchmark_id = 1) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'mean_log';
SELECT 'run_cell sd_log',
  abs((SELECT sd_log FROM run_cell WHERE benchmark_id = 1) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'sd_log';
SELECT 'run_cell geomean_ratio',
  abs((SELECT geomean_ratio FROM run_cell WHERE benchmark_id = 1) - e.value) <= 1e-12 * abs(e.value)
  FROM expected e WHERE e.name = 'geomean_ratio';
SELECT 'run_cell sd_log is NULL for one block', (SELECT sd_log IS NULL FROM run_cell WHERE benchmark_id = 2) = 1;
-- A run without treatment and baseline has block scores but no ratios.
INSERT INTO run(id, plan_id, name, host_id, archive_id) VALUES (2, 1, 'r2', 1, 1);
INSERT INTO series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total) VALUES (10, 2, 1, 1, 1, 0, 'ns/op', 1, 5);
SELECT 'no ratio without a treatment/baseline pair', (SELECT count(*) FROM block_ratio WHERE run_id = 2) = 0;
-- Deleting a run cascades to its series and, through the trigger, its values.
INSERT INTO sample(series_id, warmup, iteration, value) VALUES (10, 0, 1, 5);
DELETE FROM run WHERE id = 2;
SELECT 'delete cascades to series', (SELECT count(*) FROM series WHERE run_id = 2) = 0;
SELECT 'delete cascades to samples', (SELECT count(*) FROM sample WHERE series_id = 10) = 0;
-- The schema refuses what cannot be right.
-- error: CHECK constraint failed: (treatment_id IS NULL) = (baseline_id IS NULL)
INSERT INTO run(id, plan_id, name, host_id, treatment_id, archive_id) VALUES (3, 1, 'r3', 1, 1, 1);
-- error: UNIQUE constraint failed: run.plan_id, run.name
INSERT INTO run(plan_id, name, host_id, archive_id) VALUES (1, 'r1', 1, 1);
-- error: FOREIGN KEY constraint failed
INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total) VALUES (1, 1, 9, 1, 0, 'furlongs', 1, 1);
-- error: CHECK constraint failed: block >= 1
INSERT INTO series(run_id, benchmark_id, block, variant_id, fork, unit, n, total) VALUES (1, 1, 0, 1, 0, 'ns/op', 1, 1);
