package catalog

import (
	"fmt"
	"strings"

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
	// MaxResultBytes is the largest encoded result a tool call answers
	// (16 MiB); a tool whose result grows with an input array caps that
	// array so its largest accepted input answers within it.
	MaxResultBytes = 16 << 20
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

// Caps of the inputs a tool's answer grows with: each tool answers its
// largest accepted input within MaxResultBytes (a test runs every one at
// its cap with the longest-answering items), so an input over the cap is
// refused with 413 while it is scanned, before any work.
const (
	// MaxGreeksChain bounds analyze_greeks' chain: an option answers up to
	// about 1,000 bytes (a note instead of the greeks is the longest).
	MaxGreeksChain = 15_000
	// MaxCurveContracts bounds analyze_futures_curve's contracts: a
	// contract and its pair answer up to about 860 bytes.
	MaxCurveContracts = 15_000
	// MaxMarginPositions bounds calculate_margin's positions (about 440
	// bytes each).
	MaxMarginPositions = 30_000
	// MaxCompliancePositions bounds check_compliance's positions (about
	// 300 bytes each, a violation included).
	MaxCompliancePositions = 40_000
	// MaxDrawdownTrades bounds the trades of the tools listing drawdown
	// episodes (analyze_drawdown, analyze_recovery, assess_trading_system):
	// an episode every second trade answers about 165 bytes a trade.
	MaxDrawdownTrades = 80_000
	// MaxSymbolLen bounds the symbols the derivatives tools echo in their
	// answers (OCC option symbols have 21 characters).
	MaxSymbolLen = 32
)

// inputCap is a cap on one input: an array's items or a string's length.
// path names it from the arguments: "chain", "chain[].symbol".
type inputCap struct {
	path  string
	limit int
}

// resultCaps lists, per tool, the caps that keep its answer within
// MaxResultBytes.
var resultCaps = map[string][]inputCap{
	"analyze_greeks": {{"chain", MaxGreeksChain},
		{"chain[].symbol", MaxSymbolLen}, {"chain[].underlying_symbol", MaxSymbolLen}},
	"analyze_futures_curve": {{"contracts", MaxCurveContracts}, {"contracts[].symbol", MaxSymbolLen}},
	"calculate_margin":      {{"positions", MaxMarginPositions}, {"positions[].symbol", MaxSymbolLen}},
	"check_compliance": {{"positions", MaxCompliancePositions}, {"positions[].symbol", MaxSymbolLen},
		{"proposed_trade.symbol", MaxSymbolLen}, {"restricted_symbols", MaxCompliancePositions}, {"restricted_symbols[]", MaxSymbolLen}},
	"analyze_drawdown":      {{"r_multiples", MaxDrawdownTrades}, {"equity_values", MaxDrawdownTrades}},
	"analyze_recovery":      {{"r_multiples", MaxDrawdownTrades}},
	"assess_trading_system": {{"r_multiples", MaxDrawdownTrades}, {"pnl_values", MaxDrawdownTrades}},
}

// capResults applies the tool's resultCaps to its input schema s. A path
// that names nothing is a programming error.
func capResults(tool string, s *jsonschema.Schema) {
	for _, c := range resultCaps[tool] {
		p := s
		for _, step := range strings.Split(c.path, ".") {
			name, items := strings.CutSuffix(step, "[]")
			if name != "" {
				p = p.Properties[name]
			}
			if p != nil && items {
				p = p.Items
			}
			if p == nil {
				panic(fmt.Sprintf("catalog: %s has no input %s", tool, c.path))
			}
		}
		if hasType(p, "array") {
			p.MaxItems = intp(c.limit)
		} else {
			p.MaxLength = intp(c.limit)
		}
	}
}
