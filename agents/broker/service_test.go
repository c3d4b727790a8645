package broker_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/broker"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var ctx = context.Background()

// fakeAlpaca accepts the key "good" and records what it was given.
type fakeAlpaca struct{ got []broker.Connection }

func (f *fakeAlpaca) Account(_ context.Context, conn broker.Connection) (broker.Account, error) {
	f.got = append(f.got, conn)
	if conn.Params["api_key"] != "good" {
		return broker.Account{}, toolkit.Errorf(toolkit.Invalid, "connection_params.api_key: the broker refused the credentials")
	}
	return broker.Account{AccountID: "PA1234567", Currency: "USD", Equity: toolkit.MustParseAmount("100000.00"),
		Cash: toolkit.MustParseAmount("50000.00"), BuyingPower: toolkit.MustParseAmount("200000.00"), MarginUsed: toolkit.MustParseAmount("0")}, nil
}

// savedStore records every connection saved.
type savedStore struct {
	broker.Store
	saved []broker.ConnectionRecord
}

func (s *savedStore) SaveBrokerConnection(ctx context.Context, c broker.ConnectionRecord) error {
	s.saved = append(s.saved, c)
	return s.Store.SaveBrokerConnection(ctx, c)
}

type desk struct {
	svc    *broker.Service
	store  *memstore.Store
	saved  *savedStore
	alpaca *fakeAlpaca
}

func newDesk(t *testing.T) *desk {
	t.Helper()
	d := &desk{store: memstore.New(), alpaca: &fakeAlpaca{}}
	d.saved = &savedStore{Store: d.store}
	master, lookup, err := tinkkeys.NewKeysets()
	require.NoError(t, err)
	keys, err := tinkkeys.New(master, lookup)
	require.NoError(t, err)
	d.svc, err = broker.NewService(d.saved, broker.Config{Vault: cryptovault.New(keys), Brokers: map[string]broker.Broker{"alpaca": d.alpaca},
		Now: func() time.Time { return time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) }})
	require.NoError(t, err)
	return d
}

func (d *desk) agent(t *testing.T, id string, mode agents.Mode) agents.Agent {
	t.Helper()
	digest := sha256.Sum256([]byte(id))
	a := agents.Agent{ID: id, OwnerID: "owner-" + id, Name: id, Type: agents.TypeTrading, Mode: mode, CreatedAt: time.Now()}
	require.NoError(t, d.store.CreateAgent(ctx, agents.Registration{Agent: a, KeyDigest: digest[:], NewOwner: true}))
	return a
}

func TestSupportedBrokers(t *testing.T) {
	d := newDesk(t)
	got := d.svc.Supported()
	require.Len(t, got, len(broker.IDs()))
	available := map[string]bool{}
	for _, b := range got {
		available[b.ID] = b.Available
		assert.NotEmpty(t, b.Description)
	}
	assert.Equal(t, map[string]bool{"demo": true, "alpaca": true, "ibkr": false, "schwab": false, "binance": false}, available)
	assert.True(t, got[0].SandboxAllowed)
	_, err := broker.NewService(d.store, broker.Config{Vault: cryptovault.New(nil), Brokers: map[string]broker.Broker{"etrade": d.alpaca}})
	assert.ErrorContains(t, err, `no broker "etrade"`)
}

func TestTheBrokerPortCannotTrade(t *testing.T) {
	port := reflect.TypeFor[broker.Broker]()
	require.Equal(t, 1, port.NumMethod(), "the Broker port only reads accounts")
	assert.Equal(t, "Account", port.Method(0).Name)
}

func TestDemoConnectionIsDeterministicAndSealed(t *testing.T) {
	d := newDesk(t)
	a := d.agent(t, "agt_demo", agents.ModeSandbox)
	c, err := d.svc.Connect(ctx, a, broker.ConnectInput{BrokerType: "demo",
		Params: map[string]string{"starting_equity": "25000.5", "account_label": "label-platypus"}})
	require.NoError(t, err)
	assert.Equal(t, "demo", c.BrokerType)
	assert.Regexp(t, `^DEMO-[0-9A-F]{8}$`, c.Account.AccountID)
	assert.Equal(t, "25000.50", c.Account.Equity.String())
	assert.Equal(t, "50001.00", c.Account.BuyingPower.String())
	assert.True(t, c.Account.Paper)

	v, err := d.svc.Account(ctx, a.ID)
	require.NoError(t, err)
	assert.Equal(t, c.Account, v.Account, "the same figures on every read")
	assert.Equal(t, "label-platypus", v.Account.Label, "parameters open at the point of use")
	require.Len(t, d.saved.saved, 1)
	assert.False(t, bytes.Contains(d.saved.saved[0].Params, []byte("platypus")), "parameters are sealed")
	assert.False(t, bytes.Contains(d.saved.saved[0].Params, []byte("25000")))

	other := d.agent(t, "agt_demo2", agents.ModeSandbox)
	c2, err := d.svc.Connect(ctx, other, broker.ConnectInput{BrokerType: "demo"})
	require.NoError(t, err)
	assert.NotEqual(t, c.Account.AccountID, c2.Account.AccountID, "one account per agent")
	assert.Equal(t, "100000.00", c2.Account.Equity.String())
	assert.Equal(t, "0.00", c2.Account.MarginUsed.String())

	require.NoError(t, d.svc.Disconnect(ctx, a.ID))
	_, err = d.svc.Account(ctx, a.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	err = d.svc.Disconnect(ctx, a.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound), "%v", err)
	assert.ErrorContains(t, err, "No broker connected")
	_, err = d.svc.Account(ctx, other.ID)
	assert.NoError(t, err, "the other agent's connection is untouched")
}

func TestSandboxAgentsMayConnectOnlyDemo(t *testing.T) {
	d := newDesk(t)
	sandbox := d.agent(t, "agt_sandbox", agents.ModeSandbox)
	for _, bt := range []string{"alpaca", "ibkr", "schwab", "binance"} {
		_, err := d.svc.Connect(ctx, sandbox, broker.ConnectInput{BrokerType: bt, Params: map[string]string{"api_key": "good", "api_secret": "s"}})
		require.Error(t, err, bt)
		assert.True(t, toolkit.IsKind(err, toolkit.Forbidden), "%s: %v", bt, err)
		assert.Contains(t, err.Error(), "sandbox agents may connect only the demo broker")
	}
	assert.Empty(t, d.alpaca.got, "the broker was never called")
	assert.Empty(t, d.saved.saved)
}

func TestLiveAgentConnectsARealBroker(t *testing.T) {
	d := newDesk(t)
	live := d.agent(t, "agt_live", agents.ModeLive)
	params := map[string]string{"api_key": "good", "api_secret": "secret-okapi", "paper": "true"}
	c, err := d.svc.Connect(ctx, live, broker.ConnectInput{BrokerType: "alpaca", Params: params})
	require.NoError(t, err)
	assert.Equal(t, "PA1234567", c.Account.AccountID)
	assert.False(t, bytes.Contains(d.saved.saved[0].Params, []byte("okapi")))
	v, err := d.svc.Account(ctx, live.ID)
	require.NoError(t, err)
	assert.Equal(t, "alpaca", v.BrokerType)
	require.Len(t, d.alpaca.got, 2)
	assert.Equal(t, params, d.alpaca.got[1].Params, "the adapter gets the opened parameters")

	_, err = d.svc.Connect(ctx, live, broker.ConnectInput{BrokerType: "ibkr"})
	assert.True(t, toolkit.IsKind(err, toolkit.Invalid), "%v", err)
	assert.ErrorContains(t, err, "no adapter for it; available: demo, alpaca")

	_, err = d.svc.Connect(ctx, live, broker.ConnectInput{BrokerType: "demo"})
	require.NoError(t, err, "connecting again replaces the connection")
	v, err = d.svc.Account(ctx, live.ID)
	require.NoError(t, err)
	assert.Equal(t, "demo", v.BrokerType)
}

func TestConnectBadInputStoresNothing(t *testing.T) {
	d := newDesk(t)
	live := d.agent(t, "agt_bad", agents.ModeLive)
	many := map[string]string{}
	for i := range 17 {
		many[strings.Repeat("k", i+1)] = "v"
	}
	cases := []struct {
		in   broker.ConnectInput
		msg  string
		kind toolkit.Kind
	}{
		{broker.ConnectInput{BrokerType: "robinhood"}, `broker_type: must be one of demo, alpaca, ibkr, schwab, binance (got "robinhood")`, toolkit.Invalid},
		{broker.ConnectInput{BrokerType: "alpaca", Params: map[string]string{"api_key": "good"}}, "connection_params.api_secret: required for alpaca", toolkit.Invalid},
		{broker.ConnectInput{BrokerType: "demo", Params: map[string]string{"password": "x"}}, `unknown parameter "password" for demo`, toolkit.Invalid},
		{broker.ConnectInput{BrokerType: "demo", Params: map[string]string{"account_label": strings.Repeat("x", 513)}}, "connection_params.account_label: at most 512", toolkit.Invalid},
		{broker.ConnectInput{BrokerType: "demo", Params: map[string]string{"account_label": strings.Repeat("x", 101)}}, "connection_params.account_label: at most 100", toolkit.Invalid},
		{broker.ConnectInput{BrokerType: "demo", Params: map[string]string{"starting_equity": "0.001"}}, "connection_params.starting_equity", toolkit.Invalid},
		{broker.ConnectInput{BrokerType: "demo", Params: many}, "at most 16 parameters", toolkit.TooLarge},
		{broker.ConnectInput{BrokerType: "alpaca", Params: map[string]string{"api_key": "bad", "api_secret": "s"}}, "the broker refused the credentials", toolkit.Invalid},
	}
	for _, tc := range cases {
		_, err := d.svc.Connect(ctx, live, tc.in)
		require.Error(t, err, tc.msg)
		assert.True(t, toolkit.IsKind(err, tc.kind), "%v", err)
		assert.Contains(t, err.Error(), tc.msg)
	}
	assert.Empty(t, d.saved.saved)
	_, err := d.svc.Account(ctx, live.ID)
	assert.True(t, toolkit.IsKind(err, toolkit.NotFound))
}
