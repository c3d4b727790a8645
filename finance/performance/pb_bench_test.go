package performance

import (
	"math/rand/v2"
	"testing"
)

// pbNormalR returns n seeded draws from N(mean, sd).
func pbNormalR(seed uint64, n int, mean, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := make([]float64, n)
	for i := range r {
		r[i] = mean + sd*rng.NormFloat64()
	}
	return r
}

func BenchmarkBootstrap10kx200(b *testing.B) {
	r := pbNormalR(1, 200, 0.2, 1.3)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeConfidence(r, ConfidenceOptions{Seed: 42}); err != nil {
			b.Fatal(err)
		}
	}
}
