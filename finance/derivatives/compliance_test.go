package derivatives

import (
	"math/big"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// complianceBook: AAPL 18,550, MSFT 20,000, SPY 10,000 on 100,000 equity.
func complianceBook() ComplianceInput {
	return ComplianceInput{Equity: amt("100000"), Positions: []Holding{
		{Symbol: "AAPL", Quantity: amt("100"), Price: amt("185.50")},
		{Symbol: "msft", Quantity: amt("50"), Price: amt("400")},
		{Symbol: "SPY", Quantity: amt("-20"), Price: amt("500")},
	}}
}

// rules lists the rule and symbol of each finding.
func rules(fs []Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Rule+":"+f.Symbol)
	}
	return out
}

func TestCheckComplianceBook(t *testing.T) {
	in := complianceBook()
	in.MaxPositionWeight = pa("0.15")
	res, err := CheckCompliance(in, finance.AgentLimits{})
	require.NoError(t, err)
	assert.False(t, res.Compliant)
	assert.Equal(t, []string{"position_limit:AAPL", "position_limit:MSFT"}, rules(res.Violations))
	assert.Equal(t, []string{"hhi:"}, rules(res.Warnings))
	assertAmount(t, "0.1855", *res.Violations[0].Value)
	assertAmount(t, "48550", res.GrossExposure)
	assertAmount(t, "28550", res.NetExposure)
	assertAmount(t, "0.4855", res.GrossLeverage)
	assert.Equal(t, "MSFT", *res.LargestSymbol)
	assert.Equal(t, "MSFT", res.Positions[1].Symbol)
	// Independent HHI in exact rationals, rounded to 8 places.
	gross := big.NewRat(48550, 1)
	h := new(big.Rat)
	for _, e := range []int64{18550, 20000, 10000} {
		s := new(big.Rat).Quo(big.NewRat(e, 1), gross)
		h.Add(h, new(big.Rat).Mul(s, s))
	}
	assertAmount(t, h.FloatString(8), *res.HHI)
	assertAmount(t, new(big.Rat).Quo(big.NewRat(20000, 1), gross).FloatString(8), *res.LargestShare)
	assert.Equal(t, "input", res.MaxPositionSource)
}

func TestCheckComplianceAgentLimits(t *testing.T) {
	agent := finance.AgentLimits{MaxPositionSizePct: pa("25")} // a percent
	in := complianceBook()
	res, err := CheckCompliance(in, agent)
	require.NoError(t, err)
	assert.True(t, res.Compliant)
	assertAmount(t, "0.25", *res.MaxPositionWeight)
	assert.Equal(t, "agent", res.MaxPositionSource)

	in.MaxPositionWeight = pa("0.3")
	res, err = CheckCompliance(in, agent)
	require.NoError(t, err)
	assertAmount(t, "0.25", *res.MaxPositionWeight)
	assert.Equal(t, "input+agent", res.MaxPositionSource)

	in.MaxPositionWeight = pa("0.21")
	res, err = CheckCompliance(in, agent)
	require.NoError(t, err)
	assertAmount(t, "0.21", *res.MaxPositionWeight)
	assert.Equal(t, []string{"position_limit_near:MSFT", "hhi:"}, rules(res.Warnings))
}

func TestCheckComplianceTrades(t *testing.T) {
	cases := []struct {
		name       string
		edit       func(*ComplianceInput)
		agent      finance.AgentLimits
		compliant  bool
		violations []string
		warnings   []string
	}{
		{"buy above the position limit", func(c *ComplianceInput) {
			c.MaxPositionWeight = pa("0.2")
			c.ProposedTrade = &Holding{Symbol: "aapl", Quantity: amt("50"), Price: amt("190")}
		}, finance.AgentLimits{}, false, []string{"position_limit:AAPL"}, []string{"position_limit_near:MSFT", "hhi:"}},
		{"sell reducing an over-limit position is allowed", func(c *ComplianceInput) {
			c.MaxPositionWeight, c.MaxConcentrationShare = pa("0.05"), pa("0.4")
			c.ProposedTrade = &Holding{Symbol: "AAPL", Quantity: amt("-50"), Price: amt("185.50")}
		}, finance.AgentLimits{}, true, []string{},
			[]string{"position_limit:AAPL", "position_limit:MSFT", "position_limit:SPY", "concentration:MSFT", "hhi:"}},
		{"trade into an unauthorized symbol", func(c *ComplianceInput) {
			c.ProposedTrade = &Holding{Symbol: "TSLA", Quantity: amt("10"), Price: amt("200")}
		}, finance.AgentLimits{AuthorizedInstruments: []string{"aapl", "MSFT", "spy"}}, false,
			[]string{"unauthorized_instrument:TSLA"}, []string{"hhi:"}},
		{"closing an unauthorized holding is allowed", func(c *ComplianceInput) {
			c.ProposedTrade = &Holding{Symbol: "spy", Quantity: amt("20"), Price: amt("500")}
		}, finance.AgentLimits{AuthorizedInstruments: []string{"AAPL", "MSFT"}}, true,
			[]string{}, []string{"hhi:", "unauthorized_instrument:SPY"}},
		{"other unauthorized holdings only warn", func(c *ComplianceInput) {
			c.ProposedTrade = &Holding{Symbol: "AAPL", Quantity: amt("1"), Price: amt("185.50")}
		}, finance.AgentLimits{AuthorizedInstruments: []string{"AAPL", "MSFT"}}, true,
			[]string{}, []string{"hhi:", "unauthorized_instrument:SPY"}},
		{"restricted symbol trade", func(c *ComplianceInput) {
			c.RestrictedSymbols = []string{"Msft"}
			c.ProposedTrade = &Holding{Symbol: "MSFT", Quantity: amt("1"), Price: amt("400")}
		}, finance.AgentLimits{}, false, []string{"restricted_symbol:MSFT"}, []string{"hhi:"}},
		{"hhi limit breached by a concentrating buy", func(c *ComplianceInput) {
			c.MaxHHI = pa("0.36")
			c.ProposedTrade = &Holding{Symbol: "MSFT", Quantity: amt("10"), Price: amt("400")}
		}, finance.AgentLimits{}, false, []string{"hhi:"}, []string{}},
		{"diversifying buy under an hhi breach only warns", func(c *ComplianceInput) {
			c.MaxHHI = pa("0.3")
			c.ProposedTrade = &Holding{Symbol: "SPY", Quantity: amt("-1"), Price: amt("500")}
		}, finance.AgentLimits{}, true, []string{}, []string{"hhi:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := complianceBook()
			c.edit(&in)
			res, err := CheckCompliance(in, c.agent)
			require.NoError(t, err)
			assert.Equal(t, c.compliant, res.Compliant)
			assert.Equal(t, c.violations, rules(res.Violations))
			assert.Equal(t, c.warnings, rules(res.Warnings))
		})
	}
}

func TestCheckComplianceBookWithoutTradeViolatesScope(t *testing.T) {
	in := complianceBook()
	in.RestrictedSymbols = []string{"spy"}
	res, err := CheckCompliance(in, finance.AgentLimits{AuthorizedInstruments: []string{"AAPL", "MSFT"}})
	require.NoError(t, err)
	assert.False(t, res.Compliant)
	assert.Equal(t, []string{"restricted_symbol:SPY", "unauthorized_instrument:SPY"}, rules(res.Violations))
}

func TestCheckComplianceEmptyBookAfterTrade(t *testing.T) {
	res, err := CheckCompliance(ComplianceInput{Equity: amt("1000"),
		Positions:     []Holding{{Symbol: "AAPL", Quantity: amt("2"), Price: amt("100")}},
		ProposedTrade: &Holding{Symbol: "AAPL", Quantity: amt("-2"), Price: amt("101")}}, finance.AgentLimits{})
	require.NoError(t, err)
	assert.True(t, res.Compliant)
	assert.Nil(t, res.HHI)
	assert.Nil(t, res.LargestSymbol)
	assert.Nil(t, res.Positions[0].Share)
	assertAmount(t, "0", res.GrossExposure)
}

func TestCheckComplianceErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(*ComplianceInput)
		want string
	}{
		{"nothing to check", func(c *ComplianceInput) { c.Positions = nil }, "positions or proposed_trade is required"},
		{"equity", func(c *ComplianceInput) { c.Equity = amt("0") }, "equity: must be greater than 0"},
		{"duplicate", func(c *ComplianceInput) { c.Positions[2].Symbol = "Aapl" }, "positions[2].symbol: Aapl appears twice"},
		{"empty symbol", func(c *ComplianceInput) { c.Positions[0].Symbol = " " }, "positions[0].symbol: must not be empty"},
		{"price", func(c *ComplianceInput) { c.Positions[1].Price = amt("-4") }, "positions[1].price: must be greater than 0"},
		{"multiplier", func(c *ComplianceInput) { c.Positions[1].Multiplier = pa("0") }, "positions[1].multiplier: must be greater than 0"},
		{"limit as percent", func(c *ComplianceInput) { c.MaxPositionWeight = pa("5") }, "max_position_weight: must be a fraction in (0, 1] (0.02 means 2 %), got 5; if you meant 5 %, send 0.05"},
		{"hhi", func(c *ComplianceInput) { c.MaxHHI = pa("0") }, "max_hhi: must be a fraction greater than 0"},
		{"trade price", func(c *ComplianceInput) {
			c.ProposedTrade = &Holding{Symbol: "X", Quantity: amt("1"), Price: amt("0")}
		}, "proposed_trade.price: must be greater than 0"},
		{"trade multiplier", func(c *ComplianceInput) {
			c.ProposedTrade = &Holding{Symbol: "AAPL", Quantity: amt("1"), Price: amt("1"), Multiplier: pa("100")}
		}, "proposed_trade.multiplier: 100 differs from the held position's multiplier 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := complianceBook()
			c.edit(&in)
			_, err := CheckCompliance(in, finance.AgentLimits{})
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), c.want)
		})
	}
}
