// Package performance holds the R-multiple analytics of the toolkit: the G
// metric, win/loss, Kelly, Monte Carlo, drawdown, distribution, confidence,
// correlation, consistency, recovery, risk-adjusted ratios, execution
// quality, segmentation and related tools. It is pure: float64 statistics,
// no I/O.
//
// An R-multiple is a trade's realised P&L divided by its initial risk (1R).
package performance
