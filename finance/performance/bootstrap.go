package performance

import (
	"context"
	"runtime"

	"github.com/agentfinance/toolkit/finance/internal/limits"
)

// streamState returns the initial SplitMix64 state of stream i of seed.
// Both halves go through the mixer so neighbouring seeds and neighbouring
// indices land far apart.
func streamState(seed, i uint64) uint64 {
	return splitMix(seed^0x6a09e667f3bcc909) ^ splitMix(i+splitMixIncrement)
}

// bootstrapMeans fills means[i] and winCounts[i] with the mean and the number
// of wins (R > 0) of resample i of r (n draws with replacement). Resample i
// uses its own stream seeded by (seed, i), so the output does not depend on
// how the work is split across goroutines (chunks of about
// limits.StepsPerCheck draws over GOMAXPROCS goroutines, see forChunks).
// It returns ctx.Err() when ctx ends before the last chunk.
func bootstrapMeans(ctx context.Context, r []float64, seed uint64, means []float64, winCounts []int32) error {
	n := len(r)
	win := make([]uint8, n)
	for i, x := range r {
		if x > 0 {
			win[i] = 1
		}
	}
	samples := len(means)
	// Keep at least ~64k draws per goroutine so tiny jobs stay serial.
	workers := min(runtime.GOMAXPROCS(0), samples*n/65536+1)
	return forChunks(ctx, samples, limits.CheckEvery(n), workers, func(lo, hi int) {
		bootstrapRange(r, win, seed, lo, hi, means, winCounts)
	})
}

// bootstrapRange computes resamples lo..hi-1. Each 64-bit draw yields two
// indices by Lemire's multiply-shift on its 32-bit halves.
func bootstrapRange(r []float64, win []uint8, seed uint64, lo, hi int, means []float64, winCounts []int32) {
	n := len(r)
	un := uint64(n)
	nf := float64(n)
	for i := lo; i < hi; i++ {
		state := streamState(seed, uint64(i))
		var sum float64
		var w int32
		j := 0
		for ; j+1 < n; j += 2 {
			state += splitMixIncrement
			z := splitMix(state)
			a := ((z & 0xffffffff) * un) >> 32
			b := ((z >> 32) * un) >> 32
			sum += r[a]
			sum += r[b]
			w += int32(win[a]) + int32(win[b])
		}
		if j < n {
			state += splitMixIncrement
			z := splitMix(state)
			a := ((z & 0xffffffff) * un) >> 32
			sum += r[a]
			w += int32(win[a])
		}
		means[i] = sum / nf
		winCounts[i] = w
	}
}
