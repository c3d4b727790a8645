package finance

import (
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// riskBase is a long of 100 shares at 100 with a 95 stop on 100000 equity:
// risk 500 (0.5 %), position 10000 (10 %), stop distance 5 %.
func riskBase() RiskInput {
	return RiskInput{Symbol: "AAPL", Direction: "long", EntryPrice: amt("100"), StopPrice: amt("95"),
		Quantity: amt("100"), Equity: amt("100000")}
}

func ruleOf(t *testing.T, rc RiskCheck, name string) RiskRuleResult {
	t.Helper()
	for _, c := range rc.Checks {
		if c.Rule == name {
			return c
		}
	}
	t.Fatalf("rule %s missing", name)
	return RiskRuleResult{}
}

func TestRiskCleanTradeScores100(t *testing.T) {
	rc, err := CheckTradeRisk(riskBase(), AgentLimits{})
	require.NoError(t, err)
	assert.True(t, rc.Approved)
	assert.Equal(t, 100, rc.Score)
	assert.Empty(t, rc.Errors)
	assert.Empty(t, rc.Warnings)
	assert.Len(t, rc.Checks, 7)
	assert.Equal(t, "500.00", rc.RiskAmount.String())
	assert.Equal(t, toolkit.Float(0.005), rc.RiskPercent)
	assert.Equal(t, "10000.00", rc.PositionValue.String())
	assert.Equal(t, toolkit.Float(10), rc.PositionPct)
	assert.Equal(t, "default", rc.PositionLimitSource)
	assert.Equal(t, "100", rc.MaxPositionSizePct.String())
	assert.Equal(t, "5", rc.MaxDailyLossPct.String())
	assert.Equal(t, toolkit.Float(0), rc.DailyLossPct)
	assert.Equal(t, toolkit.Float(0.5), rc.ProjectedDailyLossPct)
}

// TestRiskRuleBoundaries checks each threshold on both sides.
func TestRiskRuleBoundaries(t *testing.T) {
	five, ten := amtPtr("5"), amtPtr("10")
	cases := []struct {
		name      string
		modify    func(*RiskInput)
		limits    AgentLimits
		rule      string
		status    string
		deduction int
	}{
		{"risk exactly 1%", func(in *RiskInput) { in.Quantity = amt("200") }, AgentLimits{}, "per_trade_risk", RulePass, 0},
		{"risk just above 1%", func(in *RiskInput) { in.Quantity = amt("200.01") }, AgentLimits{}, "per_trade_risk", RulePass, 10},
		{"risk exactly 2%", func(in *RiskInput) { in.Quantity = amt("400") }, AgentLimits{}, "per_trade_risk", RulePass, 10},
		{"risk just above 2%", func(in *RiskInput) { in.Quantity = amt("400.01") }, AgentLimits{}, "per_trade_risk", RuleWarn, 30},
		{"risk exactly 5%", func(in *RiskInput) { in.Quantity = amt("1000") }, AgentLimits{}, "per_trade_risk", RuleWarn, 30},
		{"risk just above 5%", func(in *RiskInput) { in.Quantity = amt("1000.01") }, AgentLimits{}, "per_trade_risk", RuleBlock, 60},
		{"position at 80% of agent limit", func(in *RiskInput) { in.Quantity = amt("80") }, AgentLimits{MaxPositionSizePct: ten}, "position_size", RulePass, 0},
		{"position above 80% of limit", func(in *RiskInput) { in.Quantity = amt("80.01") }, AgentLimits{MaxPositionSizePct: ten}, "position_size", RuleWarn, 15},
		{"position at agent limit", func(in *RiskInput) { in.Quantity = amt("100") }, AgentLimits{MaxPositionSizePct: ten}, "position_size", RuleWarn, 15},
		{"position above agent limit", func(in *RiskInput) { in.Quantity = amt("100.01") }, AgentLimits{MaxPositionSizePct: ten}, "position_size", RuleBlock, 40},
		{"position above default 100%", func(in *RiskInput) { in.Quantity = amt("1000.01"); in.StopPrice = amt("99.9") }, AgentLimits{}, "position_size", RuleBlock, 40},
		{"daily loss below limit", func(in *RiskInput) { in.DailyPnL = amtPtr("-4499.99") }, AgentLimits{MaxDailyLossPct: five}, "daily_loss", RulePass, 0},
		{"projected loss at limit", func(in *RiskInput) { in.DailyPnL = amtPtr("-4500") }, AgentLimits{MaxDailyLossPct: five}, "daily_loss", RulePass, 0},
		{"projected loss above limit", func(in *RiskInput) { in.DailyPnL = amtPtr("-4500.01") }, AgentLimits{MaxDailyLossPct: five}, "daily_loss", RuleWarn, 20},
		{"daily loss at limit", func(in *RiskInput) { in.DailyPnL = amtPtr("-5000") }, AgentLimits{MaxDailyLossPct: five}, "daily_loss", RuleBlock, 50},
		{"daily profit", func(in *RiskInput) { in.DailyPnL = amtPtr("8000") }, AgentLimits{}, "daily_loss", RulePass, 0},
		{"default daily limit 5%", func(in *RiskInput) { in.DailyPnL = amtPtr("-5000") }, AgentLimits{}, "daily_loss", RuleBlock, 50},
		{"stop distance 0.1%", func(in *RiskInput) { in.StopPrice = amt("99.9") }, AgentLimits{}, "stop_distance", RulePass, 0},
		{"stop distance under 0.1%", func(in *RiskInput) { in.StopPrice = amt("99.91") }, AgentLimits{}, "stop_distance", RuleWarn, 5},
		{"stop distance 25%", func(in *RiskInput) { in.StopPrice = amt("75"); in.Quantity = amt("1") }, AgentLimits{}, "stop_distance", RulePass, 0},
		{"stop distance over 25%", func(in *RiskInput) { in.StopPrice = amt("74.99"); in.Quantity = amt("1") }, AgentLimits{}, "stop_distance", RuleWarn, 5},
		{"stop equals entry", func(in *RiskInput) { in.StopPrice = amt("100") }, AgentLimits{}, "stop_placement", RuleBlock, 50},
		{"long stop above entry", func(in *RiskInput) { in.StopPrice = amt("101") }, AgentLimits{}, "stop_placement", RuleBlock, 50},
		{"short stop above entry", func(in *RiskInput) { in.Direction = "SHORT"; in.StopPrice = amt("105") }, AgentLimits{}, "stop_placement", RulePass, 0},
		{"short stop below entry", func(in *RiskInput) { in.Direction = "short" }, AgentLimits{}, "stop_placement", RuleBlock, 50},
		{"quantity zero", func(in *RiskInput) { in.Quantity = amt("0") }, AgentLimits{}, "quantity", RuleBlock, 50},
		{"authorized (case-insensitive)", func(in *RiskInput) { in.Symbol = "aapl" }, AgentLimits{AuthorizedInstruments: []string{"MSFT", "AAPL"}}, "instrument", RulePass, 0},
		{"not authorized", func(in *RiskInput) { in.Symbol = "TSLA" }, AgentLimits{AuthorizedInstruments: []string{"MSFT", "AAPL"}}, "instrument", RuleBlock, 50},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := riskBase()
			tc.modify(&in)
			rc, err := CheckTradeRisk(in, tc.limits)
			require.NoError(t, err)
			r := ruleOf(t, rc, tc.rule)
			assert.Equal(t, tc.status, r.Status, r.Detail)
			assert.Equal(t, tc.deduction, r.Deduction, r.Detail)
			if tc.status == RuleBlock {
				assert.False(t, rc.Approved)
				assert.Contains(t, rc.Errors, r.Detail)
			}
			if tc.status == RuleWarn {
				assert.Contains(t, rc.Warnings, r.Detail)
			}
			// the score is always re-derivable from the checks
			sum := 0
			for _, c := range rc.Checks {
				sum += c.Deduction
			}
			assert.Equal(t, max(0, 100-sum), rc.Score)
			assert.Equal(t, len(rc.Errors) == 0, rc.Approved)
		})
	}
}

func TestRiskScoreClampsAtZero(t *testing.T) {
	in := riskBase()
	in.StopPrice = amt("101")     // wrong side: -50
	in.Quantity = amt("100000")   // risk 100 %: -60, position 10000 %: -40
	in.DailyPnL = amtPtr("-6000") // -50
	in.Symbol = "TSLA"            // -50
	rc, err := CheckTradeRisk(in, AgentLimits{AuthorizedInstruments: []string{"AAPL"}})
	require.NoError(t, err)
	assert.Equal(t, 0, rc.Score)
	assert.False(t, rc.Approved)
	assert.Len(t, rc.Errors, 5)
}

func TestRiskInvalidInput(t *testing.T) {
	bad := amtPtr("0")
	over := amtPtr("100.5")
	cases := []struct {
		name   string
		modify func(*RiskInput)
		limits AgentLimits
		want   string
	}{
		{"blank symbol", func(in *RiskInput) { in.Symbol = "  " }, AgentLimits{}, "symbol: must not be empty"},
		{"direction", func(in *RiskInput) { in.Direction = "buy" }, AgentLimits{}, "direction: must be"},
		{"entry", func(in *RiskInput) { in.EntryPrice = amt("0") }, AgentLimits{}, "entry_price: must be greater than 0"},
		{"stop", func(in *RiskInput) { in.StopPrice = amt("-1") }, AgentLimits{}, "stop_price: must be greater than 0"},
		{"equity", func(in *RiskInput) { in.Equity = amt("0") }, AgentLimits{}, "equity: must be greater than 0"},
		{"quantity", func(in *RiskInput) { in.Quantity = amt("-1") }, AgentLimits{}, "quantity: must not be negative"},
		{"position limit 0", func(*RiskInput) {}, AgentLimits{MaxPositionSizePct: bad}, "max_position_size_pct: agent limit must be a percent in (0, 100]"},
		{"daily limit over 100", func(*RiskInput) {}, AgentLimits{MaxDailyLossPct: over}, "max_daily_loss_pct: agent limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := riskBase()
			tc.modify(&in)
			_, err := CheckTradeRisk(in, tc.limits)
			require.Error(t, err)
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
			assert.Contains(t, toolkit.MessageOf(err), tc.want)
		})
	}
}

func TestRiskPublishedExampleIsApproved(t *testing.T) {
	rc, err := CheckTradeRisk(RiskInput{Symbol: "AAPL", Direction: "long", EntryPrice: amt("185.50"),
		StopPrice: amt("180.00"), Quantity: amt("363"), Equity: amt("100000"), DailyPnL: amtPtr("0")}, AgentLimits{})
	require.NoError(t, err)
	assert.True(t, rc.Approved)
	assert.Equal(t, 90, rc.Score) // risk 1.9965 % is above the 1 % nominal: -10
	assert.Equal(t, "1996.50", rc.RiskAmount.String())
	assert.Equal(t, toolkit.Float(0.019965), rc.RiskPercent)
	assert.Equal(t, toolkit.Float(67.3365), rc.PositionPct)
}

func TestRiskThresholdConstants(t *testing.T) {
	// the float thresholds passed to cmpPct must equal the decimal ones
	assert.Equal(t, 0, perTradeRiskNominal.Mul(hundred).Cmp(amt("1")))
}
