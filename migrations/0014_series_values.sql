-- benchdb schema, version 14: on PostgreSQL a small archive's series and
-- values go in by one call of benchdb_series_values() instead of two COPYs
-- (migrations/postgresql/0014_series_values.sql). SQLite inserts them as
-- before: nothing changes here; the step keeps the two engines' versions
-- the same.
SELECT 1;
