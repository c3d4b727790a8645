package billing

import (
	"context"
	"fmt"
	"slices"

	"github.com/agentfinance/toolkit"
)

// Three parties change an agent's spend caps, each through its own
// method and all through one compare-and-swap (changeLimits):
//
//   - the agent itself may only tighten them (TightenLimits);
//   - its owner may raise or lower them within the administrator's
//     ceilings (OwnerSetLimits);
//   - an administrator may set anything (SetLimits) and sets the
//     ceilings (SetCeilings).

// OwnerSetLimits replaces the agent's spend caps on its owner's behalf:
// they may go up or down, and be removed, as long as they stay within the
// agent's ceilings when the administrator set some (a cap above its
// ceiling, or removed under one, is toolkit.Forbidden naming the field).
func (s *Service) OwnerSetLimits(ctx context.Context, agentID string, in LimitsInput) (Limits, error) {
	return s.changeLimits(ctx, agentID, in, withinCeilings)
}

// Ceilings returns the agent's caps and ceilings (the same as Limits).
func (s *Service) Ceilings(ctx context.Context, agentID string) (Limits, error) {
	return s.Limits(ctx, agentID)
}

// SetCeilings replaces the agent's ceilings on an administrator's behalf
// (nil amounts and an empty list remove a ceiling). Caps above a new
// ceiling come down to it in the same write, and a missing cap becomes the
// ceiling, so the agent is never looser than its ceilings; an allowed-
// operations list is narrowed to the ceiling's operations
// (toolkit.Conflict when none of them would remain).
func (s *Service) SetCeilings(ctx context.Context, agentID string, in LimitsInput) (Limits, error) {
	const op = "billing.SetCeilings"
	parsed, err := s.parseLimits(in)
	if err != nil {
		return Limits{}, err
	}
	ceilings := Ceilings{DailyMicros: parsed.DailyMicros, MonthlyMicros: parsed.MonthlyMicros, AllowedOperations: parsed.AllowedOperations}
	for attempt := 0; ; attempt++ {
		cur, err := s.store.SpendLimits(ctx, agentID)
		if err != nil {
			return Limits{}, toolkit.WithOp(op, err)
		}
		next, err := clampToCeilings(cur, ceilings)
		if err != nil {
			return Limits{}, err
		}
		err = s.store.SetSpendLimits(ctx, agentID, next)
		if err == nil {
			return s.Limits(ctx, agentID)
		}
		if !toolkit.IsKind(err, toolkit.Conflict) || attempt == maxLimitRetries {
			return Limits{}, toolkit.WithOp(op, err)
		}
	}
}

// clampToCeilings returns cur with ceilings c, its caps brought within them.
func clampToCeilings(cur SpendLimits, c Ceilings) (SpendLimits, error) {
	next := cur
	next.Ceilings = c
	next.DailyMicros = minCap(cur.DailyMicros, c.DailyMicros)
	next.MonthlyMicros = minCap(cur.MonthlyMicros, c.MonthlyMicros)
	if len(c.AllowedOperations) > 0 {
		if len(cur.AllowedOperations) == 0 {
			next.AllowedOperations = slices.Clone(c.AllowedOperations)
		} else {
			next.AllowedOperations = slices.DeleteFunc(slices.Clone(cur.AllowedOperations), func(op string) bool {
				return !slices.Contains(c.AllowedOperations, op)
			})
			if len(next.AllowedOperations) == 0 {
				return SpendLimits{}, toolkit.Errorf(toolkit.Conflict,
					"allowed_operations: none of the agent's allowed operations %v is in the ceiling %v; set the agent's limits first (PUT /v1/admin/agents/{agent_id}/limits)",
					cur.AllowedOperations, c.AllowedOperations)
			}
		}
	}
	return next, nil
}

// minCap is the stricter of a cap and its ceiling (nil: none).
func minCap(limit, ceiling *int64) *int64 {
	switch {
	case ceiling == nil:
		return limit
	case limit == nil || *limit > *ceiling:
		v := *ceiling
		return &v
	}
	return limit
}

// withinCeilings allows next only within cur's ceilings.
func withinCeilings(cur, next SpendLimits) error {
	for _, c := range []struct {
		field         string
		ceiling, next *int64
	}{{"daily_limit", cur.Ceilings.DailyMicros, next.DailyMicros}, {"monthly_limit", cur.Ceilings.MonthlyMicros, next.MonthlyMicros}} {
		if c.ceiling != nil && (c.next == nil || *c.next > *c.ceiling) {
			return aboveCeiling(c.field, "$"+USD(*c.ceiling).String())
		}
	}
	if ops := cur.Ceilings.AllowedOperations; len(ops) > 0 {
		if len(next.AllowedOperations) == 0 {
			return aboveCeiling("allowed_operations", fmt.Sprint(ops))
		}
		for _, op := range next.AllowedOperations {
			if !slices.Contains(ops, op) {
				return aboveCeiling("allowed_operations", fmt.Sprint(ops))
			}
		}
	}
	return nil
}

// aboveCeiling is the error of an owner's change beyond a ceiling.
func aboveCeiling(field, ceiling string) error {
	return toolkit.Errorf(toolkit.Forbidden,
		"%s: the operator's ceiling for this agent is %s; an owner can set limits within it, and raising the ceiling takes an administrator "+
			"(PUT /v1/admin/agents/{agent_id}/ceilings)", field, ceiling)
}
