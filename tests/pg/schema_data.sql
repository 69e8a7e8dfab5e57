-- Rows that every schema version from 2 on takes (the columns added later
-- have defaults), for test_schema.sh: loaded before migrations 0003-0005
-- run, or after, the derived tables must come out the same. Totals with
-- many digits and several forks, so that the order of their sums shows;
-- start times with offsets, fractions, lower case and a leap second.
INSERT INTO archive(id, sha256, name, size, format, content_encoding, stored_size, ingested_at, tool_version)
VALUES (1, repeat('a', 64), 'a.jsonl', 10, 'benchdb-run/1', 'identity', 10, '2026-01-01T00:00:00Z', 'test');
INSERT INTO plan(id, name) VALUES (1, 'p'), (2, 'q');
INSERT INTO host(id, name) VALUES (1, 'h1'), (2, 'h2');
INSERT INTO variant(id, name) VALUES (1, 'base'), (2, 'treat');
INSERT INTO benchmark(id, name, params) VALUES (1, 'b', '{}'), (2, 'c', '{"k":1}');
INSERT INTO run(id, plan_id, name, host_id, position, started_at, treatment_id, baseline_id, archive_id) VALUES
  (1, 1, 'r1', 1, 1, '2026-01-01T10:00:00.5+02:00', 2, 1, 1),
  (2, 1, 'r2', 2, 1, NULL, 2, 1, 1),
  (3, 2, 'r3', 1, 2, '2026-01-02t00:00:60z', 2, 1, 1),
  (4, 2, 'r4', 2, NULL, '2026-01-03T00:00:00.1234567-14:00', NULL, NULL, 1);
INSERT INTO series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total)
SELECT k + 1, 1 + k % 4, 1 + k / 4 % 2, 1 + k / 8 % 3, 1 + k / 24 % 2, k / 48, CASE WHEN k % 4 = 3 THEN 'ops/s' ELSE 'ns/op' END,
       1 + k % 5, CAST(k * 7919 % 1009 AS DOUBLE PRECISION) / 7 + CAST(1 AS DOUBLE PRECISION) / (k + 3)
FROM generate_series(0, 95) AS k;
-- (from version 13 sample is a view of sample_values, a row per series)
DO $$
BEGIN
  IF to_regclass('sample_values') IS NULL THEN
    INSERT INTO sample(series_id, warmup, iteration, value)
    SELECT k, 0, 1, CAST(k AS DOUBLE PRECISION) / 3 FROM generate_series(1, 96) AS k;
  ELSE
    INSERT INTO sample_values(series_id, value)
    SELECT k, ARRAY[CAST(k AS DOUBLE PRECISION) / 3] FROM generate_series(1, 96) AS k;
  END IF;
END $$;
