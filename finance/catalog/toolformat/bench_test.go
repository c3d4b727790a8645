package toolformat_test

import (
	"testing"

	"github.com/agentfinance/toolkit/finance/catalog/toolformat"
)

// BenchmarkBuild measures building and encoding each host's list of the
// 45 tools (GET /v1/tools/list?format= does it per request).
func BenchmarkBuild(b *testing.B) {
	tools := fullTools(b)
	for _, f := range toolformat.Formats {
		b.Run(string(f), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l, err := toolformat.Build(f, tools)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := toolformat.Encode(l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
