package billing

import (
	"context"
	"fmt"
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
	// Ceilings are the administrator's bounds on the owner's changes.
	Ceilings LimitCeilings
}

// LimitCeilings are an agent's ceilings as reported to clients (nil: no
// ceiling; empty AllowedOperations: no bound on the list).
type LimitCeilings struct {
	DailyLimit        *toolkit.Amount
	MonthlyLimit      *toolkit.Amount
	AllowedOperations []string
}

// SetLimits replaces the agent's spend caps on an administrator's behalf:
// any change is allowed. Caps must be positive with at most 6 decimals;
// allowed operations must be names from the price table.
func (s *Service) SetLimits(ctx context.Context, agentID string, in LimitsInput) (Limits, error) {
	return s.changeLimits(ctx, agentID, in, nil)
}

// TightenLimits replaces the agent's own spend caps, which may only
// tighten: a cap can be lowered or added, never raised or removed, and an
// allowed-operations list can only shrink. Loosening is toolkit.Forbidden
// naming the field: it takes an administrator (SetLimits).
func (s *Service) TightenLimits(ctx context.Context, agentID string, in LimitsInput) (Limits, error) {
	return s.changeLimits(ctx, agentID, in, tighterOnly)
}

// maxLimitRetries bounds the compare-and-swap retries of a limits change.
const maxLimitRetries = 5

// changeLimits validates in and writes it with a compare-and-swap on the
// stored version, checking allowed(current, next) against the version it
// replaces; a concurrent change makes it read and check again.
func (s *Service) changeLimits(ctx context.Context, agentID string, in LimitsInput, allowed func(cur, next SpendLimits) error) (Limits, error) {
	const op = "billing.SetLimits"
	next, err := s.parseLimits(in)
	if err != nil {
		return Limits{}, err
	}
	for attempt := 0; ; attempt++ {
		cur, err := s.store.SpendLimits(ctx, agentID)
		if err != nil {
			return Limits{}, toolkit.WithOp(op, err)
		}
		if allowed != nil {
			if err := allowed(cur, next); err != nil {
				return Limits{}, err
			}
		}
		next.Version, next.Ceilings = cur.Version, cur.Ceilings
		err = s.store.SetSpendLimits(ctx, agentID, next)
		if err == nil {
			return s.Limits(ctx, agentID)
		}
		if !toolkit.IsKind(err, toolkit.Conflict) || attempt == maxLimitRetries {
			return Limits{}, toolkit.WithOp(op, err)
		}
	}
}

// parseLimits checks a limits input and converts it to micro-USD.
func (s *Service) parseLimits(in LimitsInput) (SpendLimits, error) {
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
			return SpendLimits{}, toolkit.Errorf(toolkit.Invalid, "%s: must be a positive amount with at most 6 decimals (got %s)", c.field, c.v)
		}
		*c.dst = &m
	}
	if len(in.AllowedOperations) > MaxAllowedOperations {
		return SpendLimits{}, toolkit.Errorf(toolkit.Invalid, "allowed_operations: at most %d items", MaxAllowedOperations)
	}
	for i, op := range in.AllowedOperations {
		if _, ok := s.cfg.Prices[op]; !ok {
			return SpendLimits{}, toolkit.Errorf(toolkit.Invalid, "allowed_operations[%d]: unknown operation %q (priced operations: %v)",
				i, op, s.cfg.Prices.Operations())
		}
	}
	sl.AllowedOperations = slices.Compact(slices.Sorted(slices.Values(in.AllowedOperations)))
	return sl, nil
}

// loosened is the error of an agent's own change that would loosen a cap.
func loosened(field, now string) error {
	return toolkit.Errorf(toolkit.Forbidden,
		"%s: an agent can only tighten its own limits (now %s); raising or removing a limit takes an administrator "+
			"(PUT /v1/admin/agents/{agent_id}/limits)", field, now)
}

// tighterOnly allows next only if it is at least as strict as cur.
func tighterOnly(cur, next SpendLimits) error {
	for _, c := range []struct {
		field     string
		cur, next *int64
	}{{"daily_limit", cur.DailyMicros, next.DailyMicros}, {"monthly_limit", cur.MonthlyMicros, next.MonthlyMicros}} {
		if c.cur != nil && (c.next == nil || *c.next > *c.cur) {
			return loosened(c.field, "$"+USD(*c.cur).String())
		}
	}
	if len(cur.AllowedOperations) > 0 {
		if len(next.AllowedOperations) == 0 {
			return loosened("allowed_operations", fmt.Sprint(cur.AllowedOperations))
		}
		for _, op := range next.AllowedOperations {
			if !slices.Contains(cur.AllowedOperations, op) {
				return loosened("allowed_operations", fmt.Sprint(cur.AllowedOperations))
			}
		}
	}
	return nil
}

// Limits returns the agent's spend caps.
func (s *Service) Limits(ctx context.Context, agentID string) (Limits, error) {
	sl, err := s.store.SpendLimits(ctx, agentID)
	if err != nil {
		return Limits{}, toolkit.WithOp("billing.Limits", err)
	}
	return limitsOf(agentID, sl), nil
}

// limitsOf converts stored caps and ceilings for clients.
func limitsOf(agentID string, sl SpendLimits) Limits {
	return Limits{AgentID: agentID, DailyLimit: usdOrNil(sl.DailyMicros), MonthlyLimit: usdOrNil(sl.MonthlyMicros),
		AllowedOperations: nonNilOps(sl.AllowedOperations),
		Ceilings: LimitCeilings{DailyLimit: usdOrNil(sl.Ceilings.DailyMicros), MonthlyLimit: usdOrNil(sl.Ceilings.MonthlyMicros),
			AllowedOperations: nonNilOps(sl.Ceilings.AllowedOperations)}}
}

func usdOrNil(micros *int64) *toolkit.Amount {
	if micros == nil {
		return nil
	}
	a := USD(*micros)
	return &a
}

func nonNilOps(ops []string) []string {
	if ops == nil {
		return []string{}
	}
	return ops
}
