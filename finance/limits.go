package finance

import "github.com/agentfinance/toolkit"

// AgentLimits are the per-agent trading limits recorded at registration.
// They feed the risk check and compliance rules. A nil percentage or an
// empty instrument list means "no limit".
type AgentLimits struct {
	// MaxPositionSizePct caps a position's notional as a percent of equity
	// (a percent, e.g. 5 means 5 %), in (0, 100].
	MaxPositionSizePct *toolkit.Amount
	// MaxDailyLossPct caps the day's loss as a percent of equity, in (0, 100].
	MaxDailyLossPct *toolkit.Amount
	// AuthorizedInstruments, when non-empty, lists the only symbols the
	// agent may trade (compared case-insensitively).
	AuthorizedInstruments []string
}
