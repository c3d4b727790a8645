package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// barsArg renders n deterministic bars as the wire format (decimal strings).
func barsArg(n int, start, drift, wiggle float64) string {
	var sb strings.Builder
	sb.WriteByte('[')
	p := start
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		o := p
		c := o * math.Exp(drift+wiggle*math.Sin(float64(i)*1.7)+0.3*wiggle*math.Cos(float64(i)*0.31))
		h, l := math.Max(o, c)*(1+wiggle/2), math.Min(o, c)*(1-wiggle/2)
		fmt.Fprintf(&sb, `{"open":"%.6f","high":"%.6f","low":"%.6f","close":"%.6f","volume":"%d"}`,
			o, h, l, c, 1000+(i*7919)%5000)
		p = c
	}
	sb.WriteByte(']')
	return sb.String()
}

// BenchmarkCatalogDecodeBars5000 measures calculate_indicators (sma) on
// 5,000 bars through the catalog: schema validation, decoding and the
// indicator. Compare with market's BenchmarkDecodeBars5000 (decoding only).
func BenchmarkCatalogDecodeBars5000(b *testing.B) {
	c := Default()
	args := json.RawMessage(`{"indicator":"sma","bars":` + barsArg(5000, 100, 0.0002, 0.01) + `}`)
	_, err := runTool(c, context.Background(), "calculate_indicators", Call{Arguments: args})
	require.NoError(b, err)
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := runTool(c, context.Background(), "calculate_indicators", Call{Arguments: args}); err != nil {
			b.Fatal(err)
		}
	}
}
