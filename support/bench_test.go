package support_test

import (
	"crypto/sha256"
	"testing"
	"time"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/tinkkeys"
	"github.com/agentfinance/toolkit/agents"
	"github.com/agentfinance/toolkit/cryptovault"
	"github.com/agentfinance/toolkit/support"
)

// benchDesk is a Service over memstore with in-memory keys and one agent,
// so the numbers are the domain's own cost: validation, sealing, opening.
func benchDesk(b *testing.B) (*support.Service, string) {
	b.Helper()
	store := memstore.New()
	master, lookup, err := tinkkeys.NewKeysets()
	if err != nil {
		b.Fatal(err)
	}
	km, err := tinkkeys.New(master, lookup)
	if err != nil {
		b.Fatal(err)
	}
	digest := sha256.Sum256([]byte("bench"))
	if err := store.CreateAgent(ctx, agents.Registration{Agent: agents.Agent{ID: "agt_bench", OwnerID: "o", Name: "b", Type: agents.TypeRisk,
		Mode: agents.ModeSandbox, CreatedAt: time.Now()}, KeyDigest: digest[:], NewOwner: true}); err != nil {
		b.Fatal(err)
	}
	svc, err := support.NewService(store, support.Config{Vault: cryptovault.New(km)})
	if err != nil {
		b.Fatal(err)
	}
	return svc, "agt_bench"
}

// BenchmarkCreateTicket: validate, seal subject and description, store.
func BenchmarkCreateTicket(b *testing.B) {
	svc, agent := benchDesk(b)
	in := ticketInput("Charged twice for one call")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.CreateTicket(ctx, agent, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListTickets100: one page of 100 tickets, each subject opened.
func BenchmarkListTickets100(b *testing.B) {
	svc, agent := benchDesk(b)
	for range 100 {
		if _, err := svc.CreateTicket(ctx, agent, ticketInput("Charged twice for one call")); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		l, err := svc.Tickets(ctx, agent, "", toolkit.PageInput{Limit: 100})
		if err != nil || len(l.Tickets) != 100 {
			b.Fatal(err, len(l.Tickets))
		}
	}
}
