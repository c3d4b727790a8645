package performance

import "math"

// radixSortFloat64 sorts xs ascending in place with an LSD radix sort on
// order-preserving integer keys (11 bits per pass, 6 passes), using buf
// (len(buf) >= len(xs)) as scratch. It handles ±Inf; NaN must not occur.
// For the 10,000 values of a Monte Carlo run it is several times faster
// than a comparison sort.
func radixSortFloat64(xs []float64, scratch []uint64) {
	n := len(xs)
	if n < 2 {
		return
	}
	src, dst := scratch[:n], scratch[n:2*n]
	for i, x := range xs {
		b := math.Float64bits(x)
		if b>>63 == 1 {
			b = ^b
		} else {
			b |= 1 << 63
		}
		src[i] = b
	}
	const bitsPerPass, passes = 11, 6
	var count [1 << bitsPerPass]int
	for p := range passes {
		shift := uint(p * bitsPerPass)
		clear(count[:])
		for _, k := range src {
			count[(k>>shift)&(1<<bitsPerPass-1)]++
		}
		if count[(src[0]>>shift)&(1<<bitsPerPass-1)] == n {
			continue // every key shares this digit: the pass would not move anything
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			d := (k >> shift) & (1<<bitsPerPass - 1)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	for i, b := range src {
		if b>>63 == 1 {
			b &^= 1 << 63
		} else {
			b = ^b
		}
		xs[i] = math.Float64frombits(b)
	}
}
