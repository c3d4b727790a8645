package performance

import (
	"context"
	"testing"
)

// benchR returns n deterministic R values with a positive edge.
func benchR(n int) []float64 {
	r := make([]float64, n)
	state := uint64(42)
	for i := range r {
		state = mix64(state)
		u := float64(state>>11) / (1 << 53)
		switch {
		case u < 0.45:
			r[i] = 0.5 + 3*u // wins 0.5..1.85
		case u < 0.95:
			r[i] = -0.2 - 1.6*(u-0.45) // losses -0.2..-1.0
		default:
			r[i] = -1.5
		}
	}
	return r
}

func BenchmarkMonteCarlo10kx100(b *testing.B) {
	r := benchR(200)
	seed := uint64(7)
	opt := MonteCarloOptions{StartingEquity: 100000, NumSimulations: ref(10000), TradesPerSimulation: ref(100), Seed: &seed}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RunMonteCarlo(context.Background(), r, opt); err != nil {
			b.Fatal(err)
		}
	}
}
