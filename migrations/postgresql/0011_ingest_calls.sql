-- benchdb schema, version 11: an ingest's statements per archive that
-- write one archive's own rows become two calls of functions whose plans
-- PL/pgSQL keeps for the session (docs/postgresql.md, "ingest"):
-- benchdb_archive_open() takes the archive's advisory lock, looks it up
-- and, when it is not stored, inserts its row, marks the transaction and
-- looks the last archive's names up again (five statements in two round
-- trips before); benchdb_archive_close() sets the row's hash, sizes and
-- encoding and calls benchdb_ingest_finish() (two statements before).
-- Nothing is named on the server per session, so a pooler in transaction
-- mode still works. Rows, checks and errors are those of version 10.

-- An ingest's first call per archive whose SHA-256 is known before it is
-- read (src/ingest/sink/archive.c, sink_archive_open): the archive's
-- advisory lock, its look-up after the lock, and when it is not stored
-- its row, the transaction's mark (benchdb.ingest_defer) and the look-up
-- again of the last archive's names (benchdb_names_again(); arrays NULL:
-- none), in one call and round trip whose plans are kept for the session
-- instead of five statements each parsed, planned and started per archive
-- in two round trips. Its first row is the archive's (kind -1: its id,
-- and when it is stored its name and row_params 'stored', nothing
-- written); then benchdb_names_again()'s rows.
CREATE FUNCTION benchdb_archive_open(lock_key BIGINT, sha TEXT, archive_name TEXT, archive_format TEXT, ingested TEXT,
                                     version TEXT, plans TEXT[], hosts TEXT[], variants TEXT[], benchmarks TEXT[])
  RETURNS TABLE(kind INTEGER, row_id BIGINT, row_name TEXT, row_params TEXT) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  found_id BIGINT;
  found_name TEXT;
BEGIN
  PERFORM pg_advisory_xact_lock(lock_key);
  SELECT a.id, a.name INTO found_id, found_name FROM archive AS a WHERE a.sha256 = sha;
  IF found_id IS NOT NULL THEN
    RETURN QUERY SELECT -1, found_id, found_name, CAST('stored' AS TEXT);
    RETURN;
  END IF;
  INSERT INTO archive(sha256, name, size, format, content_encoding, stored_size, ingested_at, tool_version)
  VALUES (sha, archive_name, 0, archive_format, 'zstd', 0, ingested, version) RETURNING id INTO found_id;
  PERFORM set_config('benchdb.ingest_defer', CAST(found_id AS TEXT), true);
  RETURN QUERY SELECT -1, found_id, CAST(NULL AS TEXT), CAST(NULL AS TEXT);
  IF plans IS NOT NULL THEN
    RETURN QUERY SELECT * FROM benchdb_names_again(plans, hosts, variants, benchmarks);
  END IF;
END $$;

-- An ingest's last call per archive before its commit (sink_commit): the
-- archive row's hash, sizes and encoding, then benchdb_ingest_finish(),
-- in one call instead of two statements.
CREATE FUNCTION benchdb_archive_close(closing BIGINT, sha TEXT, archive_size BIGINT, encoding TEXT,
                                      stored BIGINT) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE archive SET sha256 = sha, size = archive_size, content_encoding = encoding, stored_size = stored
  WHERE id = closing;
  PERFORM benchdb_ingest_finish(closing);
END $$;
