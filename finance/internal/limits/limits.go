// Package limits holds the bounds shared by the finance packages.
package limits

// MaxItems is the largest number of items one finance input may hold: R
// values, equity values, P&L values, dates, trades, bars (per call, summed
// over the symbols of a correlation), option records, positions. More is
// toolkit.TooLarge. The tool schemas publish the same bound as maxItems
// (catalog.MaxItems), which the argument decoder enforces while scanning;
// the finance functions check it again for Go callers.
const MaxItems = 100_000
