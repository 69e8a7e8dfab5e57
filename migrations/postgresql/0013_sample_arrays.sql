-- benchdb schema, version 13: on PostgreSQL a series' values are kept as
-- one row of sample_values per series holding them as arrays, and sample
-- becomes a view unnesting them with the table's columns of before
-- (docs/schema.md, "sample"). Every value was an entry of sample's
-- primary key, a B-tree insert per value and most of an ingest's server
-- time (bench/pg-ingest.md); a row per series is one entry, and a value's
-- iteration is its position in its array: no two values of one series,
-- warmup and iteration can exist, by construction. Every row belongs to a
-- series (the foreign key). The grants of sample carry over to both.

CREATE TABLE sample_values (
  series_id BIGINT NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  value     DOUBLE PRECISION[] NOT NULL
            CHECK (array_ndims(value) = 1 AND array_lower(value, 1) = 1 AND array_position(value, NULL) IS NULL),
  count     BIGINT[]
            CHECK (cardinality(count) = cardinality(value) AND array_ndims(count) = 1 AND array_lower(count, 1) = 1
                   AND array_position(count, NULL) IS NULL AND 1 <= ALL (count)),
  warmup    DOUBLE PRECISION[]
            CHECK (array_ndims(warmup) = 1 AND array_lower(warmup, 1) = 1 AND array_position(warmup, NULL) IS NULL),
  PRIMARY KEY (series_id)
);
-- A long series' arrays are moved out of line uncompressed: doubles hardly
-- compress, and trying cost a fifth of a 500-value series' ingest
-- (bench/pg-ingest.md).
ALTER TABLE sample_values ALTER COLUMN value SET STORAGE EXTERNAL, ALTER COLUMN count SET STORAGE EXTERNAL,
  ALTER COLUMN warmup SET STORAGE EXTERNAL;
-- No planner statistics of the arrays: no query compares an array (the
-- values are read through sample's unnest, whose estimate PostgreSQL 15
-- takes from no statistics), and computing them was nine tenths of the
-- closing ANALYZE of this table, 30 ms of a 1x ingest's 0.3 s of server
-- CPU (bench/pg-ingest.md, "eighth pass").
ALTER TABLE sample_values ALTER COLUMN value SET STATISTICS 0, ALTER COLUMN count SET STATISTICS 0,
  ALTER COLUMN warmup SET STATISTICS 0;

-- The values of before, each series' in iteration order: refused, the
-- store unchanged, when a value belongs to no series (which the foreign
-- key no longer allows; 'benchdb check' names them) or a series'
-- iterations are not 1 to n, which no array could keep, or a warmup
-- has a count (ingest gives none: warmups are kept without counts).
DO $$
DECLARE
  bad RECORD;
BEGIN
  SELECT count(*) AS n, min(s.series_id) AS first INTO bad
  FROM sample AS s WHERE NOT EXISTS (SELECT 1 FROM series AS x WHERE x.id = s.series_id);
  IF bad.n > 0 THEN
    RAISE EXCEPTION '% sample rows belong to no series (the first to series %): delete them (benchdb check names them) and migrate again',
      bad.n, bad.first;
  END IF;
  SELECT series_id, warmup, count(*) AS n, min(iteration) AS lo, max(iteration) AS hi INTO bad
  FROM sample GROUP BY series_id, warmup HAVING min(iteration) <> 1 OR max(iteration) <> count(*)
  ORDER BY series_id, warmup LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'sample: series % (warmup %) has % values numbered % to %, not 1 to %: they cannot be kept as an array',
      bad.series_id, bad.warmup, bad.n, bad.lo, bad.hi, bad.n;
  END IF;
  SELECT series_id, iteration, count INTO bad FROM sample WHERE warmup = 1 AND count <> 1
  ORDER BY series_id, iteration LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'sample: series % has a warmup value (iteration %) of count %: warmups are kept without counts',
      bad.series_id, bad.iteration, bad.count;
  END IF;
END $$;
INSERT INTO sample_values(series_id, value, count, warmup)
SELECT s.series_id,
       coalesce(array_agg(s.value ORDER BY s.iteration) FILTER (WHERE s.warmup = 0), '{}'),
       CASE WHEN bool_and(s.count = 1) FILTER (WHERE s.warmup = 0) THEN NULL
            ELSE array_agg(s.count ORDER BY s.iteration) FILTER (WHERE s.warmup = 0) END,
       array_agg(s.value ORDER BY s.iteration) FILTER (WHERE s.warmup = 1)
FROM sample AS s
GROUP BY s.series_id;

DROP TRIGGER series_delete_samples ON series;
DROP FUNCTION series_delete_samples();
ALTER TABLE sample RENAME TO sample_before_13;

CREATE VIEW sample AS
SELECT v.series_id, u.warmup, u.iteration, u.value, u.count
FROM sample_values AS v
CROSS JOIN LATERAL (
  SELECT CAST(0 AS BIGINT) AS warmup, m.iteration, m.value, coalesce(m.count, 1) AS count
  FROM unnest(v.value, v.count) WITH ORDINALITY AS m(value, count, iteration)
  UNION ALL
  SELECT CAST(1 AS BIGINT), w.iteration, w.value, CAST(1 AS BIGINT)
  FROM unnest(v.warmup) WITH ORDINALITY AS w(value, iteration)
) AS u;

-- Whoever could read sample (benchdb_reader: docs/postgresql.md) reads
-- the view and the table; whoever could write it writes the table.
DO $$
DECLARE
  g RECORD;
BEGIN
  FOR g IN SELECT grantee, privilege_type FROM information_schema.role_table_grants
           WHERE table_schema = current_schema() AND table_name = 'sample_before_13' AND grantee <> current_user
  LOOP
    EXECUTE format('GRANT %s ON sample_values TO %s', g.privilege_type,
                   CASE WHEN g.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(g.grantee) END);
    IF g.privilege_type = 'SELECT' THEN
      EXECUTE format('GRANT SELECT ON sample TO %s',
                     CASE WHEN g.grantee = 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(g.grantee) END);
    END IF;
  END LOOP;
END $$;
DROP TABLE sample_before_13;
