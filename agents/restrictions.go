package agents

import (
	"slices"

	"github.com/agentfinance/toolkit"
)

// inheritRestrictions makes a registers with the key of parent, an agent
// of the same owner, at least as restricted as parent: a restriction the
// request leaves out is inherited, and one the request sets may narrow the
// parent's but never widen it (toolkit.Forbidden naming the field). The
// parent's spend caps are copied by the store (Registration.LimitsFrom).
func inheritRestrictions(a *Agent, parent Agent) error {
	for _, l := range []struct {
		field         string
		child, parent *[]string
	}{
		{"authorized_actions", &a.AuthorizedActions, &parent.AuthorizedActions},
		{"authorized_instruments", &a.AuthorizedInstruments, &parent.AuthorizedInstruments},
	} {
		if len(*l.parent) == 0 {
			continue
		}
		if len(*l.child) == 0 {
			*l.child = slices.Clone(*l.parent)
			continue
		}
		for _, x := range *l.child {
			if !slices.Contains(*l.parent, x) {
				return widened(l.field, x)
			}
		}
	}
	for _, p := range []struct {
		field         string
		child, parent **toolkit.Amount
	}{
		{"max_position_size_pct", &a.MaxPositionSizePct, &parent.MaxPositionSizePct},
		{"max_daily_loss_pct", &a.MaxDailyLossPct, &parent.MaxDailyLossPct},
	} {
		switch {
		case *p.parent == nil:
		case *p.child == nil:
			v := **p.parent
			*p.child = &v
		case (*p.child).Cmp(**p.parent) > 0:
			return widened(p.field, (*p.child).String())
		}
	}
	return nil
}

func widened(field, value string) error {
	return toolkit.Errorf(toolkit.Forbidden,
		"%s: an agent registered with another agent's key cannot be less restricted than that agent (%s is not allowed to it)", field, value)
}
