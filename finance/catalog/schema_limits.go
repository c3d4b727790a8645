package catalog

import (
	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/google/jsonschema-go/jsonschema"
)

// Default bounds declared on every tool schema where the tool sets none,
// so every array and string a client sends has a published limit that the
// argument decoder enforces while scanning.
const (
	// MaxItems bounds every array argument (R-multiples, bars, trades);
	// the finance functions enforce the same bound for Go callers.
	MaxItems = limits.MaxItems
	// MaxTextLen bounds every free-text string argument (symbols, ids,
	// tags, dates) in characters.
	MaxTextLen = 256
)

// declareLimits adds maxItems to every array and maxLength to every string
// of s that has none: MaxItems, toolkit.MaxNumberLen for decimal strings,
// MaxTextLen for other text.
func declareLimits(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	switch {
	case hasType(s, "array") && s.MaxItems == nil:
		s.MaxItems = intp(MaxItems)
	case hasType(s, "string") && s.MaxLength == nil && len(s.Enum) == 0:
		if s.Pattern == toolkit.DecimalPattern {
			s.MaxLength = intp(toolkit.MaxNumberLen)
		} else {
			s.MaxLength = intp(MaxTextLen)
		}
	}
	for _, p := range s.Properties {
		declareLimits(p)
	}
	declareLimits(s.Items)
	declareLimits(s.AdditionalProperties)
	for _, d := range s.Defs {
		declareLimits(d)
	}
}

// hasType reports whether s admits the JSON type t.
func hasType(s *jsonschema.Schema, t string) bool {
	if s.Type == t {
		return true
	}
	for _, x := range s.Types {
		if x == t {
			return true
		}
	}
	return false
}
