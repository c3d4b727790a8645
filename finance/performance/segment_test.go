package performance

import (
	"context"
	"math"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func dayPtr(d int) *int { return &d }

func sampleTrades() []SegmentTrade {
	a := toolkit.MustParseAmount
	return []SegmentTrade{
		{PnLR: 1.5, PnLUSD: a("150.10"), Symbol: "MSFT", DayOfWeek: dayPtr(4), StrategyID: "breakout", Regime: "TRENDING_UP"},
		{PnLR: -1, PnLUSD: a("-100.05"), Symbol: "AAPL", DayOfWeek: dayPtr(0), StrategyID: "breakout"},
		{PnLR: 2.3, PnLUSD: a("230.00"), Symbol: "AAPL", DayOfWeek: dayPtr(0), StrategyID: "pullback", Regime: "RANGING"},
		{PnLR: 0, PnLUSD: a("0"), Symbol: "", DayOfWeek: nil, StrategyID: "pullback", Regime: "RANGING"},
		{PnLR: -0.5, PnLUSD: a("-50.01"), Symbol: "MSFT", DayOfWeek: dayPtr(6), Regime: "RANGING"},
	}
}

func TestSegmentBySymbol(t *testing.T) {
	res, err := SegmentTrades(context.Background(), sampleTrades(), "")
	require.NoError(t, err)
	assert.Equal(t, SegmentBySymbol, res.SegmentBy)
	require.Len(t, res.Segments, 3)
	names := []string{res.Segments[0].Segment, res.Segments[1].Segment, res.Segments[2].Segment}
	assert.Equal(t, []string{"AAPL", "MSFT", SegmentUnknown}, names)
	aapl := res.Segments[0]
	assert.Equal(t, 2, aapl.Count)
	assert.Equal(t, 1, aapl.Wins)
	assert.Equal(t, 1, aapl.Losses)
	assertRel(t, 0.65, float64(aapl.Expectancy), 1e-15)
	assertRel(t, G([]float64{-1, 2.3}), float64(aapl.G), 1e-12)
	assert.Equal(t, "129.95", aapl.TotalPnLUSD.String())
	unk := res.Segments[2]
	assert.Equal(t, 1, unk.Breakevens)
	assert.Equal(t, toolkit.Float(0), unk.WinRate)
	assert.Equal(t, "230.04", res.TotalPnLUSD.String())
	assert.Equal(t, "AAPL", res.BestSegment)
	assert.Equal(t, "UNKNOWN", res.WorstSegment)
	assert.True(t, aapl.LowSample)
}

func TestSegmentByDayOfWeekOrdersTheWeek(t *testing.T) {
	res, err := SegmentTrades(context.Background(), sampleTrades(), SegmentByDayOfWeek)
	require.NoError(t, err)
	var names []string
	for _, s := range res.Segments {
		names = append(names, s.Segment)
	}
	assert.Equal(t, []string{"MONDAY", "FRIDAY", "SUNDAY", "UNKNOWN"}, names)
}

// TestSegmentTotalsAddUp is a property check: segment counts, R and USD
// totals add up to the whole, whatever the key.
func TestSegmentTotalsAddUp(t *testing.T) {
	r := normalR(51, 997, 0.1, 1)
	symbols := []string{"AAPL", "MSFT", "TSLA", "NVDA", "SPY", ""}
	trades := make([]SegmentTrade, len(r))
	var wantUSD toolkit.Amount
	var wantR float64
	for i, x := range r {
		usd := toolkit.AmountFromMicros(int64(math.Round(x * 1e8)))
		wantUSD = wantUSD.Add(usd)
		wantR += x
		trades[i] = SegmentTrade{PnLR: x, PnLUSD: usd, Symbol: symbols[i%6], DayOfWeek: dayPtr(i % 7), StrategyID: symbols[(i/7)%6]}
	}
	for _, by := range []string{SegmentBySymbol, SegmentByDayOfWeek, SegmentByStrategy, SegmentByRegime} {
		res, err := SegmentTrades(context.Background(), trades, by)
		require.NoError(t, err)
		count, sumR := 0, 0.0
		var usd toolkit.Amount
		for _, s := range res.Segments {
			count += s.Count
			sumR += float64(s.TotalR)
			usd = usd.Add(s.TotalPnLUSD)
		}
		assert.Equal(t, len(r), count, by)
		assert.InDelta(t, wantR, sumR, 1e-9, by)
		assert.Zero(t, wantUSD.Cmp(usd), by)
		assert.Zero(t, wantUSD.Cmp(res.TotalPnLUSD), by)
	}
}

func TestSegmentBadInput(t *testing.T) {
	for _, c := range []struct {
		trades []SegmentTrade
		by     string
		kind   toolkit.Kind
		msg    string
	}{
		{nil, "", toolkit.Invalid, "trades: needs at least 1 trade"},
		{sampleTrades(), "hour", toolkit.Invalid, "segment_by: must be one of"},
		{[]SegmentTrade{{PnLR: math.NaN()}}, "", toolkit.Invalid, "trades: item 0: pnl_r must be a finite"},
		{[]SegmentTrade{{PnLR: 1, DayOfWeek: dayPtr(7)}}, "", toolkit.Invalid, "trades: item 0: day_of_week must be 0"},
		{make([]SegmentTrade, limits.MaxItems+1), "", toolkit.TooLarge, "trades: at most"},
	} {
		_, err := SegmentTrades(context.Background(), c.trades, c.by)
		require.Error(t, err)
		assert.Equal(t, c.kind, toolkit.KindOf(err))
		assert.Contains(t, toolkit.MessageOf(err), c.msg)
	}
}
