package performance

import (
	"math/bits"
	"sort"
)

func mulHi(a, b uint64) (uint64, uint64) { return bits.Mul64(a, b) }

func sortFloats(xs []float64) { sort.Float64s(xs) }
