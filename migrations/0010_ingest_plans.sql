-- benchdb schema, version 10: on PostgreSQL the functions an ingest calls
-- per archive keep generic plans (migrations/postgresql/0010_ingest_plans.sql).
-- Nothing changes here; the step keeps the two engines' versions the same.
SELECT 1;
