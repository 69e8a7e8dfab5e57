# Generates tests/sql/fn_rank_r.sql: hodges_lehmann, median_ci and
# mann_whitney's methods checked against R 4.2:
#  - hodges_lehmann against wilcox.test(x, y, conf.int = TRUE). In the exact
#    case (no ties, both samples below 50) R's numbers are exact order
#    statistics of the differences and are compared to 1e-12. Otherwise R
#    finds the bounds with uniroot(), which is only accurate to its
#    tolerance tol.root = 1e-4; there the expected value is the exact root
#    of R's own equation, found here by evaluating R's W function (copied
#    below from stats:::wilcox.test.default) between and at the
#    differences, and this script stops unless R's uniroot() result lies
#    within 1e-4 of it. The estimate's equation W(d) = 0 can hold on a
#    whole interval between the two middle differences; its midpoint, the
#    median of the differences, is the expected value, and R's root must
#    lie in that interval (within 1e-4).
#  - median_ci against benchstat's rule (ALGORITHMS.md 1.4, go-moremath
#    QuantileCI) written out here with R's exact choose(), qnorm and pnorm,
#    and the achieved confidence from pbinom.
#  - mann_whitney(x, g, 'exact') against the exact conditional
#    distribution built here by tie groups (sum over j_g of prod
#    choose(t_g, j_g)), for small samples also by enumerating every label
#    assignment with combn(); 'benchstat' against go-moremath's rule on top
#    of the same distribution; 'r' against wilcox.test().
# CI has no R, so the generated file is committed; rerun after a change:
#   Rscript tools/gen/r/gen_fn_rank.R        (from the source root)
# Numbers are printed with %.17g, which reads back as the same double.

out_dir <- "tests/sql"
if (!dir.exists(out_dir)) stop("run from the source root")

num <- function(x) {
  stopifnot(is.finite(x))
  s <- sprintf("%.17g", x)
  ifelse(grepl("[.eE]", s), s, paste0(s, ".0"))
}

set.seed(20261207)
ds <- list(
  n2       = list(x = c(1.5, 2.25), y = c(0.5, 4.75)),
  n1       = list(x = c(3.5), y = c(1.25, 2.5, 4.75, 6.5, 7.0, 9.25, 0.125)),
  done     = list(x = c(0.01, 0.03, -0.02, 0.015, 0.0), y = c(0.02, 0.05, 0.01, 0.04, 0.03)),
  unequal  = list(x = c(3.1, 2.7, 3.9), y = c(2.2, 2.9, 2.5, 2.4, 3.3, 2.05, 2.6)),
  wide     = list(x = c(1e-9, 2e-3, 5, 7e4, 1e9), y = c(3e-7, 0.5, 40, 2e8)),
  offset   = list(x = 1e9 + c(1, 2, 3, 4), y = 1e9 + c(2.5, 3.5, 4.5, 6.25)),
  mid      = list(x = round(rnorm(12, 10, 2), 6), y = round(rnorm(15, 11, 3), 6)),
  edge     = list(x = round(rnorm(49, 5, 1), 6), y = round(rnorm(49, 5.3, 1), 6)),
  # Ties (normal case): few distinct values, many ties across the samples.
  ties     = list(x = c(1, 2, 2, 3, 3, 3, 7), y = c(2, 3, 4, 4, 5, 5, 6, 8)),
  integers = list(x = sample(1:6, 20, TRUE), y = sample(2:7, 24, TRUE)),
  halves   = list(x = sample(seq(10, 14, 0.5), 30, TRUE), y = sample(seq(10.5, 15, 0.5), 26, TRUE)),
  # 50 values or more (normal case without ties).
  fifty    = list(x = round(rnorm(50, 100, 15), 6), y = round(rnorm(50, 106, 15), 6)),
  large    = list(x = round(rnorm(60, 100, 15), 6), y = round(rnorm(55, 104, 15), 6)),
  lopsided = list(x = round(rlnorm(7, 0, 0.3), 7), y = round(rlnorm(300, 0.1, 0.3), 7)),
  big      = list(x = round(rnorm(900, 50, 10), 5), y = round(rnorm(700, 51, 10), 5))
)
for (d in ds) stopifnot(all(as.numeric(num(c(d$x, d$y))) == c(d$x, d$y)))

lines <- character()
emit <- function(...) lines <<- c(lines, paste0(...))
close_check <- function(id, actual, expected, rel = 1e-12) {
  e <- num(expected)
  emit(sprintf("SELECT '%s', abs((%s) - %s) <= %g * max(abs(%s), 1e-300);", id, actual, e, rel, e))
}
exact_check <- function(id, actual, expected) emit(sprintf("SELECT '%s', (%s) IS %s;", id, actual, expected))
agg <- function(expr, name) sprintf("SELECT %s FROM d WHERE ds = '%s'", expr, name)

insert_data <- function(names) {
  rows <- character()
  for (n in names) {
    d <- ds[[n]]
    rows <- c(rows, sprintf("('%s', 1, %s)", n, num(d$x)), sprintf("('%s', 0, %s)", n, num(d$y)))
  }
  c("CREATE TEMP TABLE d(ds TEXT, g INTEGER, x REAL);",
    paste0("INSERT INTO d VALUES\n  ", paste(rows, collapse = ",\n  "), ";"))
}

## ---- hodges_lehmann ----

# R's W(d) of wilcox.test.default's normal case (conf.int branch), verbatim
# but for the closure's variables passed in.
make_W <- function(x, y, correct) {
  n.x <- length(x); n.y <- length(y); alternative <- "two.sided"; digits.rank <- Inf
  function(d) {
    dr <- c(x - d, y)
    dr <- rank(if (is.finite(digits.rank)) signif(dr, digits.rank) else dr)
    NTIES.CI <- table(dr)
    dz <- sum(dr[seq_along(x)]) - n.x * (n.x + 1)/2 - n.x * n.y/2
    CORRECTION.CI <- if (correct) {
      switch(alternative, two.sided = sign(dz) * 0.5, greater = 0.5, less = -0.5)
    } else 0
    SIGMA.CI <- sqrt((n.x * n.y/12) * ((n.x + n.y + 1) - sum(NTIES.CI^3 - NTIES.CI)/((n.x + n.y) * (n.x + n.y - 1))))
    (dz - CORRECTION.CI)/SIGMA.CI
  }
}

# The exact bounds of {d in [mumin, mumax] : lo_z <= W(d) <= hi_z} as R's
# equation defines them: the infimum of {W(d) <= hi_z} and the supremum of
# {W(d) >= lo_z} (R returns mumin, mumax when W there is already past z).
# W is constant between consecutive distinct differences and falls with d
# there; at a difference itself the ties across the samples shrink sigma.
# Small cases: W at every difference and in every gap between two. Large
# ones: a bisection over the gaps, the differences themselves only at the
# ends (an isolated difference past z between two gaps that are not cannot
# come first when hi_z >= 0 >= lo_z, which the small cases check).
exact_bounds <- function(W, diffs, lo_z, hi_z) {
  c <- sort(unique(diffs)); K <- length(c)
  gapW <- function(k) W((c[k] + c[k + 1]) / 2)  # between c[k] and c[k+1]
  inf_le <- function(z) {
    if (K == 1 || W(c[1]) <= z) return(c[1])
    if (K <= 600) {
      for (k in 1:(K - 1)) if (W(c[k]) <= z || gapW(k) <= z) return(c[k])
      return(c[K])
    }
    if (gapW(K - 1) > z) return(c[K])
    if (gapW(1) <= z) return(c[1])
    a <- 1; b <- K - 1  # gapW(a) > z >= gapW(b)
    while (b - a > 1) { m <- (a + b) %/% 2; if (gapW(m) > z) a <- m else b <- m }
    c[b]
  }
  sup_ge <- function(z) {
    if (K == 1 || W(c[K]) >= z) return(c[K])
    if (K <= 600) {
      for (k in (K - 1):1) if (gapW(k) >= z || W(c[k]) >= z) return(if (gapW(k) >= z) c[k + 1] else c[k])
      return(c[1])
    }
    if (gapW(1) < z) return(c[1])
    if (gapW(K - 1) >= z) return(c[K])
    a <- 1; b <- K - 1  # gapW(a) >= z > gapW(b)
    while (b - a > 1) { m <- (a + b) %/% 2; if (gapW(m) >= z) a <- m else b <- m }
    c[a + 1]
  }
  c(inf_le(hi_z), sup_ge(lo_z))
}

hl_cases <- list(
  list("n2", 0.95), list("n2", 0.5), list("n1", 0.9), list("done", 0.95), list("done", 0.8),
  list("unequal", 0.95), list("wide", 0.95), list("offset", 0.9), list("mid", 0.95),
  list("mid", 0.99), list("edge", 0.95), list("ties", 0.95), list("ties", 0.8),
  list("integers", 0.95), list("integers", 0.9), list("halves", 0.95), list("fifty", 0.95),
  list("large", 0.95), list("large", 0.999), list("lopsided", 0.9), list("big", 0.95))
tol <- 1e-4
notes <- character()
for (cs in hl_cases) {
  n <- cs[[1]]; level <- cs[[2]]
  x <- ds[[n]]$x; y <- ds[[n]]$y
  w <- suppressWarnings(wilcox.test(x, y, conf.int = TRUE, conf.level = level))
  exact <- length(x) < 50 && length(y) < 50 && !any(duplicated(c(x, y)))
  stopifnot(grepl("exact", w$method) == exact)
  diffs <- sort(outer(x, y, `-`))
  f <- if (level == 0.95) "hodges_lehmann(x, g)" else sprintf("hodges_lehmann(x, g, %s)", num(level))
  j <- function(key) agg(sprintf("json_extract(%s, '$.%s')", f, key), n)
  id <- sprintf("hodges_lehmann-%s/%s", level, n)
  if (exact) {
    close_check(paste0(id, "/estimate"), j("estimate"), unname(w$estimate))
    close_check(paste0(id, "/lo"), j("lo"), w$conf.int[1])
    close_check(paste0(id, "/hi"), j("hi"), w$conf.int[2])
    # The achieved level: R reports it only when far from the asked one.
    alpha <- 1 - level
    qu <- qwilcox(alpha / 2, length(x), length(y)); if (qu == 0) qu <- 1
    conf <- 1 - 2 * pwilcox(qu - 1, length(x), length(y))
    if (attr(w$conf.int, "conf.level") != level) stopifnot(abs(attr(w$conf.int, "conf.level") - conf) < 1e-15)
    close_check(paste0(id, "/confidence"), j("confidence"), conf)
  } else {
    alpha <- 1 - level
    b <- exact_bounds(make_W(x, y, TRUE), diffs, qnorm(alpha / 2), qnorm(alpha / 2, lower.tail = FALSE))
    z0 <- exact_bounds(make_W(x, y, FALSE), diffs, 0, 0)
    est <- median(diffs)
    stopifnot(abs((z0[1] + z0[2]) / 2 - est) <= 1e-12 * abs(est))
    stopifnot(w$estimate >= z0[1] - tol, w$estimate <= z0[2] + tol)
    for (k in 1:2) if (abs(w$conf.int[k] - b[k]) > tol)
      stop(sprintf("%s: R's uniroot() bound %.17g is not within %g of the exact root %.17g", id, w$conf.int[k], tol, b[k]))
    # R's own numbers, to its tolerance; then the exact roots.
    emit(sprintf("SELECT '%s/lo-vs-uniroot', abs((%s) - %s) <= %g;", id, j("lo"), num(w$conf.int[1]), tol))
    emit(sprintf("SELECT '%s/hi-vs-uniroot', abs((%s) - %s) <= %g;", id, j("hi"), num(w$conf.int[2]), tol))
    emit(sprintf("SELECT '%s/estimate-vs-uniroot', abs((%s) - %s) <= %s;", id, j("estimate"), num(unname(w$estimate)),
                 num((z0[2] - z0[1]) / 2 + tol)))
    close_check(paste0(id, "/estimate"), j("estimate"), est)
    close_check(paste0(id, "/lo"), j("lo"), b[1])
    close_check(paste0(id, "/hi"), j("hi"), b[2])
    exact_check(paste0(id, "/confidence"), j("confidence"), "NULL")
  }
  close_check(paste0(id, "/level"), j("level"), level)
  exact_check(paste0(id, "/n1"), j("n1"), length(x))
  exact_check(paste0(id, "/n2"), j("n2"), length(y))
  exact_check(paste0(id, "/exact"), j("exact"), as.integer(exact))
  # The other way round: the shift negates and the interval flips.
  f2 <- sub("x, g", "x, 1 - g", f, fixed = TRUE)
  w2 <- suppressWarnings(wilcox.test(y, x, conf.int = TRUE, conf.level = level))
  if (exact) {
    close_check(paste0(id, "/lo-swapped"), agg(sprintf("json_extract(%s, '$.lo')", f2), n), w2$conf.int[1])
    close_check(paste0(id, "/hi-swapped"), agg(sprintf("json_extract(%s, '$.hi')", f2), n), w2$conf.int[2])
  } else {
    close_check(paste0(id, "/lo-swapped"), agg(sprintf("json_extract(%s, '$.lo')", f2), n), -b[2])
    close_check(paste0(id, "/hi-swapped"), agg(sprintf("json_extract(%s, '$.hi')", f2), n), -b[1])
  }
}

## ---- median_ci: benchstat's order statistics ----

# go-moremath QuantileCI(n, 0.5, level), from ALGORITHMS.md 1.4, with exact
# binomial masses (choose() is exact here: n <= 30).
benchstat_orders <- function(n, level) {
  if (n <= 30) {
    pmf <- function(k) if (k < 0 || k > n) 0 else choose(n, k)
    x <- ceiling((n + 1) * 0.5) - 1
    accum <- pmf(x); l <- x; r <- x + 1
    lp <- pmf(l - 1); rp <- pmf(r)
    while (accum < level * 2^n && (lp > 0 || rp > 0)) {
      if (lp >= rp) { accum <- accum + lp; l <- l - 1; lp <- pmf(l - 1) }
      else { accum <- accum + rp; r <- r + 1; rp <- pmf(r) }
    }
  } else {
    mu <- n * 0.5; sigma <- sqrt(n * 0.5 * 0.5)
    l1 <- mu + sigma * qnorm((1 - level) / 2); r1 <- 2 * mu - l1
    l <- floor(l1 - 0.5) + 1; r <- ceiling(r1 - 0.5) + 1
    cdf <- function(l, r) pnorm(r - 0.5, mu, sigma) - pnorm(l - 0.5, mu, sigma)
    if (cdf(l, r - 1) >= level && cdf(l, r - 1) < cdf(l, r)) r <- r - 1
    l <- max(l, 0); r <- min(r, n + 1)
  }
  # Exact coverage P(l <= K <= r - 1), K ~ Binomial(n, 1/2).
  conf <- (if (r <= n) pbinom(r - 1, n, 0.5) else 1) - (if (l >= 1) pbinom(l - 1, n, 0.5) else 0)
  c(l, r, conf)
}

mci_sizes <- c(1:45, 59, 60, 61, 99, 100, 250, 1001, 4096)
mci_levels <- c(0.95, 0.9, 0.99, 0.5, 0.999)
mci_values <- round(rlnorm(4096, 3, 0.4), 6)
emit("")
emit("CREATE TEMP TABLE m(i INTEGER PRIMARY KEY, x REAL);")
for (s in split(seq_along(mci_values), ceiling(seq_along(mci_values) / 512)))
  emit("INSERT INTO m VALUES ", paste(sprintf("(%d, %s)", s, num(mci_values[s])), collapse = ", "), ";")
for (n in mci_sizes) for (level in mci_levels) {
  v <- mci_values[1:n]; s <- sort(v)
  o <- benchstat_orders(n, level)
  f <- if (level == 0.95) "median_ci(x)" else sprintf("median_ci(x, %s)", num(level))
  j <- function(key) sprintf("SELECT json_extract(%s, '$.%s') FROM m WHERE i <= %d", f, key, n)
  id <- sprintf("median_ci-%s/%d", level, n)
  exact_check(paste0(id, "/lo_order"), j("lo_order"), o[1])
  exact_check(paste0(id, "/hi_order"), j("hi_order"), o[2])
  close_check(paste0(id, "/confidence"), j("confidence"), o[3])
  close_check(paste0(id, "/center"), j("center"), median(v))
  if (o[1] >= 1) close_check(paste0(id, "/lo"), j("lo"), s[o[1]]) else exact_check(paste0(id, "/lo"), j("lo"), "NULL")
  if (o[2] <= n) close_check(paste0(id, "/hi"), j("hi"), s[o[2]]) else exact_check(paste0(id, "/hi"), j("hi"), "NULL")
}
# benchstat's "need >= 6 samples for confidence interval at level 0.95":
# the smallest n with both bounds finite.
need <- min(which(sapply(1:50, function(n) { o <- benchstat_orders(n, 0.95); o[1] >= 1 && o[2] <= n })))
stopifnot(need == 6)

## ---- mann_whitney: exact conditional distribution, benchstat, R ----

# The null distribution of 2W given the ties, by tie groups: choosing j_g of
# the t_g values of group g (mid-rank m_g) in prod choose(t_g, j_g) ways.
cond_dist <- function(x, y) {
  v <- c(x, y); n1 <- length(x)
  r <- rank(v); tab <- table(r); m2 <- 2 * as.numeric(names(tab)); t <- as.integer(tab)
  # dist[[j + 1]]: named vector 2R -> count, j values chosen so far
  dist <- list(c(`0` = 1))
  for (g in seq_along(t)) {
    new <- vector("list", n1 + 1)
    for (j in 0:min(n1, length(dist) - 1)) {
      cur <- dist[[j + 1]]; if (is.null(cur)) next
      for (a in 0:min(t[g], n1 - j)) {
        keys <- as.numeric(names(cur)) + a * m2[g]
        add <- cur * choose(t[g], a); names(add) <- keys
        tgt <- new[[j + a + 1]]
        if (is.null(tgt)) tgt <- add else {
          allk <- union(names(tgt), names(add))
          s <- setNames(numeric(length(allk)), allk)
          s[names(tgt)] <- s[names(tgt)] + tgt; s[names(add)] <- s[names(add)] + add
          tgt <- s
        }
        new[[j + a + 1]] <- tgt
      }
    }
    dist <- new
  }
  d <- dist[[n1 + 1]]
  w2 <- as.numeric(names(d)) - n1 * (n1 + 1)  # 2W
  list(w2 = w2, count = unname(d), total = choose(length(v), n1))
}
# The same by enumerating every choice of which values form sample 1.
enum_dist <- function(x, y) {
  v <- c(x, y); n1 <- length(x); r <- rank(v)
  w2 <- combn(length(v), n1, function(idx) 2 * sum(r[idx]) - n1 * (n1 + 1))
  tab <- table(w2)
  list(w2 = as.numeric(names(tab)), count = as.numeric(tab), total = choose(length(v), n1))
}
w_obs <- function(x, y) { r <- rank(c(x, y)); sum(r[seq_along(x)]) - length(x) * (length(x) + 1) / 2 }
p_exact <- function(dist, u) {
  le <- sum(dist$count[dist$w2 <= 2 * u]); ge <- sum(dist$count[dist$w2 >= 2 * u])
  min(1, 2 * min(le, ge) / dist$total)
}
p_benchstat <- function(x, y, dist) {
  n1 <- length(x); n2 <- length(y); u <- w_obs(x, y); ties <- any(duplicated(c(x, y)))
  if ((!ties && n1 <= 50 && n2 <= 50) || (ties && n1 <= 25 && n2 <= 25)) {
    if (length(unique(c(x, y))) == 1) return(NA)
    if (u == n1 * n2 - u) return(1)
    return(sum(dist$count[dist$w2 <= 2 * min(u, n1 * n2 - u)]) / dist$total * 2)
  }
  N <- n1 + n2; t <- table(c(x, y)); mu <- n1 * n2 / 2
  sigma <- sqrt(n1 * n2 * ((N + 1) - sum(t^3 - t) / (N * (N - 1))) / 12)
  z <- (u - mu - sign(u - mu) * 0.5) / sigma
  2 * min(pnorm(z), pnorm(z, lower.tail = FALSE))
}
mw_sets <- list(
  tiny_ties   = list(x = c(1, 2, 2, 3), y = c(2, 3, 4, 5)),
  heavy_ties  = list(x = c(1, 1, 1, 2, 2, 3), y = c(1, 2, 2, 2, 3, 3, 3)),
  one_group   = list(x = c(4, 4, 4), y = c(4, 4)),
  separated   = list(x = c(5, 5, 6, 7), y = c(1, 2, 2, 3, 4)),
  no_ties     = list(x = c(0.5, 1.5, 2.75, 4), y = c(1, 2, 3.5, 5.25, 6)),
  unbalanced  = list(x = c(3), y = c(1, 3, 3, 5, 8, 9, 2)),
  bs_limit    = list(x = sample(1:12, 25, TRUE), y = sample(3:14, 25, TRUE)),
  bs_over     = list(x = sample(1:12, 26, TRUE), y = sample(3:14, 20, TRUE)),
  fifty       = list(x = round(rnorm(50, 0, 1), 6), y = round(rnorm(50, 0.6, 1), 6)),
  integers    = list(x = sample(1:9, 40, TRUE), y = sample(2:10, 35, TRUE))
)
emit("")
emit("CREATE TEMP TABLE w(ds TEXT, g INTEGER, x REAL);")
rows <- character()
for (n in names(mw_sets)) {
  d <- mw_sets[[n]]
  rows <- c(rows, sprintf("('%s', 1, %s)", n, num(d$x)), sprintf("('%s', 0, %s)", n, num(d$y)))
}
emit("INSERT INTO w VALUES\n  ", paste(rows, collapse = ",\n  "), ";")
for (n in names(mw_sets)) {
  x <- mw_sets[[n]]$x; y <- mw_sets[[n]]$y
  dist <- cond_dist(x, y)
  if (choose(length(x) + length(y), length(x)) <= 2e5) {
    e <- enum_dist(x, y)
    o <- order(dist$w2)
    stopifnot(all(dist$w2[o] == e$w2), all(dist$count[o] == e$count))
  }
  stopifnot(abs(sum(dist$count) / dist$total - 1) < 1e-12)
  u <- w_obs(x, y)
  mw <- function(method, key) sprintf("SELECT json_extract(mann_whitney(x, g, '%s'), '$.%s') FROM w WHERE ds = '%s'", method, key, n)
  close_check(sprintf("mann_whitney-exact/%s/u", n), mw("exact", "u"), u)
  close_check(sprintf("mann_whitney-exact/%s/p", n), mw("exact", "p"), p_exact(dist, u))
  exact_check(sprintf("mann_whitney-exact/%s/exact", n), mw("exact", "exact"), 1)
  pb <- p_benchstat(x, y, dist)
  if (is.na(pb)) exact_check(sprintf("mann_whitney-benchstat/%s/p", n), mw("benchstat", "p"), "NULL")
  else close_check(sprintf("mann_whitney-benchstat/%s/p", n), mw("benchstat", "p"), pb)
  wt <- suppressWarnings(wilcox.test(x, y))
  if (is.na(wt$p.value)) exact_check(sprintf("mann_whitney-r/%s/p", n), mw("r", "p"), "NULL")
  else close_check(sprintf("mann_whitney-r/%s/p", n), mw("r", "p"), wt$p.value)
  # The swapped samples: exact p by the same rule from sample 2's side.
  dist2 <- cond_dist(y, x)
  close_check(sprintf("mann_whitney-exact/%s/p-swapped", n),
              sprintf("SELECT json_extract(mann_whitney(x, 1 - g, 'exact'), '$.p') FROM w WHERE ds = '%s'", n),
              p_exact(dist2, w_obs(y, x)))
}

text <- c("-- hodges_lehmann (wilcox.test conf.int), median_ci (benchstat's order statistics, pbinom),",
          "-- mann_whitney's 'exact' and 'benchstat' methods (exact conditional distribution) against R.",
          "-- GENERATED by tools/gen/r/gen_fn_rank.R from R's results; do not edit by hand.",
          "-- Where R finds a root with uniroot() (tolerance 1e-4), the expected value is the exact root",
          "-- of R's equation, and R's own value is checked to within 1e-4 (see the script).",
          "", insert_data(names(ds)), "", lines)
writeLines(text, file.path(out_dir, "fn_rank_r.sql"))
