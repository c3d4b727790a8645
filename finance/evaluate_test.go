package finance

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// binaryR returns n/2 wins of +b and n/2 losses of -1, interleaved.
func binaryR(n int, b float64) []float64 {
	r := make([]float64, n)
	for i := range r {
		if i%2 == 0 {
			r[i] = b
		} else {
			r[i] = -1
		}
	}
	return r
}

func relClose(t *testing.T, want, got float64, tol float64, msg string) {
	t.Helper()
	assert.LessOrEqual(t, math.Abs(want-got), tol*math.Max(1, math.Abs(want)), "%s: want %v, got %v", msg, want, got)
}

// TestEvaluateClosedForms checks G, SQN, win rate and the Kelly optimum on
// the binary set p = 0.5, b = 2 against their closed forms.
func TestEvaluateClosedForms(t *testing.T) {
	const n = 40
	r := binaryR(n, 2)
	ev, err := EvaluateBasic(r)
	require.NoError(t, err)
	mean, popVar := 0.5, 2.25 // E[R] = (2 - 1)/2; E[R²] - mean² = 2.5 - 0.25
	relClose(t, mean-popVar/2, float64(ev.G), 1e-12, "G")
	assert.Equal(t, ev.G, ev.GScore)
	relClose(t, mean, float64(ev.ExpectedR), 1e-12, "expected_r")
	sd := math.Sqrt(popVar * n / (n - 1))
	require.NotNil(t, ev.SQN)
	relClose(t, math.Sqrt(n)*mean/sd, float64(*ev.SQN), 1e-12, "SQN")
	relClose(t, math.Sqrt(n)*mean/sd, float64(*ev.SQNCapped), 1e-12, "SQN capped (N < 100)")
	assert.Equal(t, toolkit.Float(0.5), ev.WinRate)
	assert.Equal(t, VerdictPositiveEdge, ev.Verdict) // SQN = sqrt(40)*0.5/1.519 = 2.08

	// Kelly closed form: f* = (b·p − q)/b = 0.25; g(f*) = ½ln(1.5) + ½ln(0.75).
	lg := ev.LogGrowth
	require.NotNil(t, lg.OptimalF)
	relClose(t, 0.25, float64(*lg.OptimalF), 1e-9, "optimal f")
	relClose(t, 0.5*math.Log(1.5)+0.5*math.Log(0.75), float64(*lg.GAtOptimalF), 1e-12, "g(f*)")
	relClose(t, 0.125, float64(*lg.HalfOptimalF), 1e-9, "f*/2")
	relClose(t, 0.5*math.Log(1.25)+0.5*math.Log(0.875), float64(*lg.GAtHalfOptimalF), 1e-12, "g(f*/2)")
	relClose(t, 1, float64(*lg.RuinBound), 0, "ruin bound")
	require.Len(t, lg.Curve, 4)
	for _, p := range lg.Curve {
		f := float64(p.F)
		relClose(t, 0.5*math.Log1p(2*f)+0.5*math.Log1p(-f), float64(*p.G), 1e-12, "curve")
	}
	assert.Empty(t, lg.Note)
}

func TestEdgeVerdictBoundaries(t *testing.T) {
	cases := []struct {
		n         int
		mean, sqn float64
		ok        bool
		want      string
	}{
		{9, 1, 5, true, VerdictInsufficientData},
		{10, 0.1, 1.0, true, VerdictPositiveEdge},
		{10, 0.1, 0.9999, true, VerdictNoEdge},
		{10, -0.1, -0.9999, true, VerdictNoEdge},
		{10, -0.1, -1.0, true, VerdictNegativeEdge},
		{10, 0.5, 0, false, VerdictPositiveEdge},
		{10, -0.5, 0, false, VerdictNegativeEdge},
		{10, 0, 0, false, VerdictNoEdge},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, edgeVerdict(c.n, c.mean, c.sqn, c.ok), "%+v", c)
	}
}

func TestEvaluateVerdictsEndToEnd(t *testing.T) {
	neg := binaryR(40, 0.5) // mean -0.25, sd ~0.76: SQN ~ -2.1
	ev, err := EvaluateBasic(neg)
	require.NoError(t, err)
	assert.Equal(t, VerdictNegativeEdge, ev.Verdict)
	assert.Nil(t, ev.LogGrowth.OptimalF)
	assert.Contains(t, ev.LogGrowth.Note, "mean R <= 0")

	flat := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	ev, err = EvaluateBasic(flat)
	require.NoError(t, err)
	assert.Equal(t, VerdictPositiveEdge, ev.Verdict)
	assert.Nil(t, ev.SQN, "sd = 0: SQN undefined")
	assert.Nil(t, ev.LogGrowth.OptimalF)
	assert.Nil(t, ev.LogGrowth.RuinBound)
	assert.Contains(t, ev.LogGrowth.Note, "no losing trade")

	ev, err = EvaluateBasic([]float64{1.5, -1.0, 2.3, -0.5, 1.8, -1.0, 3.2, 0.8})
	require.NoError(t, err)
	assert.Equal(t, VerdictInsufficientData, ev.Verdict)
	relClose(t, 0.8875-2.2011/2, float64(ev.G), 1e-4, "published example G (methods §4.3: -0.213)")
	assert.Len(t, ev.Warnings, 1)

	// a loss of -50R puts f = 0.02 and 0.05 at or past the ruin bound
	ev, err = EvaluateBasic([]float64{3, 2, -50, 4, 5})
	require.NoError(t, err)
	assert.NotNil(t, ev.LogGrowth.Curve[1].G)
	assert.Nil(t, ev.LogGrowth.Curve[2].G)
	assert.Nil(t, ev.LogGrowth.Curve[3].G)
}

func TestEvaluateTiers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	r := make([]float64, 40)
	for i := range r { // planted drift: first half loses, second half wins
		r[i] = rng.NormFloat64() * 0.3
		if i < 20 {
			r[i] -= 1
		} else {
			r[i] += 1
		}
	}
	basic, err := Evaluate(EvaluationInput{RMultiples: r})
	require.NoError(t, err)
	b, err := json.Marshal(basic)
	require.NoError(t, err)
	for _, absent := range []string{"rolling_g", "system_r_score", "impact", "window_size"} {
		assert.NotContains(t, string(b), `"`+absent+`"`)
	}

	w := 20
	full, err := Evaluate(EvaluationInput{RMultiples: r, Tier: TierFull, WindowSize: &w})
	require.NoError(t, err)
	assert.Equal(t, TierFull, full.Tier)
	assert.Equal(t, 20, full.WindowSize)
	assert.Len(t, full.RollingG, 21)
	assert.Equal(t, "IMPROVING", full.RollingGTrend)
	require.NotNil(t, full.SystemRScore)
	assert.NotEmpty(t, full.SystemRScore.Grade)
	assert.Nil(t, full.Impact)
	assert.Equal(t, basic.G, full.G)

	comp, err := Evaluate(EvaluationInput{RMultiples: r, Tier: TierComprehensive})
	require.NoError(t, err)
	assert.Equal(t, 10, comp.WindowSize, "default window")
	require.NotNil(t, comp.Impact)
	levers := comp.Impact.Levers
	require.NotEmpty(t, levers)
	for i := 1; i < len(levers); i++ {
		assert.GreaterOrEqual(t, levers[i-1].GChange, levers[i].GChange)
	}
	assert.Len(t, comp.Impact.Summary, 2)

	short, err := Evaluate(EvaluationInput{RMultiples: []float64{1, -1, 2}, Tier: TierFull})
	require.NoError(t, err)
	assert.Equal(t, 3, short.WindowSize, "default window shrinks to N")
}

func TestEvaluateInvalid(t *testing.T) {
	one, big := 1, 50
	nan := []float64{1, math.NaN()}
	cases := []struct {
		in   EvaluationInput
		want string
	}{
		{EvaluationInput{RMultiples: []float64{1}}, "r_multiples: needs at least 2 values"},
		{EvaluationInput{RMultiples: nan}, "r_multiples: item 1 must be a finite number"},
		{EvaluationInput{RMultiples: []float64{1, 2}, Tier: "deluxe"}, "tier: must be basic, full or comprehensive"},
		{EvaluationInput{RMultiples: []float64{1, 2}, Tier: TierFull, WindowSize: &one}, "window_size: must be at least 2"},
		{EvaluationInput{RMultiples: []float64{1, 2}, Tier: TierFull, WindowSize: &big}, "window_size: must not exceed"},
	}
	for _, c := range cases {
		_, err := Evaluate(c.in)
		require.Error(t, err, c.want)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.want)
	}
	_, err := EvaluateBasic(make([]float64, limits.MaxItems+1))
	assert.Equal(t, toolkit.TooLarge, toolkit.KindOf(err))
}

func TestHealthAndGate(t *testing.T) {
	h, err := Health([]float64{2})
	require.NoError(t, err)
	assert.Equal(t, SystemHealth{G: 2, ExpectedR: 2, Verdict: VerdictInsufficientData, TradeCount: 1}, h)
	_, err = Health([]float64{math.Inf(1)})
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))

	in := GateInput{Symbol: "AAPL", Direction: "long", EntryPrice: amt("185.50"), StopPrice: amt("180.00"),
		Equity: amt("100000"), RMultiples: binaryR(40, 0.5)}
	g, err := PreTradeGate(in, AgentLimits{})
	require.NoError(t, err)
	require.NotNil(t, g.SystemHealth)
	assert.Equal(t, VerdictNegativeEdge, g.SystemHealth.Verdict)
	assert.True(t, g.GatePassed, "health never blocks the gate")
	assert.Equal(t, int64(363), g.Sizing.Shares)
	assert.Equal(t, "1996.50", g.Risk.RiskAmount.String(), "sizing's shares are the risk check's quantity")
	assert.Empty(t, g.Reasons)

	in.RMultiples = nil
	in.Equity = amt("200") // budget 4.00 < 5.50 risk per share
	g, err = PreTradeGate(in, AgentLimits{})
	require.NoError(t, err)
	assert.Nil(t, g.SystemHealth)
	assert.Equal(t, int64(0), g.Sizing.Shares)
	assert.False(t, g.GatePassed)
	require.Len(t, g.Reasons, 2)
	assert.Contains(t, g.Reasons[0], "shares is 0")
	assert.Contains(t, g.Reasons[1], "risk check: quantity is 0")

	in.Equity = amt("100000")
	in.DailyPnL = amtPtr("-5000")
	g, err = PreTradeGate(in, AgentLimits{})
	require.NoError(t, err)
	assert.Equal(t, int64(363), g.Sizing.Shares)
	assert.False(t, g.GatePassed)
	assert.False(t, g.Risk.Approved)
	require.Len(t, g.Reasons, 1)
	assert.Contains(t, g.Reasons[0], "max_daily_loss_pct 5 reached")

	_, err = PreTradeGate(GateInput{Symbol: "AAPL", Direction: "long", EntryPrice: amt("10"), StopPrice: amt("11"), Equity: amt("100")}, AgentLimits{})
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
	_, err = PreTradeGate(GateInput{Symbol: " ", Direction: "long", EntryPrice: amt("10"), StopPrice: amt("9"), Equity: amt("100")}, AgentLimits{})
	assert.Contains(t, toolkit.MessageOf(err), "symbol: must not be empty")
}

// TestNoEdgeKellyIsAnsweredTheSameEverywhere: without a positive, finite
// Kelly fraction, calculate_kelly, evaluate_performance and
// assess_trading_system all answer (no error) with null fractions and the
// same note.
func TestNoEdgeKellyIsAnsweredTheSameEverywhere(t *testing.T) {
	for _, r := range [][]float64{
		{1, -1, -0.5, 0.2, -0.3, 0.1}, // mean < 0
		{1, 2, 0, 0.5, 3, 1},          // no losing trade
	} {
		k, err := performance.CalculateKelly(r, performance.KellyOptions{})
		require.NoError(t, err)
		ev, err := EvaluateBasic(r)
		require.NoError(t, err)
		a, err := AssessSystem(context.Background(), AssessInput{RMultiples: r})
		require.NoError(t, err)
		note := performance.NoKellyReason(r)
		require.NotEmpty(t, note)
		assert.Nil(t, k.FullKelly)
		assert.Nil(t, ev.LogGrowth.OptimalF)
		assert.Nil(t, a.Kelly.KellyFraction)
		assert.Nil(t, a.GMetrics.OptimalF)
		assert.Equal(t, note, k.Note)
		assert.Equal(t, note, ev.LogGrowth.Note)
		assert.Equal(t, note, a.Kelly.Note)
	}
}
