package solanarpc_test

import (
	"context"
	"testing"

	"github.com/agentfinance/toolkit/billing"
)

// BenchmarkVerifyDeposit verifies a v0 USDC deposit against the local fake
// node: one getTransaction round trip over loopback HTTP plus decoding and
// checks (the genesis hash is cached after the first call).
func BenchmarkVerifyDeposit(b *testing.B) {
	n, fx := nodeWithFixtures(b)
	c := newClient(b, n.URL(), nil)
	q := billing.DepositQuery{Signature: fx["usdc_v0_lookup_table"].Signature, Asset: billing.USDC, AgentID: fixtureAgentID, Wallets: []string{agentPK.String()}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.VerifyDeposit(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
}
