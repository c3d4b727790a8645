package performance

import (
	"context"
	"math"
	"sort"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// relEq asserts |got − want| <= 1e-12·max(1, |want|).
func relEq(t *testing.T, want, got float64, msg ...any) {
	t.Helper()
	assert.InDelta(t, want, got, 1e-12*math.Max(1, math.Abs(want)), msg...)
}

// withBreakevens returns benchR(n) with every 7th trade set to 0.
func withBreakevens(n int) []float64 {
	r := benchR(n)
	for i := 0; i < n; i += 7 {
		r[i] = 0
	}
	return r
}

func TestWinLossAgainstReference(t *testing.T) {
	for _, n := range []int{1, 2, 7, 50, 333} {
		r := withBreakevens(n)
		got, err := AnalyzeWinLoss(r, nil)
		require.NoError(t, err)
		var wins, losses []float64
		for _, x := range r {
			if x > 0 {
				wins = append(wins, x)
			} else if x < 0 {
				losses = append(losses, x)
			}
		}
		sum := func(xs []float64) float64 {
			s := 0.0
			for _, x := range xs {
				s += x
			}
			return s
		}
		fn := float64(n)
		assert.Equal(t, len(wins), got.WinCount)
		assert.Equal(t, len(losses), got.LossCount)
		assert.Equal(t, n-len(wins)-len(losses), got.BreakevenCount)
		relEq(t, float64(len(wins))/fn, float64(got.WinRate))
		relEq(t, sum(r)/fn, float64(got.Expectancy))
		// Tharp's decomposition holds exactly with all-trade rates
		relEq(t, float64(got.WinRate)*float64(got.AverageWinR)+float64(got.LossRate)*float64(got.AverageLossR), float64(got.Expectancy))
		if len(wins) > 0 && len(losses) > 0 {
			aw, al := sum(wins)/float64(len(wins)), sum(losses)/float64(len(losses))
			relEq(t, aw/-al, float64(*got.PayoffRatio))
			relEq(t, sum(wins)/-sum(losses), float64(*got.ProfitFactor))
			sort.Float64s(wins)
			sort.Float64s(losses)
			relEq(t, quantileSorted(wins, 0.5), float64(got.MedianWinR))
			relEq(t, quantileSorted(losses, 0.5), float64(got.MedianLossR))
			relEq(t, wins[len(wins)-1], float64(got.LargestWinR))
			relEq(t, losses[0], float64(got.LargestLossR))
		}
	}
}

func TestWinLossStreaksAndNulls(t *testing.T) {
	r := []float64{1, 2, 0, 3, -1, -1, -2, 0, -1, 4, 5}
	got, err := AnalyzeWinLoss(r, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, got.LongestWinningStreak) // 0 breaks the 1,2 | 3 run
	assert.Equal(t, 3, got.LongestLosingStreak)
	assert.Equal(t, 2, got.CurrentStreak)

	noLoss, err := AnalyzeWinLoss([]float64{1, 0, 2}, nil)
	require.NoError(t, err)
	assert.Nil(t, noLoss.ProfitFactor)
	assert.Nil(t, noLoss.PayoffRatio)
	assert.Equal(t, toolkit.Float(0), noLoss.AverageLossR)

	loss, err := AnalyzeWinLoss([]float64{-1, -2}, nil)
	require.NoError(t, err)
	assert.Equal(t, toolkit.Float(0), *loss.ProfitFactor)
	assert.Equal(t, -2, loss.CurrentStreak)
}

func TestWinLossPnLIsExactDecimal(t *testing.T) {
	pnl := []toolkit.Amount{toolkit.MustParseAmount("0.10"), toolkit.MustParseAmount("0.20"), toolkit.MustParseAmount("-0.05"), toolkit.MustParseAmount("0")}
	got, err := AnalyzeWinLoss([]float64{0.1, 0.2, -0.05, 0}, pnl)
	require.NoError(t, err)
	require.NotNil(t, got.PnL)
	assert.Equal(t, "0.25", got.PnL.TotalPnL.String())
	assert.Equal(t, "0.30", got.PnL.GrossProfit.String())
	assert.Equal(t, "-0.05", got.PnL.GrossLoss.String())
	assert.Equal(t, "0.15", got.PnL.AverageWin.String())
	assert.Equal(t, "0.06", got.PnL.AveragePnL.String()) // 0.0625 half-even to 2 dp
	assert.Equal(t, 1, got.PnL.BreakevenCount)
	relEq(t, 6, float64(*got.PnL.ProfitFactor))
}

func TestWinLossBadInput(t *testing.T) {
	_, err := AnalyzeWinLoss(nil, nil)
	assert.Contains(t, toolkit.MessageOf(err), "r_multiples: needs at least 1")
	_, err = AnalyzeWinLoss([]float64{1, 2}, []toolkit.Amount{toolkit.AmountFromInt(1)})
	assert.Contains(t, toolkit.MessageOf(err), "pnl_values: must have the same length")
	_, err = AnalyzeWinLoss([]float64{math.NaN()}, nil)
	assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err))
}

func TestSQN(t *testing.T) {
	r := benchR(250)
	raw, capped, ok := SQN(r)
	require.True(t, ok)
	sd := SampleStdDev(r)
	relEq(t, math.Sqrt(250)*Mean(r)/sd, raw)
	relEq(t, 10*Mean(r)/sd, capped)
	_, _, ok = SQN([]float64{1, 1, 1})
	assert.False(t, ok)
	_, _, ok = SQN([]float64{1})
	assert.False(t, ok)
	raw, capped, ok = SQN([]float64{1, -1, 2})
	require.True(t, ok)
	assert.Equal(t, raw, capped) // N below the cap
	relEq(t, 2.0/3, WinRate([]float64{1, 0, 2}))
	relEq(t, 1, Expectancy([]float64{1, 0, 2}))
}

func TestMedianOfMatchesSort(t *testing.T) {
	for _, n := range []int{1, 2, 3, 16, 17, 100, 1001} {
		xs := benchR(n)
		for i := range xs {
			xs[i] = math.Round(xs[i]*4) / 4 // many ties
		}
		want := append([]float64(nil), xs...)
		sort.Float64s(want)
		assert.Equal(t, quantileSorted(want, 0.5), medianOf(append([]float64(nil), xs...)), "n=%d", n)
		for _, k := range []int{0, n / 3, n - 1} {
			ys := append([]float64(nil), xs...)
			selectKth(ys, k)
			assert.Equal(t, want[k], ys[k])
		}
	}
}

// TestLosingStreakIsOneDefinition: analyze_win_loss and
// analyze_consistency count the same losing streak (StreakRule): losses
// (R < 0) in a row, ended by a win or a breakeven.
func TestLosingStreakIsOneDefinition(t *testing.T) {
	r := []float64{-1, 0, -1, -1, 2, -0.5, -0.5, -0.5, -0.5, 0, -1, 1, 1, 0, 1}
	wl, err := AnalyzeWinLoss(r, nil)
	require.NoError(t, err)
	cons, err := AnalyzeConsistency(context.Background(), r, ConsistencyOptions{})
	require.NoError(t, err)
	assert.Equal(t, 4, wl.LongestLosingStreak, "the breakeven after the four -0.5 ends the streak")
	assert.Equal(t, wl.LongestLosingStreak, cons.LongestLosingStreak)
	assert.Equal(t, 2, wl.LongestWinningStreak)
	assert.Equal(t, 1, wl.CurrentStreak)
	// q is the share of losses (R < 0): 8 of 15
	q := 8.0 / 15
	require.NotNil(t, cons.ExpectedLongestLosingStreak)
	assert.InDelta(t, math.Log(15*(1-q))/math.Log(1/q), float64(*cons.ExpectedLongestLosingStreak), 1e-12)
}
