-- benchdb schema, version 13: on PostgreSQL a series' values became one
-- row per series and warmup holding arrays, with sample a view on them
-- (migrations/postgresql/0013_sample_arrays.sql). SQLite keeps its table,
-- whose one B-tree holds the values together already: nothing changes
-- here; the step keeps the two engines' versions the same.
SELECT 1;
