package billing

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMeterPaysFromTheAccountsFunds: a sandbox account pays from test
// funds only, a live one from real funds only, and the 402 says why the
// other class cannot pay.
func TestMeterPaysFromTheAccountsFunds(t *testing.T) {
	cases := []struct {
		name       string
		funds      Funds
		presale    bool
		real, test int64
		wantErr    string
		wantFunds  Funds
		wantPrice  string
	}{
		{name: "sandbox pays from test funds", funds: FundsTest, real: 0, test: 1_000_000, wantFunds: FundsTest, wantPrice: "0.003"},
		{name: "live pays from real funds", funds: FundsReal, real: 1_000_000, test: 1_000_000, wantFunds: FundsReal, wantPrice: "0.003"},
		{name: "an empty class is real funds", real: 1_000_000, wantFunds: FundsReal, wantPrice: "0.003"},
		{name: "presale buyers pay 80 %", funds: FundsReal, presale: true, real: 1_000_000, wantFunds: FundsReal, wantPrice: "0.0024"},
		{name: "live with only test funds", funds: FundsReal, test: 100_000_000,
			wantErr: "Insufficient balance. Required: $0.003, Available: $0.00 (test funds are spendable in sandbox mode only)"},
		{name: "sandbox with only real funds", funds: FundsTest, real: 4_000_000,
			wantErr: `Insufficient balance. Required: $0.003, Available: $0.00 in test funds (sandbox calls are paid from test funds; your $4.00 of real funds pay in live mode: PUT /v1/agents/mode {"mode":"live"})`},
		{name: "nothing anywhere", funds: FundsReal, wantErr: "Insufficient balance. Required: $0.003, Available: $0.00"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			store := newFakeStore()
			store.balances[agentID], store.test[agentID] = c.real, c.test
			svc := newService(t, store)
			runs := 0
			m, err := svc.Meter(context.Background(), MeterRequest{Account: Account{AgentID: agentID, Funds: c.funds, Presale: c.presale},
				Operation: "position_sizing"}, func(context.Context) (Outcome, error) {
				runs++
				return Outcome{Response: []byte(`{}`), Chargeable: true}, nil
			})
			if c.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, toolkit.InsufficientCredits, toolkit.KindOf(err))
				assert.Equal(t, c.wantErr, toolkit.MessageOf(err))
				assert.Zero(t, runs, "nothing ran")
				assert.Empty(t, store.charges, "nothing charged")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.wantPrice, m.Charged.String())
			require.Len(t, store.charges, 1)
			assert.Equal(t, c.wantFunds, store.charges[0].Funds)
			other := map[Funds]int64{FundsReal: store.test[agentID], FundsTest: store.balances[agentID]}[c.wantFunds]
			assert.Equal(t, map[Funds]int64{FundsReal: c.test, FundsTest: c.real}[c.wantFunds], other, "the other class is untouched")
		})
	}
}
