package derivatives

import (
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/internal/money"
)

// The compliance rules.
const (
	RulePositionLimit     = "position_limit"          // exposure / equity above max_position_weight
	RulePositionNearLimit = "position_limit_near"     // above 90 % of the limit (warning only)
	RuleConcentration     = "concentration"           // largest share of gross exposure above max_concentration_share
	RuleHHI               = "hhi"                     // Herfindahl index above max_hhi, or above 0.25 without one (warning)
	RuleUnauthorized      = "unauthorized_instrument" // symbol outside the agent's authorized_instruments
	RuleRestricted        = "restricted_symbol"       // symbol in restricted_symbols
)

// HighHHI is the Herfindahl–Hirschman index above which a book is
// "highly concentrated" (0.25, the 2,500-point threshold of the 2010 US
// merger guidelines); it raises a warning when no max_hhi is given.
var HighHHI = toolkit.MustParseAmount("0.25")

// nearLimit is the share of max_position_weight above which a warning is given.
var nearLimit = toolkit.MustParseAmount("0.9")

// Holding is a position or a proposed trade. Quantity is signed: positive
// long (a buy for a trade), negative short (a sell).
type Holding struct {
	Symbol   string         `json:"symbol"`
	Quantity toolkit.Amount `json:"quantity"`
	Price    toolkit.Amount `json:"price"`
	// Multiplier is the units per contract; nil means 1.
	Multiplier *toolkit.Amount `json:"multiplier,omitempty"`
}

// ComplianceInput are the inputs of CheckCompliance. Limits are fractions.
type ComplianceInput struct {
	Equity        toolkit.Amount `json:"equity"`
	Positions     []Holding      `json:"positions,omitempty"`
	ProposedTrade *Holding       `json:"proposed_trade,omitempty"`
	// MaxPositionWeight caps each symbol's |exposure| / equity; combined with
	// the agent's max_position_size_pct (a percent) by taking the smaller.
	MaxPositionWeight *toolkit.Amount `json:"max_position_weight,omitempty"`
	// MaxConcentrationShare caps the largest symbol's share of gross exposure.
	MaxConcentrationShare *toolkit.Amount `json:"max_concentration_share,omitempty"`
	// MaxHHI caps the Herfindahl index of the exposure shares, in (0, 1].
	MaxHHI *toolkit.Amount `json:"max_hhi,omitempty"`
	// RestrictedSymbols may not be traded or held (case-insensitive).
	RestrictedSymbols []string `json:"restricted_symbols,omitempty"`
}

// Finding is one violation or warning.
type Finding struct {
	Rule    string          `json:"rule"`
	Symbol  string          `json:"symbol,omitempty"`
	Value   *toolkit.Amount `json:"value,omitempty"`
	Limit   *toolkit.Amount `json:"limit,omitempty"`
	Message string          `json:"message"`
}

// Exposure is one symbol of the checked book.
type Exposure struct {
	Symbol   string         `json:"symbol"` // upper-cased
	Quantity toolkit.Amount `json:"quantity"`
	Exposure toolkit.Amount `json:"exposure"` // |quantity| × price × multiplier
	Weight   toolkit.Amount `json:"weight"`   // exposure / equity
	// Share is exposure / gross exposure (null when the book is empty).
	Share *toolkit.Amount `json:"share"`
}

// ComplianceResult is the result of CheckCompliance. The figures describe
// the book after the proposed trade (the current book without one).
type ComplianceResult struct {
	Compliant     bool           `json:"compliant"`
	Violations    []Finding      `json:"violations"`
	Warnings      []Finding      `json:"warnings"`
	Equity        toolkit.Amount `json:"equity"`
	Positions     []Exposure     `json:"positions"`
	GrossExposure toolkit.Amount `json:"gross_exposure"`
	NetExposure   toolkit.Amount `json:"net_exposure"` // signed sum
	GrossLeverage toolkit.Amount `json:"gross_leverage"`
	// LargestSymbol and LargestShare name the biggest exposure (null for an empty book).
	LargestSymbol *string         `json:"largest_symbol"`
	LargestShare  *toolkit.Amount `json:"largest_share"`
	HHI           *toolkit.Amount `json:"hhi"`
	// MaxPositionWeight is the limit applied (null: none); its source is
	// input, agent, input+agent or none.
	MaxPositionWeight *toolkit.Amount `json:"max_position_weight"`
	MaxPositionSource string          `json:"max_position_source"`
}

// CheckCompliance checks a book, or a proposed trade against a book, for
// position limits, concentration (largest share, HHI) and restricted
// symbols (restricted_symbols and, when the agent has any, symbols outside
// its authorized_instruments; compared case-insensitively).
//
// Without a proposed trade every breach is a violation. With one, a breach
// is a violation only when the trade increases the traded symbol's
// exposure and makes that breach worse (the symbol's own weight or scope,
// the largest share, the HHI); every other breach is a warning, so a trade
// that reduces exposure is never blocked.
func CheckCompliance(in ComplianceInput, limits finance.AgentLimits) (*ComplianceResult, error) {
	pre, err := buildBook(in)
	if err != nil {
		return nil, err
	}
	post := pre
	traded := ""
	if in.ProposedTrade != nil {
		if post, err = pre.with(*in.ProposedTrade); err != nil {
			return nil, err
		}
		traded = canonical(in.ProposedTrade.Symbol)
	}
	res := &ComplianceResult{Equity: in.Equity, Violations: []Finding{}, Warnings: []Finding{}}
	if err := applyPositionLimit(in, limits, res); err != nil {
		return nil, err
	}
	c := checker{res: res, trade: in.ProposedTrade != nil, traded: traded, pre: pre, post: post, equity: in.Equity,
		increases: post.expo[traded].Cmp(pre.expo[traded]) > 0}
	c.describe()
	c.positionLimits()
	c.concentration(in.MaxConcentrationShare, in.MaxHHI)
	c.scope(in.RestrictedSymbols, limits.AuthorizedInstruments)
	res.Compliant = len(res.Violations) == 0
	money.Fields(&res.Equity, &res.GrossExposure, &res.NetExposure)
	for i := range res.Positions {
		money.Fields(&res.Positions[i].Exposure)
	}
	return res, nil
}

// applyPositionLimit validates the fractional limits and combines
// max_position_weight with the agent's percent limit.
func applyPositionLimit(in ComplianceInput, limits finance.AgentLimits, res *ComplianceResult) error {
	for _, f := range []struct {
		name string
		v    *toolkit.Amount
	}{{"max_position_weight", in.MaxPositionWeight}, {"max_concentration_share", in.MaxConcentrationShare}, {"max_hhi", in.MaxHHI}} {
		if f.v != nil {
			if err := fraction(f.name, *f.v); err != nil {
				return err
			}
		}
	}
	res.MaxPositionSource = "none"
	if in.MaxPositionWeight != nil {
		res.MaxPositionWeight, res.MaxPositionSource = in.MaxPositionWeight, "input"
	}
	if p := limits.MaxPositionSizePct; p != nil && p.Sign() > 0 {
		agent := quo(*p, toolkit.AmountFromInt(100))
		switch {
		case res.MaxPositionWeight == nil:
			res.MaxPositionWeight, res.MaxPositionSource = &agent, "agent"
		default:
			res.MaxPositionWeight, res.MaxPositionSource = ptr(minAmount(*res.MaxPositionWeight, agent)), "input+agent"
		}
	}
	return nil
}

// book is a set of exposures by canonical symbol, in input order.
type book struct {
	order  []string
	qty    map[string]toolkit.Amount
	price  map[string]toolkit.Amount
	mult   map[string]toolkit.Amount
	expo   map[string]toolkit.Amount
	gross  toolkit.Amount
	net    toolkit.Amount
	sumSq  toolkit.Amount
	equity toolkit.Amount
}

// buildBook validates the equity and positions and builds the current book.
func buildBook(in ComplianceInput) (book, error) {
	if err := positive("equity", in.Equity); err != nil {
		return book{}, err
	}
	if len(in.Positions) == 0 && in.ProposedTrade == nil {
		return book{}, toolkit.Errorf(toolkit.Invalid, "positions or proposed_trade is required")
	}
	if err := tooMany("positions", len(in.Positions)); err != nil {
		return book{}, err
	}
	b := book{qty: map[string]toolkit.Amount{}, price: map[string]toolkit.Amount{}, mult: map[string]toolkit.Amount{},
		expo: map[string]toolkit.Amount{}, equity: in.Equity}
	for i, h := range in.Positions {
		field := fmt.Sprintf("positions[%d]", i)
		if err := checkHolding(field, h); err != nil {
			return book{}, err
		}
		s := canonical(h.Symbol)
		if _, dup := b.qty[s]; dup {
			return book{}, invalid(field+".symbol", "%s appears twice (symbols are compared case-insensitively); merge the positions", h.Symbol)
		}
		b.order = append(b.order, s)
		b.qty[s], b.price[s], b.mult[s] = h.Quantity, h.Price, multiplierOf(h)
	}
	b.total()
	return b, nil
}

// checkHolding validates one holding.
func checkHolding(field string, h Holding) error {
	if canonical(h.Symbol) == "" {
		return invalid(field+".symbol", "must not be empty")
	}
	if err := positive(field+".price", h.Price); err != nil {
		return err
	}
	if h.Multiplier != nil {
		return positive(field+".multiplier", *h.Multiplier)
	}
	return nil
}

// multiplierOf returns the holding's multiplier (default 1).
func multiplierOf(h Holding) toolkit.Amount {
	if h.Multiplier != nil {
		return *h.Multiplier
	}
	return one
}

// total recomputes the exposures and sums.
func (b *book) total() {
	b.gross, b.net, b.sumSq = zero, zero, zero
	for _, s := range b.order {
		signed := mul(b.qty[s], b.price[s], b.mult[s])
		e := signed.Abs()
		b.expo[s] = e
		b.gross, b.net, b.sumSq = b.gross.Add(e), b.net.Add(signed), b.sumSq.Add(e.Mul(e))
	}
}

// with returns a copy of b after the trade t, marking the traded symbol at
// the trade price.
func (b book) with(t Holding) (book, error) {
	if err := checkHolding("proposed_trade", t); err != nil {
		return book{}, err
	}
	s := canonical(t.Symbol)
	n := book{order: append([]string(nil), b.order...), qty: clone(b.qty), price: clone(b.price), mult: clone(b.mult),
		expo: map[string]toolkit.Amount{}, equity: b.equity}
	m := multiplierOf(t)
	if old, ok := n.qty[s]; ok {
		if n.mult[s].Cmp(m) != 0 {
			return book{}, invalid("proposed_trade.multiplier", "%s differs from the held position's multiplier %s", m, n.mult[s])
		}
		n.qty[s] = old.Add(t.Quantity)
	} else {
		n.order = append(n.order, s)
		n.qty[s] = t.Quantity
	}
	n.price[s], n.mult[s] = t.Price, m
	n.total()
	return n, nil
}

// clone copies a map.
func clone(m map[string]toolkit.Amount) map[string]toolkit.Amount {
	out := make(map[string]toolkit.Amount, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// largest returns the symbol with the largest exposure (first on ties) and
// its share of gross; ok is false for an empty book.
func (b book) largest() (string, toolkit.Amount, bool) {
	if b.gross.IsZero() {
		return "", zero, false
	}
	best := b.order[0]
	for _, s := range b.order[1:] {
		if b.expo[s].Cmp(b.expo[best]) > 0 {
			best = s
		}
	}
	share, _ := b.expo[best].Quo(b.gross)
	return best, share, true
}

// hhi returns Σ share² = Σ e² / gross²; ok is false for an empty book.
func (b book) hhi() (toolkit.Amount, bool) {
	if b.gross.IsZero() {
		return zero, false
	}
	h, _ := b.sumSq.Quo(b.gross.Mul(b.gross))
	return h, true
}
