package billing

import (
	"context"

	"github.com/agentfinance/toolkit"
)

// Summary is an agent's money at a glance: both balances, its spend in the
// current UTC day and month (whichever funds paid, as the caps count it)
// and its caps (without ceilings).
type Summary struct {
	AgentID        string
	Balance        toolkit.Amount // real funds
	SandboxBalance toolkit.Amount // test funds
	SpentToday     toolkit.Amount
	SpentMonth     toolkit.Amount
	Limits         Limits
}

// Summary reads an agent's summary in one store query.
func (s *Service) Summary(ctx context.Context, agentID string) (Summary, error) {
	now := s.cfg.Now()
	c, err := s.store.ChargeCheck(ctx, agentID, utcDayStart(now), utcMonthStart(now))
	if err != nil {
		return Summary{}, toolkit.WithOp("billing.Summary", err)
	}
	limits := c.Limits
	limits.Ceilings = Ceilings{}
	return Summary{AgentID: agentID, Balance: USD(c.Balance.Micros), SandboxBalance: USD(c.Balance.TestMicros),
		SpentToday: USD(c.SpentDay), SpentMonth: USD(c.SpentMonth), Limits: limitsOf(agentID, limits)}, nil
}

// SandboxSelfCredit reports whether sandbox agents may credit themselves
// test funds (Config.SandboxSelfCredit).
func (s *Service) SandboxSelfCredit() bool { return s.cfg.SandboxSelfCredit }
