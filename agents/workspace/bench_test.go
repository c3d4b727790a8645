package workspace_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/agentfinance/toolkit/agents/workspace"
	"github.com/agentfinance/toolkit/finance/performance"
	"github.com/stretchr/testify/require"
)

// vocabulary is a fixed word list for generated memories.
var vocabulary = strings.Fields(`breakout pullback trend range volume support resistance stop target risk reward
	earnings gap momentum reversal rates inflation dollar oil gold bonds equities futures options volatility
	liquidity spread fill slippage entry exit scale hedge position size kelly drawdown recovery regime signal`)

// memoryText returns n words drawn from the vocabulary.
func memoryText(r *rand.Rand, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(words, " ")
}

// BenchmarkStoreMemory stores 200-word memories (tokenise, hash each
// distinct term, seal three fields, write to memstore).
func BenchmarkStoreMemory(b *testing.B) {
	bn := newBench(b, func(c *workspace.Config) { c.MaxMemories = 1 << 30; c.MaxMemoryBytes = 1 << 40 })
	a := bn.agent(b, "agt_bench", "o")
	r := rand.New(rand.NewPCG(1, 2))
	text := memoryText(r, 200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bn.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: text}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchMemory searches 3 terms over 2,000 memories of 50 words.
func BenchmarkSearchMemory(b *testing.B) {
	bn := newBench(b)
	a := bn.agent(b, "agt_bench", "o")
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		_, err := bn.svc.StoreMemory(ctx, a, workspace.MemoryInput{Content: memoryText(r, 50)})
		require.NoError(b, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bn.svc.SearchMemory(ctx, a, workspace.SearchInput{Query: "breakout volume kelly", Limit: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBiases10000 analyses 10,000 trades carrying every field.
func BenchmarkBiases10000(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	start := time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC)
	trades := make([]performance.BiasTrade, 10_000)
	for i := range trades {
		entry := start.Add(time.Duration(i) * 3 * time.Hour)
		exit := entry.Add(time.Duration(1+r.IntN(5)) * time.Hour)
		size, mfe := 100+r.Float64()*50, 0.5+r.Float64()*3
		trades[i] = performance.BiasTrade{RMultiple: r.NormFloat64(), EntryTime: &entry, ExitTime: &exit, Size: &size, MFER: &mfe}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := performance.AnalyzeBiases(trades); err != nil {
			b.Fatal(err)
		}
	}
}
