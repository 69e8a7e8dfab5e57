/*benchdb's SQL functions on SQLite: the registration table, one row per
 *function and argument count (an aggregate's callbacks, every aggregate also
 *a window function; a scalar's function). Made by tools/gen/functions.py from
 *src/fnshared/functions.json (make regen): change the catalogue, not this
 *file. extension.c registers every row. */
#include "sqlfn/fn_summary.h"
#include "sqlfn/sqlfn.h"

const struct sqlfn_def sqlfn_catalogue[] = {
    {.name = "geomean", .nargs = 1, .step = sqlfn_geomean_step, .inverse = sqlfn_geomean_inverse, .final = sqlfn_geomean_final, .value = sqlfn_geomean_value, .deterministic = 1},
    {.name = "mean", .nargs = 1, .step = sqlfn_summary_step, .inverse = sqlfn_summary_inverse, .final = sqlfn_summary_final, .value = sqlfn_summary_value, .kind = KIND_SUMMARY_MEAN, .deterministic = 1},
    {.name = "fsum", .nargs = 1, .step = sqlfn_summary_step, .inverse = sqlfn_summary_inverse, .final = sqlfn_summary_final, .value = sqlfn_summary_value, .kind = KIND_SUMMARY_SUM, .deterministic = 1},
    {.name = "variance", .nargs = 1, .step = sqlfn_moments_step, .inverse = sqlfn_moments_inverse, .final = sqlfn_moments_final, .value = sqlfn_moments_value, .kind = KIND_VARIANCE, .deterministic = 1},
    {.name = "stddev", .nargs = 1, .step = sqlfn_moments_step, .inverse = sqlfn_moments_inverse, .final = sqlfn_moments_final, .value = sqlfn_moments_value, .kind = KIND_STDDEV, .deterministic = 1},
    {.name = "t_ci", .nargs = 1, .step = sqlfn_moments_step, .inverse = sqlfn_moments_inverse, .final = sqlfn_moments_final, .value = sqlfn_moments_value, .kind = KIND_T_CI, .deterministic = 1},
    {.name = "t_ci", .nargs = 2, .step = sqlfn_moments_step, .inverse = sqlfn_moments_inverse, .final = sqlfn_moments_final, .value = sqlfn_moments_value, .kind = KIND_T_CI, .deterministic = 1},
    {.name = "pooled_t_ci", .nargs = 2, .step = sqlfn_two_step, .inverse = sqlfn_two_inverse, .final = sqlfn_two_final, .value = sqlfn_two_value, .kind = KIND_POOLED, .deterministic = 1},
    {.name = "pooled_t_ci", .nargs = 3, .step = sqlfn_two_step, .inverse = sqlfn_two_inverse, .final = sqlfn_two_final, .value = sqlfn_two_value, .kind = KIND_POOLED, .deterministic = 1},
    {.name = "pooled_t_ci", .nargs = 4, .step = sqlfn_two_step, .inverse = sqlfn_two_inverse, .final = sqlfn_two_final, .value = sqlfn_two_value, .kind = KIND_POOLED, .deterministic = 1},
    {.name = "welch_t_ci", .nargs = 2, .step = sqlfn_two_step, .inverse = sqlfn_two_inverse, .final = sqlfn_two_final, .value = sqlfn_two_value, .kind = KIND_WELCH, .deterministic = 1},
    {.name = "welch_t_ci", .nargs = 3, .step = sqlfn_two_step, .inverse = sqlfn_two_inverse, .final = sqlfn_two_final, .value = sqlfn_two_value, .kind = KIND_WELCH, .deterministic = 1},
    {.name = "welch_t_ci", .nargs = 4, .step = sqlfn_two_step, .inverse = sqlfn_two_inverse, .final = sqlfn_two_final, .value = sqlfn_two_value, .kind = KIND_WELCH, .deterministic = 1},
    {.name = "band_share", .nargs = 3, .step = sqlfn_band_step, .inverse = sqlfn_band_inverse, .final = sqlfn_band_final, .value = sqlfn_band_value, .deterministic = 1},
    {.name = "median", .nargs = 1, .step = sqlfn_values_step, .inverse = sqlfn_values_inverse, .final = sqlfn_values_final, .value = sqlfn_values_value, .kind = KIND_MEDIAN, .deterministic = 1},
    {.name = "percentile", .nargs = 2, .step = sqlfn_values_step, .inverse = sqlfn_values_inverse, .final = sqlfn_values_final, .value = sqlfn_values_value, .kind = KIND_PERCENTILE, .deterministic = 1},
    {.name = "trimmed_mean", .nargs = 2, .step = sqlfn_values_step, .inverse = sqlfn_values_inverse, .final = sqlfn_values_final, .value = sqlfn_values_value, .kind = KIND_TRIMMED, .deterministic = 1},
    {.name = "spread", .nargs = 1, .step = sqlfn_values_step, .inverse = sqlfn_values_inverse, .final = sqlfn_values_final, .value = sqlfn_values_value, .kind = KIND_SPREAD, .deterministic = 1},
    {.name = "mann_whitney", .nargs = 2, .step = sqlfn_mw_step, .inverse = sqlfn_mw_inverse, .final = sqlfn_mw_final, .value = sqlfn_mw_value, .deterministic = 1},
    {.name = "mann_whitney", .nargs = 3, .step = sqlfn_mw_step, .inverse = sqlfn_mw_inverse, .final = sqlfn_mw_final, .value = sqlfn_mw_value, .deterministic = 1},
    {.name = "hodges_lehmann", .nargs = 2, .step = sqlfn_hl_step, .inverse = sqlfn_hl_inverse, .final = sqlfn_hl_final, .value = sqlfn_hl_value, .deterministic = 1},
    {.name = "hodges_lehmann", .nargs = 3, .step = sqlfn_hl_step, .inverse = sqlfn_hl_inverse, .final = sqlfn_hl_final, .value = sqlfn_hl_value, .deterministic = 1},
    {.name = "median_ci", .nargs = 1, .step = sqlfn_mci_step, .inverse = sqlfn_mci_inverse, .final = sqlfn_mci_final, .value = sqlfn_mci_value, .kind = KIND_MEDIAN_CI, .deterministic = 1},
    {.name = "median_ci", .nargs = 2, .step = sqlfn_mci_step, .inverse = sqlfn_mci_inverse, .final = sqlfn_mci_final, .value = sqlfn_mci_value, .kind = KIND_MEDIAN_CI, .deterministic = 1},
    {.name = "change_points", .nargs = 2, .step = sqlfn_cp_step, .inverse = sqlfn_cp_inverse, .final = sqlfn_cp_final, .value = sqlfn_cp_value, .deterministic = 1},
    {.name = "change_points", .nargs = 3, .step = sqlfn_cp_step, .inverse = sqlfn_cp_inverse, .final = sqlfn_cp_final, .value = sqlfn_cp_value, .deterministic = 1},
    {.name = "change_points", .nargs = 4, .step = sqlfn_cp_step, .inverse = sqlfn_cp_inverse, .final = sqlfn_cp_final, .value = sqlfn_cp_value, .deterministic = 1},
    {.name = "change_points", .nargs = 5, .step = sqlfn_cp_step, .inverse = sqlfn_cp_inverse, .final = sqlfn_cp_final, .value = sqlfn_cp_value, .deterministic = 1},
    {.name = "lookback_baseline", .nargs = 2, .step = sqlfn_lookback_step, .inverse = sqlfn_lookback_inverse, .final = sqlfn_lookback_final, .value = sqlfn_lookback_value, .deterministic = 1},
    {.name = "moments", .nargs = 1, .step = sqlfn_summary_step, .inverse = sqlfn_summary_inverse, .final = sqlfn_summary_final, .value = sqlfn_summary_value, .deterministic = 1},
    {.name = "pooled_t_ci_of", .nargs = 2, .func = sqlfn_pooled_t_ci_of, .deterministic = 1},
    {.name = "pooled_t_ci_of", .nargs = 3, .func = sqlfn_pooled_t_ci_of, .deterministic = 1},
    {.name = "pooled_t_ci_of", .nargs = 4, .func = sqlfn_pooled_t_ci_of, .deterministic = 1},
    {.name = "t_ci_of", .nargs = 1, .func = sqlfn_t_ci_of, .deterministic = 1},
    {.name = "t_ci_of", .nargs = 2, .func = sqlfn_t_ci_of, .deterministic = 1},
    {.name = "t_quantile", .nargs = 2, .func = sqlfn_t_quantile, .deterministic = 1},
    {.name = "t_cdf", .nargs = 2, .func = sqlfn_t_cdf, .deterministic = 1},
    {.name = "normal_quantile", .nargs = 1, .func = sqlfn_normal_quantile, .deterministic = 1},
    {.name = "ci_exp", .nargs = 1, .func = sqlfn_ci_exp, .deterministic = 1},
    {.name = "ci_recip", .nargs = 1, .func = sqlfn_ci_recip, .deterministic = 1},
    {.name = "ci_excludes", .nargs = 2, .func = sqlfn_ci_excludes, .deterministic = 1},
    {.name = "benchdb_version", .nargs = 0, .func = sqlfn_version, .deterministic = 1},
    {.name = "string_agg", .nargs = 2, .step = sqlfn_string_agg_step, .inverse = sqlfn_string_agg_inverse, .final = sqlfn_string_agg_final, .value = sqlfn_string_agg_value, .probe = "SELECT string_agg('a', ',')", .deterministic = 1},
    {.name = "least", .nargs = -1, .func = sqlfn_least_greatest, .kind = KIND_LEAST, .probe = "SELECT least(1, 2)", .deterministic = 1},
    {.name = "greatest", .nargs = -1, .func = sqlfn_least_greatest, .kind = KIND_GREATEST, .probe = "SELECT greatest(1, 2)", .deterministic = 1},
};

const size_t sqlfn_catalogue_count = sizeof sqlfn_catalogue / sizeof sqlfn_catalogue[0];
