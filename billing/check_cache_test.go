package billing_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countedStore counts the pre-charge checks that reach the store.
type countedStore struct {
	*memstore.Store
	checks atomic.Int64
}

func (c *countedStore) ChargeCheck(ctx context.Context, agentID string, day, month time.Time) (billing.ChargeCheck, error) {
	c.checks.Add(1)
	return c.Store.ChargeCheck(ctx, agentID, day, month)
}

// deafStore is a store whose change feed is up but delivers nothing: the
// changes another instance makes and whose announcement is still on its
// way (or lost).
type deafStore struct{ *countedStore }

func (deafStore) Subscribe(l agents.ChangeListener) func() { l.FeedUp(); return func() {} }

// cacheFixture is a billing service over a store, an agent in it with 1 USD
// of real funds, and the sizing operation (0.003).
type cacheFixture struct {
	store *countedStore
	svc   *billing.Service
	acct  billing.Account
}

// cachePrices price the fixture's calls (the platform gives billing the
// tool catalog's table).
var cachePrices = billing.Prices{"position_sizing": toolkit.MustParseAmount("0.003")}

func newCacheFixture(t *testing.T, deaf bool) cacheFixture {
	t.Helper()
	f := cacheFixture{store: &countedStore{Store: memstore.New()}}
	a := agents.Agent{ID: "agt_cache", OwnerID: "o", Name: "n", Type: agents.TypeTrading, Mode: agents.ModeLive, CreatedAt: time.Now()}
	require.NoError(t, f.store.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: []byte("d"), NewOwner: true}))
	var store billing.Store = f.store
	if deaf {
		store = deafStore{f.store}
	}
	var err error
	f.svc, err = billing.NewService(store, billing.Config{Cache: agents.CacheConfig{MaxAge: time.Hour}, Prices: cachePrices})
	require.NoError(t, err)
	f.acct = billing.AccountOf(a)
	f.deposit(t, "tx_fund", 1_000_000)
	return f
}

// deposit credits real funds straight in the store (no announcement).
func (f cacheFixture) deposit(t *testing.T, txID string, micros int64) {
	t.Helper()
	_, err := f.store.Credit(ctx, billing.CreditRequest{TxID: txID, AgentID: f.acct.AgentID, Micros: micros,
		FundingPath: billing.FundingDirectTransfer, At: time.Now()})
	require.NoError(t, err)
}

func (f cacheFixture) call(t *testing.T) (billing.Metered, bool, error) {
	t.Helper()
	ran := false
	m, err := f.svc.Meter(ctx, billing.MeterRequest{Account: f.acct, Operation: "position_sizing"},
		func(context.Context) (billing.Outcome, error) {
			ran = true
			return billing.Outcome{Response: []byte(`{}`), Chargeable: true}, nil
		})
	return m, ran, err
}

func (f cacheFixture) balance(t *testing.T) int64 {
	t.Helper()
	b, err := f.store.Balance(ctx, f.acct.AgentID)
	require.NoError(t, err)
	return b.Micros
}

var ctx = context.Background()

func TestMeterChecksFromTheCacheAndKeepsItUpToDate(t *testing.T) {
	f := newCacheFixture(t, false)
	for i := range 5 {
		m, _, err := f.call(t)
		require.NoError(t, err)
		assert.Equal(t, billing.USD(1_000_000-int64(i+1)*3_000).String(), m.Balance.String())
	}
	assert.Equal(t, int64(1), f.store.checks.Load(), "one pre-charge read, then the cache: the charge is the call's only round trip")
	assert.Equal(t, int64(985_000), f.balance(t))
}

func TestMeterConfirmsACachedRefusal(t *testing.T) {
	f := newCacheFixture(t, true)
	limit := toolkit.MustParseAmount("0.006")
	_, err := f.svc.SetLimits(ctx, f.acct.AgentID, billing.LimitsInput{DailyLimit: &limit})
	require.NoError(t, err)
	for range 2 {
		_, _, err := f.call(t)
		require.NoError(t, err)
	}
	_, ran, err := f.call(t)
	require.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "the daily cap is reached")
	assert.False(t, ran)

	raised := toolkit.MustParseAmount("1")
	_, err = f.svc.SetLimits(ctx, f.acct.AgentID, billing.LimitsInput{DailyLimit: &raised})
	require.NoError(t, err) // an admin raises the cap: this feed never tells the cache
	_, ran, err = f.call(t)
	require.NoError(t, err, "the cached check refused; the store, asked before answering, allows it")
	assert.True(t, ran)
}

func TestMeterConfirmsACachedShortBalance(t *testing.T) {
	f := newCacheFixture(t, true)
	_, err := f.store.Charge(ctx, billing.ChargeRequest{TxID: "tx_spend", AgentID: f.acct.AgentID, Operation: "x",
		Micros: 997_000, At: time.Now(), DayStart: time.Now().Truncate(24 * time.Hour), MonthStart: time.Now().AddDate(0, -1, 0)})
	require.NoError(t, err)
	_, ran, err := f.call(t)
	require.NoError(t, err, "the cache was empty: the 3,000 micro-USD left pay one call")
	assert.True(t, ran)
	_, ran, err = f.call(t)
	require.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err))
	assert.False(t, ran, "402: nothing ran")

	f.deposit(t, "tx_topup", 10_000) // a deposit elsewhere: not announced
	_, ran, err = f.call(t)
	require.NoError(t, err, "a refusal is confirmed in the store, which holds the deposit")
	assert.True(t, ran)
}

// TestStaleCachedLimitsNeverLiftACap: the cache holds a loose cap when the
// store already has a tight one (its announcement has not arrived): the
// call runs on the cached check, but the charge refuses the stale limits
// and the meter, checking the current ones, refuses the call. Nothing is
// charged.
func TestStaleCachedLimitsNeverLiftACap(t *testing.T) {
	f := newCacheFixture(t, true)
	loose := toolkit.MustParseAmount("1")
	_, err := f.svc.SetLimits(ctx, f.acct.AgentID, billing.LimitsInput{DailyLimit: &loose})
	require.NoError(t, err)
	_, _, err = f.call(t)
	require.NoError(t, err, "the loose cap is cached")

	tight := int64(3_000)
	require.NoError(t, f.store.SetSpendLimits(ctx, f.acct.AgentID, billing.SpendLimits{DailyMicros: &tight, Version: 1}))
	before := f.balance(t)
	_, ran, err := f.call(t)
	assert.True(t, ran, "the cached check let it run")
	assert.Equal(t, toolkit.Forbidden, toolkit.KindOf(err), "the current cap refuses it")
	assert.Contains(t, toolkit.MessageOf(err), "Daily spend limit")
	assert.Equal(t, before, f.balance(t), "nothing charged")

	wider := int64(100_000)
	require.NoError(t, f.store.SetSpendLimits(ctx, f.acct.AgentID, billing.SpendLimits{DailyMicros: &wider, Version: 2}))
	_, _, err = f.call(t)
	require.NoError(t, err, "limits changed again but allow the call: it is charged under the current ones")
	assert.Equal(t, before-3_000, f.balance(t))
}

func TestMeterWithoutAChangeFeedReadsEveryCheck(t *testing.T) {
	f := newCacheFixture(t, false)
	svc, err := billing.NewService(struct{ billing.Store }{f.store}, billing.Config{Prices: cachePrices})
	require.NoError(t, err)
	f.svc = svc
	for range 3 {
		_, _, err := f.call(t)
		require.NoError(t, err)
	}
	assert.Equal(t, int64(3), f.store.checks.Load())
}
