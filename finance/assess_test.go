package finance

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/canceltest"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// normalR draws n values from N(mean, sd) with a fixed seed.
func normalR(seed uint64, n int, mean, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 99))
	r := make([]float64, n)
	for i := range r {
		r[i] = mean + sd*rng.NormFloat64()
	}
	return r
}

func TestSystemVerdictBoundaries(t *testing.T) {
	f := func(v float64) *toolkit.Float { x := toolkit.Float(v); return &x }
	base := func() Assessment {
		var a Assessment
		a.GMetrics = GMetrics{ExpectedR: 0.3, TradeCount: 30, SQNCapped: f(2.5), GrowthAtRisk: f(0.002)}
		a.MonteCarlo.Probability20pctDrawdown = 0.10
		a.MonteCarlo.Probability50pctDrawdown = 0.05
		return a
	}
	cases := []struct {
		name   string
		modify func(*Assessment)
		want   string
	}{
		{"strong at every boundary", func(*Assessment) {}, VerdictStrongSystem},
		{"29 trades is not strong", func(a *Assessment) { a.GMetrics.TradeCount = 29 }, VerdictViableSystem},
		{"sqn below 2.5", func(a *Assessment) { a.GMetrics.SQNCapped = f(2.4999) }, VerdictViableSystem},
		{"p20 above 0.10", func(a *Assessment) { a.MonteCarlo.Probability20pctDrawdown = 0.1001 }, VerdictViableSystem},
		{"viable at sqn 1.6", func(a *Assessment) { a.GMetrics.SQNCapped = f(1.6) }, VerdictViableSystem},
		{"sqn below 1.6", func(a *Assessment) { a.GMetrics.SQNCapped = f(1.5999) }, VerdictMarginalSystem},
		{"p50 above 0.05", func(a *Assessment) { a.GMetrics.SQNCapped = f(2); a.MonteCarlo.Probability50pctDrawdown = 0.0501 }, VerdictMarginalSystem},
		{"p50 at 0.25", func(a *Assessment) {
			a.MonteCarlo.Probability20pctDrawdown, a.MonteCarlo.Probability50pctDrawdown = 0.5, 0.25
		}, VerdictMarginalSystem},
		{"p50 above 0.25", func(a *Assessment) {
			a.MonteCarlo.Probability20pctDrawdown, a.MonteCarlo.Probability50pctDrawdown = 0.5, 0.2501
		}, VerdictFailingSystem},
		{"mean 0", func(a *Assessment) { a.GMetrics.ExpectedR = 0 }, VerdictFailingSystem},
		{"growth <= 0", func(a *Assessment) { a.GMetrics.GrowthAtRisk = f(0) }, VerdictFailingSystem},
		{"ruinous trade (growth null)", func(a *Assessment) { a.GMetrics.GrowthAtRisk = nil }, VerdictFailingSystem},
		{"all R equal and positive", func(a *Assessment) { a.GMetrics.SQNCapped = nil }, VerdictStrongSystem},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := base()
			c.modify(&a)
			got, reasons := systemVerdict(a)
			assert.Equal(t, c.want, got)
			assert.Len(t, reasons, 6)
		})
	}
}

func TestAssessSystemEndToEnd(t *testing.T) {
	cases := []struct {
		name string
		r    []float64
		want string
	}{
		{"strong: 200 trades N(0.5, 1)", normalR(1, 200, 0.5, 1), VerdictStrongSystem},
		{"failing: 100 trades N(-0.2, 1)", normalR(2, 100, -0.2, 1), VerdictFailingSystem},
		{"marginal: 40 trades N(0.1, 1.5)", normalR(3, 40, 0.1, 1.5), VerdictMarginalSystem},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := AssessSystem(context.Background(), AssessInput{RMultiples: c.r})
			require.NoError(t, err)
			assert.Equal(t, c.want, a.Verdict, a.VerdictReasons)
			assert.Equal(t, len(c.r), a.GMetrics.TradeCount)
			relClose(t, performance.G(c.r), float64(a.GMetrics.G), 1e-12, "g")
			assert.Equal(t, "r_multiples", a.Drawdown.Basis)
			assert.Equal(t, "100000.00", a.StartingEquity.String(), "money in the canonical form")
			assert.Equal(t, a.Seed, a.MonteCarlo.Seed)
			assert.Equal(t, AssessSimulations, a.MonteCarlo.NumSimulations)
			assert.LessOrEqual(t, a.Seed, uint64(performance.MaxSeed))
		})
	}
}

func TestAssessSeedIsDeterministic(t *testing.T) {
	r := normalR(4, 60, 0.3, 1)
	a1, err := AssessSystem(context.Background(), AssessInput{RMultiples: r})
	require.NoError(t, err)
	a2, err := AssessSystem(context.Background(), AssessInput{RMultiples: append([]float64(nil), r...)})
	require.NoError(t, err)
	assert.Equal(t, a1, a2, "equal inputs, equal output (derived seed)")

	seed := uint64(42)
	a3, err := AssessSystem(context.Background(), AssessInput{RMultiples: r, Seed: &seed})
	require.NoError(t, err)
	assert.Equal(t, uint64(42), a3.Seed)
	assert.Equal(t, uint64(42), a3.MonteCarlo.Seed)
	assert.NotEqual(t, a1.MonteCarlo.MedianFinalEquity, a3.MonteCarlo.MedianFinalEquity)
}

func TestAssessKellyClosedForm(t *testing.T) {
	a, err := AssessSystem(context.Background(), AssessInput{RMultiples: binaryR(20, 2)})
	require.NoError(t, err)
	require.NotNil(t, a.Kelly.KellyFraction)
	relClose(t, 0.25, float64(*a.Kelly.KellyFraction), 1e-9, "Kelly p=0.5 b=2")
	relClose(t, 0.125, float64(*a.Kelly.HalfKelly), 1e-9, "half Kelly")
	relClose(t, 0.0625, float64(*a.Kelly.QuarterKelly), 1e-9, "quarter Kelly")
	require.NotNil(t, a.Kelly.Detail)
	assert.Empty(t, a.Kelly.Note)

	neg, err := AssessSystem(context.Background(), AssessInput{RMultiples: binaryR(20, 0.5)})
	require.NoError(t, err)
	assert.Nil(t, neg.Kelly.KellyFraction, "no edge: null, as in calculate_kelly")
	assert.Equal(t, performance.NoEdgeKellyNote, neg.Kelly.Note)
	require.NotNil(t, neg.Kelly.Detail)
	assert.Nil(t, neg.Kelly.Detail.FullKelly)
	assert.Equal(t, VerdictFailingSystem, neg.Verdict)

	wins, err := AssessSystem(context.Background(), AssessInput{RMultiples: []float64{1, 2, 0.5, 1, 3}})
	require.NoError(t, err)
	assert.Nil(t, wins.Kelly.KellyFraction)
	assert.Equal(t, performance.NoLossKellyNote, wins.Kelly.Note)

	// a -150R trade: 1 % risk is past the ruin bound 1/150
	ruin, err := AssessSystem(context.Background(), AssessInput{RMultiples: []float64{5, 6, 4, -150, 7, 8, 200, 3}})
	require.NoError(t, err)
	assert.Nil(t, ruin.GMetrics.GrowthAtRisk)
	assert.Equal(t, VerdictFailingSystem, ruin.Verdict)
	require.NotNil(t, ruin.Kelly.KellyFraction)
	assert.Contains(t, ruin.Kelly.Note, "risk_per_trade")
}

func TestAssessPnLDrawdown(t *testing.T) {
	r := []float64{1, -1, 2, -1, 1}
	pnl := []toolkit.Amount{amt("100"), amt("-100"), amt("200"), amt("-100"), amt("100")}
	start := amt("1000")
	a, err := AssessSystem(context.Background(), AssessInput{RMultiples: r, PnLValues: pnl, StartingEquity: &start})
	require.NoError(t, err)
	assert.Equal(t, "pnl_values", a.Drawdown.Basis)
	// curve 1000 -> 1100 -> 1000 -> 1200 -> 1100 -> 1200: deepest 100/1100
	relClose(t, 100.0/1100*100, float64(a.Drawdown.MaxDrawdownPct), 1e-12, "max drawdown pct")
	require.NotNil(t, a.WinLoss.PnL)
	assert.Equal(t, "200.00", a.WinLoss.PnL.TotalPnL.String())
}

func TestAssessInvalid(t *testing.T) {
	zero := amt("0")
	cases := []struct {
		in   AssessInput
		want string
		kind toolkit.Kind
	}{
		{AssessInput{RMultiples: []float64{1, 2, 3, 4}}, "r_multiples: needs at least 5 values", toolkit.Invalid},
		{AssessInput{RMultiples: []float64{1, 2, 3, 4, math.NaN()}}, "r_multiples: item 4 must be a finite number", toolkit.Invalid},
		{AssessInput{RMultiples: []float64{1, 2, 3, 4, 5}, StartingEquity: &zero}, "starting_equity: must be greater than 0", toolkit.Invalid},
		{AssessInput{RMultiples: []float64{1, 2, 3, 4, 5}, PnLValues: []toolkit.Amount{amt("1")}}, "pnl_values: must have the same length", toolkit.Invalid},
		{AssessInput{RMultiples: []float64{-1, -2, 3, 4, 5}, PnLValues: []toolkit.Amount{amt("-60000"), amt("-60000"), amt("1"), amt("1"), amt("1")}}, "pnl_values: starting_equity plus the cumulative P&L falls below 0 at item 1", toolkit.Invalid},
		{AssessInput{RMultiples: make([]float64, limits.MaxItems+1)}, "at most 100000 values", toolkit.TooLarge},
	}
	for _, c := range cases {
		_, err := AssessSystem(context.Background(), c.in)
		require.Error(t, err, c.want)
		assert.Equal(t, c.kind, toolkit.KindOf(err), c.want)
		assert.Contains(t, toolkit.MessageOf(err), c.want)
	}
}

// TestAssessSystemStopsWhenTheContextEnds: the Monte Carlo inside the
// assessment stops with the context's error.
func TestAssessSystemStopsWhenTheContextEnds(t *testing.T) {
	r := normalR(4, 200, 0.2, 1)
	done, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := AssessSystem(done, AssessInput{RMultiples: r})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = AssessSystem(canceltest.AfterChecks(1), AssessInput{RMultiples: r})
	assert.ErrorIs(t, err, context.Canceled)
}
