-- benchdb schema, version 16: Google Benchmark's items_per_second, unit
-- items/s, has a direction (higher is better), so that a drop in it is
-- worse: compare's verdict, its gate and the gate queries judge it. Up to
-- version 15 the unit was added at its first ingest as kind 'other',
-- factor 1, direction NULL (unknown), which every verdict read as
-- "higher" or "lower" and no gate failed on. A store that has it gets its
-- direction; one that has not, the row (docs/schema.md, unit). No derived
-- row depends on it: block scores are the primary metric's, whose unit is
-- a time or a throughput.
INSERT INTO unit(name, kind, factor, direction) VALUES ('items/s', 'other', 1, 'higher')
  ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, factor = excluded.factor, direction = excluded.direction;
-- JMH's @OutputTimeUnit(MINUTES, HOURS, DAYS) writes min/op, hr/op, day/op,
-- ops/hr and ops/day (TimeValue.tuToString): refused as a primary metric
-- until now; a further metric in one of them was added without direction.
INSERT INTO unit(name, kind, factor, direction) VALUES
  ('min/op', 'time', 60, 'lower'), ('hr/op', 'time', 3600, 'lower'), ('day/op', 'time', 86400, 'lower'),
  ('ops/hr', 'throughput', 1.0 / 3600, 'higher'), ('ops/day', 'throughput', 1.0 / 86400, 'higher')
  ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, factor = excluded.factor, direction = excluded.direction;
