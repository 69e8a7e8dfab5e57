-- benchdb schema, version 9: on PostgreSQL series' references to run,
-- benchmark, variant and unit are checked once per statement by triggers
-- instead of by foreign keys (migrations/postgresql/0009_series_refs.sql).
-- Nothing changes here: SQLite keeps its foreign keys, and the step keeps
-- the two engines' versions the same.
SELECT 1;
