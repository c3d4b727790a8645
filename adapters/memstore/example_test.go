package memstore_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

// Example wires the domain services on an in-memory store: register an
// agent, self-credit sandbox funds, meter one priced call, read the ledger.
func Example() {
	ctx := context.Background()
	store := memstore.New()
	ag, err := agents.NewService(store, agents.Config{})
	if err != nil {
		panic(err)
	}
	// The platform gives billing the tool catalog's prices; here one.
	prices := billing.Prices{"position_sizing": toolkit.MustParseAmount("0.003")}
	bill, err := billing.NewService(store, billing.Config{SandboxSelfCredit: true, Prices: prices})
	if err != nil {
		panic(err)
	}

	registered, err := ag.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "Sizer", AgentType: "trading"}, "")
	a := registered.Agent
	if err != nil {
		panic(err)
	}
	acct := billing.AccountOf(a) // a new agent is in sandbox: it pays from test funds
	if _, err := bill.Deposit(ctx, acct, billing.DepositInput{
		Amount: toolkit.MustParseAmount("1"), FundingPath: billing.FundingDirectTransfer}); err != nil {
		panic(err)
	}
	m, err := bill.Meter(ctx, billing.MeterRequest{Account: acct, Operation: "position_sizing"},
		func(context.Context) (billing.Outcome, error) {
			return billing.Outcome{Response: []byte(`{"shares":5000}`), Chargeable: true}, nil
		})
	if err != nil {
		panic(err)
	}
	fmt.Println("response:", string(m.Response), "charged:", m.Charged)

	bal, err := bill.Balance(ctx, acct)
	if err != nil {
		panic(err)
	}
	fmt.Println("balance:", bal.Balance, "real:", bal.RealBalance, "sandbox:", bal.SandboxBalance, "pays from:", bal.PaysFrom)
	page, err := bill.Transactions(ctx, a.ID, 10, "")
	if err != nil {
		panic(err)
	}
	for _, tx := range page.Transactions {
		fmt.Println(tx.Type, tx.Funds, billing.USD(tx.AmountMicros), "->", billing.USD(tx.BalanceAfter))
	}
	// Output:
	// response: {"shares":5000} charged: 0.003
	// balance: 0.997 real: 0.00 sandbox: 0.997 pays from: test
	// consumption test -0.003 -> 0.997
	// deposit test 1.00 -> 1.00
}
