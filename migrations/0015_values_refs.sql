-- benchdb schema, version 15: on PostgreSQL sample_values' reference to
-- series is checked by triggers, once per statement, instead of by a
-- foreign key, and the ingest's closing function reads by index only
-- (migrations/postgresql/0015_values_refs.sql). SQLite's sample has no
-- foreign key (its trigger cascades a series' delete; check finds
-- orphans): nothing changes here; the step keeps the two engines'
-- versions the same.
SELECT 1;
