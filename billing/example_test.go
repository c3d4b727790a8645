package billing_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/billing"
)

// ExampleService_Meter charges a priced operation only after it ran, and
// refuses it without running when the balance is too low.
func ExampleService_Meter() {
	ctx := context.Background()
	store := memstore.New()
	ag, _ := agents.NewService(store, agents.Config{})
	// The platform gives billing the tool catalog's prices; here one.
	prices := billing.Prices{"position_sizing": toolkit.MustParseAmount("0.003")}
	bill, _ := billing.NewService(store, billing.Config{SandboxSelfCredit: true, Prices: prices})
	registered, _ := ag.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "Sizer", AgentType: "trading"}, "")
	a := registered.Agent
	acct := billing.AccountOf(a)

	run := func(context.Context) (billing.Outcome, error) {
		return billing.Outcome{Response: []byte(`{"shares":5000}`), Chargeable: true}, nil
	}
	_, err := bill.Meter(ctx, billing.MeterRequest{Account: acct, Operation: "position_sizing"}, run)
	fmt.Println(toolkit.KindOf(err), toolkit.MessageOf(err))

	_, _ = bill.Deposit(ctx, acct, billing.DepositInput{Amount: toolkit.MustParseAmount("0.01"), FundingPath: billing.FundingDirectTransfer})
	m, err := bill.Meter(ctx, billing.MeterRequest{Account: acct, Operation: "position_sizing"}, run)
	fmt.Println(string(m.Response), m.Charged, *m.Balance, err)
	// Output:
	// insufficient_credits Insufficient balance. Required: $0.003, Available: $0.00
	// {"shares":5000} 0.003 0.007 <nil>
}
