// Package owners is what the owner of agents sees and changes across
// them, with the owner key: every agent with its balances, spend, limits
// and key times; usage per day and operation; the ledger of all agents;
// and changes to limits (within the administrator's ceilings), modes and
// agent keys.
//
// It composes agents.Service and billing.Service and changes nothing
// itself: each change goes through the method of those services that
// makes that change for agents and administrators, so what those methods
// do on a change (security events, invalidating cached agents) happens
// for the owner's changes too. An agent of another owner is
// toolkit.NotFound, as an unknown one.
package owners

import (
	"context"
	"slices"
	"time"

	"strings"

	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

// Service answers an owner's requests.
type Service struct {
	agents  *agents.Service
	billing *billing.Service
	now     func() time.Time
}

// New returns a Service over the agents and billing services; now is the
// clock of the default usage range (nil: time.Now).
func New(ag *agents.Service, bill *billing.Service, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{agents: ag, billing: bill, now: now}
}

// AgentView is one agent as its owner sees it.
type AgentView struct {
	Agent   agents.Agent
	Summary billing.Summary
}

// Agents returns every agent of the owner, oldest first, with balances,
// spend and limits.
func (s *Service) Agents(ctx context.Context, owner agents.Owner) ([]AgentView, error) {
	list, err := s.agents.OwnerAgents(ctx, owner)
	if err != nil {
		return nil, err
	}
	out := make([]AgentView, len(list))
	for i, a := range list {
		if out[i].Summary, err = s.billing.Summary(ctx, a.ID); err != nil {
			return nil, err
		}
		out[i].Agent = a
	}
	return out, nil
}

// Agent returns one agent of the owner with its summary; its Limits carry
// the ceilings too.
func (s *Service) Agent(ctx context.Context, owner agents.Owner, agentID string) (AgentView, error) {
	a, err := s.agents.OwnerAgent(ctx, owner, agentID)
	if err != nil {
		return AgentView{}, err
	}
	sum, err := s.billing.Summary(ctx, a.ID)
	if err != nil {
		return AgentView{}, err
	}
	if sum.Limits, err = s.billing.Limits(ctx, a.ID); err != nil {
		return AgentView{}, err
	}
	return AgentView{Agent: a, Summary: sum}, nil
}

// DefaultUsageDays is the usage range when a query names no dates: the
// last 30 days, today included.
const DefaultUsageDays = 30

// UsageQuery selects an owner's usage. Zero fields take defaults.
type UsageQuery struct {
	// AgentID, when set, keeps one agent's usage (it must be the owner's).
	AgentID string
	// From and To are the first and last UTC day (default: the 30 days
	// ending today, or ending To, or starting From).
	From, To time.Time
	// ByAgent keeps one row per agent; otherwise rows are summed over the
	// agents and carry no AgentID.
	ByAgent bool
}

// Usage returns the owner's consumption per UTC day and operation (and
// agent, with ByAgent) in the query's range, ordered by day.
func (s *Service) Usage(ctx context.Context, owner agents.Owner, q UsageQuery) ([]billing.DailyUsage, error) {
	ids, err := s.agentIDs(ctx, owner, q.AgentID)
	if err != nil {
		return nil, err
	}
	from, to := UsageRange(q.From, q.To, s.now())
	rows, err := s.billing.DailyUsage(ctx, ids, from, to)
	if err != nil || q.ByAgent {
		return rows, err
	}
	return sumOverAgents(rows), nil
}

// UsageRange fills the missing ends of a usage range: DefaultUsageDays
// days ending today (or ending to, or starting from).
func UsageRange(from, to, now time.Time) (time.Time, time.Time) {
	span := (DefaultUsageDays - 1) * 24 * time.Hour
	switch {
	case from.IsZero() && to.IsZero():
		to = now.UTC()
		from = to.Add(-span)
	case from.IsZero():
		from = to.Add(-span)
	case to.IsZero():
		to = from.Add(span)
	}
	return from, to
}

// sumOverAgents merges rows of the same day and operation (rows come
// ordered by day).
func sumOverAgents(rows []billing.DailyUsage) []billing.DailyUsage {
	out := []billing.DailyUsage{}
	for _, r := range rows {
		r.AgentID = ""
		i := slices.IndexFunc(out, func(o billing.DailyUsage) bool { return o.Day.Equal(r.Day) && o.Operation == r.Operation })
		if i < 0 {
			out = append(out, r)
			continue
		}
		out[i].Count += r.Count
		out[i].TotalMicros += r.TotalMicros
	}
	slices.SortStableFunc(out, func(a, b billing.DailyUsage) int {
		if c := a.Day.Compare(b.Day); c != 0 {
			return c
		}
		return strings.Compare(a.Operation, b.Operation)
	})
	return out
}

// Transactions returns a page of the owner's ledger across agents (or of
// one agent with agentID), newest first.
func (s *Service) Transactions(ctx context.Context, owner agents.Owner, agentID string, limit int, cursor string) (billing.TransactionPage, error) {
	ids, err := s.agentIDs(ctx, owner, agentID)
	if err != nil {
		return billing.TransactionPage{}, err
	}
	return s.billing.TransactionsOf(ctx, ids, limit, cursor)
}

// agentIDs are the owner's agent ids, or the one given after checking it
// is the owner's.
func (s *Service) agentIDs(ctx context.Context, owner agents.Owner, agentID string) ([]string, error) {
	if agentID != "" {
		a, err := s.agents.OwnerAgent(ctx, owner, agentID)
		return []string{a.ID}, err
	}
	list, err := s.agents.OwnerAgents(ctx, owner)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(list))
	for i, a := range list {
		ids[i] = a.ID
	}
	return ids, nil
}

// SetLimits replaces one agent's spend caps, within its ceilings.
func (s *Service) SetLimits(ctx context.Context, owner agents.Owner, agentID string, in billing.LimitsInput) (billing.Limits, error) {
	if _, err := s.agents.OwnerAgent(ctx, owner, agentID); err != nil {
		return billing.Limits{}, err
	}
	return s.billing.OwnerSetLimits(ctx, agentID, in)
}

// SetMode suspends, resumes or terminates one of the owner's agents.
func (s *Service) SetMode(ctx context.Context, owner agents.Owner, agentID, mode string) (agents.Agent, error) {
	return s.agents.OwnerSetMode(ctx, owner, agentID, mode)
}

// RotateAgentKey issues a new API key for one of the owner's agents,
// returned only this once.
func (s *Service) RotateAgentKey(ctx context.Context, owner agents.Owner, agentID string) (string, error) {
	return s.agents.OwnerRotateKey(ctx, owner, agentID)
}
