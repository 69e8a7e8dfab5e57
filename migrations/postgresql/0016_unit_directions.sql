-- benchdb schema, version 16: Google Benchmark's items_per_second, unit
-- items/s, has a direction (higher is better), as on SQLite
-- (migrations/0016_unit_directions.sql): the row where an ingest has not
-- added it yet, its kind, factor and direction where one has (kind
-- 'other', factor 1, direction NULL). The update changes no key, so the
-- series that refer to the unit keep their references (series' triggers
-- lock a unit FOR KEY SHARE, which an update of other columns leaves be).
INSERT INTO "unit"(name, kind, factor, direction) VALUES ('items/s', 'other', 1, 'higher')
  ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, factor = EXCLUDED.factor, direction = EXCLUDED.direction;
-- JMH's @OutputTimeUnit(MINUTES, HOURS, DAYS) writes min/op, hr/op, day/op,
-- ops/hr and ops/day (TimeValue.tuToString): refused as a primary metric
-- until now; a further metric in one of them was added without direction.
INSERT INTO "unit"(name, kind, factor, direction) VALUES
  ('min/op', 'time', 60, 'lower'), ('hr/op', 'time', 3600, 'lower'), ('day/op', 'time', 86400, 'lower'),
  ('ops/hr', 'throughput', CAST(1 AS DOUBLE PRECISION) / 3600, 'higher'),
  ('ops/day', 'throughput', CAST(1 AS DOUBLE PRECISION) / 86400, 'higher')
  ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, factor = EXCLUDED.factor, direction = EXCLUDED.direction;
