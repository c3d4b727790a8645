package billing

import (
	"fmt"
	"sort"

	"github.com/agentfinance/toolkit"
)

// Currency is the unit of every price and balance.
const Currency = "USDC"

// Prices maps an operation name to its list price in USD. Operations not
// in the table are free. The toolkit's table is the tool catalog's: each
// tool's catalog.Spec prices the operations it is billed as, and
// platform.New gives catalog.Catalog.Prices to billing (Config.Prices).
type Prices map[string]toolkit.Amount

// presaleFactor is what presale buyers pay: 80 % of list, on every operation.
var presaleFactor = toolkit.MustParseAmount("0.8")

// validate checks that every price is non-negative and a whole number of
// micro-USD, also after the presale discount.
func (p Prices) validate() error {
	for op, price := range p {
		if price.Sign() < 0 {
			return fmt.Errorf("billing: price of %s is negative", op)
		}
		if _, err := price.Mul(presaleFactor).Micros(); err != nil {
			return fmt.Errorf("billing: price of %s (and 80 %% of it) must be whole micro-USD: %w", op, err)
		}
	}
	return nil
}

// Micros returns the price of operation in micro-USD for a list-price or
// presale buyer. Unlisted operations cost 0. The presale price is exactly
// 80 % of list (validated at construction, so no rounding happens).
func (p Prices) Micros(operation string, presale bool) int64 {
	price, ok := p[operation]
	if !ok {
		return 0
	}
	if presale {
		price = price.Mul(presaleFactor)
	}
	m, err := price.Micros()
	if err != nil {
		panic(err) // excluded by validate
	}
	return m
}

// USD returns micro-USD as an Amount for display: exact, with trailing
// zeros trimmed to at least 2 decimal places ("1.00", "0.003", "0.0024").
func USD(micros int64) toolkit.Amount {
	return toolkit.AmountFromMicros(micros).Trim(2)
}

// Operations returns the priced operation names in alphabetical order.
func (p Prices) Operations() []string {
	ops := make([]string, 0, len(p))
	for op := range p {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}
