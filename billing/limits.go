package billing

import (
	"context"
	"slices"

	"github.com/agentfinance/toolkit"
)

// Bounds of an allowed-operations list.
const (
	MaxAllowedOperations = 64
	MaxOperationLen      = 64
)

// LimitsInput sets an agent's spend caps. Nil amounts remove a cap; an
// empty AllowedOperations allows every operation.
type LimitsInput struct {
	DailyLimit        *toolkit.Amount
	MonthlyLimit      *toolkit.Amount
	AllowedOperations []string
}

// Limits is an agent's spend caps as reported to clients.
type Limits struct {
	AgentID           string
	DailyLimit        *toolkit.Amount
	MonthlyLimit      *toolkit.Amount
	AllowedOperations []string
}

// SetLimits replaces the agent's spend caps. Caps must be positive with at
// most 6 decimals; allowed operations must be names from the price table.
func (s *Service) SetLimits(ctx context.Context, agentID string, in LimitsInput) (Limits, error) {
	var sl SpendLimits
	for _, c := range []struct {
		field string
		v     *toolkit.Amount
		dst   **int64
	}{{"daily_limit", in.DailyLimit, &sl.DailyMicros}, {"monthly_limit", in.MonthlyLimit, &sl.MonthlyMicros}} {
		if c.v == nil {
			continue
		}
		m, err := c.v.Micros()
		if err != nil || m <= 0 {
			return Limits{}, toolkit.Errorf(toolkit.Invalid, "%s: must be a positive amount with at most 6 decimals (got %s)", c.field, c.v)
		}
		*c.dst = &m
	}
	if len(in.AllowedOperations) > MaxAllowedOperations {
		return Limits{}, toolkit.Errorf(toolkit.Invalid, "allowed_operations: at most %d items", MaxAllowedOperations)
	}
	for i, op := range in.AllowedOperations {
		if _, ok := s.cfg.Prices[op]; !ok {
			return Limits{}, toolkit.Errorf(toolkit.Invalid, "allowed_operations[%d]: unknown operation %q (priced operations: %v)",
				i, op, s.cfg.Prices.Operations())
		}
	}
	sl.AllowedOperations = slices.Compact(slices.Sorted(slices.Values(in.AllowedOperations)))
	if err := s.store.SetSpendLimits(ctx, agentID, sl); err != nil {
		return Limits{}, toolkit.WithOp("billing.SetLimits", err)
	}
	return s.Limits(ctx, agentID)
}

// Limits returns the agent's spend caps.
func (s *Service) Limits(ctx context.Context, agentID string) (Limits, error) {
	sl, err := s.store.SpendLimits(ctx, agentID)
	if err != nil {
		return Limits{}, toolkit.WithOp("billing.Limits", err)
	}
	out := Limits{AgentID: agentID, AllowedOperations: sl.AllowedOperations}
	if sl.DailyMicros != nil {
		a := USD(*sl.DailyMicros)
		out.DailyLimit = &a
	}
	if sl.MonthlyMicros != nil {
		a := USD(*sl.MonthlyMicros)
		out.MonthlyLimit = &a
	}
	if out.AllowedOperations == nil {
		out.AllowedOperations = []string{}
	}
	return out, nil
}
