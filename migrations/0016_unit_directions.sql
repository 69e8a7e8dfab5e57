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
