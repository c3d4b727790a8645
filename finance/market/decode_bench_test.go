package market

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// barsJSON renders bars as the wire format: every field a decimal string.
func barsJSON(bars []Bar) []byte {
	var sb strings.Builder
	sb.WriteByte('[')
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	for i, b := range bars {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"open":"` + f(float64(b.Open)) + `","high":"` + f(float64(b.High)) + `","low":"` + f(float64(b.Low)) +
			`","close":"` + f(float64(b.Close)) + `","volume":"` + f(float64(b.Volume)) + `"}`)
	}
	sb.WriteByte(']')
	return []byte(sb.String())
}

func BenchmarkDecodeBarsGeneric5000(b *testing.B) {
	raw := barsJSON(synthBars(1, 5000, 100, 0, 0.01))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var bars []Bar
		if err := json.Unmarshal(raw, &bars); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeBars5000 decodes 5,000 bars whose fields are decimal
// strings with Bars' fast decoder (issue 6 goal: under 1.5 ms).
func BenchmarkDecodeBars5000(b *testing.B) {
	raw := barsJSON(synthBars(1, 5000, 100, 0, 0.01))
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var bars Bars
		if err := bars.UnmarshalJSON(raw); err != nil {
			b.Fatal(err)
		}
	}
}
