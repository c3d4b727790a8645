package agents

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentfinance/toolkit"
)

// Field limits from the spec's Limits table, plus the project's own bounds
// for fields the spec leaves open.
const (
	MaxNameLen        = 100 // agent_name: 1 to 100 characters
	MaxDescriptionLen = 500 // description: up to 500 characters
	MaxOwnerIDLen     = 100 // owner_id: 1 to 100 characters (project bound)
	MaxListItems      = 100 // authorized_instruments / authorized_actions items
	MaxListItemLen    = 64  // each instrument or action
)

// RegisterInput is a registration request.
type RegisterInput struct {
	OwnerID               string
	AgentName             string
	AgentType             string
	Description           *string
	AuthorizedInstruments []string
	AuthorizedActions     []string
	MaxPositionSizePct    *toolkit.Amount
	MaxDailyLossPct       *toolkit.Amount
}

func invalid(format string, args ...any) error {
	return toolkit.Errorf(toolkit.Invalid, format, args...)
}

// validate checks in against the limits and returns the agent it describes
// (without id, mode or creation time).
func (in RegisterInput) validate() (Agent, error) {
	owner, err := NormalizeOwnerID(in.OwnerID)
	if err != nil {
		return Agent{}, err
	}
	if err := checkText("agent_name", in.AgentName, 1, MaxNameLen); err != nil {
		return Agent{}, err
	}
	typ, err := ParseType(in.AgentType)
	if err != nil {
		return Agent{}, err
	}
	if in.Description != nil {
		if n := utf8.RuneCountInString(*in.Description); n > MaxDescriptionLen {
			return Agent{}, invalid("description: at most %d characters (got %d)", MaxDescriptionLen, n)
		}
	}
	for _, l := range []struct {
		field string
		items []string
	}{{"authorized_instruments", in.AuthorizedInstruments}, {"authorized_actions", in.AuthorizedActions}} {
		if len(l.items) > MaxListItems {
			return Agent{}, invalid("%s: at most %d items", l.field, MaxListItems)
		}
		for i, s := range l.items {
			if err := checkText(l.field+"["+itoa(i)+"]", s, 1, MaxListItemLen); err != nil {
				return Agent{}, err
			}
		}
	}
	for _, p := range []struct {
		field string
		v     *toolkit.Amount
	}{{"max_position_size_pct", in.MaxPositionSizePct}, {"max_daily_loss_pct", in.MaxDailyLossPct}} {
		if p.v != nil && (p.v.Sign() <= 0 || p.v.Cmp(toolkit.AmountFromInt(100)) > 0) {
			return Agent{}, invalid("%s: must be a percent greater than 0 and at most 100 (got %s)", p.field, p.v)
		}
	}
	return Agent{
		OwnerID:               owner,
		Name:                  in.AgentName,
		Type:                  typ,
		Description:           in.Description,
		AuthorizedInstruments: in.AuthorizedInstruments,
		AuthorizedActions:     in.AuthorizedActions,
		MaxPositionSizePct:    in.MaxPositionSizePct,
		MaxDailyLossPct:       in.MaxDailyLossPct,
	}, nil
}

// checkText enforces a length in characters and forbids control characters
// and surrounding whitespace.
func checkText(field, s string, minLen, maxLen int) error {
	n := utf8.RuneCountInString(s)
	switch {
	case n < minLen:
		return invalid("%s: must be %d to %d characters (got %d)", field, minLen, maxLen, n)
	case n > maxLen:
		return invalid("%s: must be %d to %d characters (got %d)", field, minLen, maxLen, n)
	case !utf8.ValidString(s):
		return invalid("%s: must be valid UTF-8", field)
	case strings.TrimSpace(s) != s:
		return invalid("%s: must not start or end with whitespace", field)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return invalid("%s: must not contain control characters", field)
	}
	return nil
}

// ParseType parses an agent type, naming the allowed values on error.
func ParseType(s string) (Type, error) {
	for _, t := range Types() {
		if string(t) == s {
			return t, nil
		}
	}
	return "", invalid("agent_type: must be one of trading, analysis, risk, composite (got %q)", s)
}

// ParseMode parses a mode, naming the allowed values on error.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes() {
		if string(m) == s {
			return m, nil
		}
	}
	return "", invalid("mode: must be one of sandbox, live, suspended, terminated (got %q)", s)
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
