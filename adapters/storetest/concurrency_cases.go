package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// concurrencyCases returns the cases that race many goroutines (and two
// store handles) on one balance: the money invariants must hold exactly.
func concurrencyCases() []Case {
	return []Case{
		{Name: "ConcurrentChargesExact", Test: testConcurrentChargesExact},
		{Name: "ConcurrentIdempotencyChargesOnce", Test: testConcurrentIdempotencyChargesOnce},
		{Name: "ConcurrentDepositsCreditOnce", Test: testConcurrentDepositsCreditOnce},
		{Name: "ConcurrentDailyCapExact", Test: testConcurrentDailyCapExact},
		{Name: "TwoInstancesMixedPrices", Test: testTwoInstancesMixedPrices},
	}
}

// parallel runs fn(i) for i in [0, n) on n goroutines started together.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			fn(i)
		}()
	}
	close(start)
	wg.Wait()
}

// onceAmong runs fn(i) for i in [0, n) on n goroutines started together
// and asserts that exactly one succeeds and every other is refused as a
// conflict (a replay), nothing else.
func onceAmong(t *testing.T, n int, fn func(i int) error) {
	t.Helper()
	var ok, replay, other atomic.Int64
	parallel(n, func(i int) {
		switch err := fn(i); {
		case err == nil:
			ok.Add(1)
		case toolkit.IsKind(err, toolkit.Conflict):
			replay.Add(1)
		default:
			other.Add(1)
			t.Log(err)
		}
	})
	assert.Equal(t, int64(1), ok.Load(), "one success")
	assert.Equal(t, int64(n-1), replay.Load(), "every other attempt is a replay")
	assert.Zero(t, other.Load(), "no other outcome")
}

// checkLedger asserts the money invariants of one agent, per class of
// funds: the class's ledger rows sum to its balance, the newest row of a
// class carries that balance, no balance_after is negative, and usage
// matches the consumption rows.
func checkLedger(t *testing.T, s Store, agentID string) {
	t.Helper()
	b, err := s.Balance(ctx, agentID)
	require.NoError(t, err)
	txs, err := s.Transactions(ctx, billing.TransactionQuery{AgentID: agentID, Limit: billing.MaxTransactionsLimit})
	require.NoError(t, err)
	require.Less(t, len(txs), billing.MaxTransactionsLimit, "test ledgers must fit one page")
	sum := map[billing.Funds]int64{}
	newest := map[billing.Funds]int64{}
	count := map[string]int64{}
	total := map[string]int64{}
	for _, tx := range txs {
		require.Contains(t, []billing.Funds{billing.FundsReal, billing.FundsTest}, tx.Funds, "every row names its class")
		if _, seen := newest[tx.Funds]; !seen {
			newest[tx.Funds] = tx.BalanceAfter
		}
		sum[tx.Funds] += tx.AmountMicros
		assert.GreaterOrEqual(t, tx.BalanceAfter, int64(0), "balance_after never below zero")
		if tx.Type == billing.TypeConsumption {
			count[*tx.Operation]++
			total[*tx.Operation] -= tx.AmountMicros
		}
	}
	for _, f := range []billing.Funds{billing.FundsReal, billing.FundsTest} {
		assert.Equal(t, b.Of(f), sum[f], "ledger sum of %s funds equals their balance", f)
		if n, ok := newest[f]; ok {
			assert.Equal(t, b.Of(f), n, "newest balance_after of %s funds is their balance", f)
		}
	}
	usage, err := s.Usage(ctx, agentID)
	require.NoError(t, err)
	for _, u := range usage {
		assert.Equal(t, count[u.Operation], u.Count, u.Operation)
		assert.Equal(t, total[u.Operation], u.TotalMicros, u.Operation)
	}
	assert.Len(t, usage, len(count))
}

func testConcurrentChargesExact(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	var ok, insufficient, other atomic.Int64
	parallel(500, func(int) {
		_, err := s.Charge(ctx, chargeReq(a.ID, "position_sizing", 3000))
		switch {
		case err == nil:
			ok.Add(1)
		case toolkit.IsKind(err, toolkit.InsufficientCredits):
			insufficient.Add(1)
		default:
			other.Add(1)
			t.Log(err)
		}
	})
	assert.Equal(t, int64(333), ok.Load())
	assert.Equal(t, int64(167), insufficient.Load())
	assert.Zero(t, other.Load())
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(1000), b.Micros, "final balance 0.001000")
	usage, err := s.Usage(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, []billing.UsageLine{{Operation: "position_sizing", Count: 333, TotalMicros: 999_000}}, usage)
	checkLedger(t, s, a.ID)
}

func testConcurrentIdempotencyChargesOnce(t *testing.T, h Harness) {
	s := openOne(t, h)
	svc, err := billing.NewService(s, billing.Config{Prices: suitePrices()})
	require.NoError(t, err)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	var runs atomic.Int64
	responses := make([]string, 20)
	errs := make([]error, 20)
	parallel(20, func(i int) {
		m, err := svc.Meter(ctx, billing.MeterRequest{Account: billing.Account{AgentID: a.ID}, Operation: "pre_trade_gate",
			IdempotencyKey: "gate-1", Body: []byte(`{"symbol":"AAPL"}`)},
			func(context.Context) (billing.Outcome, error) {
				n := runs.Add(1)
				return billing.Outcome{Response: []byte(fmt.Sprintf(`{"run":%d}`, n)), Chargeable: true}, nil
			})
		responses[i], errs[i] = string(m.Response), err
	})
	winner := ""
	for i := range errs {
		require.NoError(t, errs[i])
		if winner == "" {
			winner = responses[i]
		}
	}
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(990_000), b.Micros, "charged exactly once")
	stored, err := s.StoredResponse(ctx, a.ID, "gate-1")
	require.NoError(t, err)
	for i := range responses {
		assert.Equal(t, string(stored.Response), responses[i], "every retry sees the stored response")
	}
	checkLedger(t, s, a.ID)

	_, err = svc.Meter(ctx, billing.MeterRequest{Account: billing.Account{AgentID: a.ID}, Operation: "pre_trade_gate",
		IdempotencyKey: "gate-1", Body: []byte(`{"symbol":"MSFT"}`)},
		func(context.Context) (billing.Outcome, error) { t.Error("must not run"); return billing.Outcome{}, nil })
	assert.Equal(t, toolkit.Conflict, toolkit.KindOf(err), "same key, different body")
}

func testConcurrentDepositsCreditOnce(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	ref := "solana:sig-concurrent"
	var ok, dup atomic.Int64
	parallel(20, func(i int) {
		_, err := s.Credit(ctx, billing.CreditRequest{TxID: fmt.Sprintf("tx_cc%d", seq.Add(1)), AgentID: a.ID,
			Micros: 2_500_000, FundingPath: billing.FundingDirectTransfer, ExternalRef: &ref, At: t0})
		if err == nil {
			ok.Add(1)
		} else if toolkit.IsKind(err, toolkit.Conflict) {
			dup.Add(1)
		} else {
			t.Log(err)
		}
	})
	assert.Equal(t, int64(1), ok.Load())
	assert.Equal(t, int64(19), dup.Load())
	b, err := s.Balance(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, int64(2_500_000), b.Micros)
	checkLedger(t, s, a.ID)
}

func testConcurrentDailyCapExact(t *testing.T, h Harness) {
	s := openOne(t, h)
	a := newAgent(t, s)
	credit(t, s, a.ID, 1_000_000, nil)
	dailyCap := int64(30_000)
	var ok, capped atomic.Int64
	parallel(50, func(int) {
		req := chargeReq(a.ID, "position_sizing", 3000)
		req.Limits = billing.SpendLimits{DailyMicros: &dailyCap}
		_, err := s.Charge(ctx, req)
		switch {
		case err == nil:
			ok.Add(1)
		case toolkit.IsKind(err, toolkit.Forbidden):
			capped.Add(1)
		default:
			t.Log(err)
		}
	})
	assert.Equal(t, int64(10), ok.Load(), "the daily cap holds under concurrency")
	assert.Equal(t, int64(40), capped.Load())
	checkLedger(t, s, a.ID)
}

func testTwoInstancesMixedPrices(t *testing.T, h Harness) {
	stores := h.Open(t, 2)
	require.Len(t, stores, 2)
	a := newAgent(t, stores[0])
	credit(t, stores[1], a.ID, 1_000_000, nil)
	prices := []int64{3000, 4000, 10_000, 8000}
	var spent, ok, insufficient atomic.Int64
	parallel(300, func(i int) {
		s := stores[i%2]
		price := prices[i%len(prices)]
		_, err := s.Charge(ctx, chargeReq(a.ID, fmt.Sprintf("op_%d", price), price))
		switch {
		case err == nil:
			ok.Add(1)
			spent.Add(price)
		case toolkit.IsKind(err, toolkit.InsufficientCredits):
			insufficient.Add(1)
		default:
			t.Log(err)
		}
	})
	assert.Equal(t, int64(300), ok.Load()+insufficient.Load())
	assert.Positive(t, insufficient.Load(), "the balance runs out")
	for _, s := range stores {
		b, err := s.Balance(ctx, a.ID)
		require.NoError(t, err)
		assert.Equal(t, 1_000_000-spent.Load(), b.Micros)
		assert.Less(t, b.Micros, int64(10_000), "calls fail only when the balance is below their price")
		checkLedger(t, s, a.ID)
	}
}
