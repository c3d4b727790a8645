// Package finance holds the pure calculations of the toolkit: position
// sizing, trade risk checks, performance evaluation (the G metric), the
// pre-trade gate and system assessment. It performs no I/O.
//
// Money and sizing arithmetic is exact (toolkit.Amount); statistics run in
// float64. Subpackages hold the larger families: performance (R-multiple
// analytics), market (OHLCV bar analytics), derivatives (options and
// futures), and catalog (every function as a callable, schema-described tool).
package finance
