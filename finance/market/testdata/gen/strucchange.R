# Golden values for detect_structural_break from R strucchange: the sup-F
# p-values of Hansen's (1997) approximation (strucchange:::pvalue.Fstats)
# over a grid of statistics and trimmings, and the whole test (Fstats +
# sctest, type "supF") on seeded series of closes.
#
# Run from the repository root (Debian: apt-get install r-base-core
# r-cran-strucchange):
#
#   Rscript finance/market/testdata/gen/strucchange.R > finance/market/testdata/strucchange.json
#
# The Go tests read the JSON and never run R.
suppressMessages(library(strucchange))

num <- function(x) sprintf("%.17g", x)
nums <- function(x) paste0("[", paste(sprintf("\"%.17g\"", x), collapse = ","), "]")

cat("{\n")
cat(sprintf("  \"generator\": \"%s, strucchange %s, finance/market/testdata/gen/strucchange.R\",\n",
            R.version.string, as.character(packageVersion("strucchange"))))

# 1. p-values: Fstats(from = trim) uses from = floor(trim * n) observations
# and to = n - from, so lambda = ((n - from) * to) / (from * (n - to)).
cat("  \"p_values\": [\n")
grid <- expand.grid(trim = c(0.05, 0.10, 0.15, 0.20, 0.25, 0.30), n = c(220, 1000))
stats <- seq(0.25, 30, by = 0.25)
for (g in seq_len(nrow(grid))) {
  n <- grid$n[g]; trim <- grid$trim[g]
  from <- floor(trim * n); to <- n - from
  lambda <- ((n - from) * to) / (from * (n - to))
  p <- sapply(stats, function(x) strucchange:::pvalue.Fstats(x, type = "supF", k = 1, lambda = lambda))
  cat(sprintf("    {\"returns\": %d, \"trim\": \"%s\", \"from\": %d, \"lambda\": \"%s\",\n", n, num(trim), from, num(lambda)))
  cat(sprintf("     \"statistics\": %s,\n", nums(stats)))
  cat(sprintf("     \"p_values\": %s}%s\n", nums(p), if (g < nrow(grid)) "," else ""))
}
cat("  ],\n")

# 2. the whole test on seeded series: closes from 100 with N(shift, sd)
# log returns, the shift starting at return index `at` (1-based).
cat("  \"series\": [\n")
cases <- list(
  list(name = "null_220", seed = 1, n = 220, sd = 0.01, shift = 0, at = 110, trim = 0.15),
  list(name = "small_shift_220", seed = 2, n = 220, sd = 0.01, shift = 0.003, at = 110, trim = 0.15),
  list(name = "shift_259", seed = 3, n = 259, sd = 0.01, shift = 0.004, at = 140, trim = 0.15),
  list(name = "late_shift_400_trim10", seed = 4, n = 400, sd = 0.02, shift = 0.004, at = 330, trim = 0.10),
  list(name = "shift_1000_trim25", seed = 5, n = 1000, sd = 0.01, shift = 0.0012, at = 400, trim = 0.25),
  list(name = "null_1000_trim05", seed = 6, n = 1000, sd = 0.015, shift = 0, at = 500, trim = 0.05),
  list(name = "shift_300_trim20_a", seed = 10, n = 300, sd = 0.01, shift = 0.0025, at = 150, trim = 0.20),
  list(name = "shift_300_trim20_b", seed = 15, n = 300, sd = 0.01, shift = 0.0025, at = 150, trim = 0.20),
  list(name = "shift_300_trim20_c", seed = 9, n = 300, sd = 0.01, shift = 0.0025, at = 150, trim = 0.20)
)
for (i in seq_along(cases)) {
  cs <- cases[[i]]
  set.seed(cs$seed)
  r0 <- rnorm(cs$n, 0, cs$sd) + ifelse(seq_len(cs$n) >= cs$at, cs$shift, 0)
  closes <- 100 * exp(cumsum(c(0, r0)))
  r <- log(closes[-1] / closes[-length(closes)])
  fs <- Fstats(r ~ 1, from = cs$trim)
  st <- sctest(fs, type = "supF")
  cat(sprintf("    {\"name\": \"%s\", \"trim\": \"%s\", \"from\": %d, \"lambda\": \"%s\",\n",
              cs$name, num(cs$trim), as.integer(floor(cs$trim * length(r))), num(fs$par)))
  cat(sprintf("     \"sup_f\": \"%s\", \"p_value\": \"%s\", \"breakpoint\": %d,\n",
              num(unname(st$statistic)), num(unname(st$p.value)), fs$breakpoint))
  cat(sprintf("     \"closes\": %s}%s\n", nums(closes), if (i < length(cases)) "," else ""))
}
cat("  ]\n")
cat("}\n")
