-- benchdb schema on PostgreSQL, version 5 (migrations/0005_ingest.sql on
-- SQLite): what each archive wrote, for appending to a run and for
-- removing an archive exactly, and what each member was loaded as.
--
-- series, gate and event get archive_id: the archive that added the row to
-- a run another archive opened (ingest --append); NULL, as for every row
-- before this version, means the run's own archive. Removing an archive
-- removes what it added (the cascade), its runs with everything in them.
-- archive_member gets format: what the member was loaded as
-- ('benchdb-run/1', 'jmh', 'google-benchmark'...), NULL when it was only
-- stored (logs, notes).

ALTER TABLE series ADD COLUMN archive_id BIGINT REFERENCES archive(id) ON DELETE CASCADE;
ALTER TABLE gate ADD COLUMN archive_id BIGINT REFERENCES archive(id) ON DELETE CASCADE;
ALTER TABLE event ADD COLUMN archive_id BIGINT REFERENCES archive(id) ON DELETE CASCADE;
ALTER TABLE archive_member ADD COLUMN format TEXT;
CREATE INDEX series_archive ON series(archive_id) WHERE archive_id IS NOT NULL;
CREATE INDEX gate_archive ON gate(archive_id) WHERE archive_id IS NOT NULL;
CREATE INDEX event_archive ON event(archive_id) WHERE archive_id IS NOT NULL;
