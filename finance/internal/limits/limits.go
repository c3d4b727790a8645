// Package limits holds the bounds shared by the finance packages.
package limits

// MaxItems is the largest number of items one finance input may hold: R
// values, equity values, P&L values, dates, trades, bars (per call, summed
// over the symbols of a correlation), option records, positions. More is
// toolkit.TooLarge. The tool schemas publish the same bound as maxItems
// (catalog.MaxItems), which the argument decoder enforces while scanning;
// the finance functions check it again for Go callers.
const MaxItems = 100_000

// StepsPerCheck is about how many elementary steps (a random draw, a
// multiply-add, a decimal addition) a finance loop whose work grows with
// its input runs between two checks of its context: a check costs tens of
// nanoseconds, under 0.1 % of 65,536 steps, and a loop stops within a
// millisecond or so after its context ends.
const StepsPerCheck = 1 << 16

// CheckEvery returns how many iterations of stepsPerIteration steps each a
// loop runs between two context checks (at least 1).
func CheckEvery(stepsPerIteration int) int {
	return max(1, StepsPerCheck/max(1, stepsPerIteration))
}
