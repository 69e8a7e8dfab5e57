-- The aggregates of benchstats over a table large enough for a parallel
-- plan (test_parallel.sh runs this file serially and with parallel plans
-- forced, and requires the same text: the same bits). :'group' is the
-- GROUP BY clause (empty: one group).
SELECT geomean(xp), variance(x), stddev(x), t_ci(x), t_ci(x, 0.9), band_share(x, -1, 1)
FROM big :grp;
SELECT pooled_t_ci(x, g), welch_t_ci(x, g = 1, 0.99), pooled_t_ci(x, g, 0.95, 'estimate,lo,hi,p')
FROM big :grp;
SELECT moments(x), mean(x), fsum(xp), moments(xp), t_ci_of(moments(x), 0.9)
FROM big :grp;
SELECT median(x), percentile(x, 12.5), trimmed_mean(x, 100), spread(xp), median_ci(x, 0.9)
FROM big :grp;
SELECT mann_whitney(x, g), hodges_lehmann(x, g, 0.9)
FROM big :grp;
SELECT change_points(i, s, 30, 0.01), lookback_baseline(i, s)
FROM big WHERE i % 20 = 0 :grp;
