package catalog

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkConditionalArguments measures validating and decoding the
// arguments of tools with conditional requirements (stated in their
// descriptions and enforced by the tools, so the decoder scans the
// document once): drawdown of 10,000 R-multiples, margin of 100
// positions.
func BenchmarkConditionalArguments(b *testing.B) {
	var r strings.Builder
	for i := range 10_000 {
		if i > 0 {
			r.WriteByte(',')
		}
		r.WriteString(strconv.Quote(strconv.FormatFloat(float64(i%7)-2.5, 'f', -1, 64)))
	}
	var pos strings.Builder
	for i := range 100 {
		if i > 0 {
			pos.WriteByte(',')
		}
		pos.WriteString(`{"symbol":"S` + strconv.Itoa(i) + `","quantity":"2","price":"5000","multiplier":"50","margin_rate":"0.05"}`)
	}
	cases := []struct{ tool, args string }{
		{"analyze_drawdown", `{"r_multiples":[` + r.String() + `],"starting_equity":"100000"}`},
		{"calculate_margin", `{"account_equity":"1000000","positions":[` + pos.String() + `]}`},
	}
	c := Default()
	for _, tc := range cases {
		tool, _ := c.Lookup(tc.tool)
		args := json.RawMessage(tc.args)
		b.Run(tc.tool, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(args)))
			for b.Loop() {
				if _, err := tool.Prepare(Call{Arguments: args}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
