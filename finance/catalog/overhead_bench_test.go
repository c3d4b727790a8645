package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentfinance/toolkit"
	"github.com/agentfinance/toolkit/finance"
	"github.com/agentfinance/toolkit/finance/performance"
)

// BenchmarkCatalogOverhead compares a tool called through the catalog
// (schema validation, strict decoding, JSON encoding of the result as
// billing/toolcall encodes it) with the finance function called directly.
func BenchmarkCatalogOverhead(b *testing.B) {
	c := Default()
	ctx := context.Background()
	sizingArgs := json.RawMessage(`{"equity":"100000","entry_price":"185.50","stop_price":"180.00","direction":"long"}`)
	sizingIn := finance.SizingInput{Equity: toolkit.MustParseAmount("100000"), EntryPrice: toolkit.MustParseAmount("185.50"),
		StopPrice: toolkit.MustParseAmount("180.00"), Direction: "long"}
	r := []float64{1.5, -1, 2.3, -0.5, 1.8, -1, 3.2, 0.8, 1.1, -0.7}
	rArgs := json.RawMessage(`{"r_multiples":["1.5","-1","2.3","-0.5","1.8","-1","3.2","0.8","1.1","-0.7"]}`)

	b.Run("sizing/direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := finance.CalculatePositionSize(sizingIn); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sizing/catalog+json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := runTool(c, ctx, "calculate_position_size", Call{Arguments: sizingArgs})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("winloss/direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := performance.AnalyzeWinLoss(r, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("winloss/catalog+json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := runTool(c, ctx, "analyze_win_loss", Call{Arguments: rArgs})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
