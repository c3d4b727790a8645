package agents_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/agents"
)

// ExampleService_Register registers an agent, whose API key is shown only
// this once, and authenticates with it.
func ExampleService_Register() {
	ctx := context.Background()
	svc, _ := agents.NewService(memstore.New(), agents.Config{})
	registered, err := svc.Register(ctx, agents.RegisterInput{OwnerID: "acme", AgentName: "RiskBot", AgentType: "risk"}, "")
	a, key := registered.Agent, registered.APIKey
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Mode, strings.HasPrefix(key, agents.DefaultKeyPrefix), len(key))

	me, err := svc.Authenticate(ctx, key)
	fmt.Println(me.ID == a.ID, err)
	// Output:
	// sandbox true 50
	// true <nil>
}
