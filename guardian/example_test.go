package guardian_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/guardian"
)

// An agent reports suspicious activity; the operator lists the events and
// the active alerts.
func Example() {
	ctx := context.Background()
	g, _ := guardian.New(memstore.New(), guardian.Config{Version: "0.3.0"})

	receipt, _ := g.Report(ctx, guardian.ReportInput{AgentID: "agt_0123456789abcdef", ReportType: "suspicious_activity",
		Description: "Someone else used my key", Verified: true})
	fmt.Println(receipt.Status)

	events, _ := g.Events(ctx, guardian.EventFilter{Severity: "critical"})
	alerts, _ := g.Alerts(ctx, 0, "")
	fmt.Println(len(events.Events), events.Events[0].Type, len(alerts.Events))
	fmt.Println(g.Status(ctx).Status)
	// Output:
	// recorded
	// 1 agent_report 1
	// operational
}
