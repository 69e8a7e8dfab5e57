-- benchstats 0.1 for PostgreSQL 15: benchdb's SQL functions (docs/functions.md),
-- built from the same C as the SQLite ones (src/pg, src/fnshared, src/stats).
-- Made by tools/gen/functions.py from src/fnshared/functions.json (make regen): change the catalogue, not this file.
-- Installed into the schema benchstats (benchstats.control). variance and
-- stddev exist in pg_catalog too: put benchstats first in search_path,
--   SET search_path = "$user", public, benchstats, pg_catalog;
-- for variance(x) and stddev(x) to be benchdb's (docs/postgresql.md).
--
-- Every aggregate NAME has NAME_step, NAME_inverse, NAME_final and
-- NAME_combine (the C function learns NAME from them, for its errors), a
-- serial/deserial pair for its state type, and is PARALLEL SAFE with a
-- moving-aggregate form (exact removal) for window frames.

\echo Use "CREATE EXTENSION benchstats" to load this file. \quit

-- ---- scalars ----
CREATE FUNCTION pooled_t_ci_of(bytea, bytea) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_pooled_t_ci_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_of(bytea, bytea, double precision) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_pooled_t_ci_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_of(bytea, bytea, double precision, text) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_pooled_t_ci_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION t_ci_of(bytea) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_t_ci_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION t_ci_of(bytea, double precision) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_t_ci_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION t_quantile(double precision, double precision) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_t_quantile' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION t_cdf(double precision, double precision) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_t_cdf' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION normal_quantile(double precision) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_normal_quantile' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ci_exp(jsonb) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_ci_exp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ci_recip(jsonb) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_ci_recip' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ci_excludes(jsonb, double precision) RETURNS integer
  AS 'MODULE_PATHNAME', 'bs_ci_excludes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION benchdb_version() RETURNS text
  AS 'MODULE_PATHNAME', 'bs_version' LANGUAGE C IMMUTABLE PARALLEL SAFE;
-- SQLite's json_array_length() on the jsonb these functions return (0 for
-- anything but an array, as SQLite), so that a query reading an array of
-- change points runs on both engines.
CREATE FUNCTION json_array_length(jsonb) RETURNS integer
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT CASE WHEN jsonb_typeof($1) = 'array' THEN jsonb_array_length($1) ELSE 0 END $$;

-- ---- the serial and deserial functions of each state type ----
CREATE FUNCTION geomean_serial(internal) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bs_geomean_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION geomean_deserial(bytea, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_geomean_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION moments_serial(internal) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bs_moments_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION moments_deserial(bytea, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION band_serial(internal) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bs_band_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION band_deserial(bytea, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_band_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION two_sample_serial(internal) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bs_two_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION two_sample_deserial(bytea, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION keep_serial(internal) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bs_keep_serial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION keep_deserial(bytea, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_deserial' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- geomean(x)
CREATE FUNCTION geomean_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_geomean_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION geomean_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_geomean_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION geomean_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_geomean_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION geomean_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_geomean_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE geomean(double precision) (
  SFUNC = geomean_step, STYPE = internal, FINALFUNC = geomean_final,
  COMBINEFUNC = geomean_combine, SERIALFUNC = geomean_serial, DESERIALFUNC = geomean_deserial,
  MSFUNC = geomean_step, MINVFUNC = geomean_inverse, MSTYPE = internal, MFINALFUNC = geomean_final,
  PARALLEL = SAFE);

-- mean(x)
CREATE FUNCTION mean_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION mean_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION mean_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_summary_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION mean_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE mean(double precision) (
  SFUNC = mean_step, STYPE = internal, FINALFUNC = mean_final,
  COMBINEFUNC = mean_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = mean_step, MINVFUNC = mean_inverse, MSTYPE = internal, MFINALFUNC = mean_final,
  PARALLEL = SAFE);

-- fsum(x)
CREATE FUNCTION fsum_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fsum_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION fsum_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_summary_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION fsum_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE fsum(double precision) (
  SFUNC = fsum_step, STYPE = internal, FINALFUNC = fsum_final,
  COMBINEFUNC = fsum_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = fsum_step, MINVFUNC = fsum_inverse, MSTYPE = internal, MFINALFUNC = fsum_final,
  PARALLEL = SAFE);

-- variance(x)
CREATE FUNCTION variance_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_step(internal, real) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_inverse(internal, real) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_step(internal, bigint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_inverse(internal, bigint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_step(internal, integer) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_inverse(internal, integer) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_step(internal, smallint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_inverse(internal, smallint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_step(internal, numeric) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_inverse(internal, numeric) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION variance_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_moments_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION variance_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE variance(double precision) (
  SFUNC = variance_step, STYPE = internal, FINALFUNC = variance_final,
  COMBINEFUNC = variance_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = variance_step, MINVFUNC = variance_inverse, MSTYPE = internal, MFINALFUNC = variance_final,
  PARALLEL = SAFE);
CREATE AGGREGATE variance(real) (
  SFUNC = variance_step, STYPE = internal, FINALFUNC = variance_final,
  COMBINEFUNC = variance_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = variance_step, MINVFUNC = variance_inverse, MSTYPE = internal, MFINALFUNC = variance_final,
  PARALLEL = SAFE);
CREATE AGGREGATE variance(bigint) (
  SFUNC = variance_step, STYPE = internal, FINALFUNC = variance_final,
  COMBINEFUNC = variance_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = variance_step, MINVFUNC = variance_inverse, MSTYPE = internal, MFINALFUNC = variance_final,
  PARALLEL = SAFE);
CREATE AGGREGATE variance(integer) (
  SFUNC = variance_step, STYPE = internal, FINALFUNC = variance_final,
  COMBINEFUNC = variance_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = variance_step, MINVFUNC = variance_inverse, MSTYPE = internal, MFINALFUNC = variance_final,
  PARALLEL = SAFE);
CREATE AGGREGATE variance(smallint) (
  SFUNC = variance_step, STYPE = internal, FINALFUNC = variance_final,
  COMBINEFUNC = variance_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = variance_step, MINVFUNC = variance_inverse, MSTYPE = internal, MFINALFUNC = variance_final,
  PARALLEL = SAFE);
CREATE AGGREGATE variance(numeric) (
  SFUNC = variance_step, STYPE = internal, FINALFUNC = variance_final,
  COMBINEFUNC = variance_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = variance_step, MINVFUNC = variance_inverse, MSTYPE = internal, MFINALFUNC = variance_final,
  PARALLEL = SAFE);

-- stddev(x)
CREATE FUNCTION stddev_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_step(internal, real) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_inverse(internal, real) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_step(internal, bigint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_inverse(internal, bigint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_step(internal, integer) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_inverse(internal, integer) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_step(internal, smallint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_inverse(internal, smallint) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_step(internal, numeric) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_inverse(internal, numeric) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION stddev_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_moments_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION stddev_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE stddev(double precision) (
  SFUNC = stddev_step, STYPE = internal, FINALFUNC = stddev_final,
  COMBINEFUNC = stddev_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = stddev_step, MINVFUNC = stddev_inverse, MSTYPE = internal, MFINALFUNC = stddev_final,
  PARALLEL = SAFE);
CREATE AGGREGATE stddev(real) (
  SFUNC = stddev_step, STYPE = internal, FINALFUNC = stddev_final,
  COMBINEFUNC = stddev_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = stddev_step, MINVFUNC = stddev_inverse, MSTYPE = internal, MFINALFUNC = stddev_final,
  PARALLEL = SAFE);
CREATE AGGREGATE stddev(bigint) (
  SFUNC = stddev_step, STYPE = internal, FINALFUNC = stddev_final,
  COMBINEFUNC = stddev_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = stddev_step, MINVFUNC = stddev_inverse, MSTYPE = internal, MFINALFUNC = stddev_final,
  PARALLEL = SAFE);
CREATE AGGREGATE stddev(integer) (
  SFUNC = stddev_step, STYPE = internal, FINALFUNC = stddev_final,
  COMBINEFUNC = stddev_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = stddev_step, MINVFUNC = stddev_inverse, MSTYPE = internal, MFINALFUNC = stddev_final,
  PARALLEL = SAFE);
CREATE AGGREGATE stddev(smallint) (
  SFUNC = stddev_step, STYPE = internal, FINALFUNC = stddev_final,
  COMBINEFUNC = stddev_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = stddev_step, MINVFUNC = stddev_inverse, MSTYPE = internal, MFINALFUNC = stddev_final,
  PARALLEL = SAFE);
CREATE AGGREGATE stddev(numeric) (
  SFUNC = stddev_step, STYPE = internal, FINALFUNC = stddev_final,
  COMBINEFUNC = stddev_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = stddev_step, MINVFUNC = stddev_inverse, MSTYPE = internal, MFINALFUNC = stddev_final,
  PARALLEL = SAFE);

-- t_ci(x [, level])
CREATE FUNCTION t_ci_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION t_ci_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION t_ci_step(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION t_ci_inverse(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION t_ci_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_moments_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION t_ci_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE t_ci(double precision) (
  SFUNC = t_ci_step, STYPE = internal, FINALFUNC = t_ci_final,
  COMBINEFUNC = t_ci_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = t_ci_step, MINVFUNC = t_ci_inverse, MSTYPE = internal, MFINALFUNC = t_ci_final,
  PARALLEL = SAFE);
CREATE AGGREGATE t_ci(double precision, double precision) (
  SFUNC = t_ci_step, STYPE = internal, FINALFUNC = t_ci_final,
  COMBINEFUNC = t_ci_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = t_ci_step, MINVFUNC = t_ci_inverse, MSTYPE = internal, MFINALFUNC = t_ci_final,
  PARALLEL = SAFE);

-- pooled_t_ci(x, first [, level [, members]])
CREATE FUNCTION pooled_t_ci_step(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_inverse(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_step(internal, double precision, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_inverse(internal, double precision, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_step(internal, double precision, anyelement, double precision, text) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_inverse(internal, double precision, anyelement, double precision, text) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_two_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pooled_t_ci_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE pooled_t_ci(double precision, anyelement) (
  SFUNC = pooled_t_ci_step, STYPE = internal, FINALFUNC = pooled_t_ci_final,
  COMBINEFUNC = pooled_t_ci_combine, SERIALFUNC = two_sample_serial, DESERIALFUNC = two_sample_deserial,
  MSFUNC = pooled_t_ci_step, MINVFUNC = pooled_t_ci_inverse, MSTYPE = internal, MFINALFUNC = pooled_t_ci_final,
  PARALLEL = SAFE);
CREATE AGGREGATE pooled_t_ci(double precision, anyelement, double precision) (
  SFUNC = pooled_t_ci_step, STYPE = internal, FINALFUNC = pooled_t_ci_final,
  COMBINEFUNC = pooled_t_ci_combine, SERIALFUNC = two_sample_serial, DESERIALFUNC = two_sample_deserial,
  MSFUNC = pooled_t_ci_step, MINVFUNC = pooled_t_ci_inverse, MSTYPE = internal, MFINALFUNC = pooled_t_ci_final,
  PARALLEL = SAFE);
CREATE AGGREGATE pooled_t_ci(double precision, anyelement, double precision, text) (
  SFUNC = pooled_t_ci_step, STYPE = internal, FINALFUNC = pooled_t_ci_final,
  COMBINEFUNC = pooled_t_ci_combine, SERIALFUNC = two_sample_serial, DESERIALFUNC = two_sample_deserial,
  MSFUNC = pooled_t_ci_step, MINVFUNC = pooled_t_ci_inverse, MSTYPE = internal, MFINALFUNC = pooled_t_ci_final,
  PARALLEL = SAFE);

-- welch_t_ci(x, first [, level [, members]])
CREATE FUNCTION welch_t_ci_step(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION welch_t_ci_inverse(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION welch_t_ci_step(internal, double precision, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION welch_t_ci_inverse(internal, double precision, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION welch_t_ci_step(internal, double precision, anyelement, double precision, text) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION welch_t_ci_inverse(internal, double precision, anyelement, double precision, text) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION welch_t_ci_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_two_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION welch_t_ci_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_two_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE welch_t_ci(double precision, anyelement) (
  SFUNC = welch_t_ci_step, STYPE = internal, FINALFUNC = welch_t_ci_final,
  COMBINEFUNC = welch_t_ci_combine, SERIALFUNC = two_sample_serial, DESERIALFUNC = two_sample_deserial,
  MSFUNC = welch_t_ci_step, MINVFUNC = welch_t_ci_inverse, MSTYPE = internal, MFINALFUNC = welch_t_ci_final,
  PARALLEL = SAFE);
CREATE AGGREGATE welch_t_ci(double precision, anyelement, double precision) (
  SFUNC = welch_t_ci_step, STYPE = internal, FINALFUNC = welch_t_ci_final,
  COMBINEFUNC = welch_t_ci_combine, SERIALFUNC = two_sample_serial, DESERIALFUNC = two_sample_deserial,
  MSFUNC = welch_t_ci_step, MINVFUNC = welch_t_ci_inverse, MSTYPE = internal, MFINALFUNC = welch_t_ci_final,
  PARALLEL = SAFE);
CREATE AGGREGATE welch_t_ci(double precision, anyelement, double precision, text) (
  SFUNC = welch_t_ci_step, STYPE = internal, FINALFUNC = welch_t_ci_final,
  COMBINEFUNC = welch_t_ci_combine, SERIALFUNC = two_sample_serial, DESERIALFUNC = two_sample_deserial,
  MSFUNC = welch_t_ci_step, MINVFUNC = welch_t_ci_inverse, MSTYPE = internal, MFINALFUNC = welch_t_ci_final,
  PARALLEL = SAFE);

-- band_share(x, lo, hi)
CREATE FUNCTION band_share_step(internal, double precision, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_band_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION band_share_inverse(internal, double precision, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_band_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION band_share_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_band_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION band_share_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_band_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE band_share(double precision, double precision, double precision) (
  SFUNC = band_share_step, STYPE = internal, FINALFUNC = band_share_final,
  COMBINEFUNC = band_share_combine, SERIALFUNC = band_serial, DESERIALFUNC = band_deserial,
  MSFUNC = band_share_step, MINVFUNC = band_share_inverse, MSTYPE = internal, MFINALFUNC = band_share_final,
  PARALLEL = SAFE);

-- median(x)
CREATE FUNCTION median_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION median_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION median_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_values_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION median_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE median(double precision) (
  SFUNC = median_step, STYPE = internal, FINALFUNC = median_final,
  COMBINEFUNC = median_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = median_step, MINVFUNC = median_inverse, MSTYPE = internal, MFINALFUNC = median_final,
  PARALLEL = SAFE);

-- percentile(x, p)
CREATE FUNCTION percentile_step(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION percentile_inverse(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION percentile_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_values_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION percentile_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE percentile(double precision, double precision) (
  SFUNC = percentile_step, STYPE = internal, FINALFUNC = percentile_final,
  COMBINEFUNC = percentile_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = percentile_step, MINVFUNC = percentile_inverse, MSTYPE = internal, MFINALFUNC = percentile_final,
  PARALLEL = SAFE);

-- trimmed_mean(x, k)
CREATE FUNCTION trimmed_mean_step(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION trimmed_mean_inverse(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION trimmed_mean_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_values_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION trimmed_mean_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE trimmed_mean(double precision, double precision) (
  SFUNC = trimmed_mean_step, STYPE = internal, FINALFUNC = trimmed_mean_final,
  COMBINEFUNC = trimmed_mean_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = trimmed_mean_step, MINVFUNC = trimmed_mean_inverse, MSTYPE = internal, MFINALFUNC = trimmed_mean_final,
  PARALLEL = SAFE);

-- spread(x)
CREATE FUNCTION spread_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION spread_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION spread_final(internal) RETURNS double precision
  AS 'MODULE_PATHNAME', 'bs_values_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION spread_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE spread(double precision) (
  SFUNC = spread_step, STYPE = internal, FINALFUNC = spread_final,
  COMBINEFUNC = spread_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = spread_step, MINVFUNC = spread_inverse, MSTYPE = internal, MFINALFUNC = spread_final,
  PARALLEL = SAFE);

-- mann_whitney(x, first [, method])
CREATE FUNCTION mann_whitney_step(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION mann_whitney_inverse(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION mann_whitney_step(internal, double precision, anyelement, text) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION mann_whitney_inverse(internal, double precision, anyelement, text) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION mann_whitney_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_mw_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION mann_whitney_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE mann_whitney(double precision, anyelement) (
  SFUNC = mann_whitney_step, STYPE = internal, FINALFUNC = mann_whitney_final,
  COMBINEFUNC = mann_whitney_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = mann_whitney_step, MINVFUNC = mann_whitney_inverse, MSTYPE = internal, MFINALFUNC = mann_whitney_final,
  PARALLEL = SAFE);
CREATE AGGREGATE mann_whitney(double precision, anyelement, text) (
  SFUNC = mann_whitney_step, STYPE = internal, FINALFUNC = mann_whitney_final,
  COMBINEFUNC = mann_whitney_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = mann_whitney_step, MINVFUNC = mann_whitney_inverse, MSTYPE = internal, MFINALFUNC = mann_whitney_final,
  PARALLEL = SAFE);

-- hodges_lehmann(x, first [, level])
CREATE FUNCTION hodges_lehmann_step(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hodges_lehmann_inverse(internal, double precision, anyelement) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hodges_lehmann_step(internal, double precision, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hodges_lehmann_inverse(internal, double precision, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_rank_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hodges_lehmann_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_hl_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hodges_lehmann_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE hodges_lehmann(double precision, anyelement) (
  SFUNC = hodges_lehmann_step, STYPE = internal, FINALFUNC = hodges_lehmann_final,
  COMBINEFUNC = hodges_lehmann_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = hodges_lehmann_step, MINVFUNC = hodges_lehmann_inverse, MSTYPE = internal, MFINALFUNC = hodges_lehmann_final,
  PARALLEL = SAFE);
CREATE AGGREGATE hodges_lehmann(double precision, anyelement, double precision) (
  SFUNC = hodges_lehmann_step, STYPE = internal, FINALFUNC = hodges_lehmann_final,
  COMBINEFUNC = hodges_lehmann_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = hodges_lehmann_step, MINVFUNC = hodges_lehmann_inverse, MSTYPE = internal, MFINALFUNC = hodges_lehmann_final,
  PARALLEL = SAFE);

-- median_ci(x [, level])
CREATE FUNCTION median_ci_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION median_ci_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION median_ci_step(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION median_ci_inverse(internal, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_values_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION median_ci_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_values_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION median_ci_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE median_ci(double precision) (
  SFUNC = median_ci_step, STYPE = internal, FINALFUNC = median_ci_final,
  COMBINEFUNC = median_ci_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = median_ci_step, MINVFUNC = median_ci_inverse, MSTYPE = internal, MFINALFUNC = median_ci_final,
  PARALLEL = SAFE);
CREATE AGGREGATE median_ci(double precision, double precision) (
  SFUNC = median_ci_step, STYPE = internal, FINALFUNC = median_ci_final,
  COMBINEFUNC = median_ci_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = median_ci_step, MINVFUNC = median_ci_inverse, MSTYPE = internal, MFINALFUNC = median_ci_final,
  PARALLEL = SAFE);

-- change_points(seq, x [, window [, max_pvalue [, min_magnitude]]])
CREATE FUNCTION change_points_step(internal, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_inverse(internal, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_step(internal, anyelement, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_inverse(internal, anyelement, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_step(internal, anyelement, double precision, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_inverse(internal, anyelement, double precision, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_step(internal, anyelement, double precision, double precision, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_inverse(internal, anyelement, double precision, double precision, double precision, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION change_points_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_cp_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION change_points_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE change_points(anyelement, double precision) (
  SFUNC = change_points_step, STYPE = internal, FINALFUNC = change_points_final,
  COMBINEFUNC = change_points_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = change_points_step, MINVFUNC = change_points_inverse, MSTYPE = internal, MFINALFUNC = change_points_final,
  PARALLEL = SAFE);
CREATE AGGREGATE change_points(anyelement, double precision, double precision) (
  SFUNC = change_points_step, STYPE = internal, FINALFUNC = change_points_final,
  COMBINEFUNC = change_points_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = change_points_step, MINVFUNC = change_points_inverse, MSTYPE = internal, MFINALFUNC = change_points_final,
  PARALLEL = SAFE);
CREATE AGGREGATE change_points(anyelement, double precision, double precision, double precision) (
  SFUNC = change_points_step, STYPE = internal, FINALFUNC = change_points_final,
  COMBINEFUNC = change_points_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = change_points_step, MINVFUNC = change_points_inverse, MSTYPE = internal, MFINALFUNC = change_points_final,
  PARALLEL = SAFE);
CREATE AGGREGATE change_points(anyelement, double precision, double precision, double precision, double precision) (
  SFUNC = change_points_step, STYPE = internal, FINALFUNC = change_points_final,
  COMBINEFUNC = change_points_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = change_points_step, MINVFUNC = change_points_inverse, MSTYPE = internal, MFINALFUNC = change_points_final,
  PARALLEL = SAFE);

-- lookback_baseline(seq, x)
CREATE FUNCTION lookback_baseline_step(internal, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION lookback_baseline_inverse(internal, anyelement, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_seq_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION lookback_baseline_final(internal) RETURNS jsonb
  AS 'MODULE_PATHNAME', 'bs_lookback_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION lookback_baseline_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_keep_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE lookback_baseline(anyelement, double precision) (
  SFUNC = lookback_baseline_step, STYPE = internal, FINALFUNC = lookback_baseline_final,
  COMBINEFUNC = lookback_baseline_combine, SERIALFUNC = keep_serial, DESERIALFUNC = keep_deserial,
  MSFUNC = lookback_baseline_step, MINVFUNC = lookback_baseline_inverse, MSTYPE = internal, MFINALFUNC = lookback_baseline_final,
  PARALLEL = SAFE);

-- moments(x)
CREATE FUNCTION moments_step(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_step' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION moments_inverse(internal, double precision) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_inverse' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION moments_final(internal) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bs_summary_final' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION moments_combine(internal, internal) RETURNS internal
  AS 'MODULE_PATHNAME', 'bs_moments_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE moments(double precision) (
  SFUNC = moments_step, STYPE = internal, FINALFUNC = moments_final,
  COMBINEFUNC = moments_combine, SERIALFUNC = moments_serial, DESERIALFUNC = moments_deserial,
  MSFUNC = moments_step, MINVFUNC = moments_inverse, MSTYPE = internal, MFINALFUNC = moments_final,
  PARALLEL = SAFE);
