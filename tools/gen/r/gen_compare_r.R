# Generates tests/data/compare-r/: two runs of a plan (base.jsonl,
# head.jsonl, benchdb-run/1) and what R says of each cell (expected.csv),
# for tests/cli/compare_r.sh, which runs the saved query `compare` with
# method r and both adjustments:
#   p          wilcox.test(base, head)$p.value (R's defaults: exact without
#              ties and below 50 values, else the normal approximation);
#   holm, bh   p.adjust(p, "holm") and p.adjust(p, "BH") over every cell;
#   lo, hi     the Hodges-Lehmann interval of log(head) - log(base),
#              wilcox.test(log(head), log(base), conf.int = TRUE)$conf.int,
#              as a change in percent: 100 (exp(bound) - 1); only for the
#              cells without ties (R's exact case; with ties R's uniroot()
#              stops at a tolerance of 1e-4, see gen_fn_rank.R);
#   median_a, median_b  median();
#   pm_a, pm_b  benchstat's "± x%", 100 max(hi/median - 1, 1 - lo/median),
#              from the distribution-free interval of the median at 0.95:
#              order statistics by the binomial search median_ci documents
#              for n <= 30 (exact: choose(n, k) / 2^n are dyadic rationals).
# CI has no R: the generated files are committed. Rerun from the source root:
#   Rscript tools/gen/r/gen_compare_r.R
# Numbers are printed with %.17g, which reads back as the same double.

out_dir <- "tests/data/compare-r"
if (!dir.exists("tools/gen/r")) stop("run from the source root")
dir.create(out_dir, showWarnings = FALSE)
num <- function(x) {
  stopifnot(all(is.finite(x)))
  sprintf("%.17g", x)
}

set.seed(20261201)
cells <- list()
add <- function(name, a, b) cells[[name]] <<- list(a = a, b = b)
# 24 cells of 10 against 10 values without ties: no effect, small and
# large effects, so that p spans 1e-5 to 1 and the adjustments move it.
effects <- c(rep(1, 10), 1.002, 1.005, 1.01, 1.02, 1.03, 0.99, 0.98, 0.97, 1.05, 0.95, 1.1, 0.9, 1.2, 0.8)
for (i in seq_along(effects)) {
  base <- round(1000 * i * rlnorm(10, 0, 0.02), 4)
  head <- round(1000 * i * effects[i] * rlnorm(10, 0, 0.02), 4)
  add(sprintf("cell%02d", i), base, head)
}
# Two cells with the same values: equal p-values, tied in the adjustment.
add("twin1", cells$cell12$a, cells$cell12$b)
add("twin2", cells$cell12$a, cells$cell12$b)
# Unequal sizes.
add("unequal", round(500 * rlnorm(7, 0, 0.03), 4), round(515 * rlnorm(13, 0, 0.03), 4))
# Ties: the normal approximation with the tie correction.
add("ties", c(10, 11, 11, 12, 12, 12, 13, 14), c(11, 12, 13, 13, 14, 14, 15, 15, 16))
for (cl in cells) stopifnot(all(as.numeric(num(c(cl$a, cl$b))) == c(cl$a, cl$b)), all(c(cl$a, cl$b) > 0))

archive <- function(run, side) {
  lines <- sprintf('{"record":"run","format":"benchdb-run/1","plan":"r-compare","run":"%s","host":"r"}', run)
  for (n in names(cells)) {
    lines <- c(lines, sprintf('{"record":"samples","benchmark":"%s","block":1,"variant":"v","unit":"ns/op","values":[%s]}',
                              n, paste(num(cells[[n]][[side]]), collapse = ",")))
  }
  writeLines(lines, file.path(out_dir, paste0(run, ".jsonl")))
}
archive("base", "a")
archive("head", "b")

# The orders (l, r) of the median's interval: from k = ceiling((n + 1)/2) - 1
# add the more probable neighbour (the left one when equal) until the mass
# reaches the level; x_(0) = -Inf, x_(n+1) = +Inf.
median_orders <- function(n, level = 0.95) {
  stopifnot(n <= 30)
  pmf <- function(k) if (k < 0 || k > n) 0 else choose(n, k) / 2^n
  x <- ceiling((n + 1) / 2) - 1
  l <- x; r <- x + 1; acc <- pmf(x)
  while (acc < level && (l > 0 || r <= n)) {
    lp <- pmf(l - 1); rp <- pmf(r)
    if (lp >= rp) { acc <- acc + lp; l <- l - 1 } else { acc <- acc + rp; r <- r + 1 }
  }
  c(l, r)
}
pm <- function(v) {
  o <- median_orders(length(v)); s <- sort(v); m <- median(v)
  if (o[1] < 1 || o[2] > length(v)) return(NA)
  100 * max(s[o[2]] / m - 1, 1 - s[o[1]] / m)
}

p <- sapply(cells, function(cl) wilcox.test(cl$a, cl$b)$p.value)
holm <- p.adjust(p, "holm")
bh <- p.adjust(p, "BH")
rows <- character()
for (n in names(cells)) {
  cl <- cells[[n]]
  ties <- length(unique(c(cl$a, cl$b))) < length(c(cl$a, cl$b))
  ci <- if (ties) c(NA, NA) else 100 * (exp(wilcox.test(log(cl$b), log(cl$a), conf.int = TRUE)$conf.int) - 1)
  rows <- c(rows, paste(n, num(p[[n]]), num(holm[[n]]), num(bh[[n]]),
                        if (ties) "" else num(ci[1]), if (ties) "" else num(ci[2]),
                        num(median(cl$a)), num(median(cl$b)), num(pm(cl$a)), num(pm(cl$b)), sep = ","))
}
writeLines(c("benchmark,p,holm,bh,lo,hi,median_a,median_b,pm_a,pm_b", rows), file.path(out_dir, "expected.csv"))
cat(sprintf("%s: %d cells\n", out_dir, length(cells)))
