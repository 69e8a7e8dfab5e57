-- benchdb schema, version 8: on SQLite an ingest now computes its runs'
-- block scores once before the commit instead of by the per-series
-- trigger (migrations/0008_ingest_scores.sql), as it already did on
-- PostgreSQL (the trigger's WHEN clause reads benchdb.ingest_defer since
-- the baseline). Nothing changes here: the step keeps the two engines'
-- versions the same.
SELECT 1;
