package billing

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewServiceDefaults(t *testing.T) {
	svc, err := NewService(newFakeStore(), Config{})
	require.NoError(t, err)
	assert.Equal(t, Prices{}, svc.Prices(), "no table: every operation is free")
	assert.Equal(t, "0.01", svc.cfg.LowBalance.String())
	assert.Equal(t, "100", svc.cfg.SandboxCreditCap.String())
	assert.NotNil(t, svc.cfg.Now)
	id, err := svc.newTxID()
	require.NoError(t, err)
	assert.Regexp(t, `^tx_[a-z0-9]{16}$`, id, "crypto/rand by default")
}

func TestNewServiceRefusesBadConfig(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"negative price", Config{Prices: Prices{"x": amount("-0.01")}}, "price of x is negative"},
		{"price not whole micro-USD", Config{Prices: Prices{"x": amount("0.0000005")}}, "must be whole micro-USD"},
		{"presale price not whole micro-USD", Config{Prices: Prices{"x": amount("0.000001")}}, "(and 80 % of it) must be whole micro-USD"},
		{"credit cap below a micro-USD", Config{SandboxCreditCap: amount("0.0000001")}, "sandbox credit cap"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewService(newFakeStore(), c.cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestPrices(t *testing.T) {
	svc := newService(t, newFakeStore())
	cases := []struct {
		op      string
		presale bool
		want    string
	}{
		{"position_sizing", false, "0.003"},
		{"position_sizing", true, "0.0024"},
		{"full_eval", false, "0.50"},
		{"full_eval", true, "0.40"},
		{"assess_trading_system", true, "1.60"},
		{"calculate_expected_value", false, "0.00"},
		{"calculate_expected_value", true, "0.00"},
		{"store_memory", false, "0.002"},
		{"store_memory", true, "0.0016"},
		{"search_memory", true, "0.0008"},
		{"record_trade_journal", true, "0.0024"},
		{"get_trading_biases", false, "0.00"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, svc.Price(c.op, c.presale).String(), "%s presale=%v", c.op, c.presale)
	}
	assert.Equal(t, []string{"assess_trading_system", "basic_eval", "comprehensive_eval", "full_eval",
		"position_sizing", "pre_trade_gate", "record_trade_journal", "risk_check", "run_monte_carlo", "search_memory",
		"store_memory"}, svc.Prices().Operations())
}

func TestUSD(t *testing.T) {
	for micros, want := range map[int64]string{0: "0.00", 1: "0.000001", 2_400: "0.0024", 10_000: "0.01",
		1_000_000: "1.00", 123_456_789: "123.456789", -3_000: "-0.003"} {
		assert.Equal(t, want, USD(micros).String(), micros)
	}
}

func TestBalanceIsLow(t *testing.T) {
	cases := []struct {
		micros int64
		low    bool
	}{{0, true}, {9_999, true}, {10_000, false}, {1_000_000, false}}
	for _, c := range cases {
		store := newFakeStore()
		store.balances[agentID] = c.micros
		b, err := newService(t, store).Balance(context.Background(), Account{AgentID: agentID})
		require.NoError(t, err)
		assert.Equal(t, c.low, b.IsLow, "balance %d micro-USD against the default 0.01", c.micros)
		assert.Equal(t, USD(c.micros), b.Balance)
		assert.Equal(t, agentID, b.AgentID)
		assert.Equal(t, time.UTC, b.UpdatedAt.Location())
		assert.True(t, b.UpdatedAt.Equal(store.updatedAt))
	}

	store := newFakeStore()
	store.balances[agentID] = 400_000
	svc := newService(t, store, func(c *Config) { c.LowBalance = amount("0.5") })
	b, err := svc.Balance(context.Background(), Account{AgentID: agentID})
	require.NoError(t, err)
	assert.True(t, b.IsLow, "a configured threshold")

	_, err = newService(t, newFakeStore().fail("Balance", errBoom)).Balance(context.Background(), Account{AgentID: agentID})
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
}

// TestBalanceShowsBothClasses: balance is real money, sandbox_balance
// test money; is_low is about the class the account pays from.
func TestBalanceShowsBothClasses(t *testing.T) {
	store := newFakeStore()
	store.balances[agentID], store.test[agentID] = 5_000, 2_000_000
	svc := newService(t, store)
	for _, c := range []struct {
		acct  Account
		pays  Funds
		isLow bool
	}{
		{Account{AgentID: agentID, Funds: FundsTest}, FundsTest, false},
		{Account{AgentID: agentID, Funds: FundsReal}, FundsReal, true},
		{Account{AgentID: agentID}, FundsReal, true},
	} {
		b, err := svc.Balance(context.Background(), c.acct)
		require.NoError(t, err)
		want := map[Funds]string{FundsTest: "2.00", FundsReal: "0.005"}[c.pays]
		assert.Equal(t, want, b.Balance.String(), "balance is what the calls are paid from")
		assert.Equal(t, "0.005", b.RealBalance.String())
		assert.Equal(t, "2.00", b.SandboxBalance.String())
		assert.Equal(t, c.pays, b.PaysFrom)
		assert.Equal(t, c.isLow, b.IsLow, c.acct.Funds)
	}
}

func TestTransactionsLimit(t *testing.T) {
	store := newFakeStore()
	store.txs = []Transaction{{TxID: "tx_2", Seq: 2}, {TxID: "tx_1", Seq: 1}}
	svc := newService(t, store)
	cases := []struct {
		limit int
		ok    bool
		n     int
	}{{-1, false, 0}, {0, true, 2}, {1, true, 1}, {2, true, 2}, {MaxTransactionsLimit, true, 2}, {MaxTransactionsLimit + 1, false, 0}}
	for _, c := range cases {
		page, err := svc.Transactions(context.Background(), agentID, c.limit, "")
		if !c.ok {
			assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), c.limit)
			assert.Contains(t, toolkit.MessageOf(err), "limit: must be an integer between 1 and 1000", c.limit)
			continue
		}
		require.NoError(t, err, c.limit)
		assert.Len(t, page.Transactions, c.n, c.limit)
		assert.Equal(t, c.limit == 1, page.HasMore, c.limit)
	}
	assert.Equal(t, 4, store.calls["Transactions"], "bad limits never reach the store (0 is the default, 100)")

	store.fail("Transactions", errBoom)
	_, err := svc.Transactions(context.Background(), agentID, 10, "")
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
}

func TestTransactionsPages(t *testing.T) {
	store := newFakeStore()
	for seq := int64(5); seq >= 1; seq-- {
		store.txs = append(store.txs, Transaction{TxID: fmt.Sprintf("tx_%d", seq), Seq: seq})
	}
	svc := newService(t, store)
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 5, "paging ends")
		page, err := svc.Transactions(context.Background(), agentID, 2, cursor)
		require.NoError(t, err)
		assert.Equal(t, 3, store.lastQuery.Limit, "one row more than asked tells whether more follow")
		for _, tx := range page.Transactions {
			got = append(got, tx.TxID)
		}
		if !page.HasMore {
			assert.Empty(t, page.NextCursor)
			break
		}
		require.NotEmpty(t, page.NextCursor)
		cursor = page.NextCursor
	}
	assert.Equal(t, []string{"tx_5", "tx_4", "tx_3", "tx_2", "tx_1"}, got)
}

func TestTransactionsRefuseForeignCursors(t *testing.T) {
	store := newFakeStore()
	store.txs = []Transaction{{TxID: "tx_2", Seq: 2}, {TxID: "tx_1", Seq: 1}}
	svc := newService(t, store)
	page, err := svc.Transactions(context.Background(), agentID, 1, "")
	require.NoError(t, err)
	good := page.NextCursor
	raw, err := base64.RawURLEncoding.DecodeString(good)
	require.NoError(t, err)
	edited := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(raw), ".2.", ".3.", 1)))
	require.NotEqual(t, good, edited)
	calls := store.calls["Transactions"]
	for _, bad := range []string{"x", "%%%", good + "A", good[:len(good)-2], edited, strings.Repeat("A", toolkit.MaxCursorLen+1),
		base64.RawURLEncoding.EncodeToString([]byte("l2.0.0")), toolkit.Cursor{ID: "2"}.Encode("l1"), toolkit.Cursor{ID: "02"}.Encode("l2")} {
		_, err := svc.Transactions(context.Background(), agentID, 1, bad)
		assert.Equal(t, toolkit.Invalid, toolkit.KindOf(err), bad)
		assert.Contains(t, toolkit.MessageOf(err), "cursor:", bad)
	}
	assert.Equal(t, calls, store.calls["Transactions"], "a bad cursor never reaches the store")
	next, err := svc.Transactions(context.Background(), agentID, 1, good)
	require.NoError(t, err)
	assert.Equal(t, "tx_1", next.Transactions[0].TxID)
}

func TestUsage(t *testing.T) {
	store := newFakeStore()
	store.usage = []UsageLine{{Operation: "risk_check", Count: 2, TotalMicros: 8_000}}
	svc := newService(t, store)
	lines, err := svc.Usage(context.Background(), agentID)
	require.NoError(t, err)
	assert.Equal(t, store.usage, lines)
	store.fail("Usage", errBoom)
	_, err = svc.Usage(context.Background(), agentID)
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
}

func TestPruneStoredResponsesUsesTheRetention(t *testing.T) {
	store := newFakeStore()
	store.stored["k"] = IdempotentResponse{Key: "k"}
	n, err := newService(t, store).PruneStoredResponses(context.Background())
	require.NoError(t, err)
	assert.Equal(t, int64(1), n)
	assert.Equal(t, testNow.Add(-24*time.Hour), store.prunedAt, "default retention 24 h")

	_, err = newService(t, store, func(c *Config) { c.IdempotencyRetention = time.Hour }).PruneStoredResponses(context.Background())
	require.NoError(t, err)
	assert.Equal(t, testNow.Add(-time.Hour), store.prunedAt)

	store.errs["PruneStoredResponses"] = []error{errors.New("db down")}
	_, err = newService(t, store).PruneStoredResponses(context.Background())
	assert.Equal(t, toolkit.Internal, toolkit.KindOf(err))
}
