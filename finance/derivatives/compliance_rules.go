package derivatives

import (
	"fmt"

	"github.com/agentfinance/toolkit"
)

// checker applies the compliance rules to the books before and after the
// proposed trade.
type checker struct {
	res       *ComplianceResult
	trade     bool   // a proposed trade was given
	traded    string // its canonical symbol
	increases bool   // the trade increases the traded symbol's exposure
	pre, post book
	equity    toolkit.Amount
}

// add records a finding: a violation when blocking, else a warning.
func (c *checker) add(blocking bool, f Finding) {
	if blocking {
		c.res.Violations = append(c.res.Violations, f)
	} else {
		c.res.Warnings = append(c.res.Warnings, f)
	}
}

// worsens reports whether a breach blocks: always without a trade; with
// one, only when the trade increases its symbol's exposure and raises the
// figure (a trade that reduces exposure never blocks).
func (c *checker) worsens(before, after toolkit.Amount) bool {
	return !c.trade || (c.increases && after.Cmp(before) > 0)
}

// describe fills the exposure figures of the post-trade book.
func (c *checker) describe() {
	b, r := c.post, c.res
	r.GrossExposure, r.NetExposure = b.gross, b.net
	r.GrossLeverage = ratio(b.gross, c.equity)
	r.Positions = make([]Exposure, len(b.order))
	for i, s := range b.order {
		e := Exposure{Symbol: s, Quantity: b.qty[s], Exposure: b.expo[s], Weight: ratio(b.expo[s], c.equity)}
		if !b.gross.IsZero() {
			e.Share = ptr(ratio(b.expo[s], b.gross))
		}
		r.Positions[i] = e
	}
	if s, share, ok := b.largest(); ok {
		r.LargestSymbol, r.LargestShare = &s, ptr(reduce(roundSafe(share, ratioPlaces, toolkit.RoundHalfEven)))
	}
	if h, ok := b.hhi(); ok {
		r.HHI = ptr(reduce(roundSafe(h, ratioPlaces, toolkit.RoundHalfEven)))
	}
}

// positionLimits checks every symbol's exposure / equity against the limit.
func (c *checker) positionLimits() {
	limit := c.res.MaxPositionWeight
	if limit == nil {
		return
	}
	// Compare exposure with limit × equity (exact, no division); the
	// weight is divided out only for a finding.
	capAmt := limit.Mul(c.equity)
	nearAmt := capAmt.Mul(nearLimit)
	for _, s := range c.post.order {
		e := c.post.expo[s]
		switch {
		case e.Cmp(capAmt) > 0:
			rw := ratio(e, c.equity)
			blocking := c.worsens(c.pre.expo[s], e) && (!c.trade || s == c.traded)
			c.add(blocking, Finding{Rule: RulePositionLimit, Symbol: s, Value: &rw, Limit: limit,
				Message: fmt.Sprintf("%s exposure is %s of equity, above the limit %s", s, rw, *limit)})
		case e.Cmp(nearAmt) > 0:
			rw := ratio(e, c.equity)
			c.add(false, Finding{Rule: RulePositionNearLimit, Symbol: s, Value: &rw, Limit: limit,
				Message: fmt.Sprintf("%s exposure is %s of equity, above 90 %% of the limit %s", s, rw, *limit)})
		}
	}
}

// concentration checks the largest share and the HHI.
func (c *checker) concentration(maxShare, maxHHI *toolkit.Amount) {
	s, share, ok := c.post.largest()
	if !ok {
		return
	}
	_, preShare, _ := c.pre.largest()
	if maxShare != nil && share.Cmp(*maxShare) > 0 {
		v := reduce(roundSafe(share, ratioPlaces, toolkit.RoundHalfEven))
		c.add(c.worsens(preShare, share), Finding{Rule: RuleConcentration, Symbol: s, Value: &v, Limit: maxShare,
			Message: fmt.Sprintf("%s is %s of gross exposure, above the limit %s", s, v, *maxShare)})
	}
	h, _ := c.post.hhi()
	preH, _ := c.pre.hhi()
	v := reduce(roundSafe(h, ratioPlaces, toolkit.RoundHalfEven))
	switch {
	case maxHHI != nil && h.Cmp(*maxHHI) > 0:
		c.add(c.worsens(preH, h), Finding{Rule: RuleHHI, Value: &v, Limit: maxHHI,
			Message: fmt.Sprintf("Herfindahl index %s is above the limit %s", v, *maxHHI)})
	case maxHHI == nil && h.Cmp(HighHHI) > 0:
		c.add(false, Finding{Rule: RuleHHI, Value: &v, Limit: &HighHHI,
			Message: fmt.Sprintf("Herfindahl index %s is above 0.25: the book is highly concentrated", v)})
	}
}

// scope checks restricted symbols and the agent's authorized instruments.
func (c *checker) scope(restricted, authorized []string) {
	deny := map[string]bool{}
	for _, s := range restricted {
		deny[canonical(s)] = true
	}
	allow := map[string]bool{}
	for _, s := range authorized {
		allow[canonical(s)] = true
	}
	for _, s := range c.post.order {
		// The traded symbol is checked even when the trade closes it.
		held := !c.post.expo[s].IsZero() || !c.pre.expo[s].IsZero()
		if !held && s != c.traded {
			continue
		}
		blocking := !c.trade || (s == c.traded && c.increases)
		what := "held"
		if s == c.traded {
			what = "traded"
			if !blocking {
				what = "traded (reducing exposure, allowed)"
			}
		}
		if deny[s] {
			c.add(blocking, Finding{Rule: RuleRestricted, Symbol: s,
				Message: fmt.Sprintf("%s is a restricted symbol and is %s", s, what)})
		}
		if len(allow) > 0 && !allow[s] {
			c.add(blocking, Finding{Rule: RuleUnauthorized, Symbol: s,
				Message: fmt.Sprintf("%s is not among the agent's authorized instruments and is %s", s, what)})
		}
	}
}
