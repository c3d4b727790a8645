package billing

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkDepositOnChain credits verified USDC deposits (a scripted
// verifier, the fake store): the domain's own cost per deposit — keyed
// hash and seal of the signature, valuation, one credit.
func BenchmarkDepositOnChain(b *testing.B) {
	chain := &fakeChain{}
	svc, err := NewService(newFakeStore(), Config{Deposits: chain, Vault: testVault})
	if err != nil {
		b.Fatal(err)
	}
	acct := Account{AgentID: agentID}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		sig := fmt.Sprintf("sig%d", i)
		chain.d = usdc(sig, 1_000_000)
		if _, err := svc.DepositOnChain(context.Background(), acct, USDC, sig); err != nil {
			b.Fatal(err)
		}
	}
}
