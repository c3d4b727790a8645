package billing

// Funds is a class of money. Real funds come from verified payments
// (on-chain deposits, onramp); test funds come from sandbox self-credit.
// The two are kept apart: one balance column each, and every ledger row
// names the class it moved. Sandbox calls are paid from test funds only,
// live calls from real funds only, and switching modes never converts one
// into the other.
type Funds string

// The classes of funds.
const (
	FundsReal Funds = "real" // verified deposits; spent by live agents
	FundsTest Funds = "test" // sandbox self-credit; spent by sandbox agents only
)

// normal returns f with the empty class read as FundsReal, so that a zero
// Account never spends test money.
func (f Funds) normal() Funds {
	if f == FundsTest {
		return FundsTest
	}
	return FundsReal
}
