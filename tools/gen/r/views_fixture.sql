-- Fixture: one run of plan p on host h comparing native (treatment) over
-- chill (baseline) on three cells; series.n and series.total hold what the
-- loader derives from the non-warmup values.
INSERT INTO archive(id, sha256, name, size, format, content_encoding, stored_size, ingested_at, tool_version)
  VALUES (1, printf('%064d', 1), 'fixture', 0, 'benchdb-run/1', 'identity', 0, '2026-01-01T00:00:00Z', 'test');
INSERT INTO plan(id, name) VALUES (1, 'p');
INSERT INTO host(id, name) VALUES (1, 'h');
INSERT INTO variant(id, name) VALUES (1, 'native'), (2, 'chill');
INSERT INTO benchmark(id, name, params) VALUES (1, 'time', '{}'), (2, 'thrpt', '{}'), (3, 'mixed', '{}');
INSERT INTO run(id, plan_id, name, host_id, position, treatment_id, baseline_id, archive_id)
  VALUES (1, 1, 'r1', 1, 1, 1, 2, 1);
INSERT INTO series(id, run_id, benchmark_id, block, variant_id, fork, unit, n, total) VALUES
  (1, 1, 1, 1, 1, 0, 'ns/op', 2, 22), (2, 1, 1, 1, 1, 1, 'ns/op', 1, 11), (3, 1, 1, 1, 2, 0, 'ns/op', 2, 42),
  (4, 1, 1, 2, 1, 0, 'ns/op', 2, 18.5), (5, 1, 1, 2, 2, 0, 'ns/op', 2, 40),
  (6, 1, 2, 1, 1, 0, 'ops/s', 2, 210), (7, 1, 2, 1, 2, 0, 'ops/s', 2, 105),
  (8, 1, 3, 1, 1, 0, 'us/op', 1, 1.0), (9, 1, 3, 1, 2, 0, 'ns/op', 1, 2000);
INSERT INTO sample(series_id, warmup, iteration, value) VALUES
  (1, 1, 1, 50), (1, 0, 1, 10), (1, 0, 2, 12), (2, 0, 1, 11), (3, 0, 1, 20), (3, 0, 2, 22),
  (4, 0, 1, 9), (4, 0, 2, 9.5), (5, 0, 1, 19), (5, 0, 2, 21),
  (6, 0, 1, 100), (6, 0, 2, 110), (7, 0, 1, 50), (7, 0, 2, 55), (8, 0, 1, 1.0), (9, 0, 1, 2000);
