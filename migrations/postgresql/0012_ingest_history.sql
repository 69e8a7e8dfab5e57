-- benchdb schema, version 12: on SQLite an ingest now keeps the history
-- points of the runs it opens itself instead of by the per-series trigger
-- (migrations/0012_ingest_history.sql), as it already did on PostgreSQL
-- (the trigger's WHEN clause reads benchdb.ingest_defer, and
-- benchdb_ingest_finish() computes the points). Nothing changes here: the
-- step keeps the two engines' versions the same.
SELECT 1;
