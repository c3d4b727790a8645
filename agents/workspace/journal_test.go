package workspace_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func amt(s string) toolkit.Amount { return toolkit.MustParseAmount(s) }

func amtp(s string) *toolkit.Amount { a := amt(s); return &a }

func fp(v float64) *float64 { return &v }

func tp(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

// trade is a valid long trade with a stop (R = 2 when exit is 110).
func trade(symbol string) workspace.TradeInput {
	return workspace.TradeInput{Symbol: symbol, Direction: "long", EntryPrice: amt("100"), ExitPrice: amt("110"),
		Quantity: amt("10"), StopPrice: amtp("95")}
}

func TestRecordTradeDerivesRAndPnL(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_journal", "o")
	cases := []struct {
		name    string
		in      workspace.TradeInput
		r       string
		source  string
		pnl     string
		holding string
	}{
		{"long from the stop", func() workspace.TradeInput {
			in := trade("AAPL")
			in.EntryTime, in.ExitTime = tp("2026-03-09T14:30:00Z"), tp("2026-03-09T20:30:00Z")
			return in
		}(), "2", workspace.RDerived, "100.00", "6"},
		{"short from the stop, minus fees", workspace.TradeInput{Symbol: "es", Direction: "SHORT", EntryPrice: amt("50"),
			ExitPrice: amt("47"), Quantity: amt("100"), StopPrice: amtp("52"), Fees: amtp("5")}, "1.5", workspace.RDerived, "295.00", ""},
		{"given R and P&L win over the prices", workspace.TradeInput{Symbol: "BTC/USD", Direction: "long", EntryPrice: amt("60000"),
			ExitPrice: amt("59000"), Quantity: amt("0.5"), StopPrice: amtp("58000"), RMultiple: fp(-0.4), PnL: amtp("-512.1234565")},
			"-0.4", workspace.RGiven, "-512.123456", ""},
		{"R of a third, rounded to 12 digits", workspace.TradeInput{Symbol: "X", Direction: "long", EntryPrice: amt("10"),
			ExitPrice: amt("11"), Quantity: amt("3"), StopPrice: amtp("7")}, "0.333333333333", workspace.RDerived, "3.00", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := b.svc.RecordTrade(ctx, a, tc.in)
			require.NoError(t, err)
			assert.Regexp(t, `^trd_[a-z0-9]{16}$`, tr.TradeID)
			r, _ := tr.RMultiple.MarshalJSON()
			assert.Equal(t, `"`+tc.r+`"`, string(r))
			assert.Equal(t, tc.source, tr.RSource)
			assert.Equal(t, tc.pnl, tr.PnL.String())
			if tc.holding != "" {
				require.NotNil(t, tr.HoldTimeHours)
				h, _ := tr.HoldTimeHours.MarshalJSON()
				assert.Equal(t, `"`+tc.holding+`"`, string(h))
			} else {
				assert.Nil(t, tr.HoldTimeHours)
			}
			assert.Equal(t, strings.ToLower(tc.in.Direction), tr.Direction)
		})
	}
}

func TestRecordTradeBadInputWritesNothing(t *testing.T) {
	mod := func(f func(*workspace.TradeInput)) workspace.TradeInput {
		in := trade("AAPL")
		f(&in)
		return in
	}
	cases := []struct {
		name string
		in   workspace.TradeInput
		msg  string
	}{
		{"no symbol", mod(func(in *workspace.TradeInput) { in.Symbol = " " }), "symbol: must be 1 to 32"},
		{"direction", mod(func(in *workspace.TradeInput) { in.Direction = "up" }), "direction: must be long or short"},
		{"zero entry", mod(func(in *workspace.TradeInput) { in.EntryPrice = amt("0") }), "entry_price: must be > 0"},
		{"negative quantity", mod(func(in *workspace.TradeInput) { in.Quantity = amt("-1") }), "quantity: must be > 0"},
		{"stop above a long entry", mod(func(in *workspace.TradeInput) { in.StopPrice = amtp("101") }), "stop_price: must be > 0 and below the entry price for a long"},
		{"stop below a short entry", mod(func(in *workspace.TradeInput) { in.Direction = "short" }), "stop_price: must be > 0 and above the entry price for a short"},
		{"neither R nor stop", mod(func(in *workspace.TradeInput) { in.StopPrice = nil }), "r_multiple: required when stop_price is not given"},
		{"R out of range", mod(func(in *workspace.TradeInput) { in.RMultiple = fp(1001) }), "r_multiple: must be between -1000 and 1000"},
		{"derived R out of range", mod(func(in *workspace.TradeInput) { in.StopPrice = amtp("99.99"); in.ExitPrice = amt("1000") }), "derived R-multiple must be within"},
		{"negative fees", mod(func(in *workspace.TradeInput) { in.Fees = amtp("-1") }), "fees: must be between 0"},
		{"huge P&L", mod(func(in *workspace.TradeInput) { in.PnL = amtp("1000000000001") }), "pnl: must be within"},
		{"negative MFE", mod(func(in *workspace.TradeInput) { in.MFER = fp(-1) }), "mfe_r: must be between 0 and 1000"},
		{"exit before entry", mod(func(in *workspace.TradeInput) {
			in.EntryTime, in.ExitTime = tp("2026-03-09T14:30:00Z"), tp("2026-03-09T14:00:00Z")
		}), "exit_time: must not be before entry_time"},
		{"future exit", mod(func(in *workspace.TradeInput) { in.ExitTime = tp("2027-01-01T00:00:00Z") }), "exit_time: must be between 1970-01-01 and one day after"},
		{"too many tags", mod(func(in *workspace.TradeInput) { in.Tags = make([]string, 17) }), "tags: at most 16 items"},
		{"empty tag", mod(func(in *workspace.TradeInput) { in.Tags = []string{"ok", ""} }), "tags: item 1: must be 1 to 32"},
		{"long notes", mod(func(in *workspace.TradeInput) { in.Notes = strings.Repeat("n", 5001) }), "notes: must be 0 to 5000"},
		{"long strategy", mod(func(in *workspace.TradeInput) { in.Strategy = strings.Repeat("s", 65) }), "strategy: must be 0 to 64"},
	}
	b := newBench(t)
	a := b.agent(t, "agt_badtrade", "o")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.svc.RecordTrade(ctx, a, tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
			assert.True(t, toolkit.IsKind(err, toolkit.Invalid) || toolkit.IsKind(err, toolkit.TooLarge), "%v", err)
		})
	}
	assert.Empty(t, b.rec.trades)
}

func TestJournalTextReachesTheStoreSealed(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_notes", "o")
	in := trade("SECRETSYM")
	in.Notes, in.Setup, in.Strategy, in.Tags = "entered on a whim, pangolin", "flagsetup", "momentumstrat", []string{"tagwombat"}
	tr, err := b.svc.RecordTrade(ctx, a, in)
	require.NoError(t, err)
	written := b.rec.written()
	for _, plain := range []string{"pangolin", "whim", "SECRETSYM", "flagsetup", "momentumstrat", "tagwombat"} {
		assert.False(t, bytes.Contains(written, []byte(plain)), "%q reached the store in the clear", plain)
	}
	list, err := b.svc.Trades(ctx, a, workspace.TradeFilter{}, toolkit.PageInput{})
	require.NoError(t, err)
	require.Len(t, list.Trades, 1)
	got := list.Trades[0]
	assert.Equal(t, tr, got, "the stored trade opens to what was recorded")
	assert.Equal(t, "entered on a whim, pangolin", got.Notes)
	assert.Equal(t, []string{"tagwombat"}, got.Tags)
}

func TestJournalListPagesAndFilters(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_list", "acme")
	other := b.agent(t, "agt_list_other", "acme")
	day := time.Date(2026, 3, 1, 15, 0, 0, 0, time.UTC)
	for i := range 7 {
		in := trade([]string{"AAPL", "msft"}[i%2])
		in.Strategy = []string{"Breakout", "pullback", "BREAKOUT"}[i%3]
		exit := day.AddDate(0, 0, i)
		in.ExitTime = &exit
		_, err := b.svc.RecordTrade(ctx, a, in)
		require.NoError(t, err)
	}
	_, err := b.svc.RecordTrade(ctx, other, trade("AAPL"))
	require.NoError(t, err)

	var seen []time.Time
	cursor := ""
	for page := 0; ; page++ {
		list, err := b.svc.Trades(ctx, a, workspace.TradeFilter{}, toolkit.PageInput{Limit: 3, Cursor: cursor})
		require.NoError(t, err)
		for _, tr := range list.Trades {
			seen = append(seen, tr.ClosedAt)
		}
		if !list.HasMore {
			assert.Empty(t, list.NextCursor)
			break
		}
		require.Less(t, page, 3)
		cursor = list.NextCursor
	}
	require.Len(t, seen, 7, "every trade once, the other agent's never")
	for i := 1; i < len(seen); i++ {
		assert.True(t, seen[i].Before(seen[i-1]), "newest first")
	}

	count := func(f workspace.TradeFilter) int {
		list, err := b.svc.Trades(ctx, a, f, toolkit.PageInput{Limit: 100})
		require.NoError(t, err)
		return len(list.Trades)
	}
	assert.Equal(t, 4, count(workspace.TradeFilter{Symbol: "aapl"}), "symbols match case-insensitively")
	assert.Equal(t, 3, count(workspace.TradeFilter{Symbol: "MSFT"}))
	assert.Equal(t, 5, count(workspace.TradeFilter{Strategy: "breakout"}))
	assert.Equal(t, 3, count(workspace.TradeFilter{Symbol: "AAPL", Strategy: "Breakout"}))
	from, to := day.AddDate(0, 0, 2), day.AddDate(0, 0, 5)
	assert.Equal(t, 3, count(workspace.TradeFilter{From: &from, To: &to}), "from inclusive, to exclusive")
	assert.Equal(t, 0, count(workspace.TradeFilter{Symbol: "NVDA"}))

	for _, p := range []toolkit.PageInput{{Limit: 1001}, {Limit: -1}, {Cursor: "bm9wZQ"}, {Cursor: strings.Repeat("a", 201)}} {
		_, err := b.svc.Trades(ctx, a, workspace.TradeFilter{}, p)
		assert.True(t, toolkit.IsKind(err, toolkit.Invalid), "%+v: %v", p, err)
	}
	_, err = b.svc.Trades(ctx, a, workspace.TradeFilter{From: &to, To: &from}, toolkit.PageInput{})
	assert.ErrorContains(t, err, "to: must be after from")
}

func TestJournalStatsMatchThePerformanceTools(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_stats", "o")
	empty, err := b.svc.Stats(ctx, a, workspace.TradeFilter{})
	require.NoError(t, err)
	assert.Equal(t, 0, empty.TradeCount)
	assert.Nil(t, empty.WinLoss)
	assert.Equal(t, "0.00", empty.TotalPnL.String())

	rs := []float64{1.5, -1, 2.3, -0.5, 1.8, -1, 3.2, 0.8}
	pnls := []string{"150", "-100", "230", "-50", "180", "-100", "320", "80.25"}
	start := time.Date(2026, 2, 1, 10, 0, 0, 0, time.UTC)
	for i, r := range rs {
		in := workspace.TradeInput{Symbol: "SPY", Direction: "long", EntryPrice: amt("400"), ExitPrice: amt("401"),
			Quantity: amt("1"), RMultiple: fp(r), PnL: amtp(pnls[i])}
		exit := start.Add(time.Duration(i) * time.Hour)
		in.ExitTime = &exit
		_, err := b.svc.RecordTrade(ctx, a, in)
		require.NoError(t, err)
	}
	st, err := b.svc.Stats(ctx, a, workspace.TradeFilter{})
	require.NoError(t, err)
	pnl := make([]toolkit.Amount, len(pnls))
	for i, p := range pnls {
		m, err := amt(p).Micros()
		require.NoError(t, err)
		pnl[i] = toolkit.AmountFromMicros(m).Trim(2) // money as the journal keeps it
	}
	want, err := performance.AnalyzeWinLoss(rs, pnl)
	require.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	gotJSON, err := json.Marshal(st.WinLoss)
	require.NoError(t, err)
	assert.JSONEq(t, string(wantJSON), string(gotJSON), "the same figures as analyze_win_loss")
	assert.Equal(t, 8, st.TradeCount)
	assert.InDelta(t, 0.625, float64(st.WinRate), 1e-12)
	assert.InDelta(t, 0.8875, float64(st.AvgRMultiple), 1e-12)
	assert.Equal(t, "710.25", st.TotalPnL.String())
	assert.InDelta(t, performance.G(rs), float64(st.G), 1e-12)
	raw, _, _ := performance.SQN(rs)
	require.NotNil(t, st.SQN)
	assert.InDelta(t, raw, float64(*st.SQN), 1e-12)
	assert.Equal(t, start, *st.FirstTradeAt)

	got, err := b.svc.RMultiples(ctx, a, workspace.TradeFilter{}, 3)
	require.NoError(t, err)
	assert.Equal(t, []float64{-1, 3.2, 0.8}, got, "the latest three, oldest first")
	got, err = b.svc.RMultiples(ctx, a, workspace.TradeFilter{}, 0)
	require.NoError(t, err)
	assert.Equal(t, rs, got)
	_, err = b.svc.RMultiples(ctx, a, workspace.TradeFilter{}, 10_001)
	assert.ErrorContains(t, err, "limit: must be between 1 and 10000")
}

func TestJournalQuota(t *testing.T) {
	b := newBench(t, func(c *workspace.Config) { c.MaxTrades = 2 })
	a := b.agent(t, "agt_full", "o")
	for range 2 {
		_, err := b.svc.RecordTrade(ctx, a, trade("A"))
		require.NoError(t, err)
	}
	_, err := b.svc.RecordTrade(ctx, a, trade("A"))
	assert.True(t, toolkit.IsKind(err, toolkit.Conflict), "%v", err)
	assert.ErrorContains(t, err, "at most 2 trades")
}

func TestBiasesFromTheJournal(t *testing.T) {
	b := newBench(t)
	a := b.agent(t, "agt_biased", "o")
	_, err := b.svc.Biases(ctx, a, workspace.BiasInput{})
	assert.ErrorContains(t, err, "the journal holds 0 trades")

	// Winners held 2 hours, losers 9: a disposition effect.
	start := time.Date(2026, 1, 5, 14, 0, 0, 0, time.UTC)
	for i := range 20 {
		in := trade("QQQ")
		hold := 2 * time.Hour
		if i%2 == 1 {
			in.ExitPrice, hold = amt("95"), 9*time.Hour+time.Duration(i)*time.Minute
		}
		entry := start.AddDate(0, 0, i)
		exit := entry.Add(hold)
		in.EntryTime, in.ExitTime = &entry, &exit
		_, err := b.svc.RecordTrade(ctx, a, in)
		require.NoError(t, err)
	}
	res, err := b.svc.Biases(ctx, a, workspace.BiasInput{})
	require.NoError(t, err)
	assert.Equal(t, workspace.SourceJournal, res.Source)
	assert.Equal(t, 20, res.TradeCount)
	require.Len(t, res.Biases, 1, "%+v", res.Biases)
	assert.Equal(t, performance.BiasDisposition, res.Biases[0].BiasType)
	assert.Equal(t, performance.SeverityHigh, res.Biases[0].Severity)

	res, err = b.svc.Biases(ctx, a, workspace.BiasInput{Lookback: 6})
	require.NoError(t, err)
	assert.Equal(t, 6, res.TradeCount, "the latest lookback trades")
	assert.Empty(t, res.Biases, "three winners and three losers are too few")

	given := []performance.BiasTrade{{RMultiple: 1}, {RMultiple: -1}, {RMultiple: 2}}
	res, err = b.svc.Biases(ctx, a, workspace.BiasInput{Trades: given, Lookback: 2})
	require.NoError(t, err)
	assert.Equal(t, workspace.SourceTrades, res.Source)
	assert.Equal(t, 2, res.TradeCount)
	for _, lb := range []int{1, 10_001, -3} {
		_, err = b.svc.Biases(ctx, a, workspace.BiasInput{Trades: given, Lookback: lb})
		assert.ErrorContains(t, err, fmt.Sprintf("lookback_count: must be between 2 and 10000 (got %d)", lb))
	}
}
