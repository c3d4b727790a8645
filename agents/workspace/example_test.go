package workspace_test

import (
	"context"
	"fmt"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/cryptovault"
)

// An agent keeps memories, sealed with its own key and searchable by
// BM25 over a keyed-hash index; another agent never finds them.
func Example() {
	ctx := context.Background()
	master, lookup, _ := tinkkeys.NewKeysets()
	keys, _ := tinkkeys.New(master, lookup)
	store := memstore.New()
	ws, _ := workspace.NewService(store, workspace.Config{Vault: cryptovault.New(keys)})
	reg, _ := agents.NewService(store, agents.Config{})
	swing, _ := reg.Register(ctx, agents.RegisterInput{OwnerID: "desk-7", AgentName: "swing", AgentType: "trading"}, "")
	scalp, _ := reg.Register(ctx, agents.RegisterInput{OwnerID: "desk-8", AgentName: "scalp", AgentType: "trading"}, "")
	a, b := swing.Agent, scalp.Agent
	me, other := a.ID, b.ID
	for _, text := range []string{"BTC ranges in Asian hours", "ETH breakouts fail on Fridays", "Cut size after two losses"} {
		if _, err := ws.StoreMemory(ctx, me, workspace.MemoryInput{Content: text, Category: "lessons"}); err != nil {
			panic(err)
		}
	}
	found, _ := ws.SearchMemory(ctx, me, workspace.SearchInput{Query: "asian hours btc"})
	fmt.Println(found.Count, found.Memories[0].Content)
	theirs, _ := ws.SearchMemory(ctx, other, workspace.SearchInput{Query: "asian hours btc"})
	fmt.Println(theirs.Count)
	// Output:
	// 1 BTC ranges in Asian hours
	// 0
}
