// Package derivatives holds the pure calculations on options and futures:
// options and futures position sizing, Black–Scholes–Merton greeks on an
// option chain, futures-curve structure and roll yield, margin
// requirements, and portfolio compliance checks (position limits,
// concentration, restricted symbols).
//
// Money, prices, quantities and sizing run in exact decimal arithmetic
// (toolkit.Amount); option pricing and curve statistics run in float64 and
// travel as toolkit.Float. The package performs no I/O and never reads the
// clock: every date ("as_of") is an input.
//
// Conventions shared by the whole package:
//
//   - Units follow the toolkit convention: plain ratio names (weight,
//     share, *_rate, *_fraction, roll yields, hhi) are fractions, 0.02
//     means 2 %; names ending in _pct (change_pct, basis_pct) are percent
//     points, 2 means 2 %. The published inputs risk_pct and
//     max_margin_usage_pct of the sizing tools keep their published
//     meaning: fractions. Fractional inputs must lie in (0, 1]; a value
//     above 1 (such as 2 meant as 2 %) is rejected with a message
//     suggesting the fraction, never silently divided by 100.
//   - Contract counts are floored (never rounded up), so a sized position
//     never exceeds its budget.
//   - Ratios of money (usage, weights, shares) are exact decimal quotients
//     rounded half-even to 8 decimal places for output; every comparison
//     against a limit uses the unrounded value.
//   - Money results (budgets, risks, premiums, margins, notionals,
//     exposures, equity) are written in the canonical money form: at least
//     two decimals, no trailing zeros beyond them, whatever form the input
//     took. Echoed prices and quantities keep their own form.
//   - Dates are calendar dates "YYYY-MM-DD"; time spans count calendar
//     days and a year is 365 days (ACT/365).
package derivatives
