package market

import "sync"

// scratch is the working memory of one bar analysis: columns and
// intermediate series carved from buffers that a pool keeps between calls,
// so an analysis of a few thousand bars allocates little more than its
// answer (on 5,000 bars fresh buffers cost more than the arithmetic: page
// faults, zeroing and garbage collection). Carved slices are not zeroed
// and must never outlive the call: nothing carved may be part of a result.
type scratch struct {
	f64  []float64
	i32  []int32
	i8   []int8
	u64  []uint64
	pat  []Pattern
	used [4]int
}

// maxPooledScratch bounds the float64 buffer a scratch may keep in the
// pool (2 MiB, enough for every analysis of about 10,000 bars); larger
// inputs get buffers the collector reclaims.
const maxPooledScratch = 1 << 18

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// getScratch returns a scratch whose float64 buffer holds at least floats
// values without growing (the other buffers grow on first use).
func getScratch(floats int) *scratch {
	s := scratchPool.Get().(*scratch)
	if cap(s.f64) < floats {
		s.f64 = make([]float64, floats)
	}
	return s
}

// release returns s to the pool; no slice carved from it may be used
// afterwards.
func (s *scratch) release() {
	s.used = [4]int{}
	if cap(s.f64) > maxPooledScratch {
		return
	}
	scratchPool.Put(s)
}

// carve returns the next n elements of *buf, growing it when needed. A
// grown buffer replaces the old one, whose carved slices stay valid.
func carve[T any](buf *[]T, used *int, n int) []T {
	if *used+n > cap(*buf) {
		*buf = make([]T, max(n, 2*cap(*buf)))
		*used = 0
	}
	out := (*buf)[*used : *used+n : *used+n]
	*used += n
	return out
}

// floats returns n float64 values (not zeroed).
func (s *scratch) floats(n int) []float64 { return carve(&s.f64, &s.used[0], n) }

// int32s returns n int32 values (not zeroed).
func (s *scratch) int32s(n int) []int32 { return carve(&s.i32, &s.used[1], n) }

// int8s returns n int8 values, zeroed.
func (s *scratch) int8s(n int) []int8 {
	out := carve(&s.i8, &s.used[2], n)
	clear(out)
	return out
}

// uint64s returns n uint64 values (not zeroed).
func (s *scratch) uint64s(n int) []uint64 { return carve(&s.u64, &s.used[3], n) }

// patterns returns an empty slice of Patterns with room for n (its
// backing array is reused between calls: clear it before release).
func (s *scratch) patterns(n int) []Pattern {
	if cap(s.pat) < n {
		s.pat = make([]Pattern, 0, n)
	}
	return s.pat[:0]
}

// columns is Columns into scratch memory: the OHLCV columns of bars.
func (s *scratch) columns(bars []Bar) OHLCV { return s.columnsFrom(bars, 0) }

// columnsFrom returns columns as long as bars in scratch memory, holding
// the values of bars lo.. at their indexes (earlier slots unspecified).
func (s *scratch) columnsFrom(bars []Bar, lo int) OHLCV {
	c := splitColumns(s.floats(5*len(bars)), len(bars))
	fillColumns(c, bars, lo)
	return c
}
