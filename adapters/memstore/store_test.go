package memstore_test

import (
	"testing"

	"github.com/agentfinance/toolkit/adapters/memstore"
	"github.com/agentfinance/toolkit/adapters/storetest"
)

// TestConformance runs the full store contract. The n handles the suite
// asks for are one store: in memory, every handle shares the same state,
// as servers on one database do.
func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Harness{Open: func(t *testing.T, n int) []storetest.Store {
		s := memstore.New()
		out := make([]storetest.Store, n)
		for i := range out {
			out[i] = s
		}
		return out
	}})
}
