-- benchdb schema, version 11: on PostgreSQL an archive's opening and
-- closing statements are two functions (migrations/postgresql/0011_ingest_calls.sql).
-- Nothing changes here; the step keeps the two engines' versions the same.
SELECT 1;
