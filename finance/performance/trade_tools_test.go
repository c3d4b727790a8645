package performance

import (
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func amountPtr(s string) *toolkit.Amount { a := toolkit.MustParseAmount(s); return &a }
func floatPtr(v float64) *float64        { return &v }

func TestCalculatePnL(t *testing.T) {
	cases := []struct {
		name                                      string
		in                                        PnLInput
		gross, net, oneR, r, grossR, ret, outcome string
	}{
		{"long with stop and fees", PnLInput{*amountPtr("100.50"), *amountPtr("103.25"), 100, "long", amountPtr("99.00"), amountPtr("2.10")},
			"275.00", "272.90", "150.00", "1.819333", "1.833333", "2.715423", OutcomeWin},
		{"short loss", PnLInput{*amountPtr("50"), *amountPtr("51.5"), 10, "Short", amountPtr("52"), nil},
			"-15.0", "-15.0", "20", "-0.75", "-0.75", "-3", OutcomeLoss},
		{"breakeven without stop", PnLInput{*amountPtr("0.1"), *amountPtr("0.1"), 3, "LONG", nil, nil},
			"0.0", "0.0", "", "", "", "0", OutcomeBreakeven},
		{"fees turn a win into a loss", PnLInput{*amountPtr("10"), *amountPtr("10.01"), 100, "LONG", nil, amountPtr("1.5")},
			"1.00", "-0.50", "", "", "", "-0.05", OutcomeLoss},
	}
	for _, c := range cases {
		res, err := CalculatePnL(c.in)
		require.NoError(t, err, c.name)
		// Compare as decimals (trailing zeros do not matter).
		eq := func(want string, got toolkit.Amount) {
			assert.Zero(t, toolkit.MustParseAmount(want).Cmp(got), "%s: want %s got %s", c.name, want, got)
		}
		eq(c.gross, res.GrossPnL)
		eq(c.net, res.NetPnL)
		eq(c.ret, res.ReturnPct)
		assert.Equal(t, c.outcome, res.Outcome, c.name)
		if c.oneR == "" {
			assert.Nil(t, res.RMultiple, c.name)
			continue
		}
		eq(c.oneR, *res.OneRDollars)
		eq(c.r, *res.RMultiple)
		eq(c.grossR, *res.GrossRMultiple)
	}
}

func TestCalculatePnLIsExact(t *testing.T) {
	// 0.1 + 0.2 style inputs stay exact: (0.3 - 0.1) × 3 = 0.6 exactly, written as money (two decimals).
	res, err := CalculatePnL(PnLInput{EntryPrice: *amountPtr("0.1"), ExitPrice: *amountPtr("0.3"), Quantity: 3, Direction: "long"})
	require.NoError(t, err)
	assert.Equal(t, "0.60", res.GrossPnL.String())
}

func TestCalculatePnLBadInput(t *testing.T) {
	ok := PnLInput{EntryPrice: *amountPtr("10"), ExitPrice: *amountPtr("11"), Quantity: 1, Direction: "LONG"}
	mod := func(f func(*PnLInput)) PnLInput { in := ok; f(&in); return in }
	for _, c := range []struct {
		in  PnLInput
		msg string
	}{
		{mod(func(p *PnLInput) { p.Direction = "up" }), `direction: must be "long" or "short" (any letter case), got "up"`},
		{mod(func(p *PnLInput) { p.Direction = "" }), "direction:"},
		{mod(func(p *PnLInput) { p.EntryPrice = *amountPtr("0") }), "entry_price: must be greater than 0"},
		{mod(func(p *PnLInput) { p.ExitPrice = *amountPtr("-1") }), "exit_price: must be greater than 0"},
		{mod(func(p *PnLInput) { p.Quantity = 0 }), "quantity: must be at least 1"},
		{mod(func(p *PnLInput) { p.Fees = amountPtr("-0.01") }), "fees: must not be negative"},
		{mod(func(p *PnLInput) { p.StopPrice = amountPtr("10") }), "stop_price: must be below entry_price"},
		{mod(func(p *PnLInput) { p.Direction = "short"; p.StopPrice = amountPtr("9") }), "stop_price: must be above entry_price"},
		{mod(func(p *PnLInput) { p.StopPrice = amountPtr("0") }), "stop_price: must be greater than 0"},
	} {
		_, err := CalculatePnL(c.in)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}

func TestExpectedValueForms(t *testing.T) {
	res, err := CalculateExpectedValue(ExpectedValueInput{WinRate: floatPtr(0.45), AvgWin: floatPtr(2.1), AvgLoss: floatPtr(-1)})
	require.NoError(t, err)
	assertRel(t, 0.45*2.1-0.55*1, float64(res.ExpectedValue), 1e-15)
	assertRel(t, 2.1, float64(*res.PayoffRatio), 1e-15)
	assertRel(t, 1/3.1, float64(*res.BreakevenWinRate), 1e-15)
	assert.Equal(t, EdgePositive, res.Edge)
	assert.Equal(t, EVFromParameters, res.Method)

	// From R: EV = p·W - q·L = mean(R), with breakevens in n.
	r := append([]float64{0, 0}, normalR(61, 300, 0.05, 1)...)
	res, err = CalculateExpectedValue(ExpectedValueInput{RMultiples: r})
	require.NoError(t, err)
	var sum float64
	for _, x := range r {
		sum += x
	}
	assertRel(t, sum/float64(len(r)), float64(res.ExpectedValue), 1e-12)
	decomposed := float64(res.WinRate)*float64(res.AverageWin) - float64(res.LossRate)*float64(res.AverageLoss)
	assertRel(t, decomposed, float64(res.ExpectedValue), 1e-12)
	assertRel(t, 2.0/302, float64(res.BreakevenRate), 1e-15)
	assert.Equal(t, 302, res.TradeCount)

	res, err = CalculateExpectedValue(ExpectedValueInput{WinRate: floatPtr(0.5), AvgWin: floatPtr(1), AvgLoss: floatPtr(1)})
	require.NoError(t, err)
	assert.Equal(t, EdgeNone, res.Edge)
	res, err = CalculateExpectedValue(ExpectedValueInput{WinRate: floatPtr(1), AvgWin: floatPtr(0), AvgLoss: floatPtr(0)})
	require.NoError(t, err)
	assert.Nil(t, res.PayoffRatio)
	assert.Nil(t, res.BreakevenWinRate)
}

func TestExpectedValueBadInput(t *testing.T) {
	for _, c := range []struct {
		in  ExpectedValueInput
		msg string
	}{
		{ExpectedValueInput{}, "win_rate: is required unless r_multiples"},
		{ExpectedValueInput{WinRate: floatPtr(0.5), AvgWin: floatPtr(1)}, "avg_loss: is required"},
		{ExpectedValueInput{WinRate: floatPtr(0.5), AvgLoss: floatPtr(1)}, "avg_win: is required"},
		{ExpectedValueInput{WinRate: floatPtr(1.5), AvgWin: floatPtr(1), AvgLoss: floatPtr(1)}, "win_rate: must be a fraction between 0 and 1"},
		{ExpectedValueInput{WinRate: floatPtr(0.5), AvgWin: floatPtr(-1), AvgLoss: floatPtr(1)}, "avg_win: must be a finite number >= 0"},
		{ExpectedValueInput{WinRate: floatPtr(0.5), AvgWin: floatPtr(1), AvgLoss: floatPtr(math.NaN())}, "avg_loss: must be a finite"},
		{ExpectedValueInput{WinRate: floatPtr(0.5), RMultiples: []float64{1, 2}}, "r_multiples: give either"},
		{ExpectedValueInput{RMultiples: []float64{1}}, "r_multiples: needs at least 2"},
	} {
		_, err := CalculateExpectedValue(c.in)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}

func TestAnalyzeTradeOutcome(t *testing.T) {
	res, err := AnalyzeTradeOutcome(TradeOutcomeInput{
		RealizedPnL: *amountPtr("250"), RealizedR: 2.5, MFE: *amountPtr("400"), OneRDollars: *amountPtr("100"), ExpectedValueR: floatPtr(0.5),
	})
	require.NoError(t, err)
	assert.Equal(t, OutcomeWin, res.Outcome)
	assertRel(t, 4, float64(res.MFER), 1e-15)
	assertRel(t, 62.5, float64(*res.EfficiencyScore), 1e-15)
	assertRel(t, 0.625, float64(*res.EdgeCaptured), 1e-15)
	assertRel(t, 1.5, float64(res.LeftOnTableR), 1e-15)
	assertRel(t, 5, float64(*res.ExpectationAccuracy), 1e-15)
	assertRel(t, 2, float64(*res.ExpectationGapR), 1e-15)
	assert.Empty(t, res.Warnings)

	res, err = AnalyzeTradeOutcome(TradeOutcomeInput{
		RealizedPnL: *amountPtr("-100"), RealizedR: -1, MFE: *amountPtr("50"), OneRDollars: *amountPtr("100"),
	})
	require.NoError(t, err)
	assert.Equal(t, OutcomeLoss, res.Outcome)
	assert.Equal(t, toolkit.Float(0), *res.EfficiencyScore) // clamped at 0
	assertRel(t, -2, float64(*res.EdgeCaptured), 1e-15)
	assert.Nil(t, res.ExpectationAccuracy)

	res, err = AnalyzeTradeOutcome(TradeOutcomeInput{RealizedPnL: *amountPtr("0.00"), MFE: *amountPtr("0"), OneRDollars: *amountPtr("1"), ExpectedValueR: floatPtr(0)})
	require.NoError(t, err)
	assert.Equal(t, OutcomeBreakeven, res.Outcome)
	assert.Nil(t, res.EfficiencyScore)
	assert.Nil(t, res.ExpectationAccuracy)
	assert.Len(t, res.Warnings, 2)

	res, err = AnalyzeTradeOutcome(TradeOutcomeInput{RealizedPnL: *amountPtr("300"), RealizedR: 2, MFE: *amountPtr("200"), OneRDollars: *amountPtr("100")})
	require.NoError(t, err)
	assert.Len(t, res.Warnings, 2) // pnl above mfe; R disagrees with pnl/1R
	assert.Equal(t, toolkit.Float(100), *res.EfficiencyScore)
}

func TestAnalyzeTradeOutcomeBadInput(t *testing.T) {
	ok := TradeOutcomeInput{RealizedPnL: *amountPtr("1"), RealizedR: 1, MFE: *amountPtr("2"), OneRDollars: *amountPtr("1")}
	mod := func(f func(*TradeOutcomeInput)) TradeOutcomeInput { in := ok; f(&in); return in }
	for _, c := range []struct {
		in  TradeOutcomeInput
		msg string
	}{
		{mod(func(p *TradeOutcomeInput) { p.OneRDollars = *amountPtr("0") }), "one_r_dollars: must be greater than 0"},
		{mod(func(p *TradeOutcomeInput) { p.MFE = *amountPtr("-1") }), "mfe: must not be negative"},
		{mod(func(p *TradeOutcomeInput) { p.RealizedR = math.Inf(1) }), "realized_r: must be a finite"},
		{mod(func(p *TradeOutcomeInput) { p.ExpectedValueR = floatPtr(math.NaN()) }), "expected_value_r: must be a finite"},
	} {
		_, err := AnalyzeTradeOutcome(c.in)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}

func TestScoreSignal(t *testing.T) {
	res, err := ScoreSignal(SignalInput{ConditionsMet: 4, TotalConditions: 5, RegimeAligned: true, IndicatorConfluence: 2, RiskRewardRatio: floatPtr(2.5)})
	require.NoError(t, err)
	conf := 50*0.8 + 20 + 15*2.0/3
	assertRel(t, conf, float64(res.Confidence), 1e-12)
	assertRel(t, 0.75*conf+25*2.5/3, float64(res.QualityScore), 1e-12)
	assert.Equal(t, "HIGH", res.Quality)

	best, err := ScoreSignal(SignalInput{ConditionsMet: 3, TotalConditions: 3, RegimeAligned: true, IndicatorConfluence: 9, VolumeConfirmed: true, RiskRewardRatio: floatPtr(10)})
	require.NoError(t, err)
	assert.Equal(t, toolkit.Float(100), best.Confidence)
	assert.Equal(t, toolkit.Float(100), best.QualityScore)

	worst, err := ScoreSignal(SignalInput{TotalConditions: 1})
	require.NoError(t, err)
	assert.Equal(t, toolkit.Float(0), worst.QualityScore)
	assert.Equal(t, "LOW", worst.Quality)
	assert.Len(t, worst.Warnings, 1)

	mid, err := ScoreSignal(SignalInput{ConditionsMet: 1, TotalConditions: 2, RegimeAligned: true, VolumeConfirmed: true, RiskRewardRatio: floatPtr(1.8)})
	require.NoError(t, err)
	assert.Equal(t, "MEDIUM", mid.Quality) // 0.75·60 + 15 = 60
}

func TestScoreSignalBadInput(t *testing.T) {
	for _, c := range []struct {
		in  SignalInput
		msg string
	}{
		{SignalInput{TotalConditions: 0}, "total_conditions: must be at least 1"},
		{SignalInput{ConditionsMet: 3, TotalConditions: 2}, "conditions_met: must be between 0 and total_conditions (2)"},
		{SignalInput{ConditionsMet: -1, TotalConditions: 2}, "conditions_met:"},
		{SignalInput{TotalConditions: 2, IndicatorConfluence: -1}, "indicator_confluence: must not be negative"},
		{SignalInput{TotalConditions: 2, RiskRewardRatio: floatPtr(-1)}, "risk_reward_ratio: must be a finite number >= 0"},
	} {
		_, err := ScoreSignal(c.in)
		require.Error(t, err)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
