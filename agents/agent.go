package agents

import (
	"slices"
	"time"

	"github.com/agentfinance/toolkit"
)

// Mode is an agent's operating mode.
type Mode string

// The modes. New agents start in ModeSandbox; ModeTerminated is final.
const (
	ModeSandbox    Mode = "sandbox"    // default testing mode
	ModeLive       Mode = "live"       // production mode; never places orders
	ModeSuspended  Mode = "suspended"  // temporarily disabled: every call gets 403
	ModeTerminated Mode = "terminated" // permanently deactivated: every call gets 403
)

// Modes lists every mode in the spec's order (a fresh slice).
func Modes() []Mode { return []Mode{ModeSandbox, ModeLive, ModeSuspended, ModeTerminated} }

// Type is an agent's declared purpose.
type Type string

// The agent types.
const (
	TypeTrading   Type = "trading"   // trading and investing workflow agents
	TypeAnalysis  Type = "analysis"  // research and analysis tools
	TypeRisk      Type = "risk"      // risk checks, compliance, audit trails
	TypeComposite Type = "composite" // combines several
)

// Types lists every agent type (a fresh slice).
func Types() []Type { return []Type{TypeTrading, TypeAnalysis, TypeRisk, TypeComposite} }

// Agent is a registered agent.
type Agent struct {
	ID          string
	OwnerID     string
	Name        string
	Type        Type
	Description *string
	Mode        Mode
	CreatedAt   time.Time

	// AuthorizedInstruments, when non-empty, scopes the symbols the agent
	// may trade (used by risk and compliance checks).
	AuthorizedInstruments []string
	// AuthorizedActions, when non-empty, whitelists the tools the agent may
	// call (by tool name, operation or category).
	AuthorizedActions []string
	// MaxPositionSizePct and MaxDailyLossPct are percents in (0, 100].
	MaxPositionSizePct *toolkit.Amount
	MaxDailyLossPct    *toolkit.Amount

	// KeyCreatedAt is when the current API key was issued; KeyUsedAt when
	// it last authenticated a request (to within KeyUseResolution; nil:
	// not used yet).
	KeyCreatedAt time.Time
	KeyUsedAt    *time.Time

	// PresaleBuyer is set by link-wallet when the linked wallet bought
	// the native token in its presale: the agent then pays 80 % of list
	// prices and gets the presale rate on native-token deposits.
	PresaleBuyer bool
}

// IsActive reports whether the agent may make calls (sandbox or live).
func (a Agent) IsActive() bool { return a.Mode == ModeSandbox || a.Mode == ModeLive }

// Clone returns a deep copy of a: its slices and pointers are its own, so
// a caller may change it without touching a (stores and caches hand out
// clones).
func (a Agent) Clone() Agent {
	a.Description = clonePtr(a.Description)
	a.AuthorizedInstruments = slices.Clone(a.AuthorizedInstruments)
	a.AuthorizedActions = slices.Clone(a.AuthorizedActions)
	a.MaxPositionSizePct = clonePtr(a.MaxPositionSizePct) // Amount is immutable: a value copy is deep
	a.MaxDailyLossPct = clonePtr(a.MaxDailyLossPct)
	a.KeyUsedAt = clonePtr(a.KeyUsedAt)
	return a
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
